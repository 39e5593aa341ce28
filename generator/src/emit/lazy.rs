//! Lazy elements: the butterflies of one pass without carries.
//!
//! Inside a pass, digit i of an element is a signed 96-bit value d_i =
//! h_i 2^64 + l_i (`ulong l`, `int h`), the element Σ d_i r^i mod p.  An
//! addition or subtraction of two elements is one 96-bit add or subtract per
//! digit (three instructions, no carry between digits), and x · r^s is a
//! rotation of the digits with the wrapped ones negated (r^k = −1): for a
//! constant s a renaming, for a run-time s an address computation.  After L
//! butterfly levels |d_i| ≤ 2^L r.  Each output element is normalised once
//! (`srgfn_norm`): per digit, q = ⌊v / 2^e⌋ for the power of two 2^e nearest
//! to r, v − q r = (v mod 2^e) − q δ with δ = r − 2^e, repeated while the bound
//! needs it, then one correction into [0, r); the small quotient carries on,
//! and the last one folds back at digit 0.

use super::arith::{each_in, ArithSpec, Loops, C};
use super::fastnorm::FastNorm;
pub use super::mul_split::{MulSplit, SplitForm, STORED_DIGIT_BITS, WIDE_STORED_DIGIT_BITS};

/// The power of two 2^e nearest to r, and δ = r − 2^e.
pub fn nearest_power(r: u64) -> (u32, i128) {
    let lo = 63 - r.leading_zeros();
    let e = if (r as u128) - (1u128 << lo) <= (1u128 << (lo + 1)) - r as u128 { lo } else { lo + 1 };
    (e, r as i128 - (1i128 << e))
}

/// Rounds of v ← (v mod 2^e) − ⌊v / 2^e⌋ δ that take every integer v with
/// |v| ≤ `v_max` into [−r, 2r), where one correction ends the split, by
/// exact interval arithmetic (`floor` and `mod` of the emitted rounds); None
/// beyond `max_rounds` or where a round does not shrink the interval.
pub fn exact_rounds(r: u64, v_max: i128, max_rounds: u32) -> Option<u32> {
    let (e, delta) = nearest_power(r);
    let (r, two_e) = (r as i128, 1i128 << e);
    let (mut lo, mut hi) = (-v_max, v_max);
    for rounds in 0..=max_rounds {
        if lo >= -r && hi < 2 * r {
            return Some(rounds);
        }
        let (qmin, qmax) = (lo.div_euclid(two_e), hi.div_euclid(two_e));
        let (nlo, nhi) = if delta >= 0 { (-qmax * delta, two_e - 1 - qmin * delta) } else { (qmin * -delta, two_e - 1 + qmax * -delta) };
        if nhi - nlo >= hi - lo {
            return None;
        }
        (lo, hi) = (nlo, nhi);
    }
    None
}

/// The normalisation constants of a prime for lazy digits of L levels.
#[derive(Clone, Debug, PartialEq)]
pub struct LazySpec {
    /// Digits per element.
    pub k: usize,
    /// The radix.
    pub r: u64,
    /// 2^e is the power of two nearest to r (e ≤ 64).
    pub e: u32,
    /// δ = r − 2^e.
    pub delta: i128,
    /// Rounds of q = ⌊v / 2^e⌋, v ← (v mod 2^e) − q δ before the last
    /// correction; None where δ is too large a part of r for the rounds to
    /// converge (radices like 2^58 + 2^57 − 2^36): there each digit is divided
    /// exactly (`srgfn_sdivmod3`).
    pub rounds: Option<u32>,
    /// Butterfly levels the bound allows.
    pub levels: u32,
    /// Bound on the digits of a pass's inputs (r, or f_mul_lazy's outputs).
    pub level0: f64,
}

