//! The digits variant's lazy digits: how many bytes their high parts take in
//! local memory, whether the twiddle phase may leave its outputs lazy, and
//! the bounds for which the variant's splits (`srgfn_split_digit`,
//! `srgfn_split_first`, `srgfn_split_carry`) set their rounds.
//!
//! A lazy digit is SH·2^64 + SL: a low word and a signed high part of
//! [`high_part_bytes`].  The twiddle phase's outputs grow by 2^L over the L
//! butterfly levels of a block; the store phase splits the result.  Each
//! bound here is the largest |v| its split takes, tested against the rounds
//! it gets (`lazy::exact_rounds`) and the bytes it is stored in.

use super::digits::{blocks_words, max_radix, BLOCKS_MAX_BYTES, MAX_BLOCK};

/// Bytes of a lazy digit's high part in `SH` (a digit is SH·2^64 + SL,
/// |d| < 2^(63 + 8·bytes)): 2 where the largest block for k digits (radix
/// min(2k, [`MAX_BLOCK`]), one block a work-group) fits local memory with
/// them beside the staging area (k ≤ 32), else 1.  k = 64's block of 64 and
/// k = 128's of 32 fill it with one byte.
pub fn high_part_bytes(k: usize) -> usize {
    if blocks_words(k, (2 * k).min(MAX_BLOCK), 1) * 10 <= BLOCKS_MAX_BYTES {
        2
    } else {
        1
    }
}

/// The OpenCL type of `SH` ([`high_part_bytes`]), as `HighPart` names it.
pub fn high_part_type(k: usize) -> &'static str {
    let high_part = if high_part_bytes(k) == 2 { super::high_part::HighPart::Short } else { super::high_part::HighPart::Byte };
    high_part.c_type()
}

/// Whether the twiddle phase stores each coefficient's digit plus the
/// quotient from below as it is, a lazy digit |v| ≤ (k + 1 + 2D) r, with no
/// second split and no second carry: where the high parts have two bytes,
/// so that the stages' growth (2^L for L levels) stays within them
/// ([`stored_digit_bound`]).  With one byte a second split leaves
/// |d| ≤ r + k + 2 + 2D.  v30b/c, H100, against the second split in one
/// call: k = 32 2^20 2.943 → 2.847 ms, 2^18 0.617 → 0.602 (the store phase's
/// first split then takes two rounds where it took one, so a kernel without
/// twiddles splits for its own bound: [`split_first_bound`]).
pub fn lazy_twiddle_outputs(k: usize) -> bool {
    high_part_bytes(k) == 2
}

/// The largest |v| the variant splits by `srgfn_split_digit`: a lazy digit
/// of the store phase, at most 2^L B for the L butterfly levels of the
/// largest block, where B bounds the twiddle phase's outputs: a digit of its
/// first division (D the bound of its remainder, `quotient.rs`) plus the
/// neighbour's quotient, |v| ≤ (k + 1 + 2D) r, stored as it is where
/// [`lazy_twiddle_outputs`], else split again (`srgfn_split_digit` too) into
/// |d| ≤ r + k + 2 + 2D; plus the carry from the digit below in the exact
/// path (`srgfn_norm_rolled`: |q| ≤ 2^L B / r + 2), and 2^10.
pub fn split_digit_bound(k: usize, r: u64) -> i128 {
    let store = stored_digit_bound(k, r);
    let v = if lazy_twiddle_outputs(k) { store } else { store.max(twiddle_carried_bound(k, r)) };
    v + v / r as i128 + 2 + 1024
}

/// The largest |v| the store phase of a kernel without twiddles splits
/// (`srgfn_split_first`): its lazy digits, canonical inputs after the L
/// levels of the largest block, |v| ≤ 2^L r, and 2^10.  v30b: with the
/// twiddled kernels' bound (two rounds at k = 32 since their twiddle outputs
/// are lazy) the first pass at 2^20 took 0.238 → 0.263 ms.
pub fn split_first_bound(k: usize, r: u64) -> i128 {
    ((r as i128) << max_radix(k).trailing_zeros()) + 1024
}

