// v34 prototype (README.md): k = 8's first two table passes with the second pass's twiddles of inputs
// t' >= TAU moved into the first pass (mkbalance.py), each TAU against TAU = 16 (the kernels unchanged):
// times and equal outputs.  usage: balance SRC REPS LOG_N...
#include "harness.h"

int main(int argc, char **argv) {
  if (argc < 4) { fprintf(stderr, "usage: balance SRC REPS LOG_N...\n"); return 2; }
  char *src = read_file(argv[1]); int reps = atoi(argv[2]), k = 8, R = 16, lr = 4;
  cl_device_id dev = nvidia_gpu(); cl_int e;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e); CK(e);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e); CK(e);
  int taus[] = {16, 12, 8, 6, 4}, nt = 5; cl_kernel K0[5], K1[5];
  for (int j = 0; j < nt; j++) {
    char opts[32], tag[32]; snprintf(opts, sizeof opts, "-D TAU=%d", taus[j]); snprintf(tag, sizeof tag, "TAU %d: ", taus[j]);
    cl_program p = build(ctx, dev, src, opts, "table", tag);
    K0[j] = clCreateKernel(p, "dft16_r4_table_first", &e); CK(e); K1[j] = clCreateKernel(p, "dft16_r4_table", &e); CK(e);
  }
  printf("%6s %4s %10s %10s %10s %8s %s\n", "log_n", "TAU", "first", "second", "sum", "gain%", "equal");
  for (int ai = 3; ai < argc; ai++) {
    int L = atoi(argv[ai]); struct size_data d = size_data(ctx, k, L, lr);
    SIZE_LOCALS(d);
    cl_ulong blocks = n / R; double base = 0;
    /* both kernels get the second pass's twiddle shift (the first kernel's pre-twiddle uses it) */
    cl_uint s[3] = {L - 2 * lr, 62, 0};
    for (int j = 0; j < nt; j++) {
      pass_args(K0[j], X, Y, W, n, 1, log_t, s, 3, blocks);
      double t0 = median_launch(q, K0[j], (blocks + 15) / 16, 128, reps);
      pass_args(K1[j], Y, Z, W, n, R, log_t, s, 3, blocks);
      double t1 = median_launch(q, K1[j], (blocks + 15) / 16, 128, reps);
      CK(clEnqueueReadBuffer(q, Z, CL_TRUE, 0, words * 8, j ? z2 : z1, 0, NULL, NULL));
      size_t diff = j ? words_differ(z1, z2, words) : 0;
      if (!j) base = t0 + t1;
      printf("%6d %4d %10.4f %10.4f %10.4f %8.1f %s (%zu words differ)\n", L, taus[j], t0, t1, t0 + t1, 100 * ((t0 + t1) / base - 1), diff ? "NO" : "yes", diff);
    }
    size_data_free(&d);
  }
  return 0;
}
