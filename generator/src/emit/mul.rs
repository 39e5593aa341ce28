//! f_mul: the negacyclic product's k² digit products in one of the
//! [`MulForm`]s, each coefficient c_i a signed 192-bit v2:v1:v0, then the
//! base-r carries.  `f_mul` returns a canonical element (exact floor division
//! by r per coefficient); `f_mul_lazy` returns lazy digits for the passes
//! (see `lazy.rs`), where the carries need not be exact.

use super::arith::{ArithSpec, C};
use super::high_part::HighPart;
use super::lazy::{nearest_power, MulSplit, SplitForm};
use super::MulForm;

/// f_mul and, for the unrolled forms, f_mul_lazy.
pub(super) fn render(c: &mut C, a: &ArithSpec) {
    accumulator(c, a);
    if a.karatsuba_lazy() {
        super::karatsuba::accumulator_add(c, a);
    }
    mul(c, a);
    if a.unrolled_mul() {
        // f_mul_lazy, and f_mul_lazy_wide where the radix has a split for two-byte high parts
        mul_lazy(c, a, (HighPart::Byte.split(a.k, a.r), HighPart::Byte));
        if let Some(wide) = HighPart::Short.split(a.k, a.r) {
            mul_lazy(c, a, (Some(wide), HighPart::Short));
        }
    }
}

/// Words (v0, v1, v2) of a signed 192-bit value, as C names.
const V: [&str; 3] = ["v0", "v1", "v2"];

/// One split round on v2:v1:v0: Q = ⌊v / 2^e⌋ (signed 128-bit), v ← (v mod 2^e) − Q δ
/// with δ = ±2^u, and the quotient accumulated into qh:ql.
fn split_round(c: &mut C, e: u32, delta: i128) {
    let [v0, v1, v2] = V;
    if e == 64 {
        c.line(format!("{{ const ulong Ql = {v1}, Qh = {v2}, rho = {v0};"));
    } else {
        c.line(format!(
            "{{ const ulong Ql = ({v1} << {s}) | ({v0} >> {e}), Qh = ({v2} << {s}) | ({v1} >> {e}), rho = {v0} & {m:#x}UL;",
            s = 64 - e,
            m = (1u64 << e) - 1
        ));
    }
    let u = delta.unsigned_abs().trailing_zeros();
    if delta == 0 {
        c.line(format!("  {v0} = rho; {v1} = 0; {v2} = 0;"));
    } else {
        if u == 0 {
            c.line("  const ulong t0 = Ql, t1 = Qh, t2 = (ulong)((long)Qh >> 63);");
        } else {
            c.line(format!("  const ulong t0 = Ql << {u}, t1 = (Qh << {u}) | (Ql >> {s}), t2 = (ulong)((long)Qh >> {s});", s = 64 - u));
        }
        if delta > 0 {
            c.line(format!("  const ulong b0 = rho < t0; {v0} = rho - t0; const ulong b1 = (t1 != 0) | b0; {v1} = (ulong)0 - t1 - b0; {v2} = (ulong)0 - t2 - b1;"));
        } else {
            c.line(format!("  {v0} = rho + t0; const ulong c0 = {v0} < t0; {v1} = t1 + c0; const ulong c1 = {v1} < c0; {v2} = t2 + c1;"));
        }
    }
    c.line("  ql += Ql; qh += Qh + (ql < Ql); }");
}

/// v2:v1:v0 += the carry ch:cl (signed 128-bit), one carry chain (in PTX where `ptx`).
pub(super) fn add_carry(c: &mut C, a: &ArithSpec) {
    c.line("/* v += carry (signed 128-bit ch:cl) */");
    if a.ptx {
        c.line("asm(\"add.cc.u64 %0, %0, %3;\\n\\taddc.cc.u64 %1, %1, %4;\\n\\taddc.u64 %2, %2, %5;\" : \"+l\"(v0), \"+l\"(v1), \"+l\"(v2) : \"l\"(cl), \"l\"(ch), \"l\"((ulong)((long)ch >> 63)));");
    } else {
        c.line(
            "v0 += cl; { const ulong c0 = v0 < cl, t = v1 + ch; v2 += (ulong)((long)ch >> 63) + (t < ch) + ((t + c0) < c0); v1 = t + c0; }",
        );
    }
}

