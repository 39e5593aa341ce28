//! How f_mul_lazy splits each coefficient of the negacyclic product into a
//! lazy digit and a quotient for the next ([`MulSplit`]): the quotient series
//! by shifts (k ≤ 8; chained above) or split rounds, and the bounds that decide the series'
//! terms, so that the digits a pass keeps fit local memory's high parts
//! (`HighPart`: one byte for f_mul_lazy, two for f_mul_lazy_wide).

use super::lazy::nearest_power;

/// Bits of a lazy digit that local memory keeps: the low word and one signed
/// byte of the high part (`SL`, `SH`), so |d| < 2^71 wherever a pass stores one
/// (a table pass with two-byte high parts: `HighPart::Short`, 2^79; the digits
/// variant's high parts: `digit_bounds::high_part_bytes`).
pub const STORED_DIGIT_BITS: i32 = 71;

/// The same with two bytes of high part (`HighPart::Short`).
pub const WIDE_STORED_DIGIT_BITS: i32 = 79;

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

/// How f_mul_lazy turns a coefficient v (signed, |v| < (k + 3) r², the carry
/// in included) into a lazy digit with shifts and adds, r = 2^e + δ, δ = σ 2^u.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SplitForm {
    /// `n` rounds of Q = ⌊v / 2^e⌋, v ← (v mod 2^e) − Q δ on the 192-bit v,
    /// the quotients summed; the last digit is below 2^65 before the wrap.
    Rounds(u32),
    /// The quotient estimate, s = e − u:
    ///
    ///   Q = V + Σ_{m=1..M} (−σ)^m ⌊V / 2^{m s}⌋,  V = ⌊v / 2^e⌋,
    ///
    /// the first terms of V / (1 + δ / 2^e), each rounded down (v19c: one
    /// shift per term; rounded to nearest, each term cost three instructions
    /// more and halved its error); the
    /// digit is v − Q r, computed modulo 2^96 from shifts of Q, plus the
    /// previous coefficient's quotient (|Q| < (k + 3) r).  Each rounded
    /// term is off by less than 1, the tail by at most 1/4 and V by less than
    /// 2^e / r in units of r, so |v − Q r| < (M + 1/4 + 2^e / r) r.
    Series {
        /// s = e − u: the terms fall by 2^s.
        s: u32,
        /// M, the terms after V.
        terms: u32,
    },
    /// The same series on v with the previous coefficient's quotient added
    /// first, as the rounds take their carry: the coefficients form one
    /// chain, and the digit is v − Q r alone, |v − Q r| < (M + 1/4 + 2^e / r) r.
    /// Its quotients carry on and the last wraps around as the rounds' do.
    ChainedSeries {
        /// s = e − u.
        s: u32,
        /// M, the terms after V.
        terms: u32,
    },
}

/// The split of f_mul_lazy's coefficients for one prime.  Rounds: the
/// quotient carries on into the next coefficient, the last wraps around onto
/// digits 0 and 1 (r^k = −1).  Series: each coefficient splits on its own and
/// its quotient goes into the next digit, the last onto digit 0, negated.
#[derive(Clone, Debug, PartialEq)]
pub struct MulSplit {
    /// 2^e is the power of two nearest to r.
    pub e: u32,
    /// δ = r − 2^e: zero or a signed power of two.
    pub delta: i128,
    /// Rounds or a quotient series.
    pub form: SplitForm,
    /// Bound on |digit|: for the rounds after the last round and for the
    /// chained series (both before the wrap), for the series with the
    /// previous (or wrapped last) quotient added.
    pub out_bound: f64,
}

impl MulSplit {
    /// Most terms a series may take.
    pub const MAX_TERMS: u32 = 8;

    /// The largest k whose f_mul_lazy takes the series with each quotient
    /// added after the split (H200, v11: k = 8 2^20 0.832 → 0.741 ms, k = 4
    /// 0.387 → 0.363; k = 16's table variant was 2–10% slower at N ≥ 2^18
    /// with it, and level with the rounds once the carries ran as one PTX
    /// chain, v11c).  Above it the chained series (v52, H200, k = 16: 4–6%
    /// faster than the rounds from 2^17; the quotient added after the split,
    /// 2^18–2^22 5–14% slower: ~50 more registers, its digits need two bytes).
    pub const SERIES_MAX_K: usize = 8;

