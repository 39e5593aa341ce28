//! Helpers shared by the workspace integration tests and benchmarks.

use num_bigint::{BigUint, RandBigInt};
use rand::{rngs::StdRng, Rng, SeedableRng};
use srgfn_gen::{Digits, Field, Prime};

pub mod proof;

/// A deterministic RNG for a test, seeded by name so failures reproduce.
pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

/// Uniform random element below p.
pub fn random_value(prime: &Prime, rng: &mut StdRng) -> BigUint {
    rng.gen_biguint_below(prime.modulus())
}

/// Edge values of the representation (see [`Field::edge_values`]).
pub fn edge_values(field: &Field) -> Vec<Digits> {
    field.edge_values()
}

/// Random digit vector with digits < r (a canonical element), biased to the
/// extremes so that carries through many digits are common.
pub fn random_digits(field: &Field, rng: &mut StdRng) -> Digits {
    let r = field.r();
    (0..field.k())
        .map(|_| match rng.gen_range(0..4) {
            0 => r - 1,
            1 => rng.gen_range(0..4),
            _ => rng.gen_range(0..r),
        })
        .collect()
}

/// `len` random digit vectors ([`random_digits`]) from `seed`, with the
/// edge values at the odd indices of the first half.
pub fn inputs_with_edges(field: &Field, len: usize, seed: u64) -> Vec<Digits> {
    let mut r = rng(seed);
    let mut x: Vec<Digits> = (0..len).map(|_| random_digits(field, &mut r)).collect();
    for (i, e) in edge_values(field).into_iter().enumerate().take(len / 2) {
        x[2 * i + 1] = e;
    }
    x
}

/// The forward DFT of every vector of size n in `x` (digits), on the host.
pub fn host_forward_digits(field: &Field, x: &[Digits], n: usize) -> Vec<Digits> {
    let mut want = x.to_vec();
    for v in want.chunks_mut(n) {
        srgfn_gen::reference::host_fft(field, v).unwrap();
    }
    want
}

/// A plan's forward transform of `v` (holding x) against the host, then its
/// inverse back to x; `what` names the case in a failure.  The vector ends
/// holding x again, in the natural order.
pub fn assert_round_trip(plan: &mut srgfn::Plan, v: &mut srgfn::DeviceVec, field: &Field, x: &[Digits], what: &str) {
    plan.forward(v).unwrap();
    assert_eq!(v.order(), srgfn::Order::Natural, "{what}");
    assert!(plan.download_digits(v).unwrap() == host_forward_digits(field, x, plan.n()), "{what}: forward ≠ host");
    plan.inverse(v).unwrap();
    assert!(plan.download_digits(v).unwrap() == x, "{what}: inverse(forward(x)) ≠ x");
}

/// `len` random values below p from `seed`.
pub fn random_values(prime: &Prime, len: usize, seed: u64) -> Vec<BigUint> {
    let mut r = rng(seed);
    (0..len).map(|_| random_value(prime, &mut r)).collect()
}

/// The forward DFT of every vector of size n in `x`, on the host (the reference FFT).
pub fn host_forward_values(prime: &Prime, x: &[BigUint], n: usize) -> Vec<BigUint> {
    let f = Field::new(prime);
    x.chunks(n)
        .flat_map(|v| {
            let mut d: Vec<_> = v.iter().map(|e| f.from_biguint(e).unwrap()).collect();
            srgfn_gen::reference::host_fft(&f, &mut d).unwrap();
            d.iter().map(|e| f.to_biguint(e).unwrap()).collect::<Vec<_>>()
        })
        .collect()
}
