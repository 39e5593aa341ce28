// v34 prototype (scripts/gpu/v34/README.md).
// k = 8's first two table passes with the second pass's twiddles of inputs t' >= TAU moved into the first
// pass (mkbalance.py), for each TAU against TAU = 16 (the kernels unchanged): times and equal outputs
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CK(e) do { cl_int _e = (e); if (_e) { fprintf(stderr, "%s: %d at %d\n", #e, _e, __LINE__); exit(1);} } while (0)
static int cmp(const void *a, const void *b) { double x = *(double*)a, y = *(double*)b; return (x > y) - (x < y); }
static cl_command_queue q; static cl_context ctx; static cl_device_id dev; static char *src;
static double run(cl_kernel kern, size_t groups, int reps, cl_mem in, cl_mem out, cl_mem w, cl_ulong n, cl_ulong p, cl_uint log_t, cl_uint tws, cl_ulong count) {
  cl_ulong plane = n; cl_uint hs = 62, hi = 0;
  CK(clSetKernelArg(kern, 0, sizeof in, &in)); CK(clSetKernelArg(kern, 1, sizeof out, &out)); CK(clSetKernelArg(kern, 2, sizeof w, &w));
  CK(clSetKernelArg(kern, 3, 8, &plane)); CK(clSetKernelArg(kern, 4, 8, &n)); CK(clSetKernelArg(kern, 5, 8, &p));
  CK(clSetKernelArg(kern, 6, 4, &log_t)); CK(clSetKernelArg(kern, 7, 4, &tws)); CK(clSetKernelArg(kern, 8, 4, &hs)); CK(clSetKernelArg(kern, 9, 4, &hi));
  CK(clSetKernelArg(kern, 10, 8, &count));
  double t[64]; size_t l = 128, g = groups * l;
  for (int r = 0; r < reps + 3; r++) {
    cl_event ev; CK(clEnqueueNDRangeKernel(q, kern, 1, NULL, &g, &l, 0, NULL, &ev)); CK(clWaitForEvents(1, &ev));
    cl_ulong a, b; CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &a, NULL)); CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &b, NULL));
    if (r >= 3) t[r - 3] = (b - a) / 1e6; clReleaseEvent(ev);
  }
  qsort(t, reps, sizeof t[0], cmp); return t[reps / 2];
}
static cl_program build(int tau) {
  cl_int e; cl_program p = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &e); CK(e);
  char opts[128]; snprintf(opts, sizeof opts, "-cl-std=CL1.2 -cl-nv-verbose -D TAU=%d", tau);
  static char log[1 << 20]; cl_int be = clBuildProgram(p, 1, &dev, opts, NULL, NULL); clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
  if (be) { fprintf(stderr, "%s\n", log); exit(1); }
  for (char *l = strtok(log, "\n"); l; l = strtok(NULL, "\n")) if (strstr(l, "registers")) printf("  TAU %d: %s\n", tau, l);
  return p;
}
int main(int argc, char **argv) {
  if (argc < 4) { fprintf(stderr, "usage: balance SRC REPS LOG_N...\n"); return 2; }
  FILE *f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long len = ftell(f); fseek(f, 0, SEEK_SET);
  src = malloc(len + 1); fread(src, 1, len, f); src[len] = 0; fclose(f);
  int reps = atoi(argv[2]), k = 8, R = 16, lr = 4;
  cl_uint np; cl_platform_id ps[8]; CK(clGetPlatformIDs(8, ps, &np)); char name[256];
  for (cl_uint i = 0; i < np && !dev; i++) { CK(clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, 256, name, NULL));
    if (strstr(name, "NVIDIA")) CK(clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL)); }
  if (!dev) { fprintf(stderr, "no NVIDIA platform\n"); return 1; }
  CK(clGetDeviceInfo(dev, CL_DEVICE_NAME, 256, name, NULL)); printf("device %s\n", name);
  cl_int e; ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e); CK(e);
  q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e); CK(e);
  int taus[] = {16, 12, 8, 6, 4}; int nt = 5; cl_kernel K0[5], K1[5];
  for (int j = 0; j < nt; j++) { cl_program p = build(taus[j]); K0[j] = clCreateKernel(p, "dft16_r4_table_first", &e); CK(e); K1[j] = clCreateKernel(p, "dft16_r4_table", &e); CK(e); }
  printf("%6s %4s %10s %10s %10s %8s %s\n", "log_n", "TAU", "first", "second", "sum", "gain%", "equal");
  for (int ai = 3; ai < argc; ai++) {
    int L = atoi(argv[ai]); cl_ulong n = 1ULL << L, words = n * k; cl_uint log_t = L - lr;
    cl_ulong twords = (1ULL << log_t) * k;
    unsigned long long *h = malloc(words * 8), *z1 = malloc(words * 8), *z2 = malloc(words * 8), s = 88172645463325252ULL;
    for (cl_ulong i = 0; i < words; i++) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; h[i] = s >> 1; }
    cl_mem X = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, words * 8, h, &e); CK(e);
    cl_mem Y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, words * 8, NULL, &e); CK(e);
    cl_mem Z = clCreateBuffer(ctx, CL_MEM_READ_WRITE, words * 8, NULL, &e); CK(e);
    cl_mem W = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, twords * 8, h + 12345, &e); CK(e);
    cl_ulong blocks = n / R; double base = 0;
    for (int j = 0; j < nt; j++) {
      double t0 = run(K0[j], (blocks + 15) / 16, reps, X, Y, W, n, 1, log_t, L - 2 * lr, blocks);
      double t1 = run(K1[j], (blocks + 15) / 16, reps, Y, Z, W, n, R, log_t, L - 2 * lr, blocks);
      CK(clEnqueueReadBuffer(q, Z, CL_TRUE, 0, words * 8, j ? z2 : z1, 0, NULL, NULL));
      cl_ulong diff = 0; if (j) for (cl_ulong i = 0; i < words; i++) diff += z1[i] != z2[i];
      if (!j) base = t0 + t1;
      printf("%6d %4d %10.4f %10.4f %10.4f %8.1f %s (%llu words differ)\n", L, taus[j], t0, t1, t0 + t1, 100 * ((t0 + t1) / base - 1), diff ? "NO" : "yes", (unsigned long long)diff);
    }
    clReleaseMemObject(X); clReleaseMemObject(Y); clReleaseMemObject(Z); clReleaseMemObject(W); free(h); free(z1); free(z2);
  }
  return 0;
}
