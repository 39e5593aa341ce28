//! The fast path of `srgfn_norm`: one round per digit and no correction.
//!
//! `srgfn_norm` (lazy.rs) splits each lazy digit plus the incoming carry,
//! v = h 2^64 + l + q, as q' = ⌊v / 2^e⌋, d = (v mod 2^e) − q' δ (r = 2^e + δ,
//! δ = ±2^u), then corrects d into [0, r) and carries q' on.  Where one round
//! leaves d in [0, r) for all but a small fraction of inputs (|δ| 2^levels far
//! below r), the correction is dropped: each digit only records whether its
//! d left [0, r), and an element with any such digit is normalised again by
//! the exact path from its untouched lazy digits.  The fast digits satisfy
//! Σ d_i r^i − q'_(k−1) ≡ Σ v_i r^i exactly (the last quotient wraps around
//! onto digit 0, r^k = −1), so when every d_i lies in [0, r) they are the
//! canonical digits (p − 1 = (0,…,0,r) has none such and always takes the
//! exact path).
//!
//! With PTX each digit is one carry chain on 32-bit words (about 14
//! instructions against about 40 for the exact step), and the range test is
//! conservative: d passes when its bits above 32 are below ⌊r / 2^32⌋.

use super::arith::{ArithSpec, C};
use super::lazy::{round, LazySpec};

/// The constants of the fast path for one prime (None where it does not apply).
#[derive(Clone, Debug, PartialEq)]
pub struct FastNorm {
    /// 2^e is the power of two nearest to r (33 ≤ e ≤ 64).
    pub e: u32,
    /// |δ| = 2^u, δ = r − 2^e.
    pub u: u32,
    /// Whether δ < 0.
    pub negative: bool,
    /// The radix.
    pub r: u64,
}

impl FastNorm {
    /// The largest share of r that 2^levels |δ| may take (2^−10): a digit
    /// grown over the levels from one of size r carries a quotient of about
    /// 2^levels, and where that times δ is a sizeable part of r the exact
    /// path would run for many elements (k = 2's 2^63 + 2^53: 2^−8).  The
    /// bound's quotient is larger (214 at k = 8, as level0 is f_mul_lazy's
    /// bound, about 13 r); that only makes the exact path more frequent on
    /// extreme inputs.
    pub const MAX_SPREAD_LOG2: i32 = -10;

    /// The fast path of a prime's `srgfn_norm`, where one round converges,
    /// δ is a signed power of two, the quotients fit 32 bits and the exact
    /// path stays rare; only where `srgfn_norm` is straight-line code
    /// (k ≤ 32, `ArithSpec::unrolled_ops`): above, the digits variant, which
    /// needs no `srgfn_norm`, is the only one that runs.
    pub fn of(a: &ArithSpec, l: &LazySpec) -> Option<FastNorm> {
        if !a.unrolled_ops()
            || l.rounds != Some(1)
            || l.delta == 0
            || !l.delta.unsigned_abs().is_power_of_two()
            || !(33..=64).contains(&l.e)
        {
            return None;
        }
        let u = l.delta.unsigned_abs().trailing_zeros();
        // |q'| < 2^30: ⌊v / 2^e⌋ of the largest lazy digit plus its carry
        let q_max = LazySpec::split_bound(l.levels, l.level0) / (2f64).powi(l.e as i32) + 2.0;
        let spread = (2f64).powi(l.levels as i32 + u as i32) / l.r as f64;
        (u < l.e && q_max < (2f64).powi(30) && spread <= (2f64).powi(Self::MAX_SPREAD_LOG2)).then_some(FastNorm {
            e: l.e,
            u,
            negative: l.delta < 0,
            r: l.r,
        })
    }

    /// ⌊r / 2^32⌋: a fast digit passes when its bits above 32 are below this.
    pub fn r_hi(&self) -> u32 {
        (self.r >> 32) as u32
    }

