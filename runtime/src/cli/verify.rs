//! `--verify`: results checked at random points against their definition,
//! with polynomials evaluated on every core.

use anyhow::Result;
use num_bigint::{BigUint, RandBigInt};
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use srgfn_gen::Field;

/// Random points checked by `--verify`.
pub const POINTS: usize = 2;

/// Coefficients per parallel Horner piece.
const PIECE: usize = 4096;

fn horner(coeffs: &[BigUint], x: &BigUint, p: &BigUint) -> BigUint {
    coeffs.iter().rev().fold(BigUint::default(), |acc, c| (acc * x + c) % p)
}

/// A(x) mod p (coefficients lowest degree first): Horner on pieces of
/// [`PIECE`] coefficients in parallel, then Horner over the pieces at x^PIECE.
pub fn eval(coeffs: &[BigUint], x: &BigUint, p: &BigUint) -> BigUint {
    let parts: Vec<BigUint> = coeffs.par_chunks(PIECE).map(|c| horner(c, x, p)).collect();
    horner(&parts, &x.modpow(&BigUint::from(PIECE), p), p)
}

/// Values of digit words (k per element), converted on every core.
pub fn values_of(words: &[u64], field: &Field) -> Result<Vec<BigUint>> {
    words.par_chunks(field.k()).map(|e| Ok(field.to_biguint(e)?)).collect()
}

fn rng() -> rand::rngs::StdRng {
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1);
    rand::rngs::StdRng::seed_from_u64(seed)
}

/// Whether C(x) = A(x)·B(x) at [`POINTS`] random x mod p (a wrong product
/// passes with probability at most deg C / p per point).
pub fn check_product(a: &[BigUint], b: &[BigUint], c: &[BigUint], p: &BigUint) -> bool {
    let mut rng = rng();
    (0..POINTS).all(|_| {
        let x = rng.gen_biguint_below(p);
        eval(a, &x, p) * eval(b, &x, p) % p == eval(c, &x, p)
    })
}

/// Whether [`POINTS`] random outputs of a transform match the definition:
/// X_j = Σ_i x_i ω^{ij} (forward), x_j = (1/N) Σ_i X_i ω^{−ij} (inverse).
/// `output(j)` reads element j of the result.
pub fn check_transform(
    input: &[BigUint],
    omega: &BigUint,
    inverse: bool,
    p: &BigUint,
    output: impl Fn(usize) -> Result<BigUint>,
) -> Result<bool> {
    let n = input.len();
    let exponent = |e: usize| BigUint::from(e);
    let (w, scale) = if inverse {
        // p is prime: 1/N = N^(p−2)
        (omega.modpow(&exponent(n - 1), p), BigUint::from(n).modpow(&(p - 2u32), p))
    } else {
        (omega.clone(), BigUint::from(1u32))
    };
    let mut rng = rng();
    for _ in 0..POINTS {
        let j = rng.gen_range(0..n);
        let expected = eval(input, &w.modpow(&exponent(j), p), p) * &scale % p;
        if output(j)? != expected {
            return Ok(false);
        }
    }
    Ok(true)
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
}
