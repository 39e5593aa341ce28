//! Strong probable-prime test used to validate p = r^k + 1.
//!
//! Baillie–PSW (Miller–Rabin base 2 + strong Lucas test with Selfridge
//! parameters, from `glass_pumpkin`) followed by Miller–Rabin to the bases
//! 3, 5 and 7.  No BPSW pseudoprime is known; the extra bases make an
//! accidental pass of a composite of this shape even less likely.  In a
//! search, small factors are screened first with machine arithmetic.

use num_bigint::BigUint;
use num_traits::One;

/// Odd primes used to screen candidates of the form r^k + 1 cheaply.
const SCREEN: [u64; 24] = [3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97];

/// True when r^k + 1 has a small odd factor q < 100 (the caller excludes r^k + 1 < 100).
pub fn has_small_factor(r: u64, k: usize) -> bool {
    SCREEN.iter().any(|&q| {
        let rq = (r % q) as u128;
        let mut acc: u128 = 1;
        for _ in 0..k {
            acc = acc * rq % q as u128;
        }
        (acc + 1).is_multiple_of(q as u128)
    })
}

/// Strong probable-prime test: Baillie–PSW, then Miller–Rabin bases 3, 5, 7.
pub fn is_probable_prime(n: &BigUint) -> bool {
    // glass_pumpkin speaks num-bigint 0.5; convert through bytes.
    let n05 = num_bigint_05::BigUint::from_bytes_le(&n.to_bytes_le());
    if !glass_pumpkin::prime::strong_check(&n05) {
        return false;
    }
    n.bits() <= 64 || [3u32, 5, 7].iter().all(|&b| miller_rabin(n, &BigUint::from(b)))
}

/// One Miller–Rabin round to base `a` for odd n > a.
pub fn miller_rabin(n: &BigUint, a: &BigUint) -> bool {
    let one = BigUint::one();
    let nm1 = n - &one;
    let s = nm1.trailing_zeros().unwrap_or(0);
    let d = &nm1 >> s;
    let mut x = a.modpow(&d, n);
    if x == one || x == nm1 {
        return true;
    }
    for _ in 1..s {
        x = &x * &x % n;
        if x == nm1 {
            return true;
        }
    }
    false
}