    /// The C type of the carry q between digits.
    fn q_type(ptx: bool) -> &'static str {
        if ptx {
            "int"
        } else {
            "long"
        }
    }

    /// `SRGFN_NORM_STEP(z, q, bad, l, h)`: z = the fast digit of v = h 2^64 + l + q,
    /// q = ⌊v / 2^e⌋, bad |= (nonzero where z may lie outside [0, r)); and
    /// `SRGFN_NORM_WRAP(z0, bad, q)`: z0 −= q, with the same test.
    pub(super) fn render_macros(&self, c: &mut C, l: &LazySpec, ptx: bool) {
        if ptx {
            self.ptx_macros(c)
        } else {
            Self::c_macros(c, l)
        }
    }

    /// The portable step as a function around lazy.rs's round (the exact path's first step),
    /// with the range test instead of the correction.
    fn c_macros(c: &mut C, l: &LazySpec) {
        c.open("static inline ulong srgfn_norm_step(long *q_, uint *bad, ulong l, int h) {");
        c.line("const long cin = *q_;");
        c.line("ulong vl = l + (ulong)cin;");
        c.line("long vh = (long)h + (cin >> 63) + (long)(vl < (ulong)cin);");
        c.line("long q = 0;");
        c.line(round(l));
        c.line("*bad |= (uint)(vh != 0) | (uint)(vl >= SRGFN_R);");
        c.line("*q_ = q;");
        c.line("return vl;");
        c.close("}");
        c.line("#define SRGFN_NORM_STEP(z, q, bad, l, h) ((z) = srgfn_norm_step(&(q), &(bad), (l), (h)))");
        c.line("#define SRGFN_NORM_WRAP(z0, bad, q) do { const ulong dl_ = (z0) - (ulong)(q); const long dh_ = -((q) >> 63) - (long)((z0) < (ulong)(q)); (bad) |= (uint)(dh_ != 0) | (uint)(dl_ >= SRGFN_R); (z0) = dl_; } while (0)");
    }

    /// The PTX step: %0 = z, %1 = q (in and out), %2 = bad, %3 = l, %4 = h.
    fn ptx_macros(&self, c: &mut C) {
        let (e, u, r_hi) = (self.e, self.u, self.r_hi());
        let mut s = vec![
            ".reg .u32 zr, l0, l1, cs, a0, a1, a2, t0, t1, t2, g".to_string(),
            "mov.u32 zr, 0".into(),
            "mov.b64 {l0, l1}, %3".into(),
            "shr.s32 cs, %1, 31".into(),
            "add.cc.u32 a0, l0, %1".into(),
            "addc.cc.u32 a1, l1, cs".into(),
            "addc.u32 a2, %4, cs".into(),
        ];
        // q' = floor(v / 2^e) into %1; rho = v mod 2^e in a1:a0
        if e == 64 {
            s.push("mov.u32 %1, a2".into());
        } else {
            s.push(format!("shf.r.clamp.b32 %1, a1, a2, {}", e - 32));
            s.push(format!("and.b32 a1, a1, {}", (1u64 << (e - 32)) - 1));
        }
        // t = q' 2^u as the signed words t2:t1:t0, then d = rho -/+ t
        let op = if self.negative { "add" } else { "sub" };
        let top = if self.negative { "addc.u32 a2, t2, zr" } else { "subc.u32 a2, zr, t2" };
        if u >= 32 {
            s.push(format!("shl.b32 t1, %1, {}", u - 32));
            s.push(format!("shr.s32 t2, %1, {}", (64 - u).min(31)));
            s.push(format!("{op}.cc.u32 a1, a1, t1"));
        } else {
            s.push(format!("shl.b32 t0, %1, {u}"));
            s.push(format!("shr.s32 t1, %1, {}", (32 - u).min(31)));
            s.push("shr.s32 t2, %1, 31".into());
            s.push(format!("{op}.cc.u32 a0, a0, t0"));
            s.push(format!("{op}c.cc.u32 a1, a1, t1"));
        }
        s.push(top.into());
        // bad |= a2 | (a1 >= r_hi): g = -1 exactly when a1 - r_hi borrows
        s.extend([
            format!("sub.cc.u32 g, a1, {r_hi}"),
            "subc.u32 g, zr, zr".into(),
            "not.b32 g, g".into(),
            "or.b32 %2, %2, a2".into(),
            "or.b32 %2, %2, g".into(),
            "mov.b64 %0, {a0, a1}".into(),
        ]);
        c.line(format!(
            "#define SRGFN_NORM_STEP(z, q, bad, l, h) asm(\"{{ {}; }}\" : \"=l\"(z), \"+r\"(q), \"+r\"(bad) : \"l\"(l), \"r\"(h))",
            s.join(";\\n\\t")
        ));
        let w = [
            ".reg .u32 zr, w0, w1, qs, x2, g".to_string(),
            "mov.u32 zr, 0".into(),
            "mov.b64 {w0, w1}, %0".into(),
            "shr.s32 qs, %2, 31".into(),
            "sub.cc.u32 w0, w0, %2".into(),
            "subc.cc.u32 w1, w1, qs".into(),
            "subc.u32 x2, zr, qs".into(),
            format!("sub.cc.u32 g, w1, {r_hi}"),
            "subc.u32 g, zr, zr".into(),
            "not.b32 g, g".into(),
            "or.b32 %1, %1, x2".into(),
            "or.b32 %1, %1, g".into(),
            "mov.b64 %0, {w0, w1}".into(),
        ];
        c.line(format!("#define SRGFN_NORM_WRAP(z0, bad, q) asm(\"{{ {}; }}\" : \"+l\"(z0), \"+r\"(bad) : \"r\"(q))", w.join(";\\n\\t")));
    }

    /// `srgfn_norm` through the fast path, `srgfn_norm_exact` where a digit left [0, r).
    pub(super) fn render_norm(&self, c: &mut C, a: &ArithSpec) {
        c.line("/* fast path (emit/fastnorm.rs): one round per digit, no correction; any digit that may lie");
        c.line(" * outside [0, r) sends the element through srgfn_norm_exact from its lazy digits */");
        c.open("static inline void srgfn_norm(digit_t *z, const ulong *lo, const int *hi) {");
        c.line(format!("{} q = 0;", Self::q_type(a.ptx)));
        c.line("uint bad = 0;");
        for i in 0..a.k {
            c.line(format!("SRGFN_NORM_STEP(z[{i}], q, bad, lo[{i}], hi[{i}]);"));
        }
        c.line("SRGFN_NORM_WRAP(z[0], bad, q);");
        c.line("if (bad) srgfn_norm_exact(z, lo, hi);");
        c.close("}");
        c.line("");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::MulForm;
    use crate::prime::Prime;
    use rand::{Rng, SeedableRng};

    /// The host model of the fast step: (digit, quotient, passes the test).
    fn step(f: &FastNorm, v: i128) -> (i128, i128, bool) {
        let two_e = 1i128 << f.e;
        let q = v.div_euclid(two_e);
        let delta = if f.negative { -(1i128 << f.u) } else { 1i128 << f.u };
        let d = v.rem_euclid(two_e) - q * delta;
        (d, q, (0..(f.r_hi() as i128) << 32).contains(&d))
    }

    fn fast(text: &str) -> (LazySpec, Option<FastNorm>) {
        let prime = Prime::parse(text).unwrap();
        let a = ArithSpec::new(&prime, MulForm::Wide64, true);
        let l = LazySpec::of(&a);
        let f = FastNorm::of(&a, &l);
        (l, f)
    }

    #[test]
    fn the_catalog_primes_of_k_4_8_16_take_the_fast_path_and_the_others_do_not() {
        for text in ["(2^64-2^50)^4+1", "(2^63+2^34)^8+1", "(2^62+2^36)^16+1"] {
            assert!(fast(text).1.is_some(), "{text}");
        }
        // k = 2: 2^2 levels times delta = 2^53 is 2^-8 of r, the exact path would run too often;
        // k = 32: delta = 2^56 is far too large; k = 64, 128: srgfn_norm is not straight-line there
        for text in ["(2^63+2^53)^2+1", "(2^62+2^56)^32+1", "(2^63-2^40)^64+1", "(2^64-2^28)^128+1"] {
            assert!(fast(text).1.is_none(), "{text}");
        }
    }

    /// Within the bound, the quotient is ⌊v / 2^e⌋ and a digit that passes
    /// the test is v mod r with v div r carried (Euclidean division by r, not
    /// by 2^e and δ as the step does); passing digits are the rule.
    #[test]
    fn a_fast_digit_that_passes_is_the_exact_digit() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        for text in ["(2^64-2^50)^4+1", "(2^63+2^34)^8+1", "(2^62+2^36)^16+1"] {
            let (l, f) = fast(text);
            let f = f.unwrap();
            let r = l.r as i128;
            let bound = LazySpec::split_bound(l.levels, l.level0) as i128;
            let (mut passed, mut total) = (0, 0);
            let near: Vec<i128> = (0..20000).map(|_| rng.gen_range(-4 * r..=4 * r)).collect();
            let wide: Vec<i128> = (0..20000).map(|_| rng.gen_range(-bound..=bound)).collect();
            for v in [0, 1, -1, r - 1, r, r + 1, -r, bound, -bound, 2 * r - 1].into_iter().chain(near).chain(wide) {
                let (d, q, ok) = step(&f, v);
                assert_eq!(q, v.div_euclid(1i128 << f.e), "{text}: v = {v}");
                if ok {
                    assert_eq!((d, q), (v.rem_euclid(r), v.div_euclid(r)), "{text}: v = {v} passes");
                    passed += 1;
                }
                total += 1;
            }
            assert!(passed as f64 > 0.99 * total as f64, "{text}: {passed} of {total} fast");
        }
    }
}
