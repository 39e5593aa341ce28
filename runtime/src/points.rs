//! Transforms checked at single outputs against their definition, for sizes
//! where a whole host FFT costs too much: `srgfn check`'s large sizes and the
//! CLI's `--verify`.  Polynomials are evaluated by Horner on every core.

use num_bigint::BigUint;
use rayon::prelude::*;

/// Coefficients per parallel Horner piece.
const PIECE: usize = 4096;

fn horner(coeffs: &[BigUint], x: &BigUint, p: &BigUint) -> BigUint {
    coeffs.iter().rev().fold(BigUint::default(), |acc, c| (acc * x + c) % p)
}

/// A(x) mod p (coefficients lowest degree first): Horner on pieces of
/// 4096 coefficients in parallel, then Horner over the pieces at x^4096.
pub fn eval(coeffs: &[BigUint], x: &BigUint, p: &BigUint) -> BigUint {
    let parts: Vec<BigUint> = coeffs.par_chunks(PIECE).map(|c| horner(c, x, p)).collect();
    horner(&parts, &x.modpow(&BigUint::from(PIECE), p), p)
}

/// Output j of the transform of `input` by its definition: X_j = Σ_i x_i ω^{ij}
/// (forward), or x_j = (1/N) Σ_i X_i ω^{−ij} (inverse), N = `input.len()`.
pub fn dft_output(input: &[BigUint], omega: &BigUint, j: usize, inverse: bool, p: &BigUint) -> BigUint {
    let n = input.len();
    if inverse {
        // p is prime: ω^{−1} = ω^{N−1} and 1/N = N^(p−2)
        let w = omega.modpow(&BigUint::from(n - 1), p);
        eval(input, &w.modpow(&BigUint::from(j), p), p) * BigUint::from(n).modpow(&(p - 2u32), p) % p
    } else {
        eval(input, &omega.modpow(&BigUint::from(j), p), p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_evaluation_is_horner() {
        let p = BigUint::from(1_000_000_007u64);
        let coeffs: Vec<BigUint> = (0..3 * PIECE as u64 + 17).map(|i| BigUint::from(i * i + 1)).collect();
        let x = BigUint::from(123_456u32);
        assert_eq!(eval(&coeffs, &x, &p), horner(&coeffs, &x, &p));
    }

    /// Over Z/17 with ω = 2 (order 8): the definition's outputs, and the
    /// inverse's of them give the input back.
    #[test]
    fn outputs_follow_the_definition() {
        let p = BigUint::from(17u32);
        let w = BigUint::from(2u32);
        let x: Vec<BigUint> = [3u32, 1, 4, 1, 5, 9, 2, 6].iter().map(|&v| BigUint::from(v)).collect();
        let fwd: Vec<BigUint> = (0..8).map(|j| dft_output(&x, &w, j, false, &p)).collect();
        for (j, got) in fwd.iter().enumerate() {
            let want = (0..8u32).fold(0u64, |s, i| (s + [3u64, 1, 4, 1, 5, 9, 2, 6][i as usize] * 2u64.pow(i * j as u32 % 8)) % 17);
            assert_eq!(*got, BigUint::from(want), "X_{j}");
        }
        for (j, v) in x.iter().enumerate() {
            assert_eq!(dft_output(&fwd, &w, j, true, &p), *v, "x_{j}");
        }
    }
}
