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

use super::arith::{each, ArithSpec, C};

/// The power of two 2^e nearest to r, and δ = r − 2^e.
pub fn nearest_power(r: u64) -> (u32, i128) {
    let lo = 63 - r.leading_zeros();
    let e = if (r as u128) - (1u128 << lo) <= (1u128 << (lo + 1)) - r as u128 { lo } else { lo + 1 };
    (e, r as i128 - (1i128 << e))
}

/// Rounds of v ← (v mod 2^e) − ⌊v / 2^e⌋ δ that take |v| ≤ `v_max` below
/// `target`, with the bound after the last round; None beyond `max_rounds`.
fn split_rounds(v_max: f64, e: u32, delta: i128, target: f64, max_rounds: u32) -> Option<(u32, f64)> {
    let two_e = (2f64).powi(e as i32);
    let (mut v, mut rounds) = (v_max, 0);
    while v > target {
        if rounds == max_rounds {
            return None;
        }
        v = two_e + (v / two_e + 2.0) * delta.unsigned_abs() as f64;
        rounds += 1;
    }
    Some((rounds, v))
}

/// How f_mul_lazy turns a coefficient into a lazy digit: `rounds` of the
/// split by 2^e (δ = ±2^u, shifts only), leaving |digit| ≤ `out_bound`.
#[derive(Clone, Debug, PartialEq)]
pub struct MulSplit {
    pub e: u32,
    pub delta: i128,
    pub rounds: u32,
    pub out_bound: f64,
}

impl MulSplit {
    /// The split of a prime's f_mul coefficients (|c_i + carry| < (k + 3) r²),
    /// when δ is a signed power of two and at most 4 rounds reach |v| < 2^65.
    pub fn of(k: usize, r: u64) -> Option<MulSplit> {
        let (e, delta) = nearest_power(r);
        if delta != 0 && !delta.unsigned_abs().is_power_of_two() {
            return None;
        }
        let v0 = (k as f64 + 3.0) * (r as f64) * (r as f64);
        let (rounds, out_bound) = split_rounds(v0, e, delta, (2f64).powi(65), 4)?;
        Some(MulSplit { e, delta, rounds, out_bound })
    }
}

/// The normalisation constants of a prime for lazy digits of L levels.
#[derive(Clone, Debug, PartialEq)]
pub struct LazySpec {
    pub k: usize,
    pub r: u64,
    /// 2^e is the power of two nearest to r (e ≤ 64).
    pub e: u32,
    /// δ = r − 2^e.
    pub delta: i128,
    /// Rounds of q = ⌊v / 2^e⌋, v ← (v mod 2^e) − q δ before the last correction.
    pub rounds: u32,
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
        let mut v_max = (1u64 << levels) as f64 * level0 + 1024.0;
        let mut rounds = 0;
        loop {
            let spread = (v_max / two_e + 2.0) * delta.unsigned_abs() as f64;
            rounds += 1;
            if spread <= rf && two_e + spread < 2.0 * rf {
                break;
            }
            assert!(rounds < 8, "lazy normalisation does not converge for r = {r}");
            v_max = two_e + spread;
        }
        LazySpec { k, r, e, delta, rounds, levels, level0 }
    }

    pub fn of(a: &ArithSpec) -> LazySpec {
        let level0 = match (a.unrolled_mul(), MulSplit::of(a.k, a.r)) {
            (true, Some(split)) => split.out_bound * 1.5 + a.r as f64,
            _ => 2.0 * a.r as f64 + (a.k as f64 + 4.0) * a.r as f64,
        };
        LazySpec::new(a.k, a.r, (2 * a.k).trailing_zeros(), level0)
    }
}

/// The lazy digit operations (macros), printed before the arithmetic that uses them.
pub fn render_ops(a: &ArithSpec) -> String {
    let mut out = String::new();
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

/// `srgfn_norm`, the normalisation of a lazy element, for the field header.
pub fn render_norm(a: &ArithSpec) -> String {
    let l = LazySpec::of(a);
    let mut out = String::new();
    out.push_str(&format!(
        "\n/* z = the canonical element of sum_i (h_i 2^64 + l_i) r^i mod p, |digits| <= 2^{} r: per digit\n",
        l.levels
    ));
    out.push_str(&format!(
        " * q = floor(v / 2^{e}), v <- (v mod 2^{e}) - q delta (delta = r - 2^{e} = {d}), {rounds} round(s), then one\n * correction into [0, r); the quotients carry on and the last folds back (r^k = -1). */\n",
        e = l.e,
        d = l.delta,
        rounds = l.rounds
    ));
    let mut c = C::new();
    c.open("static inline void srgfn_norm(digit_t *z, const ulong *lo, const int *hi) {");
    c.line("long cy = 0;");
    let mut digit = vec![
        "{ ulong vl = lo[I] + (ulong)cy; long vh = (long)hi[I] + (cy >> 63) + (long)(vl < (ulong)cy);".to_string(),
        "long q = 0;".to_string(),
    ];
    for _ in 0..l.rounds {
        digit.push(round(&l));
    }
    digit.push("/* v in [-r, 2r): one correction */".into());
    digit.push("const int neg = vh < 0, ge = !neg && (vh > 0 || vl >= SRGFN_R);".into());
    digit.push("vl += neg ? SRGFN_R : (ge ? (ulong)0 - SRGFN_R : 0); q += ge - neg;".into());
    digit.push("z[I] = vl; cy = q; }".into());
    let body = digit.join("\n        ");
    each(&mut c, a, 0, l.k, &|i| body.replace("[I]", &format!("[{i}]")));
    c.line("srgfn_fold0(z, -cy);");
    c.close("}");
    out.push_str(&c.out);
    out.push('\n');
    out
}

/// One round: q' = ⌊v / 2^e⌋, v ← (v mod 2^e) − q' δ, q += q'.
fn round(l: &LazySpec) -> String {
    let e = l.e;
    let mut v = vec![if e == 64 {
        "{ const long qq = vh; ulong tl, rho = vl; long th;".to_string()
    } else {
        format!("{{ const long qq = (long)(((ulong)vh << {}) | (vl >> {e})); ulong tl, rho = vl & {:#x}UL; long th;", 64 - e, (1u64 << e) - 1)
    }];
    // t = qq δ as a signed 128-bit th:tl
    let mag = l.delta.unsigned_abs();
    if mag == 0 {
        v.push("tl = 0; th = 0;".into());
    } else if mag.is_power_of_two() {
        let u = mag.trailing_zeros();
        let (pos_l, pos_h) = if u == 0 { ("(ulong)qq".to_string(), "qq >> 63".to_string()) } else { (format!("(ulong)qq << {u}"), format!("qq >> {}", 64 - u)) };
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