/// `f_mul_lazy` (or `f_mul_lazy_wide`, `hp`'s product): x y mod p as lazy
/// digits (see `lazy.rs`) for the passes: each coefficient's digit and carry
/// by shifts and adds where the radix allows it ([`MulSplit`]: the quotient
/// series, above [`MulSplit::SERIES_MAX_K`] the chained series or split rounds), else (`split`
/// None) by the exact division; the last carry wraps around (r^k = −1)
/// without a ripple: the series' whole quotient onto digit 0, the others'
/// onto digits 0 and 1.  Where [`ArithSpec::karatsuba_lazy`] holds (k = 16)
/// the products take one Karatsuba level (`karatsuba.rs`) and the
/// coefficients two carry chains.
fn mul_lazy(c: &mut C, a: &ArithSpec, (split, hp): (Option<MulSplit>, HighPart)) {
    if let Some(sp) = &split {
        super::series::render_macros(c, a, (sp, hp));
    }
    let (e, delta) = nearest_power(a.r);
    match &split {
        Some(MulSplit { form: SplitForm::Series { s, terms }, out_bound, .. }) => c.line(format!(
            "/* (zl, zh) = x y mod p as lazy digits (|d_i| < 2^{:.1}): per coefficient v, V = floor(v / 2^{e}), the quotient\n * Q = V + sum_(m=1..{terms}) (-sigma)^m floor(V / 2^({s} m)) (the series of v / r, r = 2^{e} + delta, delta = {delta}),\n * digit v - Q r (modulo 2^96) plus the previous coefficient's Q; the last Q wraps around (r^k = -1)\n * onto digit 0, negated. */",
            out_bound.log2(),
        )),
        Some(MulSplit { form: SplitForm::ChainedSeries { s, terms }, out_bound, .. }) => c.line(format!(
            "/* (zl, zh) = x y mod p as lazy digits (|d_i| < 2^{:.1} before the wrap): per coefficient v with the previous\n * quotient added, V = floor(v / 2^{e}), Q = V + sum_(m=1..{terms}) (-sigma)^m floor(V / 2^({s} m)) (the series of\n * v / r, r = 2^{e} + delta, delta = {delta}), digit v - Q r; Q carries on.  The last carry C wraps around:\n * -C = (-(C mod 2^{e}) + Cq delta) - Cq r with Cq = floor(C / 2^{e}). */",
            out_bound.log2(),
        )),
        Some(MulSplit { form: SplitForm::Rounds(rounds), .. }) => c.line(format!(
            "/* (zl, zh) = x y mod p as lazy digits (|d_i| < 2^65 + 2^{e} + small): per coefficient {rounds} round(s) of\n * Q = floor(v / 2^{e}), v <- (v mod 2^{e}) - Q delta, delta = r - 2^{e} = {delta}; Q carries on.  The last\n * carry C wraps around: -C = (-(C mod 2^{e}) + Cq delta) - Cq r with Cq = floor(C / 2^{e}). */"
        )),
        None => c.line("/* (zl, zh) = x y mod p as lazy digits: the exact base-r carries of f_mul, then the last carry C\n * wraps around: -C = (-(C mod 2^e) + Cq delta) - Cq r with Cq = floor(C / 2^e), 2^e nearest to r. */"),
    }
    let series = matches!(split, Some(MulSplit { form: SplitForm::Series { .. }, .. }));
    c.open(format!(
        "static inline __attribute__((always_inline)) void {}(ulong *zl, int *zh, const digit_t *x, const digit_t *y) {{",
        hp.mul_lazy()
    ));
    c.line("ulong ch = 0, cl = 0;");
    let per_coefficient = |c: &mut C, i: &str| match &split {
        Some(sp @ MulSplit { form: SplitForm::Series { s, terms }, .. }) => super::series::split(c, a, (sp, hp), *s, *terms, i),
        Some(sp @ MulSplit { form: SplitForm::ChainedSeries { s, terms }, .. }) => {
            add_carry(c, a);
            super::series::chained_split(c, a, sp, *s, *terms, i);
        }
        Some(sp @ MulSplit { form: SplitForm::Rounds(_), .. }) if super::series::rounds_in_ptx(a, sp) => {
            add_carry(c, a);
            c.line(format!("SRGFN_ROUNDS_SPLIT(zl[{i}], zh[{i}], cl, ch, v0, v1, v2);"));
        }
        Some(sp @ MulSplit { form: SplitForm::Rounds(rounds), .. }) => {
            add_carry(c, a);
            c.line("ulong ql = 0, qh = 0;");
            for _ in 0..*rounds {
                split_round(c, sp.e, sp.delta);
            }
            c.line(format!("zl[{i}] = v0; zh[{i}] = (int)v1; cl = ql; ch = qh;"));
        }
        None => {
            add_carry(c, a);
            c.line(format!("zl[{i}] = srgfn_sdivmod3(&ch, &cl, v0, v1, v2); zh[{i}] = 0;"));
        }
    };
    if a.karatsuba_lazy() {
        // the first chain's last carry C joins digits h and h + 1 as the second's wraps onto 0 and 1
        let join = |c: &mut C, h: usize| {
            c.line(format!("/* the first chain's last carry C = ch:cl joins digits {h} and {}: C mod 2^e - Cq delta, and Cq */", h + 1));
            c.open("{");
            fold_carry(c, e, delta, h, false);
            c.close("}");
        };
        super::karatsuba::products(c, a, &per_coefficient, &join);
    } else {
        products(c, a, &per_coefficient);
    }
    if series {
        c.line("/* the last quotient C = ch:cl wraps around: digit 0 gets -C */");
        c.line("SRGFN_LZ_SUB(zl[0], zh[0], zl[0], zh[0], cl, (int)ch);");
    } else {
        c.line("/* wrap the carry C = ch:cl: digit 0 gets -(C mod 2^e) + Cq delta, digit 1 gets -Cq */");
        fold_carry(c, e, delta, 0, true);
    }
    c.close("}");
    c.line("");
}

