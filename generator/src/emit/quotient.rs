//! ⌊a / r⌋ by shifts and adds, for the digits variant's twiddle products.
//!
//! Coefficient i of a twiddle product is a = Σ_m w_m·X2[i − m + k] with
//! 0 ≤ a < k·r² (`digits.rs`), which the twiddle phase splits as a = Q·r + d
//! before two rounds of carries.  Where r = 2^e + σ·2^(e−s) (σ = ±1: the
//! catalog's radices and every two-term one), with V = ⌊a / 2^e⌋ and
//! x = σ·2^(−s),
//!
//! a / r = (a / 2^e) / (1 + x),   1 / (1 + x) = (1 − x)(1 + x²)(1 + x⁴)⋯
//!
//! so Q = V(1 − x)(1 + x²)⋯(1 + x^(2^(R−1))), each factor one shift and one
//! add of a 128-bit value rounded down, and d = a − Q·r = a − (Q << e) − σ(Q << (e − s))
//! modulo 2^128.  Q is not ⌊a / r⌋ exactly: [`SparseQuotient::of`] bounds
//! D = ⌊a / r⌋ − Q by interval arithmetic, so d = (a mod r) + D·r is a
//! small signed value, which the carries that follow take as they take the
//! quotient of the neighbouring coefficient (their bound is checked in
//! `digits.rs`).  It replaces two Möller–Granlund steps (six 64-bit
//! multiplications and their corrections) by R + 2 shift-and-add chains on
//! the ALU (with PTX one carry chain of 32-bit words, words that the bound
//! makes zero left out: 32 instructions at k = 32), and where r is not of
//! that form the division stays Möller–Granlund's, exact.  H100, v28
//! (`perf/h100-v28/final`), in one call: k = 32 2^20 3.754 → 3.566 ms,
//! k = 64 2^18 1.873 → 1.800, k = 128 2^16 1.520 → 1.499; the portable C
//! form gained a third of that (`perf/h100-v28/div`).

use super::arith::{ArithSpec, C};
use super::lazy::nearest_power;

/// The shifts-and-adds quotient of a ≥ 0 below a bound by r = 2^e + σ·2^u.
#[derive(Clone, Debug, PartialEq)]
pub struct SparseQuotient {
    /// 2^e is the power of two nearest to r.
    pub e: u32,
    /// δ = r − 2^e = σ·2^u; None where r = 2^e.
    pub delta: Option<(bool, u32)>,
    /// The shift of each round: s, then 2s, 4s, … (the first subtracts
    /// where σ = +1, every other adds).
    pub shifts: Vec<u32>,
    /// ⌊a / r⌋ − Q lies in `d_min ..= d_max` for every a below the bound.
    pub d_min: i64,
    /// See `d_min`.
    pub d_max: i64,
    /// V and every Q of the rounds are below 2^q_bits (≤ 96).
    pub q_bits: u32,
}

/// Most rounds a quotient may take (s = 1 and V < 2^96 need 7).
const MAX_ROUNDS: usize = 8;

impl SparseQuotient {
    /// The quotient for 0 ≤ a < `a_max` (f64, above the true bound), where r
    /// is 2^e or 2^e ± 2^u and V = ⌊a / 2^e⌋ stays below 2^94 (V and Q are
    /// held in 96 bits); None otherwise.
    pub fn of(r: u64, a_max: f64) -> Option<SparseQuotient> {
        let (e, delta) = nearest_power(r);
        let v_max = a_max / (2f64).powi(e as i32) + 1.0;
        if v_max >= (2f64).powi(94) || e == 0 {
            return None;
        }
        // Q ≤ V (1 + |x|) prod (1 + x^(2^j)) < 2.7 V at every round
        let q_bits = ((v_max * 2.7).log2().ceil() as u32).clamp(1, 96);
        if delta == 0 {
            return Some(SparseQuotient { e, delta: None, shifts: vec![], d_min: 0, d_max: 0, q_bits });
        }
        if !delta.unsigned_abs().is_power_of_two() {
            return None;
        }
        let (neg, u) = (delta < 0, delta.unsigned_abs().trailing_zeros());
        let s = e - u;
        let two = |b: f64| (2f64).powf(b);
        // R rounds leave a tail V x^(2^R) / (1 + x); take the first R where it is below 1/4
        let rounds = (1..=MAX_ROUNDS).find(|&rr| v_max * two(-((s as f64) * (1u64 << rr) as f64)) <= 0.25)?;
        let shifts: Vec<u32> = (0..rounds).map(|j| s << j).collect();
        let x = if neg { -two(-(s as f64)) } else { two(-(s as f64)) };
        let inv = 1.0 / (1.0 + x);
        // P_j = prod_(i = j .. R-1) (1 + x^(2^i)): what the rounding error of round j is multiplied by
        let p = |j: usize| (j..rounds).map(|i| 1.0 + two(-((s as f64) * (1u64 << i) as f64))).product::<f64>();
        // a / r − Q = θ/(1 + x) + V x^(2^R)/(1 + x) − ε₁ P₁ + Σ_(j=1..R−1) φ_j P_(j+1), with θ, φ_j ∈ [0, 1)
        // and ε₁ ∈ [0, 1) for σ = +1 (the first round subtracts a floor), (−1, 0] for σ = −1
        let tail = v_max * two(-((s as f64) * (1u64 << rounds) as f64)) * inv;
        let rounding: f64 = (1..rounds).map(|j| p(j + 1)).sum();
        let hi = inv + tail + rounding + if neg { p(1) } else { 0.0 };
        let lo = if neg { 0.0 } else { -p(1) };
        // D = ⌊a / r − Q⌋ with lo < a / r − Q < hi; outward by a margin for the f64 rounding
        let (d_min, d_max) = ((lo - 1e-6).floor() as i64, (hi + 1e-6).ceil() as i64 - 1);
        Some(SparseQuotient { e, delta: Some((neg, u)), shifts, d_min, d_max, q_bits })
    }