    /// The split of a prime's f_mul coefficients, when δ is zero or a signed
    /// power of two: up to [`Self::SERIES_MAX_K`] the series, above it the
    /// chained series, where at most [`Self::MAX_TERMS`] terms reach a tail
    /// below 1/4 and the digits fit a pass; else [`Self::rounds`]; None where
    /// neither does (the exact division).
    pub fn of(k: usize, r: u64) -> Option<MulSplit> {
        let (e, delta) = nearest_power(r);
        if delta != 0 && !delta.unsigned_abs().is_power_of_two() {
            return None;
        }
        let series = if k <= Self::SERIES_MAX_K { Self::series(k, r, e, delta, None) } else { Self::chained_series(k, r, e, delta) };
        series.or_else(|| Self::rounds(k, r))
    }

    /// At most 4 split rounds that take every coefficient below 2^65 (the
    /// form of k = 16's f_mul_lazy before v52, and where no series fits).
    pub fn rounds(k: usize, r: u64) -> Option<MulSplit> {
        let (e, delta) = nearest_power(r);
        if delta != 0 && !delta.unsigned_abs().is_power_of_two() {
            return None;
        }
        let v0 = (k as f64 + 3.0) * (r as f64) * (r as f64);
        let (rounds, out_bound) = split_rounds(v0, e, delta, (2f64).powi(65), 4)?;
        Some(MulSplit { e, delta, form: SplitForm::Rounds(rounds), out_bound })
    }

    /// The split of `f_mul_lazy_wide`, for the passes whose lazy digits keep
    /// two bytes of high part in local memory (`HighPart::Short`, below
    /// 2^79): the series with the fewest terms whose digits, grown over a
    /// pass's levels, fit them and leave `srgfn_norm`'s fast path the rule
    /// (`loose_fits`); None where that is no fewer than
    /// [`Self::of`]'s.  k = 8's 2^63 + 2^34: one term instead of two.
    pub fn wide(k: usize, r: u64) -> Option<MulSplit> {
        let (e, delta) = nearest_power(r);
        let exact = Self::of(k, r)?;
        let SplitForm::Series { terms, .. } = exact.form else { return None };
        let wide = Self::series(k, r, e, delta, Some(WIDE_STORED_DIGIT_BITS))?;
        matches!(wide.form, SplitForm::Series { terms: t, .. } if t < terms).then_some(wide)
    }

    /// The quotient series: the terms that leave a tail below 1/4 (each
    /// term's rounding) and digits within local memory's byte of high part,
    /// or with `loose` bits of high part the fewest terms that fit them.
    fn series(k: usize, r: u64, e: u32, delta: i128, loose: Option<i32>) -> Option<MulSplit> {
        let v_top = Self::v_top(k, r, e);
        if delta == 0 {
            return Some(Self::with_terms(r, e, delta, (e, 0), v_top)).filter(|sp| sp.fits_passes(k, STORED_DIGIT_BITS));
        }
        let s = e - delta.unsigned_abs().trailing_zeros();
        let exact = Self::exact_terms(v_top, s)?;
        let terms = match loose {
            None => exact,
            Some(bits) => (0..exact).find(|&m| Self::with_terms(r, e, delta, (s, m), v_top).loose_fits(k, bits)).unwrap_or(exact),
        };
        Some(Self::with_terms(r, e, delta, (s, terms), v_top)).filter(|sp| sp.fits_passes(k, loose.unwrap_or(STORED_DIGIT_BITS)))
    }