impl LazySpec {
    /// Constants for up to `levels` butterfly levels on inputs with digits ≤ `level0`.
    pub fn new(k: usize, r: u64, levels: u32, level0: f64) -> LazySpec {
        let (e, delta) = nearest_power(r);
        let (rf, two_e) = (r as f64, (2f64).powi(e as i32));
        // bound the value through the rounds: each leaves v in [−|q||δ|, 2^e + |q||δ|);
        // the one correction after them needs [−r, 2r)
        let mut v_max = Self::split_bound(levels, level0);
        let mut rounds = Some(0);
        loop {
            let spread = (v_max / two_e + 2.0) * delta.unsigned_abs() as f64;
            rounds = rounds.map(|n| n + 1);
            if spread <= rf && two_e + spread < 2.0 * rf {
                break;
            }
            if rounds >= Some(4) || two_e + spread >= v_max {
                rounds = None;
                break;
            }
            v_max = two_e + spread;
        }
        LazySpec { k, r, e, delta, rounds, levels, level0 }
    }

    /// The largest |v| the rounds are set for: digits of `levels` lazy
    /// butterfly levels over inputs ≤ `level0`, plus a carry below 2^10.
    pub fn split_bound(levels: u32, level0: f64) -> f64 {
        (1u64 << levels) as f64 * level0 + 1024.0
    }

    /// The constants for the arithmetic `a` is emitted with: the levels a
    /// pass runs lazily, on inputs bounded as its f_mul leaves them.
    pub fn of(a: &ArithSpec) -> LazySpec {
        // f_mul_lazy's digits, or f_mul_lazy_wide's where there is one (larger)
        let level0 = match (a.unrolled_mul(), MulSplit::of(a.k, a.r)) {
            (true, Some(split)) => {
                MulSplit::wide(a.k, a.r).map_or(split.digit_bound(a.r), |w| w.digit_bound(a.r).max(split.digit_bound(a.r)))
            }
            _ => 2.0 * a.r as f64 + (a.k as f64 + 4.0) * a.r as f64,
        };
        LazySpec::new(a.k, a.r, (2 * a.k).trailing_zeros(), level0)
    }
}

/// The lazy digit operations (macros), printed before the arithmetic that uses them.
pub fn render_ops(a: &ArithSpec) -> String {
    let mut out = String::new();
    out.push_str("/* x r^s for 0 <= s < 2k, a rotation of the digits: digit d of x lands at digit SRGFN_ROT_TO(d, s) =\n");
    out.push_str(" * (d + s) mod k, negated where SRGFN_ROT_NEG(d, s), i.e. where it wrapped once (r^k = -1) */\n");
    out.push_str("#define SRGFN_ROT_TO(d, s) (((d) + (s)) & (SRGFN_K - 1))\n");
    out.push_str("#define SRGFN_ROT_NEG(d, s) ((((d) + ((s) & (SRGFN_K - 1))) >= SRGFN_K) != (((s) & SRGFN_K) != 0))\n");
    out.push_str("/* Lazy digits inside a pass: (l, h) is the signed 96-bit h 2^64 + l.  z = a + b, z = a - b: */\n");
    if a.ptx {
        out.push_str("#define SRGFN_LZ_ADD(zl, zh, al, ah, bl, bh) asm(\"add.cc.u64 %0, %2, %4;\\n\\taddc.s32 %1, %3, %5;\" : \"=l\"(zl), \"=r\"(zh) : \"l\"(al), \"r\"(ah), \"l\"(bl), \"r\"(bh))\n");
        out.push_str("#define SRGFN_LZ_SUB(zl, zh, al, ah, bl, bh) asm(\"sub.cc.u64 %0, %2, %4;\\n\\tsubc.s32 %1, %3, %5;\" : \"=l\"(zl), \"=r\"(zh) : \"l\"(al), \"r\"(ah), \"l\"(bl), \"r\"(bh))\n");
    } else {
        out.push_str("#define SRGFN_LZ_ADD(zl, zh, al, ah, bl, bh) do { const ulong s_ = (al) + (bl); (zh) = (ah) + (bh) + (int)(s_ < (bl)); (zl) = s_; } while (0)\n");
        out.push_str("#define SRGFN_LZ_SUB(zl, zh, al, ah, bl, bh) do { const ulong s_ = (al) - (bl); (zh) = (ah) - (bh) - (int)((al) < (bl)); (zl) = s_; } while (0)\n");
    }
    out
}

