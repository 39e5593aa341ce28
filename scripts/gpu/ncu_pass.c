/* scripts/gpu/ncu_pass.c: launch one Stockham pass kernel of an srgfn program through the CUDA
 * driver API, so that Nsight Compute, which does not profile OpenCL, can profile it.  The PTX is
 * NVIDIA OpenCL's own program binary (scripts/gpu/ncu_pass.sh takes it from the program cache and
 * replaces the %envreg registers, the OpenCL work offsets, by 0).  Timing only: the digits are
 * arbitrary, nothing is checked.  The kernel signature is the local and table variants' pass:
 * (X, Y, W, plane, n, p, log_t, tw_shift, half_shift, half_index, count), one vector, no halves;
 * with a last argument "fused", the local variant's two levels per launch: tw_shift2 after
 * tw_shift (level 2's exponents, tw_shift - log2 R), count in superblocks of R^2 elements and G
 * superblocks per work-group; with "digits", the digits variant's pass: `layout` before count
 * (3: both vectors element-major, as between a plan's launches) and the twiddle table followed by
 * its suffix sums (three times the words).
 * usage: ncu_pass PTX KERNEL THREADS G LOG_N P LOG_T TW_SHIFT REPS k R [fused|digits]
 * (k: digits per element; R: the pass's radix) */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CK(x) do { CUresult e_ = (x); if (e_ != CUDA_SUCCESS) { const char *s; cuGetErrorString(e_, &s); fprintf(stderr, "%s: %s\n", #x, s); exit(1); } } while (0)
int main(int argc, char **argv) {
    if (argc < 12) { fprintf(stderr, "usage: ncu_pass PTX KERNEL THREADS G LOG_N P LOG_T TW_SHIFT REPS k R [fused|digits]\n"); return 2; }
    FILE *f = fopen(argv[1], "rb"); if (!f) { perror(argv[1]); return 1; } fseek(f, 0, SEEK_END); long len = ftell(f); fseek(f, 0, SEEK_SET);
    char *ptx = malloc(len + 1); if (fread(ptx, 1, len, f) != (size_t)len) return 1; ptx[len] = 0; fclose(f);
    unsigned threads = atoi(argv[3]), G = atoi(argv[4]), log_n = atoi(argv[5]);
    unsigned long long p = strtoull(argv[6], 0, 0); unsigned log_t = atoi(argv[7]), tw_shift = atoi(argv[8]); int reps = atoi(argv[9]);
    unsigned k = atoi(argv[10]);
    unsigned R = atoi(argv[11]), lr = 0; while ((1u << lr) < R) lr++;
    int fused = argc > 12 && strcmp(argv[12], "fused") == 0, digits = argc > 12 && strcmp(argv[12], "digits") == 0;
    unsigned tw_shift2 = tw_shift - lr;
    CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
    CUmodule mod; char log[8192]; CUjit_option o[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES}; void *ov[2] = {log, (void *)8192};
    if (cuModuleLoadDataEx(&mod, ptx, 2, o, ov) != CUDA_SUCCESS) { fprintf(stderr, "load failed: %s\n", log); return 1; }
    CUfunction fn; CK(cuModuleGetFunction(&fn, mod, argv[2]));
    unsigned long long n = 1ULL << log_n, words = n * k, tw = (1ULL << log_t) * k * (digits ? 3 : 1);
    CUdeviceptr X, Y, W; CK(cuMemAlloc(&X, words * 8)); CK(cuMemAlloc(&Y, words * 8)); CK(cuMemAlloc(&W, tw * 8));
    unsigned long long *h = malloc(words * 8); unsigned long long s = 88172645463325252ULL;
    for (unsigned long long i = 0; i < words; i++) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; h[i] = s >> 1; }
    if (tw > words) { fprintf(stderr, "twiddle table larger than the vector\n"); return 1; }
    CK(cuMemcpyHtoD(X, h, words * 8)); CK(cuMemcpyHtoD(W, h, tw * 8));
    unsigned long long plane = n, count = fused ? n / R / R : n / R, nn = n; unsigned half_shift = 62, half_index = 0, layout = 3;
    void *pass_args[] = {&X, &Y, &W, &plane, &nn, &p, &log_t, &tw_shift, &half_shift, &half_index, &count};
    void *fused_args[] = {&X, &Y, &W, &plane, &nn, &p, &log_t, &tw_shift, &tw_shift2, &half_shift, &half_index, &count};
    void *digits_args[] = {&X, &Y, &W, &plane, &nn, &p, &log_t, &tw_shift, &half_shift, &half_index, &layout, &count};
    void **args = fused ? fused_args : digits ? digits_args : pass_args;
    unsigned grid = (unsigned)((count + G - 1) / G);
    CUevent a, b; CK(cuEventCreate(&a, 0)); CK(cuEventCreate(&b, 0));
    for (int r = 0; r < reps; r++) {
        CK(cuEventRecord(a, 0));
        CK(cuLaunchKernel(fn, grid, 1, 1, threads, 1, 1, 0, 0, args, 0));
        CK(cuEventRecord(b, 0)); CK(cuEventSynchronize(b));
        float ms; CK(cuEventElapsedTime(&ms, a, b)); printf("%s rep %d: %.4f ms (grid %u x %u)\n", argv[2], r, ms, grid, threads);
    }
    return 0;
}
