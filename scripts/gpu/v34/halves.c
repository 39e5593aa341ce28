// v34 prototype (README.md): k = 8's first two table passes with the first pass in halves on two queues (block
// bit SH1, the second pass by bit SH1 + 4, the second queue's first half after the first queue's) against the
// plan's schedule (the first pass whole, the second in halves by bit 3) and both whole.  usage: halves SRC REPS LOG_N...
#include "harness.h"

static void enq(cl_command_queue q, cl_kernel k, cl_mem in, cl_mem out, cl_mem w, cl_ulong n, cl_ulong p, cl_uint log_t, cl_uint tws, cl_uint hs, cl_uint hi, cl_ulong count, size_t blocks, cl_uint nw, cl_event *wait, cl_event *ev) {
  cl_uint s[3] = {tws, hs, hi};
  pass_args(k, in, out, w, n, p, log_t, s, 3, count);
  size_t g = (blocks + 15) / 16 * 128, l = 128;
  CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, nw, wait, ev));
}

/* ms from the first start to the last end of `m` events (released) */
static double span(cl_event *ev, int m) {
  cl_ulong lo = ~0ULL, hi = 0;
  for (int i = 0; i < m; i++) {
    cl_ulong a, b; CK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_START, 8, &a, NULL)); CK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_END, 8, &b, NULL));
    if (a < lo) lo = a;
    if (b > hi) hi = b;
    clReleaseEvent(ev[i]);
  }
  return (hi - lo) / 1e6;
}

int main(int argc, char **argv) {
  if (argc < 4) { fprintf(stderr, "usage: halves SRC REPS LOG_N...\n"); return 2; }
  int reps = atoi(argv[2]), k = 8, R = 16, lr = 4, sh1 = getenv("SH1") ? atoi(getenv("SH1")) : 3;
  if (reps > 64) reps = 64;
  cl_device_id dev = nvidia_gpu(); cl_int e;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e); CK(e);
  cl_command_queue q0 = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e); CK(e);
  cl_command_queue q1 = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e); CK(e);
  cl_program p = build(ctx, dev, read_file(argv[1]), "", "table", "");
  /* a kernel object per queue: arguments are set per enqueue */
  cl_kernel K0 = clCreateKernel(p, "dft16_r4_table_first", &e); CK(e); cl_kernel K1 = clCreateKernel(p, "dft16_r4_table", &e); CK(e);
  cl_kernel K0b = clCreateKernel(p, "dft16_r4_table_first", &e); CK(e); cl_kernel K1b = clCreateKernel(p, "dft16_r4_table", &e); CK(e);
  printf("%6s %10s %10s %10s %8s %s\n", "log_n", "whole", "plan", "new", "gain%", "equal");
  for (int ai = 3; ai < argc; ai++) {
    int L = atoi(argv[ai]); struct size_data d = size_data(ctx, k, L, lr);
    SIZE_LOCALS(d);
    cl_ulong blocks = n / R; cl_uint tws1 = L - lr, tws2 = L - 2 * lr;
    double tw[64], tp[64], tn[64];
    for (int r = 0; r < reps + 3; r++) {
      cl_event ev[4], w0;
      /* whole: both passes whole on q0 */
      enq(q0, K0, X, Y, W, n, 1, log_t, tws1, 62, 0, blocks, blocks, 0, NULL, &ev[0]);
      enq(q0, K1, Y, Z, W, n, R, log_t, tws2, 62, 0, blocks, blocks, 0, NULL, &ev[1]); CK(clFinish(q0));
      double a = span(ev, 2);
      /* plan: the first pass whole, the second in halves by bit 3, q1 after the first pass */
      enq(q0, K0, X, Y, W, n, 1, log_t, tws1, 62, 0, blocks, blocks, 0, NULL, &ev[0]);
      w0 = ev[0]; clRetainEvent(w0);
      enq(q0, K1, Y, Z, W, n, R, log_t, tws2, 3, 0, blocks, blocks / 2, 0, NULL, &ev[1]);
      enq(q1, K1b, Y, Z, W, n, R, log_t, tws2, 3, 1, blocks, blocks / 2, 1, &w0, &ev[2]); CK(clFinish(q0)); CK(clFinish(q1)); clReleaseEvent(w0);
      double b = span(ev, 3);
      if (r == 0) CK(clEnqueueReadBuffer(q0, Z, CL_TRUE, 0, words * 8, z1, 0, NULL, NULL));
      /* new: the first pass in halves by bit SH1, the second by SH1 + 4; q1's first half after q0's */
      enq(q0, K0, X, Y, W, n, 1, log_t, tws1, sh1, 0, blocks, blocks / 2, 0, NULL, &ev[0]);
      w0 = ev[0]; clRetainEvent(w0);
      enq(q0, K1, Y, Z, W, n, R, log_t, tws2, sh1 + lr, 0, blocks, blocks / 2, 0, NULL, &ev[1]);
      enq(q1, K0b, X, Y, W, n, 1, log_t, tws1, sh1, 1, blocks, blocks / 2, 1, &w0, &ev[2]);
      enq(q1, K1b, Y, Z, W, n, R, log_t, tws2, sh1 + lr, 1, blocks, blocks / 2, 0, NULL, &ev[3]); CK(clFinish(q0)); CK(clFinish(q1)); clReleaseEvent(w0);
      double c = span(ev, 4);
      if (r == 0) CK(clEnqueueReadBuffer(q0, Z, CL_TRUE, 0, words * 8, z2, 0, NULL, NULL));
      if (r >= 3) { tw[r - 3] = a; tp[r - 3] = b; tn[r - 3] = c; }
    }
    qsort(tw, reps, 8, cmp_double); qsort(tp, reps, 8, cmp_double); qsort(tn, reps, 8, cmp_double);
    size_t diff = words_differ(z1, z2, words);
    printf("%6d %10.4f %10.4f %10.4f %8.1f %s (%zu words differ)\n", L, tw[reps / 2], tp[reps / 2], tn[reps / 2], 100 * (tn[reps / 2] / tp[reps / 2] - 1), diff ? "NO" : "yes", diff);
    size_data_free(&d);
  }
  return 0;
}
