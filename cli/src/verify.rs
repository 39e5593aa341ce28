//! `--verify`: results checked at random points against their definition,
//! with polynomials evaluated on every core.

use anyhow::Result;
use num_bigint::{BigUint, RandBigInt};
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use srgfn::points::{dft_output, eval};
use srgfn_gen::Field;

/// Random points checked by `--verify`.
pub const POINTS: usize = 2;

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
    let mut rng = rng();
    for _ in 0..POINTS {
        let j = rng.gen_range(0..input.len());
        if output(j)? != dft_output(input, omega, j, inverse, p) {
            return Ok(false);
        }
    }
    Ok(true)
}
