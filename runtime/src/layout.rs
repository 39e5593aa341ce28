//! Host-side layout helpers: element-major digit vectors ↔ the digit-major
//! layout of thesis §4.1.4 (digit d of element e at `X[d*n + e]`).

use srgfn_gen::Digits;

/// Digit-major words of `elems` (all of length k).
pub fn to_digit_major(elems: &[Digits], k: usize) -> Vec<u64> {
    let n = elems.len();
    let mut out = vec![0u64; n * k];
    for (e, x) in elems.iter().enumerate() {
        for (d, &v) in x.iter().enumerate() {
            out[d * n + e] = v;
        }
    }
    out
}

/// Elements from digit-major words.
pub fn from_digit_major(words: &[u64], k: usize) -> Vec<Digits> {
    let n = words.len() / k;
    (0..n).map(|e| (0..k).map(|d| words[d * n + e]).collect()).collect()
}

/// The integer with little-endian 64-bit words `words` (at most 128 words:
/// one allocation, from a stack buffer).
pub fn biguint_from_words(words: &[u64]) -> num_bigint::BigUint {
    let mut halves = [0u32; 256];
    for (i, &w) in words.iter().enumerate() {
        halves[2 * i] = w as u32;
        halves[2 * i + 1] = (w >> 32) as u32;
    }
    num_bigint::BigUint::from_slice(&halves[..2 * words.len()])
}