/// D: the twiddle phase's first division leaves its remainder within D·r
/// of c mod r (`quotient.rs`; 0 for the Möller–Granlund division).
fn twiddle_remainder_bound(k: usize, r: u64) -> i128 {
    super::quotient::SparseQuotient::for_twiddles(k, r).map_or(0, |sq| sq.remainder_bound()) as i128
}

/// |v| ≤ (k + 1 + 2D) r: a digit of the twiddle phase's first division plus
/// the quotient from below ([`split_digit_bound`]).
fn twiddle_carried_bound(k: usize, r: u64) -> i128 {
    (k as i128 + 1 + 2 * twiddle_remainder_bound(k, r)) * r as i128
}

/// The largest lazy digit the variant stores in `SL`/`SH`: the store
/// phase's, 2^L times the twiddle phase's outputs ([`split_digit_bound`]).
pub fn stored_digit_bound(k: usize, r: u64) -> i128 {
    let levels = max_radix(k).trailing_zeros();
    let split_again = r as i128 + k as i128 + 2 + 2 * twiddle_remainder_bound(k, r);
    let out = if lazy_twiddle_outputs(k) { twiddle_carried_bound(k, r) } else { split_again };
    out << levels
}

/// Whether a digit in [0, r) plus the quotient of the store phase's first
/// split (|q| ≤ [`split_digit_bound`]/r + 1) lies in [−r, 2r), so that its
/// second split is the one correction (`srgfn_split_carry`): true unless r
/// is tiny.
pub fn carry_split_is_one_correction(k: usize, r: u64) -> bool {
    split_digit_bound(k, r) / r as i128 + 2 <= r as i128
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The variant's lazy digits fit its high parts, and `srgfn_split_digit`
    /// (the store phase, the twiddle phase's second split where there is
    /// one, the exact path) is exact up to [`split_digit_bound`]: its rounds
    /// leave one correction (sampled here for the catalog and searched
    /// three-term radices), or it divides exactly (`srgfn_sdivmod3`).  Every
    /// k keeps its largest radix with its high parts.
    #[test]
    fn lazy_digits_fit_their_high_parts_and_the_split_bound() {
        use crate::emit::lazy::exact_rounds;
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        // the catalog, and searched radices of three terms (2^w ± 2^u ± 2^v)
        let mut primes = crate::prime::catalog().to_vec();
        for k in [2, 16, 32] {
            let spec = crate::search::SearchSpec { k, terms: 3, w_min: 58, w_max: 58 };
            primes.extend(crate::search::search(&spec, &|| {}).unwrap().into_iter().take(4));
        }
        assert!(primes.len() > crate::prime::catalog().len(), "the search found three-term primes");
        for prime in &primes {
            let (k, r) = (prime.k(), prime.r());
            let (stored, v_max) = (stored_digit_bound(k, r), split_digit_bound(k, r));
            let bits = 63 + 8 * high_part_bytes(k) as u32;
            assert!(stored < 1i128 << bits, "{prime}: |d| <= {stored:e} in {bits} bits", stored = stored as f64);
            assert_eq!(lazy_twiddle_outputs(k), k <= 32, "{prime}");
            // a kernel without twiddles splits a smaller bound, in no more rounds
            assert!(split_first_bound(k, r) <= v_max, "{prime}");
            if let (Some(first), Some(twiddled)) = (exact_rounds(r, split_first_bound(k, r), 4), exact_rounds(r, v_max, 4)) {
                assert!(first <= twiddled, "{prime}: {first} rounds against {twiddled}");
            }
            let Some(rounds) = exact_rounds(r, v_max, 4) else { continue };
            let (e, delta) = crate::emit::lazy::nearest_power(r);
            let mut sample: Vec<i128> = vec![-v_max, v_max, 0, -1];
            sample.extend((0..500).map(|_| rng.gen_range(-v_max..=v_max)));
            for v0 in sample {
                let mut v = v0;
                for _ in 0..rounds {
                    v = v.rem_euclid(1 << e) - v.div_euclid(1 << e) * delta;
                }
                assert!((-(r as i128)..2 * r as i128).contains(&v), "{prime}: v = {v0} leaves {v} after {rounds} round(s)");
            }
        }
        for (k, radix) in [(2, 4), (4, 8), (8, 16), (16, 32), (32, 64), (64, 64), (128, 32)] {
            assert_eq!(max_radix(k), radix, "k = {k}");
        }
    }
}
