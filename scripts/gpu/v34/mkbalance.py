# v34 prototype (scripts/gpu/v34/README.md): the second pass's twiddles of inputs t' >= TAU applied by the first pass
# (k = 8's table kernels): the first kernel's run store multiplies output t of block i by w^((t' t) << tw_shift),
# t' = i / (n/256) (the input index this element has in the second pass, whose kappa is t); the twiddled kernel
# skips inputs t >= TAU where p = 16.  TAU is a build option (-D TAU=...; 16: the kernels unchanged).
import sys
src = open(sys.argv[1]).read()
first = src.index('void dft16_r4_table_first(')
head, tail = src[:first], src[first:]
old = """            GET(ol, oh, t);
            srgfn_norm(u, ol, oh);
            store_vec(Y, plane, out0 + e, u);"""
new = """            GET(ol, oh, t);
            srgfn_norm(u, ol, oh);
            {
                /* the second pass's twiddle of this element (its input t' of a block with kappa = t) */
                const ulong tp = POW2_MOD(g0 + gi, T) / (T / 16);
                if (tp >= TAU && t > 0) {
                    const ulong ex = SRGFN_TW_EXP(tp, t, tw_shift), tt = ex & ((((ulong)1) << log_t) - 1);
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
                        const uint idx = SLOT(t, SRGFN_ROT_TO(d, rot), gi);
                        ulong l = ul[d];
                        int h = uh[d];
                        if (SRGFN_ROT_NEG(d, rot)) SRGFN_LZ_SUB(l, h, (ulong)0, 0, ul[d], uh[d]);
                        SL[idx] = l;
                        SH[idx] = (char)h;
                    }
                    GET(ol, oh, t);
                    srgfn_norm(u, ol, oh);
                }
            }
            store_vec(Y, plane, out0 + e, u);"""
assert tail.count(old) == 1
tail = tail.replace(old, new)
assert head.count("if (t > 0 && kappa > 0) {") == 1
head = head.replace("if (t > 0 && kappa > 0) {", "if (t > 0 && kappa > 0 && !(p == 16 && t >= TAU)) {")
open(sys.argv[2], 'w').write("#ifndef TAU\n#define TAU 16\n#endif\n" + head + tail)
