//! Strong probable-prime test used to validate p = r^k + 1.
//!
//! Baillie–PSW (Miller–Rabin to base 2, then the strong Lucas test with
//! Selfridge's parameters) followed by Miller–Rabin to the bases 3, 5 and 7.
//! No BPSW pseudoprime is known; the extra bases make an accidental pass of a
//! composite of this shape even less likely.  In a search, small factors are
//! screened first with machine arithmetic.

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

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
    if let Some(small) = n.to_u64().filter(|&v| v < 100) {
        return small == 2 || SCREEN.contains(&small);
    }
    if SCREEN.iter().any(|&q| (n % q).is_zero()) || !n.bit(0) {
        return false;
    }
    miller_rabin(n, &BigUint::from(2u32))
        && strong_lucas(n)
        && (n.bits() <= 64 || [3u32, 5, 7].iter().all(|&b| miller_rabin(n, &BigUint::from(b))))
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

/// Jacobi symbol (a/n) for odd n > 0: for a prime n, 1 when a is a nonzero
/// square mod n, −1 when it is not (Euler's criterion without a modpow).
pub fn jacobi(a: &BigUint, n: &BigUint) -> i32 {
    let (mut a, mut n) = (a % n, n.clone());
    let mut t = 1;
    while !a.is_zero() {
        let z = a.trailing_zeros().unwrap_or(0);
        a >>= z;
        // (2/n) = −1 exactly when n ≡ 3, 5 (mod 8)
        let n8 = (&n % 8u32).to_u32().unwrap_or(0);
        if z % 2 == 1 && (n8 == 3 || n8 == 5) {
            t = -t;
        }
        // reciprocity: the sign flips when a ≡ n ≡ 3 (mod 4)
        if (&a % 4u32) == BigUint::from(3u32) && n8 % 4 == 3 {
            t = -t;
        }
        std::mem::swap(&mut a, &mut n);
        a %= &n;
    }
    if n.is_one() {
        t
    } else {
        0
    }
}

/// x / 2 mod n (n odd).
fn half_mod(x: BigUint, n: &BigUint) -> BigUint {
    if x.bit(0) {
        (x + n) >> 1
    } else {
        x >> 1
    }
}

/// Strong Lucas probable-prime test with Selfridge's method A (P = 1,
/// Q = (1 − D)/4, D the first of 5, −7, 9, −11, … with (D/n) = −1), for odd n
/// not divisible by a small prime.  With n + 1 = d·2^s, d odd: n passes when
/// U_d ≡ 0 or V_{d·2^j} ≡ 0 (mod n) for some j < s.
pub fn strong_lucas(n: &BigUint) -> bool {
    let sqrt = n.sqrt();
    if &sqrt * &sqrt == *n {
        return false; // squares have no D with (D/n) = −1
    }
    let mut d_abs = 5u64;
    let mut negative = false;
    let d_mod_n = loop {
        let d_mod_n = if negative { n - (BigUint::from(d_abs) % n) } else { BigUint::from(d_abs) % n };
        match jacobi(&d_mod_n, n) {
            -1 => break d_mod_n,
            0 if BigUint::from(d_abs) != *n => return false,
            _ => {}
        }
        d_abs += 2;
        negative = !negative;
    };
    // Q = (1 − D)/4 mod n
    let q = if negative { BigUint::from((1 + d_abs) / 4) % n } else { (n - BigUint::from((d_abs - 1) / 4) % n) % n };
    let np1: BigUint = n + 1u32;
    let s = np1.trailing_zeros().unwrap_or(0);
    let d = &np1 >> s;
    // ladder over the bits of d: (U_j, V_j, Q^j) with U_1 = 1, V_1 = P = 1
    let (mut u, mut v, mut qk) = (BigUint::one(), BigUint::one(), q.clone());
    let sub_mod = |a: BigUint, b: &BigUint| if a >= *b { a - b } else { a + n - b };
    for i in (0..d.bits() - 1).rev() {
        // U_2j = U_j V_j, V_2j = V_j² − 2Q^j
        u = &u * &v % n;
        v = sub_mod(&v * &v % n, &(&qk * 2u32 % n));
        qk = &qk * &qk % n;
        if d.bit(i) {
            // U_{j+1} = (P·U_j + V_j)/2, V_{j+1} = (D·U_j + P·V_j)/2
            let (u1, v1) = ((&u + &v) % n, (&d_mod_n * &u + &v) % n);
            u = half_mod(u1, n);
            v = half_mod(v1, n);
            qk = &qk * &q % n;
        }
    }
    if u.is_zero() || v.is_zero() {
        return true;
    }
    for _ in 1..s {
        v = sub_mod(&v * &v % n, &(&qk * 2u32 % n));
        if v.is_zero() {
            return true;
        }
        qk = &qk * &qk % n;
    }
    false
}