    /// The chained series ([`SplitForm::ChainedSeries`]): the terms that
    /// leave a tail below 1/4, where its digits fit local memory's byte of
    /// high part over a pass's levels.
    fn chained_series(k: usize, r: u64, e: u32, delta: i128) -> Option<MulSplit> {
        let u = delta.unsigned_abs().trailing_zeros();
        if delta == 0 || u >= e {
            return None;
        }
        let (s, v_top) = (e - u, Self::v_top(k, r, e));
        let terms = Self::exact_terms(v_top, s)?;
        let out_bound = Self::series_digit(terms, Self::series_tail(v_top, s, terms), r, e);
        // the digits after the last carry's wrap (and Karatsuba's join) grow over a pass's levels
        Some(MulSplit { e, delta, form: SplitForm::ChainedSeries { s, terms }, out_bound })
            .filter(|sp| (2 * k) as f64 * sp.digit_bound(r) < (2f64).powi(STORED_DIGIT_BITS))
    }

    /// |V| ≤ v_max / 2^e + 1 for V = ⌊v / 2^e⌋ and |v| < v_max = (k + 3) r².
    fn v_top(k: usize, r: u64, e: u32) -> f64 {
        (k as f64 + 3.0) * r as f64 * r as f64 / (2f64).powi(e as i32) + 1.0
    }

    /// The fewest terms falling by 2^s whose tail is below 1/4 (at most
    /// [`Self::MAX_TERMS`]); None where the terms after V (|V| ≤ `v_top`)
    /// would not be signed 64-bit values.
    fn exact_terms(v_top: f64, s: u32) -> Option<u32> {
        if v_top / (2f64).powi(s as i32) >= (2f64).powi(60) {
            return None;
        }
        (0..=Self::MAX_TERMS).find(|&m| Self::series_tail(v_top, s, m) <= 0.25)
    }

    /// The series of `terms` terms after V (|V| ≤ `v_top`) falling by 2^s,
    /// and its bound: the digit v − Q r plus the previous coefficient's
    /// quotient (the last one, negated, at digit 0), |Q| < |V| 2^e / r + M + 1.
    fn with_terms(r: u64, e: u32, delta: i128, (s, terms): (u32, u32), v_top: f64) -> MulSplit {
        let tail = if delta == 0 { 0.0 } else { Self::series_tail(v_top, s, terms) };
        let out_bound = Self::series_digit(terms, tail, r, e) + v_top * (2f64).powi(e as i32) / r as f64 + terms as f64 + 1.0;
        MulSplit { e, delta, form: SplitForm::Series { s, terms }, out_bound }
    }

    /// What the series leaves out after `terms` terms, in units of r: the
    /// first term left out, |V| / 2^((M+1) s), over 1 − 2^−s.
    fn series_tail(v_top: f64, s: u32, terms: u32) -> f64 {
        v_top / (2f64).powi(((terms + 1) * s) as i32) / (1.0 - (2f64).powi(-(s as i32)))
    }

    /// Bound on |v − Q r| of the series with `terms` terms and a tail below
    /// `tail` (units of r; at least 1/4, the terms' rounding).
    pub fn series_digit(terms: u32, tail: f64, r: u64, e: u32) -> f64 {
        (terms as f64 + tail.max(0.25) + (2f64).powi(e as i32) / r as f64) * r as f64
    }

    /// [`Self::series_digit`] of this split (a series) for k digits.
    pub fn series_digit_bound(&self, k: usize, r: u64) -> f64 {
        let SplitForm::Series { s, terms } = self.form else { return self.out_bound };
        let v_top = Self::v_top(k, r, self.e);
        let tail = if self.delta == 0 { 0.0 } else { Self::series_tail(v_top, s, terms) };
        Self::series_digit(terms, tail, r, self.e)
    }

    /// Whether the lazy digits of a pass of 2k-point DFT levels on this
    /// split's outputs keep below 2^`bits` in local memory.
    fn fits_passes(&self, k: usize, bits: i32) -> bool {
        (2 * k) as f64 * self.out_bound < (2f64).powi(bits)
    }

