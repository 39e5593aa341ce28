/* v34 prototypes (README.md): what the harnesses share.  NVIDIA's OpenCL GPU, a program built
 * from a source file with its entries' registers printed, kernel arguments of the pass kernels,
 * random digits below 2^63 (below every catalog r of k <= 8), and the median time of a launch. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CK(e) do { cl_int _e = (e); if (_e) { fprintf(stderr, "%s: %d at %d\n", #e, _e, __LINE__); exit(1); } } while (0)

static inline int cmp_double(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

static inline char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(1); }
  fseek(f, 0, SEEK_END); long len = ftell(f); fseek(f, 0, SEEK_SET);
  char *s = malloc(len + 1);
  if (fread(s, 1, len, f) != (size_t)len) { perror(path); exit(1); }
  s[len] = 0; fclose(f); return s;
}

/* the first GPU of the NVIDIA platform, its name printed */
static inline cl_device_id nvidia_gpu(void) {
  cl_uint np; cl_platform_id ps[8]; cl_device_id dev = 0; char name[256];
  CK(clGetPlatformIDs(8, ps, &np));
  for (cl_uint i = 0; i < np && !dev; i++) {
    CK(clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL));
    if (strstr(name, "NVIDIA")) CK(clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL));
  }
  if (!dev) { fprintf(stderr, "no NVIDIA platform\n"); exit(1); }
  CK(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL)); printf("device %s\n", name);
  return dev;
}

/* `src` built with "-cl-std=CL1.2 -cl-nv-verbose" and `opts`; ptxas's lines of the entries whose
 * name holds `show` (every entry for "") printed with `tag` */
static inline cl_program build(cl_context ctx, cl_device_id dev, const char *src, const char *opts, const char *show, const char *tag) {
  cl_int e; cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e); CK(e);
  char all[512]; snprintf(all, sizeof all, "-cl-std=CL1.2 -cl-nv-verbose %s", opts);
  static char log[1 << 20];
  cl_int be = clBuildProgram(p, 1, &dev, all, NULL, NULL);
  clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
  if (be) { fprintf(stderr, "%s\n", log); exit(1); }
  int on = 0;
  for (char *l = strtok(log, "\n"); l; l = strtok(NULL, "\n")) {
    if (strstr(l, "Compiling entry")) on = strstr(l, show) != NULL;
    if (on && (strstr(l, "registers") || strstr(l, "spill") || strstr(l, "Compiling entry"))) printf("  %s%s\n", tag, l);
  }
  return p;
}

/* a pass kernel's arguments: (X, Y, W, plane = n, n, p, log_t, shifts..., count); the shifts are
 * the twiddle shifts then half_shift and half_index */
static inline void pass_args(cl_kernel k, cl_mem in, cl_mem out, cl_mem w, cl_ulong n, cl_ulong p, cl_uint log_t, const cl_uint *shifts, int nshifts, cl_ulong count) {
  int a = 0;
  CK(clSetKernelArg(k, a++, sizeof in, &in)); CK(clSetKernelArg(k, a++, sizeof out, &out)); CK(clSetKernelArg(k, a++, sizeof w, &w));
  CK(clSetKernelArg(k, a++, 8, &n)); CK(clSetKernelArg(k, a++, 8, &n)); CK(clSetKernelArg(k, a++, 8, &p)); CK(clSetKernelArg(k, a++, 4, &log_t));
  for (int i = 0; i < nshifts; i++) CK(clSetKernelArg(k, a++, 4, &shifts[i]));
  CK(clSetKernelArg(k, a++, 8, &count));
}

/* the median of `reps` launches after 3 warm-up ones, ms by profiling events */
static inline double median_launch(cl_command_queue q, cl_kernel k, size_t groups, size_t local, int reps) {
  double t[256]; size_t g = groups * local;
  if (reps > 256) reps = 256;
  for (int r = 0; r < reps + 3; r++) {
    cl_event ev; cl_ulong a, b;
    CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &local, 0, NULL, &ev)); CK(clWaitForEvents(1, &ev));
    CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &a, NULL)); CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &b, NULL));
    if (r >= 3) t[r - 3] = (b - a) / 1e6;
    clReleaseEvent(ev);
  }
  qsort(t, reps, sizeof t[0], cmp_double); return t[reps / 2];
}

/* `words` random words below 2^63 (xorshift, the same every run) */
static inline unsigned long long *random_words(size_t words) {
  unsigned long long *h = malloc(words * 8), s = 88172645463325252ULL;
  for (size_t i = 0; i < words; i++) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; h[i] = s >> 1; }
  return h;
}

static inline size_t words_differ(const unsigned long long *a, const unsigned long long *b, size_t words) {
  size_t d = 0;
  for (size_t i = 0; i < words; i++) d += a[i] != b[i];
  return d;
}

/* One size's data: N = 2^log_n elements of k digits, random (X, and the twiddle table W of 2^log_t
 * elements from the same words), two output vectors Y and Z, and two host copies for comparisons. */
struct size_data {
  cl_ulong n, words; cl_uint log_t;
  unsigned long long *h, *z1, *z2;
  cl_mem X, Y, Z, W;
};

static inline struct size_data size_data(cl_context ctx, int k, int log_n, int log_k2) {
  struct size_data s; cl_int e;
  s.n = 1ULL << log_n; s.words = s.n * k; s.log_t = log_n - log_k2;
  s.h = random_words(s.words); s.z1 = malloc(s.words * 8); s.z2 = malloc(s.words * 8);
  s.X = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, s.words * 8, s.h, &e); CK(e);
  s.Y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, s.words * 8, NULL, &e); CK(e);
  s.Z = clCreateBuffer(ctx, CL_MEM_READ_WRITE, s.words * 8, NULL, &e); CK(e);
  s.W = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, ((size_t)1 << s.log_t) * k * 8, s.h + 12345, &e); CK(e);
  return s;
}

static inline void size_data_free(struct size_data *s) {
  clReleaseMemObject(s->X); clReleaseMemObject(s->Y); clReleaseMemObject(s->Z); clReleaseMemObject(s->W);
  free(s->h); free(s->z1); free(s->z2);
}

/* the fields of a size_data `d` as the locals the harnesses' loops use */
#define SIZE_LOCALS(d) \
  cl_ulong n = (d).n, words = (d).words; cl_uint log_t = (d).log_t; unsigned long long *z1 = (d).z1, *z2 = (d).z2; \
  cl_mem X = (d).X, Y = (d).Y, Z = (d).Z, W = (d).W; (void)Z
