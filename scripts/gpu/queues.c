// Do kernels on two in-order OpenCL queues overlap on this device, and what does a
// launch's tail cost?  (v23, docs/perf/h200-v23/queues*.txt)  Build here and carry the binary:
//   mkdir -p .gpu/qtest && gcc -O2 -o .gpu/qtest/qtest scripts/gpu/queues.c -lOpenCL
// and run `.gpu/qtest/qtest NVIDIA` (a platform-name substring) on the device machine.  Each work-group of 128 items holds 37 KB of local memory (as
// srgfn's k = 8 local pass), reads and writes 32 KiB and runs ITERS multiply-adds per item.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static const char *SRC =
"__kernel __attribute__((reqd_work_group_size(128,1,1)))\n"
"void pass(__global const ulong *x, __global ulong *y, uint iters, uint wg_off) {\n"
"  __local ulong sl[4600];\n"
"  uint g = get_group_id(0) + wg_off, t = get_local_id(0);\n"
"  ulong base = (ulong)g * 4096;\n"
"  ulong a[4];\n"
"  for (int j = 0; j < 4; j++) a[j] = x[base + j * 1024 + t] ;\n"
"  for (int j = 0; j < 4; j++) { ulong b = x[base + j*1024 + 512 + t]; a[j] ^= b; }\n"
"  uint u = (uint)a[0], v = (uint)a[1], w = (uint)a[2], z = (uint)a[3];\n"
"  for (uint i = 0; i < iters; i++) { u = u * v + w; v = v * w + z; w = w * z + u; z = z * u + v; }\n"
"  sl[t * 35 % 4600] = u ^ v ^ w ^ z;\n"
"  barrier(CLK_LOCAL_MEM_FENCE);\n"
"  ulong s = sl[(t * 35 + 7) % 4600];\n"
"  for (int j = 0; j < 4; j++) { y[base + j*1024 + t] = a[j] + s; y[base + j*1024 + 512 + t] = a[j] ^ s; }\n"
"}\n";
#define CK(e) do { cl_int _e = (e); if (_e) { fprintf(stderr, "%s: %d at %d\n", #e, _e, __LINE__); exit(1);} } while (0)
static double now(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6; }
static int cmp(const void *a, const void *b) { double x = *(double*)a, y = *(double*)b; return (x > y) - (x < y); }
cl_kernel K; cl_mem X, Y;
static void launch(cl_command_queue q, size_t groups, cl_uint iters, cl_uint off, cl_uint nwait, cl_event *wait, cl_event *ev) {
  CK(clSetKernelArg(K, 2, sizeof iters, &iters)); CK(clSetKernelArg(K, 3, sizeof off, &off));
  size_t g = groups * 128, l = 128;
  CK(clEnqueueNDRangeKernel(q, K, 1, NULL, &g, &l, nwait, wait, ev));
}
int main(int argc, char **argv) {
  cl_uint np; cl_platform_id ps[8]; CK(clGetPlatformIDs(8, ps, &np));
  cl_device_id dev = 0; char name[256];
  for (cl_uint i = 0; i < np && !dev; i++) { CK(clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, 256, name, NULL));
    if (strstr(name, argc > 1 ? argv[1] : "NVIDIA")) CK(clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL)); }
  if (!dev) { fprintf(stderr, "no platform\n"); return 1; }
  CK(clGetDeviceInfo(dev, CL_DEVICE_NAME, 256, name, NULL)); printf("device %s\n", name);
  cl_int e; cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e); CK(e);
  cl_command_queue q0 = clCreateCommandQueue(ctx, dev, 0, &e); CK(e);
  cl_command_queue q1 = clCreateCommandQueue(ctx, dev, 0, &e); CK(e);
  cl_command_queue qo = clCreateCommandQueue(ctx, dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &e); CK(e);
  cl_program p = clCreateProgramWithSource(ctx, 1, &SRC, NULL, &e); CK(e);
  if (clBuildProgram(p, 1, &dev, "", NULL, NULL)) { char log[8192]; clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 8192, log, NULL); fprintf(stderr, "%s\n", log); return 1; }
  K = clCreateKernel(p, "pass", &e); CK(e);
  size_t maxg = 32768, words = maxg * 4096;
  X = clCreateBuffer(ctx, CL_MEM_READ_WRITE, words * 8, NULL, &e); CK(e);
  Y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, words * 8, NULL, &e); CK(e);
  cl_ulong one = 1; CK(clEnqueueFillBuffer(q0, X, &one, 8, 0, words * 8, 0, NULL, NULL)); CK(clFinish(q0));
  CK(clSetKernelArg(K, 0, sizeof X, &X)); CK(clSetKernelArg(K, 1, sizeof Y, &Y));
  cl_uint iters_list[] = {0, 200, 800};
  printf("%6s %-44s %10s %12s\n", "iters", "schedule", "ms", "us/pass-eq");
  for (int ii = 0; ii < 3; ii++) {
    cl_uint it = iters_list[ii];
    for (int mode = 0; mode < 9; mode++) {
      if (mode >= 6 && it != 200) continue;
      const char *label[] = {"one queue, 16 x 2048 groups", "one queue, 32 x 1024 groups",
        "two queues, 16 x 1024 groups each", "out-of-order queue, two chains of 16 x 1024",
        "one queue, 1 x 32768 groups", "two queues, 16 x 2048 groups each (2x work)",
        "ping-pong q0/q1, marker+barrier, no flush", "ping-pong q0/q1, marker+flush+barrier", "ping-pong q0/q1, kernel waits on event, flush"};
      double t[7];
      for (int rep = 0; rep < 7; rep++) {
        clFinish(q0); clFinish(q1); clFinish(qo);
        double t0 = now();
        if (mode == 0) for (int j = 0; j < 16; j++) launch(q0, 2048, it, 0, 0, NULL, NULL);
        if (mode == 1) for (int j = 0; j < 32; j++) launch(q0, 1024, it, (j & 1) * 1024, 0, NULL, NULL);
        if (mode == 2) for (int j = 0; j < 16; j++) { launch(q0, 1024, it, 0, 0, NULL, NULL); launch(q1, 1024, it, 1024, 0, NULL, NULL); }
        if (mode == 3) { cl_event a = 0, b = 0; for (int j = 0; j < 16; j++) { cl_event na, nb;
            launch(qo, 1024, it, 0, a ? 1 : 0, a ? &a : NULL, &na); launch(qo, 1024, it, 1024, b ? 1 : 0, b ? &b : NULL, &nb);
            if (a) { clReleaseEvent(a); clReleaseEvent(b); } a = na; b = nb; } clReleaseEvent(a); clReleaseEvent(b); }
        if (mode == 4) launch(q0, 32768, it, 0, 0, NULL, NULL);
        if (mode == 5) for (int j = 0; j < 16; j++) { launch(q0, 2048, it, 0, 0, NULL, NULL); launch(q1, 2048, it, 2048, 0, NULL, NULL); }
        if (mode >= 6) {
          cl_command_queue qs[2] = {q0, q1};
          cl_event prev = 0;
          for (int j = 0; j < 16; j++) {
            cl_command_queue q = qs[j & 1];
            if (mode == 8) { cl_event ev; launch(q, 2048, it, 0, prev ? 1 : 0, prev ? &prev : NULL, &ev); clFlush(q); if (prev) clReleaseEvent(prev); prev = ev; }
            else {
              if (prev) { CK(clEnqueueBarrierWithWaitList(q, 1, &prev, NULL)); clReleaseEvent(prev); }
              launch(q, 2048, it, 0, 0, NULL, NULL);
              CK(clEnqueueMarkerWithWaitList(q, 0, NULL, &prev));
              if (mode == 7) clFlush(q);
            }
          }
          if (prev) clReleaseEvent(prev);
        }
        clFinish(q0); clFinish(q1); clFinish(qo);
        t[rep] = now() - t0;
      }
      qsort(t, 7, sizeof t[0], cmp);
      double eq = mode == 5 ? 32 : 16;
      printf("%6u %-44s %10.4f %12.2f\n", it, label[mode], t[3], t[3] / eq * 1e3);
    }
  }
  return 0;
}