/// Adds the carry C = ch:cl to digits `digit` and `digit` + 1 (subtracts it
/// where `negate`: the wrap r^k = −1) without a ripple: C = Cq 2^e + Cr and
/// 2^e = r − delta give C = (Cr − Cq delta) + Cq r.
fn fold_carry(c: &mut C, e: u32, delta: i128, digit: usize, negate: bool) {
    if e == 64 {
        c.line("const long Cq = (long)ch; const ulong Cr = cl;");
    } else {
        c.line(format!("const long Cq = (long)((ch << {}) | (cl >> {e})); const ulong Cr = cl & {:#x}UL;", 64 - e, (1u64 << e) - 1));
    }
    c.line(format!("const ulong dl = (ulong)Cq * (ulong){d}L; const int dh = (int)mul_hi(Cq, (long){d}L);", d = delta as i64));
    let (add, sub) = if negate { ("SRGFN_LZ_SUB", "SRGFN_LZ_ADD") } else { ("SRGFN_LZ_ADD", "SRGFN_LZ_SUB") };
    let (d0, d1) = (digit, digit + 1);
    c.line(format!("{add}(zl[{d0}], zh[{d0}], zl[{d0}], zh[{d0}], Cr, 0);"));
    c.line(format!("{sub}(zl[{d0}], zh[{d0}], zl[{d0}], zh[{d0}], dl, dh);"));
    c.line(format!("{add}(zl[{d1}], zh[{d1}], zl[{d1}], zh[{d1}], (ulong)Cq, (int)(Cq >> 63));"));
}

/// Operand splits a form needs before the products (limbs of every digit).
fn mul_prologue(c: &mut C, a: &ArithSpec) {
    let split = |c: &mut C, j: &str| match a.mul {
        MulForm::Wide64 => {}
        MulForm::Limb22 => {
            c.line(format!(
                "xa[{j}] = (uint)x[{j}] & 0x3fffffu; xb[{j}] = (uint)(x[{j}] >> 22) & 0x3fffffu; xc[{j}] = (uint)(x[{j}] >> 44);"
            ));
            c.line(format!(
                "ya[{j}] = (uint)y[{j}] & 0x3fffffu; yb[{j}] = (uint)(y[{j}] >> 22) & 0x3fffffu; yc[{j}] = (uint)(y[{j}] >> 44);"
            ));
        }
        MulForm::Mixed => {
            c.line(format!("xl[{j}] = (uint)x[{j}]; xh[{j}] = (uint)(x[{j}] >> 32);"));
            c.line(format!(
                "ya[{j}] = (uint)y[{j}] & 0x3fffffu; yb[{j}] = (uint)(y[{j}] >> 22) & 0x3fffffu; yc[{j}] = (uint)(y[{j}] >> 44);"
            ));
        }
    };
    match a.mul {
        MulForm::Wide64 => return,
        MulForm::Limb22 => c.line("uint xa[SRGFN_K], xb[SRGFN_K], xc[SRGFN_K], ya[SRGFN_K], yb[SRGFN_K], yc[SRGFN_K];"),
        MulForm::Mixed => c.line("uint xl[SRGFN_K], xh[SRGFN_K], ya[SRGFN_K], yb[SRGFN_K], yc[SRGFN_K];"),
    }
    if a.unrolled_mul() {
        for j in 0..a.k {
            split(c, &j.to_string());
        }
    } else {
        c.open("for (int j = 0; j < SRGFN_K; j++) {");
        split(c, "j");
        c.close("}");
    }
}