/// The body of a split of v = vh 2^64 + vl: `rounds` rounds of
/// v ← (v mod 2^e) − ⌊v / 2^e⌋ δ, their quotients summed, then the one
/// correction (`srgfn_correct`); the caller's rounds take v into [−r, 2r).
fn split_rounds_body(c: &mut C, l: &LazySpec, rounds: u32) {
    c.line("long q = 0;");
    for _ in 0..rounds {
        c.line(round(l));
    }
    c.line("/* v in [-r, 2r): one correction */");
    c.line("long c;");
    c.line("vl = srgfn_correct(&c, vl, vh);");
    c.line("*q_ = q + c;");
    c.line("return vl;");
}

/// `srgfn_norm`, the normalisation of a lazy element, for the field header.
pub fn render_norm(a: &ArithSpec) -> String {
    let l = LazySpec::of(a);
    let mut out = String::new();
    out.push_str(&format!("\n/* z = the canonical element of sum_i (h_i 2^64 + l_i) r^i mod p, |digits| <= 2^{} r: per digit\n", l.levels));
    match l.rounds {
        Some(rounds) => out.push_str(&format!(
            " * q = floor(v / 2^{e}), v <- (v mod 2^{e}) - q delta (delta = r - 2^{e} = {d}), {rounds} round(s), then one\n * correction into [0, r); the quotients carry on and the last folds back (r^k = -1). */\n",
            e = l.e,
            d = l.delta,
        )),
        None => out.push_str(" * an exact floor division by r (r is far from a power of two); the quotients carry on and the\n * last folds back (r^k = -1). */\n"),
    }
    let mut c = C::new();
    c.line("/* v = vh 2^64 + vl in [-r, 2r): returns v mod r, *q = floor(v / r) in {-1, 0, 1} (one correction) */");
    c.open("static inline ulong srgfn_correct(long *q_, ulong vl, long vh) {");
    c.line("const int neg = vh < 0, ge = !neg && (vh > 0 || vl >= SRGFN_R);");
    c.line("*q_ = ge - neg;");
    c.line("return vl + (neg ? SRGFN_R : (ge ? (ulong)0 - SRGFN_R : 0));");
    c.close("}");
    c.line("");
    // one digit: v = vh 2^64 + vl split into v mod r and floor(v / r)
    c.line("/* v = vh 2^64 + vl (a lazy digit plus a carry, within the bound above): returns v mod r in [0, r),");
    c.line(" * *q = floor(v / r).  srgfn_norm's step, and the digits variant's carries. */");
    split_fn(&mut c, &l, "srgfn_split_lazy", l.rounds);
    // the digits variant's store phase: its second split takes a digit in [0, r) plus a small carry
    c.line("/* v = vh 2^64 + vl, a digit in [0, r) plus the quotient of a first split (srgfn_split_digit's):");
    c.line(" * v mod r and *q = floor(v / r).  The digits variant's store phase, second round. */");
    c.open("static inline ulong srgfn_split_carry(long *q_, ulong vl, long vh) {");
    if super::digit_bounds::carry_split_is_one_correction(a.k, a.r) {
        c.line("/* that quotient is below r: v in [-r, 2r) */");
        c.line("return srgfn_correct(q_, vl, vh);");
    } else {
        c.line("/* r is too small for one correction to take that quotient */");
        c.line("return srgfn_split_lazy(q_, vl, vh);");
    }
    c.close("}");
    c.line("");
    // the digits variant's splits of lazy digits (store phase) and of the twiddle phase's second round,
    // with rounds for their own bound, tighter than srgfn_norm's; a kernel without twiddles has its own
    let v_max = super::digit_bounds::split_digit_bound(a.k, a.r);
    c.line(format!("/* v = vh 2^64 + vl, |v| <= {v_max} (the digits variant's lazy digits and twiddle-phase carries,"));
    c.line(
        " * emit/digit_bounds.rs split_digit_bound): v mod r and *q = floor(v / r), rounds set for that bound (lazy.rs exact_rounds) */",
    );
    split_fn(&mut c, &l, "srgfn_split_digit", exact_rounds(a.r, v_max, 4));
    let v_first = super::digit_bounds::split_first_bound(a.k, a.r);
    c.line(format!("/* the same for |v| <= {v_first}: the lazy digits of a digits kernel without twiddles (split_first_bound) */"));
    split_fn(&mut c, &l, "srgfn_split_first", exact_rounds(a.r, v_first, 4));
    // srgfn_norm, and srgfn_norm_rolled for rare paths (see `Loops::Rolled`); with the
    // fast path (fastnorm.rs) the straight-line exact form is srgfn_norm_exact.  The rolled
    // form is the digits variant's exact path: its digits and carries are srgfn_split_digit's
    let fast = FastNorm::of(a, &l);
    for loops in [Loops::ByK, Loops::Rolled] {
        let sfx = match (loops, &fast) {
            (Loops::ByK, Some(_)) => "_exact",
            _ => loops.suffix(),
        };
        let split = if loops == Loops::Rolled { "srgfn_split_digit" } else { "srgfn_split_lazy" };
        c.open(format!("static inline void srgfn_norm{sfx}(digit_t *z, const ulong *lo, const int *hi) {{"));
        c.line("long cy = 0;");
        let digit = "{ const ulong vl = lo[I] + (ulong)cy; const long vh = (long)hi[I] + (cy >> 63) + (long)(vl < (ulong)cy); z[I] = SPLIT(&cy, vl, vh); }";
        let digit = digit.replace("SPLIT", split);
        each_in(&mut c, a, loops, 0, l.k, &|i| digit.replace("[I]", &format!("[{i}]")));
        c.line(format!("srgfn_fold0{}(z, -cy);", loops.suffix()));
        c.close("}");
        c.line("");
    }
    if let Some(f) = fast {
        f.render_macros(&mut c, &l, a.ptx);
        f.render_norm(&mut c, a);
    }
    out.push_str(&c.out);
    out.push('\n');
    out
}

