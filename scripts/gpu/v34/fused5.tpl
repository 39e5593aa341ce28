
/* PROTOTYPE: the first two passes (R = 16, p = 1 then p = 16) in one launch, SBN superblocks per work-group
 * of 128 work-items (each phase loops over them): superblock i0, column a reads x[i0 + (a + 16 b) T]
 * (T = n/256), level-2 row t0 times w^((a t0) << tw_shift2), output t2 of row t0 to y[i0 256 + t0 + 16 t2] */
#define G 16
#define SBN @SBN@
#define SBW @WORDS@
#define S1(q, d, g) (sbo + (q) * @SS@ + (g) * 9 + (d))
__kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void dft16_r4_table_first2(__global const digit_t *X, __global digit_t *Y, __global const digit_t *W, const ulong plane, const ulong n, const ulong p, const uint log_t, const uint tw_shift2, const uint half_shift, const uint half_index, const ulong count) {
    __local ulong SL[SBN * SBW];
    __local char SH[SBN * SBW];
    const uint lid = get_local_id(0);
    const ulong grp0 = (ulong)get_group_id(0) * SBN;
    const ulong T = n / 256;
    digit_t u[SRGFN_K];
    ulong ol[SRGFN_K];
    int oh[SRGFN_K];
    /* loads: superblock index fastest, so that a warp reads SBN consecutive words of a digit plane */
    @UNR@
    for (uint e2 = lid; e2 < 256 * SBN; e2 += 128) {
        const uint sb = e2 % SBN, e = e2 / SBN, a = e % 16, b = e / 16, sbo = sb * SBW;
        if (grp0 + sb >= count) continue;
        load_vec(u, X, plane, grp0 + sb + (ulong)(a + 16 * b) * T);
        for (int d = 0; d < SRGFN_K; d++) { SL[S1(b, d, a)] = u[d]; SH[S1(b, d, a)] = 0; }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    #pragma unroll 1
    for (uint sb = 0; sb < SBN; sb++) {
        const uint sbo = sb * SBW;
#define SLOT(q, d, gi) S1(q, d, gi)
@WARP@
#undef SLOT
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* inner twiddle: element a of row t0 (at S1(t0, d, a)) times w^((a t0) << tw_shift2) */
    @UNR@
    for (uint e2 = lid; e2 < 256 * SBN; e2 += 128) {
        const uint sbo = (e2 / 256) * SBW, e = e2 % 256, a = e % 16, t0 = e / 16;
        for (int d = 0; d < SRGFN_K; d++) { ol[d] = SL[S1(t0, d, a)]; oh[d] = SH[S1(t0, d, a)]; }
        srgfn_norm(u, ol, oh);
        const ulong ex = SRGFN_TW_EXP(a, t0, tw_shift2), tt = ex & ((((ulong)1) << log_t) - 1);
        const uint rot = (uint)(ex >> log_t) & (2 * SRGFN_K - 1);
        ulong ul[SRGFN_K];
        int uh[SRGFN_K];
        for (int d = 0; d < SRGFN_K; d++) { ul[d] = u[d]; uh[d] = 0; }
        if (tt) {
            digit_t w[SRGFN_K];
            load_tw(w, W, tt);
            f_mul_lazy(ul, uh, u, w);
        }
        #pragma unroll
        for (uint d = 0; d < SRGFN_K; d++) {
            const uint idx = S1(t0, SRGFN_ROT_TO(d, rot), a);
            ulong l = ul[d];
            int h = uh[d];
            if (SRGFN_ROT_NEG(d, rot)) SRGFN_LZ_SUB(l, h, (ulong)0, 0, ul[d], uh[d]);
            SL[idx] = l;
            SH[idx] = (char)h;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* level 2: block t0 (row), slot a at S1(t0, d, a) */
    #pragma unroll 1
    for (uint sb = 0; sb < SBN; sb++) {
        const uint sbo = sb * SBW;
#define SLOT(q, d, gi) S1(gi, d, q)
@WARP@
#undef SLOT
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* store: output t2 of row t0 (at S1(t0, d, t2)) to y[i0 256 + t0 + 16 t2]: element e = t0 + 16 t2 */
    @UNR@
    for (uint e2 = lid; e2 < 256 * SBN; e2 += 128) {
        const uint sb = e2 / 256, sbo = sb * SBW, e = e2 % 256, t0 = e % 16, t2 = e / 16;
        if (grp0 + sb >= count) continue;
        for (int d = 0; d < SRGFN_K; d++) { ol[d] = SL[S1(t0, d, t2)]; oh[d] = SH[S1(t0, d, t2)]; }
        srgfn_norm(u, ol, oh);
        store_vec(Y, plane, (grp0 + sb) * 256 + e, u);
    }
}
#undef G
#undef S1
#undef SBW
#undef SBN