/// 64-bit bucket acc (+)= a·b (32×32→64): one `mad.wide.u32`.
fn mad_wide(a: &ArithSpec, acc: &str, x: &str, y: &str, first: bool) -> String {
    match (a.ptx, first) {
        (_, true) => format!("{acc} = (ulong){x} * {y};"),
        (true, false) => format!("asm(\"mad.wide.u32 %0, %1, %2, %0;\" : \"+l\"({acc}) : \"r\"({x}), \"r\"({y}));"),
        (false, false) => format!("{acc} += (ulong){x} * {y};"),
    }
}

/// The accumulator declarations of one coefficient (a positive and a negative
/// set).  `unrolled`: each wide64 set starts with `SRGFN_ACC_INIT`, so it is
/// not zeroed first.
fn mul_accumulators(a: &ArithSpec, unrolled: bool) -> &'static str {
    match a.mul {
        MulForm::Wide64 if unrolled => "srgfn_acc p, n;",
        MulForm::Wide64 => "srgfn_acc p, n; SRGFN_ACC_ZERO(p); SRGFN_ACC_ZERO(n);",
        MulForm::Limb22 => "ulong p0 = 0, p1 = 0, p2 = 0, p3 = 0, p4 = 0, n0 = 0, n1 = 0, n2 = 0, n3 = 0, n4 = 0;",
        MulForm::Mixed => "ulong pa = 0, pb = 0, pc = 0, qa = 0, qb = 0, qc = 0, na = 0, nb = 0, nc = 0, ma = 0, mb = 0, mc = 0;",
    }
}