/// A split of v = vh 2^64 + vl into v mod r and ⌊v / r⌋: `rounds` rounds
/// set for its bound and one correction, or an exact division where no
/// rounds converge (for the digits variant's splits `srgfn_split_lazy`'s
/// rounds are set for a smaller bound, so they divide exactly too).
fn split_fn(c: &mut C, l: &LazySpec, name: &str, rounds: Option<u32>) {
    c.open(format!("static inline ulong {name}(long *q_, ulong vl, long vh) {{"));
    match rounds {
        Some(rounds) => split_rounds_body(c, l, rounds),
        None => {
            c.line("ulong qh, ql;");
            c.line("const ulong d = srgfn_sdivmod3(&qh, &ql, vl, (ulong)vh, (ulong)(vh >> 63));");
            c.line("*q_ = (long)ql;");
            c.line("return d;");
        }
    }
    c.close("}");
    c.line("");
}

/// One round: q' = ⌊v / 2^e⌋, v ← (v mod 2^e) − q' δ, q += q'.
pub(super) fn round(l: &LazySpec) -> String {
    let e = l.e;
    let mut v = vec![if e == 64 {
        "{ const long qq = vh; ulong tl, rho = vl; long th;".to_string()
    } else {
        format!(
            "{{ const long qq = (long)(((ulong)vh << {}) | (vl >> {e})); ulong tl, rho = vl & {:#x}UL; long th;",
            64 - e,
            (1u64 << e) - 1
        )
    }];
    // t = qq δ as a signed 128-bit th:tl
    let mag = l.delta.unsigned_abs();
    if mag == 0 {
        v.push("tl = 0; th = 0;".into());
    } else if mag.is_power_of_two() {
        let u = mag.trailing_zeros();
        let (pos_l, pos_h) = if u == 0 {
            ("(ulong)qq".to_string(), "qq >> 63".to_string())
        } else {
            (format!("(ulong)qq << {u}"), format!("qq >> {}", 64 - u))
        };
        v.push(format!("tl = {pos_l}; th = {pos_h};"));
        if l.delta < 0 {
            v.push("th = -th - (long)(tl != 0); tl = (ulong)0 - tl;".into());
        }
    } else {
        v.push(format!("tl = (ulong)qq * (ulong){}L; th = mul_hi(qq, (long){}L);", l.delta as i64, l.delta as i64));
    }
    v.push("vh = -th - (long)(rho < tl); vl = rho - tl; q += qq; }".into());
    v.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The host model of `srgfn_norm`'s per-digit step: the rounds, then the
    /// one correction; returns (digit, quotient).
    fn model(l: &LazySpec, v: i128) -> (i128, i128) {
        let (r, two_e) = (l.r as i128, 1i128 << l.e);
        let (mut v, mut q) = (v, 0i128);
        for _ in 0..l.rounds.expect("the rounds converge") {
            let qq = v.div_euclid(two_e);
            v = v.rem_euclid(two_e) - qq * l.delta;
            q += qq;
        }
        if v < 0 {
            (v + r, q - 1)
        } else if v >= r {
            (v - r, q + 1)
        } else {
            (v, q)
        }
    }

    /// Radices of every shape: near a power of two from either side, two to
    /// four terms, and one far from any power of two (exact division then).
    #[test]
    fn normalisation_rounds_give_the_floor_division_within_their_bound() {
        let radices: [u64; 7] = [
            (1 << 63) + (1 << 34),
            u64::MAX - (1 << 50) + 1,
            (1 << 62) + (1 << 56),
            (1 << 63) - (1 << 40),
            (1 << 59) + (1 << 57) + (1 << 39),
            (1 << 58) + (1 << 57) - (1 << 36),
            (1 << 40) + (1 << 20) - (1 << 3) + 1,
        ];
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for r in radices {
            for levels in [1, 4, 7] {
                let l = LazySpec::new(8, r, levels, 4.0 * r as f64);
                let Some(_) = l.rounds else {
                    // far from a power of two: the exact division path; 2^58 + 2^57 is the case here
                    assert!(l.delta.unsigned_abs() as f64 > r as f64 / 8.0, "r = {r:#x} should converge");
                    continue;
                };
                let bound = ((1u128 << levels) as f64 * 4.0 * r as f64) as i128;
                for v in [bound, -bound, 0, r as i128, -(r as i128), r as i128 - 1]
                    .into_iter()
                    .chain((0..2000).map(|_| rng.gen_range(-bound..=bound)))
                {
                    let (d, q) = model(&l, v);
                    assert!((0..r as i128).contains(&d), "r = {r:#x}, v = {v}: digit {d}");
                    assert_eq!(q * r as i128 + d, v, "r = {r:#x}, v = {v}");
                }
            }
        }
    }

    /// Every lazy digit a pass of the local, table or fused variant stores
    /// fits `SL` and a signed byte of `SH` (f_mul_lazy's), or two bytes
    /// (f_mul_lazy_wide's), for the radices of every shape.
    #[test]
    fn lazy_digits_of_a_pass_fit_local_memory() {
        for (k, r) in [
            (2usize, (1u64 << 63) + (1 << 53)),
            (4, u64::MAX - (1 << 50) + 1),
            (8, (1 << 63) + (1 << 34)),
            (16, (1 << 62) + (1 << 36)),
            (16, u64::MAX - (1 << 32) + 1),
        ] {
            let a = ArithSpec { k, r, shift: r.leading_zeros(), mul: crate::emit::MulForm::Wide64, ptx: true };
            let l = LazySpec::of(&a);
            let levels = (1u64 << l.levels) as f64;
            let byte = MulSplit::of(k, r).map_or(l.level0, |sp| sp.digit_bound(r));
            assert!(levels * byte < 2f64.powi(STORED_DIGIT_BITS), "k = {k}, r = {r:#x}: 2^{:.2}", (levels * byte).log2());
            assert!(levels * l.level0 < 2f64.powi(WIDE_STORED_DIGIT_BITS), "k = {k}, r = {r:#x}: 2^{:.2}", (levels * l.level0).log2());
        }
    }
}

