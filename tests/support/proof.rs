//! Independent primality oracles for the tests: machine-word factoring, and
//! Pocklington certificates for p with p − 1 fully factored (every catalog
//! prime: p − 1 = r^k with r < 2^64).  Nothing here uses the library's
//! probable-prime test.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::One;
use srgfn_gen::primality::jacobi;

fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    (a as u128 * b as u128 % m as u128) as u64
}

fn pow_mod(mut a: u64, mut e: u64, m: u64) -> u64 {
    let mut acc = 1 % m;
    while e > 0 {
        if e & 1 == 1 {
            acc = mul_mod(acc, a, m);
        }
        a = mul_mod(a, a, m);
        e >>= 1;
    }
    acc
}

/// Deterministic primality of a machine word: Miller–Rabin to the first 12
/// prime bases, which has no pseudoprime below 3.3·10^24.
pub fn is_prime_u64(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    if let Some(&b) = BASES.iter().find(|&&b| n.is_multiple_of(b)) {
        return n == b;
    }
    let s = (n - 1).trailing_zeros();
    let d = (n - 1) >> s;
    BASES.iter().all(|&a| {
        let mut x = pow_mod(a, d, n);
        if x == 1 || x == n - 1 {
            return true;
        }
        (1..s).any(|_| {
            x = mul_mod(x, x, n);
            x == n - 1
        })
    })
}

/// A non-trivial factor of a composite odd n (Pollard's rho, Floyd cycles).
fn rho(n: u64) -> u64 {
    for c in 1.. {
        let f = |x: u64| (mul_mod(x, x, n) + c) % n;
        let (mut x, mut y, mut d) = (2u64, 2u64, 1u64);
        while d == 1 {
            x = f(x);
            y = f(f(y));
            d = x.abs_diff(y).gcd(&n);
        }
        if d != n {
            return d;
        }
    }
    unreachable!("rho finds a factor of every odd composite")
}

/// The distinct prime factors of n ≥ 1, ascending.
pub fn prime_factors(n: u64) -> Vec<u64> {
    fn split(n: u64, out: &mut Vec<u64>) {
        if n == 1 {
            return;
        }
        if n.is_multiple_of(2) {
            out.push(2);
            return split(n >> n.trailing_zeros(), out);
        }
        if is_prime_u64(n) {
            out.push(n);
            return;
        }
        let d = rho(n);
        split(d, out);
        split(n / d, out);
    }
    let mut out = Vec::new();
    split(n, &mut out);
    out.sort_unstable();
    out.dedup();
    out
}

/// True when a Pocklington–Lehmer certificate proves p prime: `factors` are
/// primes whose product (with multiplicity) is exactly p − 1, and for each q
/// some a < 200 has a^(p−1) ≡ 1 and gcd(a^((p−1)/q) − 1, p) = 1.  False when
/// the factors are wrong, or no witness exists (as for any composite p).
/// Witnesses are tried quadratic non-residues first (by their Jacobi symbol:
/// this only orders the candidates, every condition is checked by powers).
pub fn pocklington_proves_prime(p: &BigUint, factors: &[u64]) -> bool {
    let pm1 = p - 1u32;
    let mut rest = pm1.clone();
    for &q in factors {
        if !is_prime_u64(q) {
            return false;
        }
        while (&rest % q).bits() == 0 {
            rest /= q;
        }
    }
    if !rest.is_one() {
        return false;
    }
    let mut witnesses: Vec<BigUint> = (2u32..200).map(BigUint::from).collect();
    witnesses.sort_by_key(|a| jacobi(a, p) != -1);
    factors.iter().all(|&q| {
        let e = &pm1 / q;
        witnesses.iter().any(|a| {
            let x = a.modpow(&e, p);
            x.modpow(&BigUint::from(q), p).is_one() && (x + &pm1).gcd(p).is_one()
        })
    })
}

/// A certificate for p = r^k + 1: p − 1 = r^k, so its prime factors are r's.
pub fn proves_srgfn_prime(p: &BigUint, r: u64) -> bool {
    pocklington_proves_prime(p, &prime_factors(r))
}