/// `srgfn_acc`, the 192-bit accumulator of a sum of 64×64-bit digit
/// products, and its macros `SRGFN_ACC_ZERO(a)`, `SRGFN_ACC_MAC(a, x, y)`
/// (a += x·y), `SRGFN_ACC_INIT(a, x, y)` (a = x·y: the first product of a
/// sum, with no carries to take in), `SRGFN_ACC_GET(a, v0, v1, v2)` (the sum
/// as three words) and
/// `SRGFN_ACC_DIFF(v0, v1, v2, p, n)` (P − N as a signed 192-bit value).
///
/// Portable C: three words and one carry chain per product (`SRGFN_MAC3`;
/// the 64-bit `mad.lo.cc.u64` chain of PTX was this one with carry flags).
/// PTX: 32-bit limbs, an even part e4..e0 (160 bits) and an odd part o3..o1
/// (weight 2^32 per unit of o1).  With x = xh 2^32 + xl and y likewise,
/// x y = (xl yl + xh yh 2^64) + (xl yh + xh yl) 2^32: the even chain adds both
/// aligned products and ends in e4, the odd chain adds each cross product and
/// ends in o3, so no chain ripples further and GET folds the odd part in once.
/// e4 and o3 count carries (at most 1 and 2 per product): exact for fewer
/// than 2^31 products, and the sum of k products fits 160 bits for k < 2^32.
/// (H200, v12: the 64-bit `mad.lo.cc.u64` chains took about 15 SASS
/// instructions per digit product, the 32-bit limbs about 6; f_mul_lazy of
/// k = 8 1384 → 928 instructions.)
pub(super) fn accumulator(c: &mut C, a: &ArithSpec) {
    if !a.ptx {
        c.line("#define SRGFN_MAC3(a0, a1, a2, x, y) do { const ulong x_ = (x), y_ = (y), lo_ = x_ * y_, hi_ = mul_hi(x_, y_); const ulong s0_ = (a0) + lo_, c0_ = s0_ < lo_; const ulong s1_ = (a1) + hi_ + c0_; (a2) += (s1_ < hi_) | ((s1_ == hi_) & c0_); (a0) = s0_; (a1) = s1_; } while (0)");
        c.line("typedef struct { ulong a0, a1, a2; } srgfn_acc;");
        c.line("#define SRGFN_ACC_ZERO(a) ((a).a0 = (a).a1 = (a).a2 = 0)");
        c.line("#define SRGFN_ACC_MAC(a, x, y) SRGFN_MAC3((a).a0, (a).a1, (a).a2, x, y)");
        c.line("#define SRGFN_ACC_INIT(a, x, y) do { const ulong x_ = (x), y_ = (y); (a).a0 = x_ * y_; (a).a1 = mul_hi(x_, y_); (a).a2 = 0; } while (0)");
        c.line("#define SRGFN_ACC_GET(a, v0, v1, v2) ((v0) = (a).a0, (v1) = (a).a1, (v2) = (a).a2)");
        c.line("#define SRGFN_ACC_DIFF(v0, v1, v2, p, n) do { (v0) = (p).a0 - (n).a0; const ulong b0_ = (p).a0 < (n).a0; (v1) = (p).a1 - (n).a1 - b0_; \\");
        c.line("    (v2) = (p).a2 - (n).a2 - (((p).a1 < (n).a1) | (((p).a1 - (n).a1) < b0_)); } while (0)");
        return;
    }
    c.line("typedef struct { uint e0, e1, e2, e3, e4, o1, o2, o3; } srgfn_acc;");
    c.line("#define SRGFN_ACC_ZERO(a) ((a).e0 = (a).e1 = (a).e2 = (a).e3 = (a).e4 = (a).o1 = (a).o2 = (a).o3 = 0)");
    c.line("#define SRGFN_ACC_MAC(a, x, y) asm(\"{ .reg .u32 xl, xh, yl, yh; mov.b64 {xl, xh}, %8; mov.b64 {yl, yh}, %9;\\n\\t\" \\");
    c.line("    \"mad.lo.cc.u32 %0, xl, yl, %0; madc.hi.cc.u32 %1, xl, yl, %1; madc.lo.cc.u32 %2, xh, yh, %2; madc.hi.cc.u32 %3, xh, yh, %3; addc.u32 %4, %4, 0;\\n\\t\" \\");
    c.line("    \"mad.lo.cc.u32 %5, xl, yh, %5; madc.hi.cc.u32 %6, xl, yh, %6; addc.u32 %7, %7, 0;\\n\\t\" \\");
    c.line("    \"mad.lo.cc.u32 %5, xh, yl, %5; madc.hi.cc.u32 %6, xh, yl, %6; addc.u32 %7, %7, 0; }\" \\");
    c.line("    : \"+r\"((a).e0), \"+r\"((a).e1), \"+r\"((a).e2), \"+r\"((a).e3), \"+r\"((a).e4), \"+r\"((a).o1), \"+r\"((a).o2), \"+r\"((a).o3) : \"l\"(x), \"l\"(y))");
    // the first product of a sum: the same words with no carry to take in (two carry adds fewer)
    c.line("#define SRGFN_ACC_INIT(a, x, y) asm(\"{ .reg .u32 xl, xh, yl, yh; mov.b64 {xl, xh}, %8; mov.b64 {yl, yh}, %9;\\n\\t\" \\");
    c.line("    \"mul.lo.u32 %0, xl, yl; mul.hi.u32 %1, xl, yl; mul.lo.u32 %2, xh, yh; mul.hi.u32 %3, xh, yh; mov.u32 %4, 0;\\n\\t\" \\");
    c.line("    \"mul.lo.u32 %5, xl, yh; mul.hi.u32 %6, xl, yh; mov.u32 %7, 0;\\n\\t\" \\");
    c.line("    \"mad.lo.cc.u32 %5, xh, yl, %5; madc.hi.cc.u32 %6, xh, yl, %6; addc.u32 %7, %7, 0; }\" \\");
    c.line("    : \"=r\"((a).e0), \"=r\"((a).e1), \"=r\"((a).e2), \"=r\"((a).e3), \"=r\"((a).e4), \"=r\"((a).o1), \"=r\"((a).o2), \"=r\"((a).o3) : \"l\"(x), \"l\"(y))");
    c.line("#define SRGFN_ACC_GET(a, v0, v1, v2) asm(\"{ .reg .u32 t1, t2, t3, t4, z; mov.u32 z, 0;\\n\\t\" \\");
    c.line("    \"add.cc.u32 t1, %4, %8; addc.cc.u32 t2, %5, %9; addc.cc.u32 t3, %6, %10; addc.u32 t4, %7, 0;\\n\\t\" \\");
    c.line("    \"mov.b64 %0, {%3, t1}; mov.b64 %1, {t2, t3}; mov.b64 %2, {t4, z}; }\" \\");
    c.line("    : \"=l\"(v0), \"=l\"(v1), \"=l\"(v2) : \"r\"((a).e0), \"r\"((a).e1), \"r\"((a).e2), \"r\"((a).e3), \"r\"((a).e4), \"r\"((a).o1), \"r\"((a).o2), \"r\"((a).o3))");
    // P − N in one block: both odd parts folded in, then one 160-bit subtraction, sign-extended
    c.line("#define SRGFN_ACC_DIFF(v0, v1, v2, p, n) do { uint pe1_ = (p).e1, pe2_ = (p).e2, pe3_ = (p).e3, pe4_ = (p).e4, ne1_ = (n).e1, ne2_ = (n).e2, ne3_ = (n).e3, ne4_ = (n).e4; \\");
    c.line("    asm(\"{ .reg .u32 d0, s;\\n\\t\" \\");
    c.line("    \"add.cc.u32 %3, %3, %13; addc.cc.u32 %4, %4, %14; addc.cc.u32 %5, %5, %15; addc.u32 %6, %6, 0;\\n\\t\" \\");
    c.line("    \"add.cc.u32 %7, %7, %16; addc.cc.u32 %8, %8, %17; addc.cc.u32 %9, %9, %18; addc.u32 %10, %10, 0;\\n\\t\" \\");
    c.line("    \"sub.cc.u32 d0, %11, %12; subc.cc.u32 %3, %3, %7; subc.cc.u32 %4, %4, %8; subc.cc.u32 %5, %5, %9; subc.u32 %6, %6, %10;\\n\\t\" \\");
    c.line("    \"shr.s32 s, %6, 31; mov.b64 %0, {d0, %3}; mov.b64 %1, {%4, %5}; mov.b64 %2, {%6, s}; }\" \\");
    c.line("    : \"=l\"(v0), \"=l\"(v1), \"=l\"(v2), \"+r\"(pe1_), \"+r\"(pe2_), \"+r\"(pe3_), \"+r\"(pe4_), \"+r\"(ne1_), \"+r\"(ne2_), \"+r\"(ne3_), \"+r\"(ne4_) \\");
    c.line("    : \"r\"((p).e0), \"r\"((n).e0), \"r\"((p).o1), \"r\"((p).o2), \"r\"((p).o3), \"r\"((n).o1), \"r\"((n).o2), \"r\"((n).o3)); } while (0)");
}

