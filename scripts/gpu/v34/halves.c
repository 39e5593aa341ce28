// v34 prototype (scripts/gpu/v34/README.md).
// prototype: the table variant's first two passes with the first pass in halves on two queues
// (by block bit 3, the second pass by block bit 7) against the plan's schedule (first pass whole,
// second pass in halves by bit 3)
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CK(e) do { cl_int _e = (e); if (_e) { fprintf(stderr, "%s: %d at %d\n", #e, _e, __LINE__); exit(1);} } while (0)
static int cmp(const void *a, const void *b) { double x = *(double*)a, y = *(double*)b; return (x > y) - (x < y); }
static cl_ulong n_; static cl_uint log_t_;
static void enq(cl_command_queue q, cl_kernel kern, cl_mem in, cl_mem out, cl_mem w, cl_ulong p, cl_uint tws, cl_uint hs, cl_uint hi, cl_ulong count, size_t launch_blocks, cl_uint nw, cl_event *wait, cl_event *ev) {
  cl_ulong plane = n_;
  CK(clSetKernelArg(kern, 0, sizeof in, &in)); CK(clSetKernelArg(kern, 1, sizeof out, &out)); CK(clSetKernelArg(kern, 2, sizeof w, &w));
  CK(clSetKernelArg(kern, 3, 8, &plane)); CK(clSetKernelArg(kern, 4, 8, &n_)); CK(clSetKernelArg(kern, 5, 8, &p));
  CK(clSetKernelArg(kern, 6, 4, &log_t_)); CK(clSetKernelArg(kern, 7, 4, &tws)); CK(clSetKernelArg(kern, 8, 4, &hs)); CK(clSetKernelArg(kern, 9, 4, &hi));
  CK(clSetKernelArg(kern, 10, 8, &count));
  size_t g = (launch_blocks + 15) / 16 * 128, l = 128;
  CK(clEnqueueNDRangeKernel(q, kern, 1, NULL, &g, &l, nw, wait, ev));
}
static double span(cl_event *ev, int m) {
  cl_ulong lo = ~0ULL, hi = 0;
  for (int i = 0; i < m; i++) { cl_ulong a, b; CK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_START, 8, &a, NULL)); CK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_END, 8, &b, NULL)); if (a < lo) lo = a; if (b > hi) hi = b; clReleaseEvent(ev[i]); }
  return (hi - lo) / 1e6;
}
int main(int argc, char **argv) {
  if (argc < 5) { fprintf(stderr, "usage: halves SRC K REPS LOG_N...\n"); return 2; }
  FILE *f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long len = ftell(f); fseek(f, 0, SEEK_SET);
  char *src = malloc(len + 1); fread(src, 1, len, f); src[len] = 0; fclose(f);
  int k = atoi(argv[2]), reps = atoi(argv[3]); int R = 2 * k, lr = 0; while ((1 << lr) < R) lr++;
  cl_uint np; cl_platform_id ps[8]; CK(clGetPlatformIDs(8, ps, &np));
  cl_device_id dev = 0; char name[256];
  for (cl_uint i = 0; i < np && !dev; i++) { CK(clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, 256, name, NULL));
    if (strstr(name, "NVIDIA")) CK(clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL)); }
  if (!dev) { fprintf(stderr, "no NVIDIA platform\n"); return 1; }
  CK(clGetDeviceInfo(dev, CL_DEVICE_NAME, 256, name, NULL)); printf("device %s\n", name);
  cl_int e; cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e); CK(e);
  cl_command_queue q0 = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e); CK(e);
  cl_command_queue q1 = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e); CK(e);
  cl_program p = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &e); CK(e);
  { static char log[1 << 16]; cl_int be = clBuildProgram(p, 1, &dev, "-cl-std=CL1.2", NULL, NULL); if (be) { clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL); fprintf(stderr, "%s\n", log); return 1; } }
  char kn[2][64]; sprintf(kn[0], "dft%d_r4_table_first", R); sprintf(kn[1], "dft%d_r4_table", R);
  cl_kernel K0 = clCreateKernel(p, kn[0], &e); CK(e); cl_kernel K1 = clCreateKernel(p, kn[1], &e); CK(e);
  cl_kernel K1b = clCreateKernel(p, kn[1], &e); CK(e); cl_kernel K0b = clCreateKernel(p, kn[0], &e); CK(e);
  int sh1 = getenv("SH1") ? atoi(getenv("SH1")) : 3;
  printf("%6s %10s %10s %10s %8s %s\n", "log_n", "whole", "plan", "new", "gain%", "equal");
  for (int ai = 4; ai < argc; ai++) {
    int L = atoi(argv[ai]); n_ = 1ULL << L; cl_ulong words = n_ * k; log_t_ = L - lr;
    cl_ulong twords = (1ULL << log_t_) * k;
    unsigned long long *h = malloc(words * 8), *z1 = malloc(words * 8), *z2 = malloc(words * 8), s = 88172645463325252ULL;
    for (cl_ulong i = 0; i < words; i++) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; h[i] = s >> 1; }
    cl_mem X = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, words * 8, h, &e); CK(e);
    cl_mem Y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, words * 8, NULL, &e); CK(e);
    cl_mem Z = clCreateBuffer(ctx, CL_MEM_READ_WRITE, words * 8, NULL, &e); CK(e);
    cl_mem W = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, twords * 8, h + 12345, &e); CK(e);
    cl_ulong blocks = n_ / R; cl_uint tws1 = L - lr, tws2 = L - 2 * lr;
    double tw[64], tp[64], tn[64];
    for (int r = 0; r < reps + 3; r++) {
      cl_event ev[4];
      // whole: both passes whole on q0
      enq(q0, K0, X, Y, W, 1, tws1, 62, 0, blocks, blocks, 0, NULL, &ev[0]);
      enq(q0, K1, Y, Z, W, R, tws2, 62, 0, blocks, blocks, 0, NULL, &ev[1]); CK(clFinish(q0));
      double a = span(ev, 2);
      // plan: first whole, second in halves by bit 3 (q1 waits for the first pass)
      enq(q0, K0, X, Y, W, 1, tws1, 62, 0, blocks, blocks, 0, NULL, &ev[0]);
      cl_event w0 = ev[0]; clRetainEvent(w0);
      enq(q0, K1, Y, Z, W, R, tws2, 3, 0, blocks, blocks / 2, 0, NULL, &ev[1]);
      enq(q1, K1b, Y, Z, W, R, tws2, 3, 1, blocks, blocks / 2, 1, &w0, &ev[2]); CK(clFinish(q0)); CK(clFinish(q1)); clReleaseEvent(w0);
      double b = span(ev, 3);
      if (r == 0) CK(clEnqueueReadBuffer(q0, Z, CL_TRUE, 0, words * 8, z1, 0, NULL, NULL));
      // new: first pass in halves by bit SH1, second by bit SH1 + 4; q1's first half waits for q0's
      enq(q0, K0, X, Y, W, 1, tws1, sh1, 0, blocks, blocks / 2, 0, NULL, &ev[0]);
      w0 = ev[0]; clRetainEvent(w0);
      enq(q0, K1, Y, Z, W, R, tws2, sh1 + lr, 0, blocks, blocks / 2, 0, NULL, &ev[1]);
      enq(q1, K0b, X, Y, W, 1, tws1, sh1, 1, blocks, blocks / 2, 1, &w0, &ev[2]);
      enq(q1, K1b, Y, Z, W, R, tws2, sh1 + lr, 1, blocks, blocks / 2, 0, NULL, &ev[3]); CK(clFinish(q0)); CK(clFinish(q1)); clReleaseEvent(w0);
      double c = span(ev, 4);
      if (r == 0) { CK(clEnqueueReadBuffer(q0, Z, CL_TRUE, 0, words * 8, z2, 0, NULL, NULL)); }
      if (r >= 3) { tw[r - 3] = a; tp[r - 3] = b; tn[r - 3] = c; }
    }
    qsort(tw, reps, 8, cmp); qsort(tp, reps, 8, cmp); qsort(tn, reps, 8, cmp);
    cl_ulong diff = 0; for (cl_ulong i = 0; i < words; i++) diff += z1[i] != z2[i];
    printf("%6d %10.4f %10.4f %10.4f %8.1f %s (%llu words differ)\n", L, tw[reps / 2], tp[reps / 2], tn[reps / 2], 100 * (tn[reps / 2] / tp[reps / 2] - 1), diff ? "NO" : "yes", (unsigned long long)diff);
    clReleaseMemObject(X); clReleaseMemObject(Y); clReleaseMemObject(Z); clReleaseMemObject(W); free(h); free(z1); free(z2);
  }
  return 0;
}
