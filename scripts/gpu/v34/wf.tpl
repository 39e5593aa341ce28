
/* PROTOTYPE: two radix-8 levels (R, p) then (R, pR) per launch with the warp stages; SBN superblocks of 64
 * elements per work-group of 128.  Superblock g = v (n/R^2) + i0, kappa = i0 mod p, q0 = i0 / p, T = n/R^2.
 * Level 1: column a reads x[v n + i0 + (a + R b) T] times w^((b kappa) << tw_shift), DFT over b, output t0 at row t0.
 * Level 2: row t0, column a times w^((a (t0 p + kappa)) << tw_shift2), DFT over a; output t2 to
 * y[v n + q0 p R^2 + kappa + t0 p + t2 p R]. */
#define SBN @SBN@
#define RS 41
#define SBS 330
/* element (sb, a, b) digit d: sb SBS + b RS + a 5 + d */
#define EL(sb, a, b, d) ((sb) * SBS + (b) * RS + (a) * 5 + (d))
__kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void dft8_r4_wfused(__global const digit_t *X, __global digit_t *Y, __global const digit_t *W, const ulong plane, const ulong n, const ulong p, const uint log_t, const uint tw_shift, const uint tw_shift2, const uint half_shift, const uint half_index, const ulong count) {
    __local ulong SL[SBN * SBS];
    __local char SH[SBN * SBS];
    const uint lid = get_local_id(0);
    const ulong first = (ulong)get_group_id(0) * SBN;
    const ulong T = n / 64;
    digit_t u[SRGFN_K];
    ulong ol[SRGFN_K];
    int oh[SRGFN_K];
    #pragma unroll 1
    for (uint e = lid; e < 64 * SBN; e += 128) {
        const uint sb = e % SBN, s = e / SBN, a = s % 8, b = s / 8;
        const ulong g = first + sb;
        if (g >= count) continue;
        const ulong vec = POW2_DIV(g, T), i0 = POW2_MOD(g, T), kappa = POW2_MOD(i0, p);
        load_vec(u, X, plane, vec * n + i0 + (ulong)(a + 8 * b) * T);
        uint rot = 0;
        ulong ul[SRGFN_K];
        int uh[SRGFN_K];
        for (int d = 0; d < SRGFN_K; d++) { ul[d] = u[d]; uh[d] = 0; }
        if (b > 0 && kappa > 0) {
            const ulong ex = SRGFN_TW_EXP(b, kappa, tw_shift), tt = ex & ((((ulong)1) << log_t) - 1);
            rot = (uint)(ex >> log_t) & (2 * SRGFN_K - 1);
            if (tt) {
                digit_t w[SRGFN_K];
                load_tw(w, W, tt);
                f_mul_lazy(ul, uh, u, w);
            }
        }
        #pragma unroll
        for (uint d = 0; d < SRGFN_K; d++) {
            const uint idx = EL(sb, a, b, SRGFN_ROT_TO(d, rot));
            ulong l = ul[d];
            int h = uh[d];
            if (SRGFN_ROT_NEG(d, rot)) SRGFN_LZ_SUB(l, h, (ulong)0, 0, ul[d], uh[d]);
            SL[idx] = l;
            SH[idx] = (char)h;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* level 1: block gi = (sb, a) = (gi / 8, gi % 8), slot q = row */
    #pragma unroll 1
    for (uint rd = 0; rd < @ROUNDS@; rd++) {
#define SLOT(q, d, gi) EL(rd * 4 + (gi) / 8, (gi) % 8, q, d)
@WARP@
#undef SLOT
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* inner twiddle: element (sb, a, t0) times w^((a (t0 p + kappa)) << tw_shift2) */
    #pragma unroll 1
    for (uint e = lid; e < 64 * SBN; e += 128) {
        const uint sb = e % SBN, s = e / SBN, a = s % 8, t0 = s / 8;
        const ulong g = first + sb;
        if (g >= count) continue;
        const ulong kappa = POW2_MOD(POW2_MOD(g, T), p);
        for (int d = 0; d < SRGFN_K; d++) { ol[d] = SL[EL(sb, a, t0, d)]; oh[d] = SH[EL(sb, a, t0, d)]; }
        srgfn_norm(u, ol, oh);
        const ulong ex = SRGFN_TW_EXP(a, t0 * p + kappa, tw_shift2), tt = ex & ((((ulong)1) << log_t) - 1);
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
            const uint idx = EL(sb, a, t0, SRGFN_ROT_TO(d, rot));
            ulong l = ul[d];
            int h = uh[d];
            if (SRGFN_ROT_NEG(d, rot)) SRGFN_LZ_SUB(l, h, (ulong)0, 0, ul[d], uh[d]);
            SL[idx] = l;
            SH[idx] = (char)h;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* level 2: block gi = (sb, t0), slot q = column a */
    #pragma unroll 1
    for (uint rd = 0; rd < @ROUNDS@; rd++) {
#define SLOT(q, d, gi) EL(rd * 4 + (gi) / 8, q, (gi) % 8, d)
@WARP@
#undef SLOT
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* store: output t2 of row (sb, t0) (level-2 slot t2 = column position t2) */
    if (p == 1) {
        #pragma unroll 1
        for (uint e = lid; e < 64 * SBN; e += 128) {
            const uint sb = e / 64, o = e % 64, t0 = o % 8, t2 = o / 8;
            const ulong g = first + sb;
            if (g >= count) continue;
            const ulong vec = POW2_DIV(g, T), i0 = POW2_MOD(g, T);
            for (int d = 0; d < SRGFN_K; d++) { ol[d] = SL[EL(sb, t2, t0, d)]; oh[d] = SH[EL(sb, t2, t0, d)]; }
            srgfn_norm(u, ol, oh);
            store_vec(Y, plane, vec * n + i0 * 64 + o, u);
        }
    } else {
        #pragma unroll 1
        for (uint e = lid; e < 64 * SBN; e += 128) {
            const uint sb = e % SBN, s = e / SBN, t0 = s % 8, t2 = s / 8;
            const ulong g = first + sb;
            if (g >= count) continue;
            const ulong vec = POW2_DIV(g, T), i0 = POW2_MOD(g, T), kappa = POW2_MOD(i0, p), q0 = i0 / p;
            for (int d = 0; d < SRGFN_K; d++) { ol[d] = SL[EL(sb, t2, t0, d)]; oh[d] = SH[EL(sb, t2, t0, d)]; }
            srgfn_norm(u, ol, oh);
            store_vec(Y, plane, vec * n + q0 * p * 64 + kappa + t0 * p + t2 * p * 8, u);
        }
    }
}
#undef SBN
#undef RS
#undef SBS
#undef EL