/// `acc` += x_j y_l (64×64→128-bit product into the 192-bit accumulator);
/// `first`: `acc` = x_j y_l.
fn wide_product(acc: &str, j: &str, l: &str, first: bool) -> String {
    accumulate_product(acc, &format!("x[{j}]"), &format!("y[{l}]"), first)
}

/// `acc` += xo·yo for 64-bit C expressions xo and yo; `first`: `acc` = xo·yo.
pub(super) fn accumulate_product(acc: &str, xo: &str, yo: &str, first: bool) -> String {
    format!("SRGFN_ACC_{}({acc}, {xo}, {yo});", if first { "INIT" } else { "MAC" })
}

/// The statements adding x_j y_l to the positive (neg = false) or negative
/// accumulator set; j and l are C index expressions.  `first`: the set is
/// still zero (an assignment instead of an addition where that saves work).
fn product(a: &ArithSpec, j: &str, l: &str, neg: bool, first: bool) -> Vec<String> {
    match a.mul {
        MulForm::Wide64 => vec![wide_product(if neg { "n" } else { "p" }, j, l, first)],
        MulForm::Limb22 => {
            // buckets by weight 2^(22 b): limb u of x times limb w of y goes to b = u + w
            let acc = if neg { "n" } else { "p" };
            let mut v = Vec::new();
            for (u, xn) in ["xa", "xb", "xc"].iter().enumerate() {
                for (w, yn) in ["ya", "yb", "yc"].iter().enumerate() {
                    v.push(mad_wide(a, &format!("{acc}{}", u + w), &format!("{xn}[{j}]"), &format!("{yn}[{l}]"), false));
                }
            }
            v
        }
        MulForm::Mixed => {
            // low half of x into (p|n)a..c, high half into (q|m)a..c, by y's limb
            let (lo, hi) = if neg { ("n", "m") } else { ("p", "q") };
            let mut v = Vec::new();
            for (sfx, yn) in [("a", "ya"), ("b", "yb"), ("c", "yc")] {
                v.push(mad_wide(a, &format!("{lo}{sfx}"), &format!("xl[{j}]"), &format!("{yn}[{l}]"), first));
                v.push(mad_wide(a, &format!("{hi}{sfx}"), &format!("xh[{j}]"), &format!("{yn}[{l}]"), first));
            }
            v
        }
    }
}