    /// Whether a series with fewer terms than the tail needs may run: its
    /// digits fit `bits` over a pass's levels, and the quotient of
    /// `srgfn_norm`'s one round, at most 2^levels out_bound / 2^e + 2, times
    /// |δ| stays within 2^[`FastNorm::MAX_SPREAD_LOG2`] of r, so that the
    /// fast path stays the rule (fastnorm.rs).
    ///
    /// [`FastNorm::MAX_SPREAD_LOG2`]: super::fastnorm::FastNorm::MAX_SPREAD_LOG2
    fn loose_fits(&self, k: usize, bits: i32) -> bool {
        let two_e = (2f64).powi(self.e as i32);
        let q = (2 * k) as f64 * self.out_bound / two_e + 2.0;
        let r = two_e + self.delta as f64;
        self.fits_passes(k, bits) && q * self.delta.unsigned_abs() as f64 <= (2f64).powi(super::fastnorm::FastNorm::MAX_SPREAD_LOG2) * r
    }

    /// Bound on the digits f_mul_lazy leaves, the wrapped carry included.
    pub fn digit_bound(&self, r: u64) -> f64 {
        match self.form {
            SplitForm::Rounds(_) | SplitForm::ChainedSeries { .. } => self.out_bound * 1.5 + r as f64,
            SplitForm::Series { .. } => self.out_bound.max(r as f64),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::{BigInt, Sign};
    use num_traits::{One, ToPrimitive, Zero};
    use rand::{Rng, SeedableRng};

    /// The host model of f_mul_lazy's per-coefficient step as emitted: V by an
    /// arithmetic shift, the series' terms rounded as the kernel rounds them
    /// (⌊V / 2^(ms)⌋), and the digit v − Q r.
    fn split_model(sp: &MulSplit, v: &BigInt) -> (BigInt, BigInt) {
        let big_v = v >> sp.e;
        let (SplitForm::Series { s, terms } | SplitForm::ChainedSeries { s, terms }) = sp.form else { panic!("{sp:?} is no series") };
        let mut q = big_v.clone();
        for m in 1..=terms {
            let t = &big_v >> (m * s);
            let sign_plus = sp.delta < 0 || m % 2 == 0;
            q = if sign_plus { q + t } else { q - t };
        }
        let r = (BigInt::one() << sp.e) + BigInt::from(sp.delta);
        (v - &q * &r, q)
    }

    #[test]
    fn the_split_of_f_mul_coefficients_reaches_its_bound() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let cases: [(usize, u64); 8] = [
            (2, (1 << 63) + (1 << 53)),
            (4, u64::MAX - (1 << 50) + 1),
            (8, (1 << 63) + (1 << 34)),
            (8, (1 << 62) - (1 << 20)),
            (4, u64::MAX - (1 << 32) + 1),
            (4, (1 << 40) + (1 << 12)),
            (2, (1 << 62) + (1 << 30)),
            (1, (1 << 63) + (1 << 20)),
        ];
        let mut wide = 0;
        for (k, r) in cases {
            let sp = MulSplit::of(k, r).unwrap_or_else(|| panic!("k = {k}, r = {r:#x} should split"));
            assert!(matches!(sp.form, SplitForm::Series { terms, .. } if terms <= MulSplit::MAX_TERMS));
            // and f_mul_lazy_wide's split, where it takes fewer terms
            for sp in std::iter::once(sp).chain(MulSplit::wide(k, r).inspect(|_| wide += 1)) {
                let v_max = BigInt::from(k as u64 + 3) * BigInt::from(r) * BigInt::from(r);
                let bits = v_max.bits();
                let edges = [
                    &v_max - BigInt::one(),
                    BigInt::one() - &v_max,
                    BigInt::zero(),
                    BigInt::from(r),
                    -BigInt::from(r),
                    BigInt::from(r) * BigInt::from(r),
                ];
                let random = (0..3000).map(|_| {
                    let mut words = [0u32; 6];
                    rng.fill(&mut words[..]);
                    let v = BigInt::from_slice(Sign::Plus, &words) % &v_max;
                    if rng.gen() {
                        -v
                    } else {
                        v
                    }
                });
                for v in edges.into_iter().chain(random) {
                    let (d, q) = split_model(&sp, &v);
                    assert_eq!(&q * BigInt::from(r) + &d, v);
                    // the digit as the kernel keeps it: 96 bits, and within the bound the passes assume
                    let d_abs = d.to_f64().unwrap().abs();
                    assert!(d_abs <= sp.series_digit_bound(k, r), "k = {k}, r = {r:#x}, v = {v}: digit {d} (bits {bits})");
                    // with the previous quotient added, within the bound the passes assume
                    assert!(d_abs + (q.to_f64().unwrap().abs()) <= sp.out_bound);
                    assert!(d.bits() < 95);
                }
            }
        }
        // k = 8's 2^63 + 2^34 and others take one term fewer with two bytes of high part
        assert!(wide >= 2, "{wide} wide splits");
        assert!(matches!(MulSplit::wide(8, (1 << 63) + (1 << 34)).map(|s| s.form), Some(SplitForm::Series { terms: 1, .. })));
        // not k = 4's 2^64 − 2^50: fewer terms would leave srgfn_norm's quotient times 2^50 near r
        assert!(MulSplit::wide(4, u64::MAX - (1 << 50) + 1).is_none());
        // δ = 2^61 beside 2^62 is neither a series nor rounds; δ not a power of two either
        assert!(MulSplit::of(8, (1 << 63) - (1 << 61)).is_none());
        // the rounds: k = 16 in 3, k = 64 (no chained series: its digits would not fit a pass)
        for (k, r) in [(16usize, (1u64 << 62) + (1 << 36)), (64, (1 << 63) - (1 << 40))] {
            let sp = MulSplit::rounds(k, r).expect("a two-term radix far from its neighbours splits");
            assert!(matches!(sp.form, SplitForm::Rounds(n) if n <= 4) && sp.out_bound < (2f64).powi(65), "k = {k}: {sp:?}");
        }
        assert!(matches!(MulSplit::of(64, (1 << 63) - (1 << 40)).map(|s| s.form), Some(SplitForm::Rounds(3))));
        // above k = 8 the chained series (v52): the carry in v, the digit v − Q r within its bound
        // (k = 16's catalog radix in two terms); r next to 2^64 keeps the rounds, whose digits fit
        let chained =
            [(16usize, (1u64 << 62) + (1 << 36)), (16, (1 << 63) + (1 << 20)), (16, (1 << 62) - (1 << 34)), (16, (1 << 63) - (1 << 40))];
        for (k, r) in chained {
            let sp = MulSplit::of(k, r).unwrap();
            assert!(matches!(sp.form, SplitForm::ChainedSeries { .. }), "k = {k}, r = {r:#x}: {sp:?}");
            let v_max = BigInt::from(k as u64 + 3) * BigInt::from(r) * BigInt::from(r);
            let edges = [&v_max - BigInt::one(), BigInt::one() - &v_max, BigInt::zero(), BigInt::from(r) - 1, -BigInt::from(r)];
            let random: Vec<BigInt> = (0..3000)
                .map(|_| {
                    let mut words = [0u32; 6];
                    rng.fill(&mut words[..]);
                    let v = BigInt::from_slice(Sign::Plus, &words) % &v_max;
                    if rng.gen() {
                        -v
                    } else {
                        v
                    }
                })
                .collect();
            for v in edges.into_iter().chain(random) {
                let (d, q) = split_model(&sp, &v);
                assert_eq!(&q * BigInt::from(r) + &d, v);
                assert!(d.to_f64().unwrap().abs() <= sp.out_bound, "k = {k}, r = {r:#x}, v = {v}: digit {d}");
                // a coefficient (|c| < k r²) with this carry in stays within the series' input bound
                assert!(q.to_f64().unwrap().abs() < 3.0 * r as f64 * r as f64);
            }
        }
        assert!(matches!(MulSplit::of(16, (1 << 62) + (1 << 36)).map(|s| s.form), Some(SplitForm::ChainedSeries { terms: 2, .. })));
        assert!(matches!(MulSplit::of(16, u64::MAX - (1 << 32) + 1).map(|s| s.form), Some(SplitForm::Rounds(_))));
        // (2^63 + 2^53)^2 + 1: δ = 2^53 is too close to 2^63 for four rounds, not for the series
        assert!(matches!(MulSplit::of(2, (1 << 63) + (1 << 53)).map(|s| s.form), Some(SplitForm::Series { terms: 6, .. })));
        assert!(MulSplit::of(8, (1 << 59) + (1 << 57) + (1 << 39)).is_none());
    }
}
