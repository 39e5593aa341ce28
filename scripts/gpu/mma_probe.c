// Does NVIDIA's OpenCL take the tensor cores' integer mma through inline PTX, and at what rate?
// (v25, docs/perf/h100-v25/README.md)  Build here and carry the binary:
//   mkdir -p .gpu/mma && gcc -O2 -o .gpu/mma/mma_probe scripts/gpu/mma_probe.c -lOpenCL
// and run `.gpu/mma/mma_probe NVIDIA` on the device machine.  One warp's 16x8x32 u8 product is
// checked against the host; then many warps run ITERS x 4 independent mma each, timed by events.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static const char *SRC =
"#define MMA(d, a, b) asm volatile(\"mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\" \\\n"
"  : \"+r\"(d[0]), \"+r\"(d[1]), \"+r\"(d[2]), \"+r\"(d[3]) : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), \"r\"(b[0]), \"r\"(b[1]))\n"
"__kernel void mma_check(__global const uint *A, __global const uint *B, __global int *D) {\n"
"  const uint lane = get_local_id(0) & 31, g = lane >> 2, t = lane & 3;\n"
"  uint a[4] = { A[g * 8 + t], A[(g + 8) * 8 + t], A[g * 8 + 4 + t], A[(g + 8) * 8 + 4 + t] };\n"
"  uint b[2] = { B[g * 8 + t], B[g * 8 + 4 + t] };\n"
"  int d[4] = { 0, 0, 0, 0 };\n"
"  MMA(d, a, b);\n"
"  D[g * 8 + 2 * t] = d[0]; D[g * 8 + 2 * t + 1] = d[1]; D[(g + 8) * 8 + 2 * t] = d[2]; D[(g + 8) * 8 + 2 * t + 1] = d[3];\n"
"}\n"
"__kernel void mma_rate(__global const uint *A, __global int *D, uint iters) {\n"
"  const uint i = get_global_id(0);\n"
"  uint a[4] = { A[i & 1023], A[(i + 1) & 1023], A[(i + 2) & 1023], A[(i + 3) & 1023] };\n"
"  uint b[2] = { A[(i + 5) & 1023], A[(i + 7) & 1023] };\n"
"  int d0[4] = {0,0,0,0}, d1[4] = {1,0,0,0}, d2[4] = {2,0,0,0}, d3[4] = {3,0,0,0};\n"
"  for (uint k = 0; k < iters; k++) { MMA(d0, a, b); MMA(d1, a, b); MMA(d2, a, b); MMA(d3, a, b); b[0] += 1; }\n"
"  D[i] = d0[0] + d0[1] + d0[2] + d0[3] + d1[0] + d1[3] + d2[1] + d3[2];\n"
"}\n";
#define CK(e) do { cl_int _e = (e); if (_e) { fprintf(stderr, "%s: %d at %d\n", #e, _e, __LINE__); exit(1);} } while (0)
int main(int argc, char **argv) {
  const char *want = argc > 1 ? argv[1] : "NVIDIA";
  cl_platform_id ps[8]; cl_uint np; CK(clGetPlatformIDs(8, ps, &np));
  cl_platform_id p = 0; char name[256];
  for (cl_uint i = 0; i < np; i++) { clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, 0); if (strstr(name, want)) p = ps[i]; }
  if (!p) { fprintf(stderr, "no platform %s\n", want); return 1; }
  cl_device_id dev; CK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, 0));
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, 0); printf("device %s\n", name);
  cl_int e; cl_context ctx = clCreateContext(0, 1, &dev, 0, 0, &e); CK(e);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e); CK(e);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &SRC, 0, &e); CK(e);
  e = clBuildProgram(prog, 1, &dev, "", 0, 0);
  char log[20000]; clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, 0);
  printf("build %s (%d); log: %.2000s\n", e ? "FAILED" : "ok", e, log);
  if (e) return 1;
  // check: A 16x32 u8 row-major (8 words a row), B 32x8 u8 column-major (8 words a column)
  unsigned char A[16 * 32], B[8 * 32]; int D[128], W[128];
  srand(7); for (int i = 0; i < 512; i++) A[i] = rand() & 255; for (int i = 0; i < 256; i++) B[i] = rand() & 255;
  for (int r = 0; r < 16; r++) for (int c = 0; c < 8; c++) { int s = 0; for (int k = 0; k < 32; k++) s += A[r * 32 + k] * B[c * 32 + k]; W[r * 8 + c] = s; }
  cl_mem bA = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof A, A, &e); CK(e);
  cl_mem bB = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof B, B, &e); CK(e);
  cl_mem bD = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1 << 26, 0, &e); CK(e);
  cl_kernel kc = clCreateKernel(prog, "mma_check", &e); CK(e);
  CK(clSetKernelArg(kc, 0, sizeof bA, &bA)); CK(clSetKernelArg(kc, 1, sizeof bB, &bB)); CK(clSetKernelArg(kc, 2, sizeof bD, &bD));
  size_t g = 32, l = 32; CK(clEnqueueNDRangeKernel(q, kc, 1, 0, &g, &l, 0, 0, 0));
  CK(clEnqueueReadBuffer(q, bD, CL_TRUE, 0, sizeof D, D, 0, 0, 0));
  int bad = 0; for (int i = 0; i < 128; i++) bad += D[i] != W[i];
  printf("check: %d of 128 entries differ (D[0] = %d, want %d; D[127] = %d, want %d)\n", bad, D[0], W[0], D[127], W[127]);
  // rate
  unsigned int big[1024]; for (int i = 0; i < 1024; i++) big[i] = rand();
  cl_mem bBig = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof big, big, &e); CK(e);
  cl_kernel kr = clCreateKernel(prog, "mma_rate", &e); CK(e);
  cl_uint iters = 2000; size_t gr = 132 * 4 * 8 * 32 * 4, lr = 256;
  CK(clSetKernelArg(kr, 0, sizeof bBig, &bBig)); CK(clSetKernelArg(kr, 1, sizeof bD, &bD)); CK(clSetKernelArg(kr, 2, sizeof iters, &iters));
  double best = 1e30;
  for (int rep = 0; rep < 5; rep++) {
    cl_event ev; CK(clEnqueueNDRangeKernel(q, kr, 1, 0, &gr, &lr, 0, 0, &ev)); CK(clWaitForEvents(1, &ev));
    cl_ulong t0, t1; clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &t0, 0); clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &t1, 0);
    double ms = (t1 - t0) / 1e6; if (ms < best) best = ms; clReleaseEvent(ev);
  }
  double macs = (double)(gr / 32) * iters * 4 * 16 * 8 * 32;
  printf("rate: %.3f ms for %.3g u8 multiply-adds: %.1f T/s (%zu warps, %u x 4 mma each)\n", best, macs, macs / best / 1e9, gr / 32, iters);
  size_t sz; clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof sz, &sz, 0);
  unsigned char *bin = malloc(sz); clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, 0);
  FILE *f = fopen(argc > 2 ? argv[2] : "mma.ptx", "wb"); if (f) { fwrite(bin, 1, sz, f); fclose(f); }
  return 0;
}