/// v2:v1:v0 ← P − N, the signed coefficient, from the accumulator sets;
/// `no_negative`: N has no terms (the last coefficient of the unrolled form,
/// whose wide64 N was never set), so the coefficient is P.
fn combine(c: &mut C, a: &ArithSpec, no_negative: bool) {
    match a.mul {
        MulForm::Wide64 if no_negative => c.line("SRGFN_ACC_GET(p, v0, v1, v2);"),
        MulForm::Wide64 => c.line("SRGFN_ACC_DIFF(v0, v1, v2, p, n);"),
        MulForm::Limb22 => {
            c.line("/* c_i = sum_b (p_b - n_b) 2^(22 b), renormalised to 22-bit limbs and a signed top */");
            c.line("long t = (long)(p0 - n0);");
            c.line("const ulong l0 = (ulong)t & 0x3fffff; t = (t >> 22) + (long)(p1 - n1);");
            c.line("const ulong l1 = (ulong)t & 0x3fffff; t = (t >> 22) + (long)(p2 - n2);");
            c.line("const ulong l2 = (ulong)t & 0x3fffff; t = (t >> 22) + (long)(p3 - n3);");
            c.line("const ulong l3 = (ulong)t & 0x3fffff; t = (t >> 22) + (long)(p4 - n4);");
            c.line("v0 = l0 | (l1 << 22) | (l2 << 44); v1 = (l2 >> 20) | (l3 << 2) | ((ulong)t << 24); v2 = (ulong)(t >> 40);");
        }
        MulForm::Mixed => {
            c.line("/* low half L = (pa-na) + (pb-nb) 2^22 + (pc-nc) 2^44, high half H likewise: c_i = L + H 2^32 */");
            c.line("long t = (long)(pa - na); const ulong la = (ulong)t & 0x3fffff; t = (t >> 22) + (long)(pb - nb);");
            c.line("const ulong lb = (ulong)t & 0x3fffff; t = (t >> 22) + (long)(pc - nc);");
            c.line("const ulong L0 = la | (lb << 22) | ((ulong)t << 44); const long L1 = t >> 20;");
            c.line("long u = (long)(qa - ma); const ulong ha = (ulong)u & 0x3fffff; u = (u >> 22) + (long)(qb - mb);");
            c.line("const ulong hb = (ulong)u & 0x3fffff; u = (u >> 22) + (long)(qc - mc);");
            c.line("const ulong H0 = ha | (hb << 22) | ((ulong)u << 44); const long H1 = u >> 20;");
            c.line("const ulong s0 = H0 << 32, s1 = (H0 >> 32) | ((ulong)H1 << 32), s2 = (ulong)(H1 >> 32);");
            c.line("v0 = L0 + s0; { const ulong c0 = v0 < s0; const ulong t1 = (ulong)L1 + s1; const ulong c1 = t1 < s1; v1 = t1 + c0; v2 = (ulong)(L1 >> 63) + s2 + c1 + (v1 < c0); }");
        }
    }
}

/// The product loops of f_mul: every coefficient's accumulation and
/// combination into v2:v1:v0, then `per_coefficient(i)`.
fn products(c: &mut C, a: &ArithSpec, per_coefficient: &dyn Fn(&mut C, &str)) {
    let k = a.k;
    mul_prologue(c, a);
    c.line("ulong v0, v1, v2;");
    if a.unrolled_mul() {
        for i in 0..k {
            c.open(format!("{{ /* coefficient {i}: x_j y_(i-j), minus x_j y_(i-j+k) for j > i */"));
            c.line(mul_accumulators(a, true));
            for j in 0..k {
                let (l, neg) = if j <= i { (i - j, false) } else { (i + k - j, true) };
                for s in product(a, &j.to_string(), &l.to_string(), neg, j == 0 || j == i + 1) {
                    c.line(s);
                }
            }
            combine(c, a, i + 1 == k);
            per_coefficient(c, &i.to_string());
            c.close("}");
        }
    } else if a.mul == MulForm::Wide64 && k.is_multiple_of(MUL_TILE) {
        tiled_products(c, a, per_coefficient);
    } else {
        c.open("for (int i = 0; i < SRGFN_K; i++) {");
        c.line(mul_accumulators(a, false));
        c.open("for (int j = 0; j <= i; j++) {");
        for s in product(a, "j", "i - j", false, false) {
            c.line(s);
        }
        c.close("}");
        c.open("for (int j = i + 1; j < SRGFN_K; j++) {");
        for s in product(a, "j", "i - j + SRGFN_K", true, false) {
            c.line(s);
        }
        c.close("}");
        combine(c, a, false);
        per_coefficient(c, "i");
        c.close("}");
    }
}

/// Coefficients a work-item of the loop form accumulates at once (H200,
/// k = 32: 4 made f_mul 1.49× faster than 1, 8 was slower than 4:
/// docs/perf/h200-v8-tile).
const MUL_TILE: usize = 4;

