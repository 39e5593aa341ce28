// v39 probe (docs/performance-versions.md "v39"): k = 8's twiddle products on the tensor cores
// against the IMAD accumulator srgfn emits, both giving the 8 signed 192-bit negacyclic
// coefficients of x·w for N elements, each 64 consecutive elements sharing one of T twiddles.
// Build here: gcc -O2 -o .gpu/imma/imma_twiddle scripts/gpu/imma/imma_twiddle.c -lOpenCL;
// scripts/gpu/imma/run.sh writes the kernels (gen_cl.py from an emitted field.cl) and runs it.
// Run: imma_twiddle CL_FILE [PLATFORM [PTX_OUT]] — a check at 2^12 (whole coefficients: the two kernels
// against each other and against the host for 256 elements), then medians of timed runs.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef unsigned __int128 u128;
#define CK(e) do { cl_int _e = (e); if (_e) { fprintf(stderr, "%s: %d at %d\n", #e, _e, __LINE__); exit(1);} } while (0)
static const uint64_t R = 0x8000000400000000ULL; // r = 2^63 + 2^34
static uint64_t rs = 88172645463325252ULL;
static uint64_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs; }
static uint64_t digit(void) { uint64_t v; do v = rnd(); while (v >= R); return v; }
// 192-bit two's complement accumulate: s += sign * (a b)
static void acc(uint64_t s[3], uint64_t a, uint64_t b, int neg) {
  u128 p = (u128)a * b; uint64_t p0 = (uint64_t)p, p1 = (uint64_t)(p >> 64), p2 = 0;
  if (neg) { p0 = ~p0; p1 = ~p1; p2 = ~p2; u128 t = (u128)p0 + 1; p0 = (uint64_t)t; t = (u128)p1 + (uint64_t)(t >> 64); p1 = (uint64_t)t; p2 += (uint64_t)(t >> 64); }
  u128 t = (u128)s[0] + p0; s[0] = (uint64_t)t; t = (u128)s[1] + p1 + (uint64_t)(t >> 64); s[1] = (uint64_t)t; s[2] += p2 + (uint64_t)(t >> 64);
}
static uint32_t aword(const uint64_t *w, int m, int row, int col) {
  uint32_t v = 0;
  for (int u = 0; u < 4; u++) {
    int c = col + u, i = c / 8, a = c % 8, j = (m - i) & 7, b = row - a;
    uint64_t wb = i > m ? R - w[j] : w[j];
    uint32_t byte = (b >= 0 && b < 8) ? (uint32_t)((wb >> (8 * b)) & 255) : 0;
    v |= byte << (8 * u);
  }
  return v;
}
static cl_context ctx; static cl_command_queue q; static cl_program prog;
static double run(cl_kernel k, size_t global, size_t local, int reps) {
  double t[64]; int n = 0;
  for (int rep = 0; rep < reps + 2; rep++) {
    cl_event ev; CK(clEnqueueNDRangeKernel(q, k, 1, 0, &global, &local, 0, 0, &ev)); CK(clWaitForEvents(1, &ev));
    cl_ulong t0, t1; clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &t0, 0); clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &t1, 0);
    clReleaseEvent(ev); if (rep >= 2) t[n++] = (t1 - t0) / 1e6;
  }
  for (int i = 0; i < n; i++) for (int j = i + 1; j < n; j++) if (t[j] < t[i]) { double x = t[i]; t[i] = t[j]; t[j] = x; }
  return t[n / 2];
}
int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: %s CL_FILE [PLATFORM]\n", argv[0]); return 2; }
  const char *want = argc > 2 ? argv[2] : "NVIDIA";
  FILE *f = fopen(argv[1], "rb"); if (!f) { perror(argv[1]); return 1; }
  fseek(f, 0, SEEK_END); long len = ftell(f); fseek(f, 0, SEEK_SET); char *src = malloc(len + 1); fread(src, 1, len, f); src[len] = 0; fclose(f);
  cl_platform_id ps[8]; cl_uint np; CK(clGetPlatformIDs(8, ps, &np)); cl_platform_id p = 0; char name[256];
  for (cl_uint i = 0; i < np; i++) { clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, 0); if (strstr(name, want)) p = ps[i]; }
  if (!p) { fprintf(stderr, "no platform %s\n", want); return 1; }
  cl_device_id dev; CK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, 0)); clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, 0); printf("device %s\n", name);
  cl_int e; ctx = clCreateContext(0, 1, &dev, 0, 0, &e); CK(e); q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e); CK(e);
  prog = clCreateProgramWithSource(ctx, 1, (const char **)&src, 0, &e); CK(e);
  e = clBuildProgram(prog, 1, &dev, "", 0, 0);
  if (e) { static char log[1 << 16]; clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, 0); printf("build failed %d:\n%s\n", e, log); return 1; }
  { size_t sz; clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof sz, &sz, 0);
    unsigned char *bin = malloc(sz); clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, 0);
    FILE *o = fopen(argc > 3 ? argv[3] : "imma_twiddle.ptx", "wb"); if (o) { fwrite(bin, 1, sz, o); fclose(o); } }
  const uint32_t T = 64; const size_t NMAX = (size_t)1 << 22;
  uint64_t *X = malloc(NMAX * 8 * 8), *W = malloc(T * 8 * 8); uint32_t *A = malloc((size_t)T * 2048 * 4);
  for (size_t i = 0; i < NMAX * 8; i++) X[i] = digit();
  for (size_t i = 0; i < 8; i++) { X[i] = R - 1; X[8 + i] = 0; X[16 + i] = i == 7 ? R : 0; } // edges: r - 1 everywhere, 0, p - 1 = (0, ..., 0, r)
  for (size_t i = 0; i < T * 8; i++) W[i] = digit();
  for (size_t i = 0; i < 8; i++) W[i] = R - 1;
  for (uint32_t t = 0; t < T; t++) for (int m = 0; m < 8; m++) for (int kt = 0; kt < 2; kt++) for (int lane = 0; lane < 32; lane++) {
    int g = lane >> 2, qq = lane & 3; uint32_t *o = A + (size_t)t * 2048 + ((m * 2 + kt) * 32 + lane) * 4;
    o[0] = aword(W + t * 8, m, g, kt * 32 + 4 * qq); o[1] = aword(W + t * 8, m, g + 8, kt * 32 + 4 * qq);
    o[2] = aword(W + t * 8, m, g, kt * 32 + 16 + 4 * qq); o[3] = aword(W + t * 8, m, g + 8, kt * 32 + 16 + 4 * qq);
  }
  cl_mem bX = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, NMAX * 64, X, &e); CK(e);
  cl_mem bW = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, T * 64, W, &e); CK(e);
  cl_mem bA = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (size_t)T * 2048 * 4, A, &e); CK(e);
  cl_mem bH1 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NMAX * 8, 0, &e); CK(e);
  cl_mem bH2 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NMAX * 8, 0, &e); CK(e);
  const size_t NC = 1 << 12; cl_mem bV1 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NC * 24 * 8, 0, &e); CK(e);
  cl_mem bV2 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NC * 24 * 8, 0, &e); CK(e);
  cl_kernel k1 = clCreateKernel(prog, "imad_core", &e); CK(e); cl_kernel k2 = clCreateKernel(prog, "imma_core", &e); CK(e);
  for (int full = 1; full >= 0; full--) {
    CK(clSetKernelArg(k1, 0, 8, &bX)); CK(clSetKernelArg(k1, 1, 8, &bW)); CK(clSetKernelArg(k1, 2, 8, &bH1)); CK(clSetKernelArg(k1, 3, 8, &bV1));
    CK(clSetKernelArg(k1, 4, 4, &full)); CK(clSetKernelArg(k1, 5, 4, &T));
    CK(clSetKernelArg(k2, 0, 8, &bX)); CK(clSetKernelArg(k2, 1, 8, &bA)); CK(clSetKernelArg(k2, 2, 8, &bH2)); CK(clSetKernelArg(k2, 3, 8, &bV2));
    CK(clSetKernelArg(k2, 4, 4, &full)); CK(clSetKernelArg(k2, 5, 4, &T));
    if (full) {
      run(k1, NC, 128, 1); run(k2, NC / 64 * 32, 128, 1);
      uint64_t *V1 = malloc(NC * 192), *V2 = malloc(NC * 192), *H1 = malloc(NC * 8), *H2 = malloc(NC * 8);
      CK(clEnqueueReadBuffer(q, bV1, CL_TRUE, 0, NC * 192, V1, 0, 0, 0)); CK(clEnqueueReadBuffer(q, bV2, CL_TRUE, 0, NC * 192, V2, 0, 0, 0));
      CK(clEnqueueReadBuffer(q, bH1, CL_TRUE, 0, NC * 8, H1, 0, 0, 0)); CK(clEnqueueReadBuffer(q, bH2, CL_TRUE, 0, NC * 8, H2, 0, 0, 0));
      size_t bad12 = 0, badh = 0, badhost = 0;
      for (size_t i = 0; i < NC * 24; i++) bad12 += V1[i] != V2[i];
      for (size_t i = 0; i < NC; i++) badh += H1[i] != H2[i];
      for (size_t el = 0; el < 256; el++) {
        const uint64_t *x = X + el * 8, *w = W + ((el / 64) % T) * 8;
        for (int m = 0; m < 8; m++) {
          uint64_t s[3] = {0, 0, 0};
          for (int i = 0; i < 8; i++) { if (i <= m) acc(s, x[i], w[m - i], 0); else acc(s, x[i], w[m + 8 - i], 1); }
          for (int u = 0; u < 3; u++) badhost += V1[el * 24 + m * 3 + u] != s[u];
        }
      }
      printf("check N=2^12: imad vs imma %zu of %zu words differ, hashes %zu of %zu differ; imad vs host (256 elements) %zu words differ\n", bad12, NC * 24, badh, NC, badhost);
      if (bad12 || badh || badhost) return 1;
    } else {
      for (int ln = 20; ln <= 22; ln += 2) {
        size_t n = (size_t)1 << ln; double t1 = run(k1, n, 128, 21), t2 = run(k2, n / 64 * 32, 128, 21);
        uint64_t h1, h2; CK(clEnqueueReadBuffer(q, bH1, CL_TRUE, 8 * (n - 1), 8, &h1, 0, 0, 0)); CK(clEnqueueReadBuffer(q, bH2, CL_TRUE, 8 * (n - 1), 8, &h2, 0, 0, 0));
        printf("N=2^%d imad_core %.4f ms (%.2f G elements/s)  imma_core %.4f ms (%.2f G elements/s)  imma/imad %.3f  last hash %s\n", ln, t1, n / t1 / 1e6, t2, n / t2 / 1e6, t2 / t1, h1 == h2 ? "equal" : "DIFFERS");
      }
    }
  }
  return 0;
}