#[cfg(test)]
mod carry_split_tests {
    use super::*;
    use crate::emit::MulForm;

    /// The digits variant's second store split is one correction for every
    /// catalog prime and a searched three-term one (the first split's
    /// quotient is far below r), and falls back to `srgfn_split_lazy` where r
    /// is too small for it (r = 6, k = 2: p = 37).
    #[test]
    fn second_store_split_is_one_correction_unless_r_is_tiny() {
        let mut primes = crate::prime::catalog().to_vec();
        let spec = crate::search::SearchSpec { k: 16, terms: 3, w_min: 58, w_max: 58 };
        primes.extend(crate::search::search(&spec, &|| {}).unwrap().into_iter().take(1));
        for prime in &primes {
            let a = ArithSpec::new(prime, MulForm::Wide64, false);
            assert!(super::super::digit_bounds::carry_split_is_one_correction(prime.k(), prime.r()), "{prime}");
            assert!(render_norm(&a).contains("return srgfn_correct(q_, vl, vh);"), "{prime}");
        }
        let tiny = crate::prime::Prime::parse("(2^2+2^1)^2+1").unwrap();
        let a = ArithSpec::new(&tiny, MulForm::Wide64, false);
        assert!(!super::super::digit_bounds::carry_split_is_one_correction(2, 6));
        assert!(render_norm(&a).contains("return srgfn_split_lazy(q_, vl, vh);"));
    }