    /// Largest |D| the twiddle phase takes: its lazy digits stay within
    /// r + k + 2 + 2·16 < 2^64 + 2^8 (`digits::MAX_BLOCK`).
    pub const TWIDDLE_MAX_D: u64 = 16;

    /// The quotient of the twiddle phase's coefficients: 0 ≤ a ≤ k (r − 1) r,
    /// where its remainder stays within [`Self::TWIDDLE_MAX_D`].
    pub fn for_twiddles(k: usize, r: u64) -> Option<SparseQuotient> {
        // a ≤ k (r − 1) r < k r², with a margin for the f64 rounding of the bound
        SparseQuotient::of(r, (k as f64) * (r as f64) * (r as f64) * (1.0 + 1e-12)).filter(|sq| sq.remainder_bound() <= Self::TWIDDLE_MAX_D)
    }

    /// Whether round `j` subtracts its shifted Q (the first, where σ = +1:
    /// the factor 1 − x); every other round adds.
    pub fn round_subtracts(&self, j: usize) -> bool {
        j == 0 && self.delta.is_some_and(|(neg, _)| !neg)
    }

    /// |d| < `remainder_bound`·r for d = a − Q r: d ∈ [d_min r, (d_max + 1) r).
    pub fn remainder_bound(&self) -> u64 {
        (self.d_max + 1).max(-self.d_min) as u64
    }

    /// What the emitted code computes, on the same words: (Q, d) for
    /// a = a2 2^128 + a1 2^64 + a0, Q < 2^96 and d signed (the tests run it
    /// against exact division).
    pub fn eval(&self, a: [u64; 3]) -> (u128, i128) {
        let e = self.e;
        let mask96 = (1u128 << 96) - 1;
        let lo = a[0] as u128 | (a[1] as u128) << 64;
        // V = floor(a / 2^e), 96 bits
        let mut q = if e == 64 { lo >> 64 | (a[2] as u128) << 64 } else { lo >> e | (a[2] as u128) << (128 - e) } & mask96;
        for (j, &sh) in self.shifts.iter().enumerate() {
            let t = if sh >= 96 { 0 } else { q >> sh };
            q = if self.round_subtracts(j) { q.wrapping_sub(t) } else { q.wrapping_add(t) } & mask96;
        }
        let shl = |n: u32| if n >= 128 { 0 } else { q << n };
        let mut d = lo.wrapping_sub(shl(e));
        if let Some((neg, u)) = self.delta {
            d = if neg { d.wrapping_add(shl(u)) } else { d.wrapping_sub(shl(u)) };
        }
        (q, d as i128)
    }
}

