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
