//! Primitive roots of unity with ω^{N/2k} = r (thesis §3.2, Algorithm 3.1).
//!
//! One root is fixed per prime: ω_max, a primitive 2^e-th root (e = v2(p − 1))
//! with ω_max^{2^e / 2k} = r.  For N = 2^m ≤ 2^e we take ω_N = ω_max^{2^e / N}.
//! So the choice is deterministic and consistent across sizes: ω_{N}² = ω_{N/2},
//! and ω_N^{N/2k} = r whenever N ≥ 2k (for N < 2k, ω_N = r^{2k/N}).

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive};

use crate::error::SizeError;
use crate::primality::jacobi;
use crate::prime::Prime;

impl Prime {
    /// ω_max: primitive 2^e-th root of unity with ω_max^{2^e/2k} = r.
    pub fn max_root(&self) -> &BigUint {
        self.max_root.get_or_init(|| compute_max_root(self))
    }

    /// Smallest and largest log2 N for which a transform of size N exists.
    pub fn size_range(&self) -> (u32, u32) {
        (1, self.two_adicity())
    }

    /// Checks 2 ≤ N = 2^log_n ≤ 2^e.
    pub fn check_log_size(&self, log_n: u32) -> Result<(), SizeError> {
        let (min, max) = self.size_range();
        if log_n < min || log_n > max {
            return Err(SizeError::OutOfRange { log_n, min, max, prime: self.to_string() });
        }
        Ok(())
    }

    /// The primitive N-th root ω_N (N = 2^log_n) used by every transform of that size.
    /// Memoised: the squarings start from the nearest root already known for a
    /// larger N (else from ω_max), so each size is computed once per prime.
    pub fn root_of_unity(&self, log_n: u32) -> Result<BigUint, SizeError> {
        self.check_log_size(log_n)?;
        let known = self.roots.lock().expect("root cache").range(log_n..).next().map(|(&l, w)| (l, w.clone()));
        let (from, mut w) = known.unwrap_or_else(|| (self.two_adicity(), self.max_root().clone()));
        if from != log_n {
            let p = self.modulus();
            for _ in log_n..from {
                w = &w * &w % p;
            }
            self.roots.lock().expect("root cache").insert(log_n, w.clone());
        }
        Ok(w)
    }
}

/// Parses N given as a decimal integer or as `2^m`; returns m.
pub fn parse_log_size(s: &str) -> Result<u32, SizeError> {
    let t = s.trim();
    let not_pow2 = || SizeError::NotPowerOfTwo(t.to_string());
    if let Some(m) = t.strip_prefix("2^") {
        if m.is_empty() || m.len() > 6 || !m.bytes().all(|b| b.is_ascii_digit()) {
            return Err(not_pow2());
        }
        return m.parse().map_err(|_| not_pow2());
    }
    if t.is_empty() || t.len() > 2000 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(not_pow2());
    }
    let n: BigUint = t.parse().map_err(|_| not_pow2())?;
    log2_exact(&n).ok_or_else(not_pow2)
}

/// m when n = 2^m, else None.
pub fn log2_exact(n: &BigUint) -> Option<u32> {
    let tz = n.trailing_zeros()?;
    if n.bits() == tz + 1 {
        tz.to_u32()
    } else {
        None
    }
}

fn compute_max_root(prime: &Prime) -> BigUint {
    let p = prime.modulus();
    let e = prime.two_adicity();
    let pm1 = prime.minus_one();
    let q = &pm1 >> e; // odd part of p − 1
    let square_times = |x: &BigUint, n: u32| {
        let mut y = x.clone();
        for _ in 0..n {
            y = &y * &y % p;
        }
        y
    };
    // g = a^q is a primitive 2^e-th root iff a is a quadratic non-residue,
    // found by its Jacobi symbol (not by 2^(e−1) squarings per candidate)
    let a = (2u32..).map(BigUint::from).find(|a| jacobi(a, p) == -1).expect("p is prime, so a quadratic non-residue exists");
    let g = a.modpow(&q, p);
    // β = g^{2^e/2k} is a primitive 2k-th root, hence r^{i0} with i0 odd;
    // Algorithm 3.1: the j < 2k with β^j = r gives ω = g^j.
    let log_k2 = prime.base_size().trailing_zeros();
    let beta = square_times(&g, e - log_k2);
    let r = BigUint::from(prime.r());
    let mut acc = beta.clone();
    let mut j = 1u32;
    while acc != r {
        acc = &acc * &beta % p;
        j += 1;
        assert!(j <= prime.base_size() as u32, "r is a primitive 2k-th root of unity");
    }
    let w = g.modpow(&BigUint::from(j), p);
    debug_assert!(square_times(&w, e - log_k2) == r && !square_times(&w, e - 1).is_one());
    w
}