/// `srgfn_twiddle_divmod(&dh, &qh, &ql, a0, a1, a2)`: for 0 ≤ a < k r²,
/// a = Q r + d with d = dh:return (signed 128-bit) and Q = qh:ql ≥ 0.  By
/// shifts and adds where [`SparseQuotient::for_twiddles`] finds the form,
/// else `srgfn_sdivmod3` (exact, dh = 0).
pub(super) fn render(c: &mut C, a: &ArithSpec) {
    let Some(sq) = SparseQuotient::for_twiddles(a.k, a.r) else {
        c.line("/* a = a2:a1:a0 (0 <= a < k r^2) = Q r + d: the exact division (r is not 2^e +- 2^u). */");
        c.open("static inline ulong srgfn_twiddle_divmod(long *dh, ulong *qh, ulong *ql, ulong a0, ulong a1, ulong a2) {");
        c.line("*dh = 0;");
        c.line("return srgfn_sdivmod3(qh, ql, a0, a1, a2);");
        c.close("}");
        c.line("");
        return;
    };
    let e = sq.e;
    let ptx = if a.ptx { ptx_macro(&sq) } else { None };
    let factors: Vec<String> = sq
        .shifts
        .iter()
        .enumerate()
        .map(|(j, sh)| {
            let sign = if sq.round_subtracts(j) { '-' } else { '+' };
            format!("(1 {sign} 2^-{sh})")
        })
        .collect();
    let r_form = match sq.delta {
        None => format!("2^{e}"),
        Some((neg, u)) => format!("2^{e} {} 2^{u}", if neg { '-' } else { '+' }),
    };
    c.line(format!("/* a = a2:a1:a0 (0 <= a < k r^2) = Q r + d by shifts and adds (emit/quotient.rs), r = {r_form}:"));
    c.line(format!(" * V = floor(a / 2^{e}), Q = V {} rounded down each round, d = a - Q r modulo 2^128;", factors.join(" ")));
    c.line(format!(
        " * floor(a / r) - Q in [{}, {}], so d = dh:return (signed) lies in [{} r, {} r).  Q = qh:ql < 2^96. */",
        sq.d_min,
        sq.d_max,
        sq.d_min,
        sq.d_max + 1
    ));
    if let Some(m) = ptx {
        c.line("/* the same as one PTX carry chain on 32-bit words: V and Q in Q0..Q2, d in w0..w2 (modulo 2^96: |d| < 2^95) */");
        c.line(m);
        c.open("static inline ulong srgfn_twiddle_divmod(long *dh, ulong *qh, ulong *ql, ulong a0, ulong a1, ulong a2) {");
        c.line("ulong dl, dw;");
        c.line("SRGFN_TWIDDLE_DIVMOD(dl, dw, *ql, *qh, a0, a1, a2);");
        c.line("*dh = (long)dw;");
        c.line("return dl;");
        c.close("}");
        c.line("");
        return;
    }
    c.open("static inline ulong srgfn_twiddle_divmod(long *dh, ulong *qh, ulong *ql, ulong a0, ulong a1, ulong a2) {");
    // Q = l + h 2^64 with h < 2^32
    if e == 64 {
        c.line("ulong l = a1; uint h = (uint)a2;");
    } else {
        c.line(format!("ulong l = (a0 >> {e}) | (a1 << {}); uint h = (uint)((a1 >> {e}) | (a2 << {}));", 64 - e, 64 - e));
    }
    for (j, &sh) in sq.shifts.iter().enumerate() {
        let t = match sh {
            0..=31 => format!("const ulong tl = (l >> {sh}) | ((ulong)h << {}); const uint th = h >> {sh};", 64 - sh),
            32..=63 => format!("const ulong tl = (l >> {sh}) | ((ulong)h << {}); const uint th = 0;", 64 - sh),
            64..=95 => format!("const ulong tl = (ulong)(h >> {}); const uint th = 0;", sh - 64),
            _ => continue,
        };
        let op = if sq.round_subtracts(j) { "const uint b = l < tl; l -= tl; h -= th + b;" } else { "l += tl; h += th + (uint)(l < tl);" };
        c.line(format!("{{ {t} {op} }}"));
    }
    // d = a - (Q << e) - sigma (Q << u), modulo 2^128
    c.line("ulong dl = a0, dhi = a1;");
    let shifted = |n: u32| -> (String, String) {
        match n {
            0 => ("l".into(), "(ulong)h".into()),
            1..=63 => (format!("l << {n}"), format!("(l >> {}) | ((ulong)h << {n})", 64 - n)),
            _ => ("0".into(), "l".into()),
        }
    };
    let (pl, ph) = shifted(e);
    c.line(format!("{{ const ulong pl = {pl}, ph = {ph}; dhi -= ph + (dl < pl); dl -= pl; }}"));
    if let Some((neg, u)) = sq.delta {
        let (pl, ph) = shifted(u);
        if neg {
            c.line(format!("{{ const ulong pl = {pl}, ph = {ph}; dl += pl; dhi += ph + (dl < pl); }}"));
        } else {
            c.line(format!("{{ const ulong pl = {pl}, ph = {ph}; dhi -= ph + (dl < pl); dl -= pl; }}"));
        }
    }
    c.line("*dh = (long)dhi; *qh = h; *ql = l;");
    c.line("return dl;");
    c.close("}");
    c.line("");
}

