//! Search for new SRGFN primes r^k + 1 with r a signed sum of `terms` powers
//! of two whose leading power 2^w lies in [w_min, w_max].
//!
//! Every sign/exponent combination is enumerated (exponents strictly
//! decreasing, leading sign +), radices are deduplicated by value (the first
//! combination in enumeration order names it), screened by small factors with
//! machine arithmetic, then tested in parallel with the strong test.

use std::collections::HashSet;

use rayon::prelude::*;

use crate::error::PrimeError;
use crate::primality::{has_small_factor, is_probable_prime};
use crate::prime::{check_k, Prime, Sign, SparseRadix, Term, MAX_TERMS};

/// What to search: primes r^k + 1 with r of `terms` power-of-two terms and
/// a leading exponent w from `w_min` to `w_max`.
#[derive(Clone, Debug)]
pub struct SearchSpec {
    /// Digits per element (a power of two from 2 to 256).
    pub k: usize,
    /// Terms of r (2 to [`MAX_TERMS`]).
    pub terms: usize,
    /// Smallest leading exponent w.
    pub w_min: u32,
    /// Largest leading exponent w (at most 64).
    pub w_max: u32,
}

impl SearchSpec {
    /// Refuses a k, a number of terms or a range of w the search does not take.
    pub fn validate(&self) -> Result<(), PrimeError> {
        check_k(self.k)?;
        if self.terms < 2 || self.terms > MAX_TERMS {
            return Err(PrimeError::Radix(format!("--terms must be 2 to {MAX_TERMS}, got {}", self.terms)));
        }
        if self.w_min > self.w_max || self.w_max > 64 || self.w_min < self.terms as u32 - 1 {
            return Err(PrimeError::Radix(format!(
                "need {} <= w-min <= w-max <= 64 for {} terms, got w-min {} and w-max {}",
                self.terms - 1,
                self.terms,
                self.w_min,
                self.w_max
            )));
        }
        Ok(())
    }
}

/// All distinct radices of the spec's shape, in enumeration order
/// (w descending, then lower exponents descending, '+' before '-').
pub fn candidate_radices(spec: &SearchSpec) -> Result<Vec<SparseRadix>, PrimeError> {
    spec.validate()?;
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for w in (spec.w_min..=spec.w_max).rev() {
        let mut lower = Vec::new();
        enumerate_lower(w, spec.terms - 1, &mut lower, &mut |tail| {
            let mut terms = vec![Term { sign: Sign::Plus, exp: w }];
            terms.extend_from_slice(tail);
            if let Ok(radix) = SparseRadix::new(terms) {
                if seen.insert(radix.value()) {
                    out.push(radix);
                }
            }
        });
    }
    Ok(out)
}

/// Calls `f` with every list of `n` signed terms with exponents decreasing below `below`.
fn enumerate_lower(below: u32, n: usize, acc: &mut Vec<Term>, f: &mut dyn FnMut(&[Term])) {
    if n == 0 {
        f(acc);
        return;
    }
    for exp in (n as u32 - 1..below).rev() {
        for sign in [Sign::Plus, Sign::Minus] {
            acc.push(Term { sign, exp });
            enumerate_lower(exp, n - 1, acc, f);
            acc.pop();
        }
    }
}

/// Primes r^k + 1 among the spec's radices, in enumeration order.
/// `tick` is called once per candidate tested (for progress display).
pub fn search(spec: &SearchSpec, tick: &(dyn Fn() + Sync)) -> Result<Vec<Prime>, PrimeError> {
    Ok(search_radices(candidate_radices(spec)?, spec.k, tick))
}

/// Primes r^k + 1 among `candidates` (from [`candidate_radices`]), in order.
pub fn search_radices(candidates: Vec<SparseRadix>, k: usize, tick: &(dyn Fn() + Sync)) -> Vec<Prime> {
    let found: Vec<Option<Prime>> = candidates
        .into_par_iter()
        .map(|radix| {
            let r = radix.value();
            let prime = Prime::new_unchecked(radix, k).ok();
            let hit = prime.filter(|p| {
                let small = p.bits() <= 7; // r^k + 1 < 128 may itself be a screening prime
                (small || !has_small_factor(r, k)) && is_probable_prime(p.modulus())
            });
            tick();
            hit
        })
        .collect();
    found.into_iter().flatten().collect()
}