/// The loop form of the wide64 products, in tiles of [`MUL_TILE`]
/// coefficients: a tile's accumulators are independent carry chains (the
/// multiplier stays busy) and each x_j loaded serves the whole tile.  For
/// coefficient i = i0 + c of tile i0, the term x_j y_(i−j) is positive for
/// j ≤ i and x_j y_(i−j+k) negative for j > i; j ≤ i0 is positive for the
/// whole tile, j ≥ i0 + T negative, and the T − 1 values of j between are
/// unrolled with the sign of each column a constant.
fn tiled_products(c: &mut C, a: &ArithSpec, per_coefficient: &dyn Fn(&mut C, &str)) {
    let t = MUL_TILE;
    let acc = |neg: bool, col: usize| format!("{}{col}", if neg { "n" } else { "p" });
    c.open(format!("for (int i0 = 0; i0 < SRGFN_K; i0 += {t}) {{"));
    for col in 0..t {
        c.line(format!("srgfn_acc p{col}, n{col}; SRGFN_ACC_ZERO(p{col}); SRGFN_ACC_ZERO(n{col});"));
    }
    c.open("for (int j = 0; j <= i0; j++) {");
    for col in 0..t {
        c.line(wide_product(&acc(false, col), "j", &format!("i0 + {col} - j"), false));
    }
    c.close("}");
    for m in 1..t {
        for col in 0..t {
            let (neg, l) = if col >= m { (false, format!("{}", col - m)) } else { (true, format!("{}", col + a.k - m)) };
            c.line(wide_product(&acc(neg, col), &format!("i0 + {m}"), &l, false));
        }
    }
    c.open(format!("for (int j = i0 + {t}; j < SRGFN_K; j++) {{"));
    for col in 0..t {
        c.line(wide_product(&acc(true, col), "j", &format!("i0 + {col} - j + SRGFN_K"), false));
    }
    c.close("}");
    for col in 0..t {
        c.open(format!("{{ const srgfn_acc p = p{col}, n = n{col}; /* coefficient i0 + {col} */"));
        combine(c, a, false);
        per_coefficient(c, &format!("i0 + {col}"));
        c.close("}");
    }
    c.close("}");
}

fn mul(c: &mut C, a: &ArithSpec) {
    c.line(format!(
        "/* z = x y mod p (thesis Algorithm 3.3), f_mul form {}{}: each coefficient c_i of the",
        a.mul.name(),
        if a.ptx { " with PTX carry chains" } else { "" }
    ));
    c.line(" * negacyclic product x(T) y(T) mod T^k + 1 as a signed 192-bit v2:v1:v0 (|c_i| < k r^2), the");
    c.line(" * incoming carry added, then digit i = v mod r and the carry floor(v / r) moves on; the");
    c.line(" * last carry C (|C| < (k + 2) r) leaves the top: Z + C r^k = Z - C, C = e1 r + e0. */");
    let inline = if a.unrolled_mul() { "static inline __attribute__((always_inline))" } else { "static" };
    c.open(format!("{inline} void f_mul(digit_t *z, const digit_t *x, const digit_t *y) {{"));
    c.line("digit_t zz[SRGFN_K];");
    c.line("ulong ch = 0, cl = 0;");
    products(c, a, &|c, i| {
        add_carry(c, a);
        c.line(format!("zz[{i}] = srgfn_sdivmod3(&ch, &cl, v0, v1, v2);"));
    });
    c.line("long e1;");
    c.line("const ulong e0 = srgfn_sdivmod2(&e1, cl, ch);");
    c.line("/* Z - e0 at digit 0 (one borrow), then -(e1 + borrow) at digit 1 */");
    c.line("const ulong b0 = zz[0] < e0;");
    c.line("zz[0] = zz[0] - e0 + (b0 ? SRGFN_R : 0);");
    c.line("srgfn_fold1(zz, -e1 - (long)b0);");
    c.line("f_copy(z, zz);");
    c.close("}");
    c.line("");
}

/// `f_mul_core(x, y)`: the product core of f_mul alone (the k² digit
/// products summed into signed coefficients, no base-r carries), its
/// coefficients mixed back into x so that a chain of calls stays live.  For
/// the micro-benchmark that measures the product-core rate.
pub fn render_core(a: &ArithSpec) -> String {
    let mut c = C::new();
    c.line("/* product core only: x_i <- the three words of coefficient c_i of x y mod T^k + 1, xor-ed */");
    c.open("static inline void f_mul_core(digit_t *x, const digit_t *y) {");
    c.line("digit_t zz[SRGFN_K];");
    products(&mut c, a, &|c, i| c.line(format!("zz[{i}] = v0 ^ v1 ^ v2;")));
    c.line("f_copy(x, zz);");
    c.close("}");
    c.out
}
