// v34 prototype (scripts/gpu/v34/README.md).
// prototype harness: the table variant's first two passes (first, then p = R) against one fused launch
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CK(e) do { cl_int _e = (e); if (_e) { fprintf(stderr, "%s: %d at %d\n", #e, _e, __LINE__); exit(1);} } while (0)
static int cmp(const void *a, const void *b) { double x = *(double*)a, y = *(double*)b; return (x > y) - (x < y); }
static cl_command_queue q;
static double run(cl_kernel kern, size_t groups, size_t l, int reps, cl_mem in, cl_mem out, cl_mem w, cl_ulong n, cl_ulong p, cl_uint log_t, cl_uint tws, cl_ulong count) {
  cl_ulong plane = n; cl_uint hs = 62, hi = 0;
  CK(clSetKernelArg(kern, 0, sizeof in, &in)); CK(clSetKernelArg(kern, 1, sizeof out, &out)); CK(clSetKernelArg(kern, 2, sizeof w, &w));
  CK(clSetKernelArg(kern, 3, 8, &plane)); CK(clSetKernelArg(kern, 4, 8, &n)); CK(clSetKernelArg(kern, 5, 8, &p));
  CK(clSetKernelArg(kern, 6, 4, &log_t)); CK(clSetKernelArg(kern, 7, 4, &tws)); CK(clSetKernelArg(kern, 8, 4, &hs)); CK(clSetKernelArg(kern, 9, 4, &hi));
  CK(clSetKernelArg(kern, 10, 8, &count));
  double t[64]; size_t g = groups * l;
  for (int r = 0; r < reps + 3; r++) {
    cl_event ev; CK(clEnqueueNDRangeKernel(q, kern, 1, NULL, &g, &l, 0, NULL, &ev)); CK(clWaitForEvents(1, &ev));
    cl_ulong a, b; CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &a, NULL)); CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &b, NULL));
    if (r >= 3) t[r - 3] = (b - a) / 1e6; clReleaseEvent(ev);
  }
  qsort(t, reps, sizeof t[0], cmp); return t[reps / 2];
}
int main(int argc, char **argv) {
  if (argc < 5) { fprintf(stderr, "usage: proto SRC K REPS LOG_N...\n"); return 2; }
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
  q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e); CK(e);
  cl_program p = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &e); CK(e);
  { static char log[1 << 20]; char opts[512]; snprintf(opts, sizeof opts, "-cl-std=CL1.2 -cl-nv-verbose %s", getenv("PROTO_OPTS") ? getenv("PROTO_OPTS") : ""); cl_int be = clBuildProgram(p, 1, &dev, opts, NULL, NULL); clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    if (be) { fprintf(stderr, "%s\n", log); return 1; }
    for (char *l = strtok(log, "\n"); l; l = strtok(NULL, "\n")) if (strstr(l, "registers") || strstr(l, "Compiling entry") || strstr(l, "spill")) printf("  %s\n", l); }
  if (getenv("MAXNREG")) {
    size_t bl; CK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof bl, &bl, NULL));
    char *bin = malloc(bl + 64); unsigned char *bp = (unsigned char *)bin; CK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bp, &bp, NULL)); bin[bl] = 0;
    char *ent = strstr(bin, "_first2("); char *close = ent ? strchr(ent, ')') : NULL;
    if (!close) { fprintf(stderr, "no entry\n"); return 1; }
    size_t pos = close + 1 - bin; char *nb = malloc(bl + 64); memcpy(nb, bin, pos); int m = sprintf(nb + pos, "\n.maxnreg %s", getenv("MAXNREG")); memcpy(nb + pos + m, bin + pos, bl - pos); size_t nl = bl + m; nb[nl] = 0;
    const unsigned char *nbp = (const unsigned char *)nb; cl_int bs;
    p = clCreateProgramWithBinary(ctx, 1, &dev, &nl, &nbp, &bs, &e); CK(e); CK(bs);
    static char log2b[1 << 16]; cl_int be = clBuildProgram(p, 1, &dev, "-cl-nv-verbose", NULL, NULL); clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log2b, log2b, NULL);
    if (be) { fprintf(stderr, "%s\n", log2b); return 1; }
    for (char *l = strtok(log2b, "\n"); l; l = strtok(NULL, "\n")) if (strstr(l, "registers") || strstr(l, "Compiling entry") || strstr(l, "spill")) printf("  capped %s\n", l);
  }
  char kn[3][64]; sprintf(kn[0], "dft%d_r4_table_first", R); sprintf(kn[1], "dft%d_r4_table", R); sprintf(kn[2], "dft%d_r4_table_first2", R);
  cl_kernel K0 = clCreateKernel(p, kn[0], &e); CK(e); cl_kernel K1 = clCreateKernel(p, kn[1], &e); CK(e); cl_kernel K2 = clCreateKernel(p, kn[2], &e); CK(e);
  int G = 16;
  printf("%6s %10s %10s %10s %10s %8s %s\n", "log_n", "first", "second", "sum", "fused", "gain%", "equal");
  for (int ai = 4; ai < argc; ai++) {
    int L = atoi(argv[ai]); cl_ulong n = 1ULL << L, words = n * k; cl_uint log_t = L - lr;
    cl_ulong twords = (1ULL << log_t) * k;
    unsigned long long *h = malloc(words * 8), *z1 = malloc(words * 8), *z2 = malloc(words * 8), s = 88172645463325252ULL;
    for (cl_ulong i = 0; i < words; i++) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; h[i] = s >> 1; }
    cl_mem X = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, words * 8, h, &e); CK(e);
    cl_mem Y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, words * 8, NULL, &e); CK(e);
    cl_mem Z = clCreateBuffer(ctx, CL_MEM_READ_WRITE, words * 8, NULL, &e); CK(e);
    cl_mem W = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, twords * 8, h + 12345, &e); CK(e);
    cl_ulong blocks = n / R, sb = n / R / R;
    double t0 = run(K0, (blocks + G - 1) / G, 128, reps, X, Y, W, n, 1, log_t, L - lr, blocks);
    double t1 = run(K1, (blocks + G - 1) / G, 128, reps, Y, Z, W, n, R, log_t, L - 2 * lr, blocks);
    CK(clEnqueueReadBuffer(q, Z, CL_TRUE, 0, words * 8, z1, 0, NULL, NULL));
    int SBn = getenv("SB") ? atoi(getenv("SB")) : 1, SEQn = getenv("SEQ") ? atoi(getenv("SEQ")) : 1; double t2 = run(K2, (sb + SBn * SEQn - 1) / (SBn * SEQn), getenv("TPB") ? (size_t)atoi(getenv("TPB")) : 128 * SBn, reps, X, Z, W, n, 1, log_t, L - 2 * lr, sb);
    CK(clEnqueueReadBuffer(q, Z, CL_TRUE, 0, words * 8, z2, 0, NULL, NULL));
    cl_ulong diff = 0; for (cl_ulong i = 0; i < words; i++) diff += z1[i] != z2[i];
    printf("%6d %10.4f %10.4f %10.4f %10.4f %8.1f %s (%llu words differ)\n", L, t0, t1, t0 + t1, t2, 100 * (t2 / (t0 + t1) - 1), diff ? "NO" : "yes", (unsigned long long)diff);
    clReleaseMemObject(X); clReleaseMemObject(Y); clReleaseMemObject(Z); clReleaseMemObject(W); free(h); free(z1); free(z2);
  }
  return 0;
}
