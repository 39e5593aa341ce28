// v34 prototype (scripts/gpu/v34/README.md).
// prototype harness: k = 4's fused launch (local variant) against the warp-stage fused prototype, per p
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CK(e) do { cl_int _e = (e); if (_e) { fprintf(stderr, "%s: %d at %d\n", #e, _e, __LINE__); exit(1);} } while (0)
static int cmp(const void *a, const void *b) { double x = *(double*)a, y = *(double*)b; return (x > y) - (x < y); }
static cl_command_queue q; static cl_context ctx; static cl_device_id dev;
static cl_program build(const char *path) {
  FILE *f = fopen(path, "rb"); fseek(f, 0, SEEK_END); long len = ftell(f); fseek(f, 0, SEEK_SET);
  char *src = malloc(len + 1); fread(src, 1, len, f); src[len] = 0; fclose(f); cl_int e;
  cl_program p = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &e); CK(e);
  static char log[1 << 20]; cl_int be = clBuildProgram(p, 1, &dev, "-cl-std=CL1.2 -cl-nv-verbose", NULL, NULL); clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
  if (be) { fprintf(stderr, "%s\n", log); exit(1); }
  int show = 0; for (char *l = strtok(log, "\n"); l; l = strtok(NULL, "\n")) { if (strstr(l, "Compiling entry")) show = strstr(l, "fused") != NULL; if (show && (strstr(l, "registers") || strstr(l, "spill") || strstr(l, "Compiling"))) printf("  %s\n", l); }
  return p;
}
static double run(cl_kernel kern, size_t groups, size_t l, int reps, cl_mem in, cl_mem out, cl_mem w, cl_ulong n, cl_ulong p, cl_uint log_t, cl_uint tws, cl_uint tws2, cl_ulong count) {
  cl_ulong plane = n; cl_uint hs = 62, hi = 0;
  CK(clSetKernelArg(kern, 0, sizeof in, &in)); CK(clSetKernelArg(kern, 1, sizeof out, &out)); CK(clSetKernelArg(kern, 2, sizeof w, &w));
  CK(clSetKernelArg(kern, 3, 8, &plane)); CK(clSetKernelArg(kern, 4, 8, &n)); CK(clSetKernelArg(kern, 5, 8, &p));
  CK(clSetKernelArg(kern, 6, 4, &log_t)); CK(clSetKernelArg(kern, 7, 4, &tws)); CK(clSetKernelArg(kern, 8, 4, &tws2)); CK(clSetKernelArg(kern, 9, 4, &hs)); CK(clSetKernelArg(kern, 10, 4, &hi));
  CK(clSetKernelArg(kern, 11, 8, &count));
  double t[64]; size_t g = groups * l;
  for (int r = 0; r < reps + 3; r++) {
    cl_event ev; CK(clEnqueueNDRangeKernel(q, kern, 1, NULL, &g, &l, 0, NULL, &ev)); CK(clWaitForEvents(1, &ev));
    cl_ulong a, b; CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &a, NULL)); CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &b, NULL));
    if (r >= 3) t[r - 3] = (b - a) / 1e6; clReleaseEvent(ev);
  }
  qsort(t, reps, sizeof t[0], cmp); return t[reps / 2];
}
int main(int argc, char **argv) {
  if (argc < 6) { fprintf(stderr, "usage: wf OLD.cl NEW.cl SB REPS LOG_N...\n"); return 2; }
  int SB = atoi(argv[3]), reps = atoi(argv[4]), k = 4, R = 8, lr = 3;
  cl_uint np; cl_platform_id ps[8]; CK(clGetPlatformIDs(8, ps, &np));
  char name[256];
  for (cl_uint i = 0; i < np && !dev; i++) { CK(clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, 256, name, NULL));
    if (strstr(name, "NVIDIA")) CK(clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL)); }
  if (!dev) { fprintf(stderr, "no NVIDIA platform\n"); return 1; }
  CK(clGetDeviceInfo(dev, CL_DEVICE_NAME, 256, name, NULL)); printf("device %s, SB %d\n", name, SB);
  cl_int e; ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e); CK(e);
  q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e); CK(e);
  cl_program po = build(argv[1]), pn = build(argv[2]);
  cl_kernel KO = clCreateKernel(po, "dft8_r4_local_fused", &e); CK(e); cl_kernel KN = clCreateKernel(pn, "dft8_r4_wfused", &e); CK(e);
  printf("%6s %8s %10s %10s %8s %s\n", "log_n", "p", "old", "new", "gain%", "equal");
  for (int ai = 5; ai < argc; ai++) {
    int L = atoi(argv[ai]); cl_ulong n = 1ULL << L, words = n * k; cl_uint log_t = L - lr;
    cl_ulong twords = (1ULL << log_t) * k;
    unsigned long long *h = malloc(words * 8), *z1 = malloc(words * 8), *z2 = malloc(words * 8), s = 88172645463325252ULL;
    for (cl_ulong i = 0; i < words; i++) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; h[i] = s >> 1; }
    cl_mem X = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, words * 8, h, &e); CK(e);
    cl_mem Y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, words * 8, NULL, &e); CK(e);
    cl_mem W = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, twords * 8, h + 12345, &e); CK(e);
    cl_ulong sbc = n / 64; double so = 0, sn = 0;
    for (cl_ulong p = 1; p * 64 <= n; p *= 64) {
      cl_uint tws = 0; while ((1ULL << tws) < n / (R * p)) tws++;
      double to = run(KO, (sbc + 15) / 16, 256, reps, X, Y, W, n, p, log_t, tws, tws - lr, sbc);
      CK(clEnqueueReadBuffer(q, Y, CL_TRUE, 0, words * 8, z1, 0, NULL, NULL));
      double tn = run(KN, (sbc + SB - 1) / SB, 128, reps, X, Y, W, n, p, log_t, tws, tws - lr, sbc);
      CK(clEnqueueReadBuffer(q, Y, CL_TRUE, 0, words * 8, z2, 0, NULL, NULL));
      cl_ulong diff = 0; for (cl_ulong i = 0; i < words; i++) diff += z1[i] != z2[i];
      so += to; sn += tn;
      printf("%6d %8llu %10.4f %10.4f %8.1f %s (%llu words differ)\n", L, (unsigned long long)p, to, tn, 100 * (tn / to - 1), diff ? "NO" : "yes", (unsigned long long)diff);
    }
    printf("%6d %8s %10.4f %10.4f %8.1f\n", L, "sum", so, sn, 100 * (sn / so - 1));
    clReleaseMemObject(X); clReleaseMemObject(Y); clReleaseMemObject(W); free(h); free(z1); free(z2);
  }
  return 0;
}