/// `SRGFN_TWIDDLE_DIVMOD(dl, dh, ql, qh, a0, a1, a2)`: [`render`]'s C as one
/// PTX chain on 32-bit words, where 2^32 ≤ 2^e (V = words 1..4 of a shifted).
pub(super) fn ptx_macro(sq: &SparseQuotient) -> Option<String> {
    let e = sq.e;
    // V in words 1..4 of a; d within 96 bits
    let d_max = (sq.remainder_bound() as f64 + 1.0) * (2f64).powi(64);
    if !(32..=64).contains(&e) || d_max >= (2f64).powi(95) {
        return None;
    }
    let mut p: Vec<String> = vec![
        ".reg .u32 zr, w0, w1, w2, w3, w4, w5, Q0, Q1, Q2, T0, T1, T2, P0, P1, P2, P3".into(),
        "mov.u32 zr, 0".into(),
        "mov.b64 {w0, w1}, %4".into(),
        "mov.b64 {w2, w3}, %5".into(),
        "mov.b64 {w4, w5}, %6".into(),
    ];
    // V = floor(a / 2^e) in Q0..Q2
    for j in 0..3 {
        p.push(format!("shf.r.clamp.b32 Q{j}, w{}, w{}, {}", j + 1, j + 2, e - 32));
    }
    // each round Q -/+= floor(Q / 2^sh), T the shifted words (zero above)
    for (j, &sh) in sq.shifts.iter().enumerate() {
        let (b, t) = (sh % 32, sh / 32);
        if t >= 3 {
            continue;
        }
        let q = |i: u32| if i < 3 { format!("Q{i}") } else { "zr".to_string() };
        // word i of Q >> sh holds bits sh + 32 i … of Q: zero from q_bits on
        let live = |i: u32| i < 3 - t && sh + 32 * i < sq.q_bits;
        for i in (0..3).filter(|&i| live(i)) {
            let (lo, hi) = (i + t, i + t + 1);
            p.push(if hi < 3 {
                format!("shf.r.clamp.b32 T{i}, {}, {}, {b}", q(lo), q(hi))
            } else {
                format!("shr.u32 T{i}, {}, {b}", q(lo))
            });
        }
        let op = if sq.round_subtracts(j) { "sub" } else { "add" };
        let tw = |i: u32| if live(i) { format!("T{i}") } else { "0".to_string() };
        p.extend([
            format!("{op}.cc.u32 Q0, Q0, {}", tw(0)),
            format!("{op}c.cc.u32 Q1, Q1, {}", tw(1)),
            format!("{op}c.u32 Q2, Q2, {}", tw(2)),
        ]);
    }
    // d = a - (Q << e) -/+ (Q << u) modulo 2^96 (|d| < 2^95), in w0..w2: the shifted words P first,
    // then one chain
    let mut shifted_op = |n: u32, op: &str| {
        let (m, b) = (n / 32, n % 32);
        let q = |i: i64| if (0..3).contains(&i) { format!("Q{i}") } else { "zr".to_string() };
        let words: Vec<String> = (m..3)
            .map(|j| {
                let (lo, hi) = (j as i64 - m as i64 - 1, j as i64 - m as i64);
                if b == 0 {
                    q(hi)
                } else {
                    p.push(format!("shf.l.clamp.b32 P{j}, {}, {}, {b}", q(lo), q(hi)));
                    format!("P{j}")
                }
            })
            .collect();
        for (i, (j, word)) in (m..3).zip(words).enumerate() {
            let (c, cc) = (if i == 0 { "" } else { "c" }, if j < 2 { ".cc" } else { "" });
            p.push(format!("{op}{c}{cc}.u32 w{j}, w{j}, {word}"));
        }
    };
    shifted_op(e, "sub");
    if let Some((neg, u)) = sq.delta {
        shifted_op(u, if neg { "add" } else { "sub" });
    }
    p.extend([
        "shr.s32 w3, w2, 31".into(),
        "mov.b64 %0, {w0, w1}".into(),
        "mov.b64 %1, {w2, w3}".into(),
        "mov.b64 %2, {Q0, Q1}".into(),
        "mov.b64 %3, {Q2, zr}".into(),
    ]);
    Some(format!(
        "#define SRGFN_TWIDDLE_DIVMOD(dl, dh, ql, qh, a0, a1, a2) asm(\"{{ {}; }}\" : \"=l\"(dl), \"=l\"(dh), \"=l\"(ql), \"=l\"(qh) : \"l\"(a0), \"l\"(a1), \"l\"(a2))",
        p.join(";\\n\\t")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::{BigInt, BigUint};
    use num_integer::Integer;
    use rand::{Rng, SeedableRng};

    fn words(a: &BigUint) -> [u64; 3] {
        let d = a.to_u64_digits();
        [0, 1, 2].map(|i| d.get(i).copied().unwrap_or(0))
    }

    /// Every two-term radix of the catalog takes the shifts and adds, with D
    /// in a few units; three-term radices keep the exact division.
    #[test]
    fn catalog_radices_take_few_rounds_and_a_small_remainder() {
        for prime in crate::prime::catalog() {
            let sq = SparseQuotient::for_twiddles(prime.k(), prime.r()).expect("two-term radix");
            assert!(!sq.shifts.is_empty() && sq.shifts.len() <= 4, "{prime}: {sq:?}");
            assert!(sq.remainder_bound() <= 8, "{prime}: {sq:?}");
        }
        assert_eq!(SparseQuotient::for_twiddles(16, (1u64 << 62) + (1 << 36) + (1 << 20)), None);
        // r = 2^62 + 2^56 (k = 32): six bits a round, four rounds for V < 2^68
        let sq = SparseQuotient::for_twiddles(32, (1u64 << 62) + (1 << 56)).unwrap();
        assert_eq!(sq.shifts, vec![6, 12, 24, 48]);
    }

    /// The code's arithmetic (`eval`, the same words and roundings as the C)
    /// against exact division: a = Q r + d, and ⌊a / r⌋ − Q within the bound,
    /// for random a and the extremes (0, the bound, multiples of r and their
    /// neighbours, all ones below the bound), over the catalog's radices and
    /// radices of every shape: σ = ±1, s from 1 to 63, e = 64.
    #[test]
    fn shifts_and_adds_leave_the_remainder_within_the_bound() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut radices: Vec<(usize, u64)> = crate::prime::catalog().iter().map(|p| (p.k(), p.r())).collect();
        for (e, u) in [(62u32, 61u32), (62, 56), (63, 40), (64, 28), (64, 63), (60, 1), (58, 0), (40, 20), (64, 1)] {
            for k in [2usize, 32, 128] {
                radices.push((k, (1u64 << (e - 1)).wrapping_mul(2).wrapping_sub(1u64 << u)));
                if e < 64 {
                    radices.push((k, (1u64 << e) + (1u64 << u)));
                }
            }
        }
        let mut seen_d = (0i64, 0i64);
        for (k, r) in radices {
            let Some(sq) = SparseQuotient::for_twiddles(k, r) else { panic!("k = {k}, r = {r:#x}") };
            let rb = BigUint::from(r);
            let bound = BigUint::from(k) * (&rb - 1u32) * &rb;
            let mut inputs = vec![BigUint::from(0u32), bound.clone(), &bound - 1u32];
            let ones = (BigUint::from(1u32) << (bound.bits() - 1)) - 1u32;
            inputs.push(ones);
            for _ in 0..400 {
                let a = BigUint::from_bytes_le(&(0..24).map(|_| rng.gen()).collect::<Vec<u8>>()) % (&bound + 1u32);
                let m = &a / &rb;
                inputs.push(a.clone());
                inputs.push(&m * &rb);
                if m > BigUint::from(0u32) {
                    inputs.push(&m * &rb - 1u32);
                }
            }
            for a in inputs.into_iter().filter(|a| *a <= bound) {
                let (q, d) = sq.eval(words(&a));
                let (fq, _) = a.div_mod_floor(&rb);
                let dd = BigInt::from(fq) - BigInt::from(q);
                assert_eq!(BigInt::from(a.clone()), BigInt::from(q) * BigInt::from(r) + BigInt::from(d), "k = {k}, r = {r:#x}, a = {a}");
                let dd: i64 = dd.try_into().expect("small D");
                assert!((sq.d_min..=sq.d_max).contains(&dd), "k = {k}, r = {r:#x}, a = {a}: D = {dd}, {sq:?}");
                seen_d = (seen_d.0.min(dd), seen_d.1.max(dd));
            }
        }
        // the bound is not vacuous: the test saw quotients off both ways
        assert!(seen_d.0 < 0 && seen_d.1 > 0, "{seen_d:?}");
    }
}