    /// `exact_rounds` against the rounds themselves, on every v of a sample
    /// of [−v_max, v_max] with its ends and the multiples of 2^e around them:
    /// after the rounds v lies in [−r, 2r); k = 32's radix (2^62 + 2^56, six
    /// bits a round) takes two for the digits variant's bound (its twiddle
    /// phase's outputs lazy, 2^73), as for srgfn_norm's.
    #[test]
    fn exact_rounds_leave_one_correction() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(41);
        use rand::{Rng, SeedableRng};
        for prime in crate::prime::catalog() {
            let (k, r) = (prime.k(), prime.r());
            let v_max = super::super::digit_bounds::split_digit_bound(k, r);
            let rounds = exact_rounds(r, v_max, 4).unwrap_or_else(|| panic!("{prime}"));
            let (e, delta) = nearest_power(r);
            let mut sample: Vec<i128> = vec![-v_max, v_max, 0, -1];
            for j in -3..=3i128 {
                let m = (v_max >> e) + j;
                sample.extend([m << e, (m << e) - 1, -(m << e), -(m << e) - 1]);
            }
            sample.extend((0..2000).map(|_| rng.gen_range(-v_max..=v_max)));
            for v0 in sample.into_iter().filter(|v| v.abs() <= v_max) {
                let mut v = v0;
                for _ in 0..rounds {
                    v = v.rem_euclid(1 << e) - v.div_euclid(1 << e) * delta;
                }
                assert!((-(r as i128)..2 * r as i128).contains(&v), "{prime}: v = {v0} leaves {v} after {rounds} round(s)");
            }
            let l = LazySpec::of(&ArithSpec::new(prime, crate::emit::MulForm::Wide64, false));
            assert!(Some(rounds) <= l.rounds, "{prime}: {rounds} against {:?}", l.rounds);
            if k == 32 {
                // two rounds since the twiddle phase's outputs are lazy (digit_bounds.rs lazy_twiddle_outputs)
                assert_eq!((rounds, l.rounds), (2, Some(2)), "{prime}");
            }
        }
    }
}
