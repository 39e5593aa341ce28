// v34 prototype (README.md): k's table variant's first two passes (first, then p = R) against one launch
// of both (`dft<R>_r4_table_first2`, mkfused3.py).  usage: proto SRC K REPS LOG_N...; env SB (superblocks per
// work-group), TPB (its work-items; default 128 SB), MAXNREG (a .maxnreg written into the fused entry's PTX).
#include "harness.h"

static cl_context ctx; static cl_device_id dev;

/* the program rebuilt from its PTX with `.maxnreg cap` after the fused entry's parameter list */
static cl_program capped(cl_program p, const char *cap) {
  size_t bl; CK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof bl, &bl, NULL));
  char *bin = malloc(bl + 1); unsigned char *bp = (unsigned char *)bin;
  CK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bp, &bp, NULL)); bin[bl] = 0;
  char *ent = strstr(bin, "_first2("), *close = ent ? strchr(ent, ')') : NULL;
  if (!close) { fprintf(stderr, "no fused entry in the PTX\n"); exit(1); }
  size_t pos = close + 1 - bin; char *nb = malloc(bl + 64);
  memcpy(nb, bin, pos); int m = sprintf(nb + pos, "\n.maxnreg %s", cap); memcpy(nb + pos + m, bin + pos, bl - pos);
  size_t nl = bl + m; const unsigned char *nbp = (const unsigned char *)nb; cl_int bs, e;
  cl_program q = clCreateProgramWithBinary(ctx, 1, &dev, &nl, &nbp, &bs, &e); CK(e); CK(bs);
  static char log[1 << 16]; cl_int be = clBuildProgram(q, 1, &dev, "-cl-nv-verbose", NULL, NULL);
  clGetProgramBuildInfo(q, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
  if (be) { fprintf(stderr, "%s\n", log); exit(1); }
  for (char *l = strtok(log, "\n"); l; l = strtok(NULL, "\n")) if (strstr(l, "registers")) printf("  capped %s\n", l);
  return q;
}

int main(int argc, char **argv) {
  if (argc < 5) { fprintf(stderr, "usage: proto SRC K REPS LOG_N...\n"); return 2; }
  int k = atoi(argv[2]), reps = atoi(argv[3]), R = 2 * k, lr = 0; while ((1 << lr) < R) lr++;
  int sb = getenv("SB") ? atoi(getenv("SB")) : 1; size_t tpb = getenv("TPB") ? (size_t)atoi(getenv("TPB")) : 128 * sb;
  dev = nvidia_gpu(); cl_int e;
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e); CK(e);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e); CK(e);
  cl_program p = build(ctx, dev, read_file(argv[1]), "", "table", "");
  if (getenv("MAXNREG")) p = capped(p, getenv("MAXNREG"));
  char kn[3][64]; sprintf(kn[0], "dft%d_r4_table_first", R); sprintf(kn[1], "dft%d_r4_table", R); sprintf(kn[2], "dft%d_r4_table_first2", R);
  cl_kernel K0 = clCreateKernel(p, kn[0], &e); CK(e); cl_kernel K1 = clCreateKernel(p, kn[1], &e); CK(e); cl_kernel K2 = clCreateKernel(p, kn[2], &e); CK(e);
  printf("%6s %10s %10s %10s %10s %8s %s\n", "log_n", "first", "second", "sum", "fused", "gain%", "equal");
  for (int ai = 4; ai < argc; ai++) {
    int L = atoi(argv[ai]); struct size_data d = size_data(ctx, k, L, lr);
    SIZE_LOCALS(d);
    cl_ulong blocks = n / R, sbs = n / R / R;
    /* whole launches (half_shift 62); the twiddle shift of a pass of p: log2(N / (R p)) */
    cl_uint s0[3] = {L - lr, 62, 0}, s1[3] = {L - 2 * lr, 62, 0};
    pass_args(K0, X, Y, W, n, 1, log_t, s0, 3, blocks);
    double t0 = median_launch(q, K0, (blocks + 15) / 16, 128, reps);
    pass_args(K1, Y, Z, W, n, R, log_t, s1, 3, blocks);
    double t1 = median_launch(q, K1, (blocks + 15) / 16, 128, reps);
    CK(clEnqueueReadBuffer(q, Z, CL_TRUE, 0, words * 8, z1, 0, NULL, NULL));
    pass_args(K2, X, Z, W, n, 1, log_t, s1, 3, sbs);
    double t2 = median_launch(q, K2, (sbs + sb - 1) / sb, tpb, reps);
    CK(clEnqueueReadBuffer(q, Z, CL_TRUE, 0, words * 8, z2, 0, NULL, NULL));
    size_t diff = words_differ(z1, z2, words);
    printf("%6d %10.4f %10.4f %10.4f %10.4f %8.1f %s (%zu words differ)\n", L, t0, t1, t0 + t1, t2, 100 * (t2 / (t0 + t1) - 1), diff ? "NO" : "yes", diff);
    size_data_free(&d);
  }
  return 0;
}
