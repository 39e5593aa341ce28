// v34 prototype (README.md): k = 4's fused launch (two radix-8 levels) of the local variant against the
// prototype with the table variant's warp stages (mkwf.py), launch by launch.  usage: wf OLD.cl NEW.cl SB REPS LOG_N...
#include "harness.h"

int main(int argc, char **argv) {
  if (argc < 6) { fprintf(stderr, "usage: wf OLD.cl NEW.cl SB REPS LOG_N...\n"); return 2; }
  int sb = atoi(argv[3]), reps = atoi(argv[4]), k = 4, R = 8, lr = 3;
  cl_device_id dev = nvidia_gpu(); cl_int e; printf("SB %d\n", sb);
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e); CK(e);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e); CK(e);
  cl_program po = build(ctx, dev, read_file(argv[1]), "", "fused", ""), pn = build(ctx, dev, read_file(argv[2]), "", "fused", "");
  cl_kernel KO = clCreateKernel(po, "dft8_r4_local_fused", &e); CK(e); cl_kernel KN = clCreateKernel(pn, "dft8_r4_wfused", &e); CK(e);
  printf("%6s %8s %10s %10s %8s %s\n", "log_n", "p", "old", "new", "gain%", "equal");
  for (int ai = 5; ai < argc; ai++) {
    int L = atoi(argv[ai]); struct size_data d = size_data(ctx, k, L, lr);
    SIZE_LOCALS(d);
    cl_ulong sbs = n / 64; double so = 0, sn = 0;
    for (cl_ulong p = 1; p * 64 <= n; p *= 64) {
      /* level 1's twiddle shift log2(N / (R p)), level 2's three less; whole launches; count in superblocks */
      cl_uint tws = 0; while ((1ULL << tws) < n / (R * p)) tws++;
      cl_uint s[4] = {tws, tws - lr, 62, 0};
      pass_args(KO, X, Y, W, n, p, log_t, s, 4, sbs);
      double to = median_launch(q, KO, (sbs + 15) / 16, 256, reps);
      CK(clEnqueueReadBuffer(q, Y, CL_TRUE, 0, words * 8, z1, 0, NULL, NULL));
      pass_args(KN, X, Y, W, n, p, log_t, s, 4, sbs);
      double tn = median_launch(q, KN, (sbs + sb - 1) / sb, 128, reps);
      CK(clEnqueueReadBuffer(q, Y, CL_TRUE, 0, words * 8, z2, 0, NULL, NULL));
      size_t diff = words_differ(z1, z2, words);
      so += to; sn += tn;
      printf("%6d %8llu %10.4f %10.4f %8.1f %s (%zu words differ)\n", L, (unsigned long long)p, to, tn, 100 * (tn / to - 1), diff ? "NO" : "yes", diff);
    }
    printf("%6d %8s %10.4f %10.4f %8.1f\n", L, "sum", so, sn, 100 * (sn / so - 1));
    size_data_free(&d);
  }
  return 0;
}
