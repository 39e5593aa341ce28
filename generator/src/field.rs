//! Exact host arithmetic on the digit representation of thesis §3.1.
//!
//! An element x ∈ Z/pZ is k digits (x_0, …, x_{k-1}), least significant first,
//! with x ≡ Σ x_i r^i.  Canonical form: every digit < r, except p − 1 = r^k,
//! written (0, …, 0, r).  This module is the specification the OpenCL kernels
//! must match: every operation builds exact signed digit sums and hands them
//! to [`Field::normalize`], which propagates carries and folds r^k ≡ −1.

use num_bigint::BigUint;
use num_traits::Zero;

use crate::error::FieldError;
use crate::prime::Prime;

/// A field element as its k digits, least significant first.
pub type Digits = Vec<u64>;

/// Arithmetic modulo p = r^k + 1 on digit vectors.
#[derive(Clone, Debug)]
pub struct Field {
    prime: Prime,
    r: u64,
    k: usize,
}

impl Field {
    pub fn new(prime: &Prime) -> Self {
        Field { prime: prime.clone(), r: prime.r(), k: prime.k() }
    }
    pub fn prime(&self) -> &Prime {
        &self.prime
    }
    pub fn k(&self) -> usize {
        self.k
    }
    pub fn r(&self) -> u64 {
        self.r
    }

    pub fn zero(&self) -> Digits {
        vec![0; self.k]
    }
    pub fn one(&self) -> Digits {
        let mut d = self.zero();
        d[0] = 1;
        d
    }
    /// p − 1 = r^k, the only element with a digit equal to r.
    pub fn minus_one(&self) -> Digits {
        let mut d = self.zero();
        d[self.k - 1] = self.r;
        d
    }

    /// Edge values of the representation: 0, 1, p−1 = (0,…,0,r), r−1 in every
    /// digit, (r−1)·r^i and r^i for every i, and r^{k−1} − 1 (a carry out of
    /// it runs through all digits).  Every check of the kernels uses them.
    pub fn edge_values(&self) -> Vec<Digits> {
        let (k, r) = (self.k, self.r);
        let mut v = vec![self.zero(), self.one(), self.minus_one(), vec![r - 1; k]];
        for i in 0..k {
            let mut d = self.zero();
            d[i] = r - 1;
            v.push(d);
            let mut d = self.zero();
            d[i] = 1;
            v.push(d);
        }
        let mut low = vec![r - 1; k];
        low[k - 1] = 0;
        v.push(low);
        v
    }

    /// Checks that `x` is a canonical representation (length k, digits < r or (0,…,0,r)).
    pub fn validate(&self, x: &[u64]) -> Result<(), FieldError> {
        if x.len() != self.k {
            return Err(FieldError::Length { got: x.len(), k: self.k });
        }
        let top = self.k - 1;
        for (i, &d) in x.iter().enumerate() {
            let special = i == top && d == self.r && x[..top].iter().all(|&z| z == 0);
            if d >= self.r && !special {
                return Err(FieldError::Digit { index: i, digit: d, r: self.r });
            }
        }
        Ok(())
    }

    /// Representation of a value `v < p` (thesis §3.1): k remainders of
    /// repeated division by r, done on 64-bit limbs with 128-bit arithmetic.
    pub fn from_biguint(&self, v: &BigUint) -> Result<Digits, FieldError> {
        let p = self.prime.modulus();
        if v >= p {
            return Err(FieldError::Value { value: v.to_string(), prime: self.prime.to_string() });
        }
        if *v == self.prime.minus_one() {
            return Ok(self.minus_one());
        }
        let mut limbs = v.to_u64_digits(); // little-endian
        let r = self.r as u128;
        let mut d = Vec::with_capacity(self.k);
        for _ in 0..self.k {
            let mut rem: u128 = 0;
            for l in limbs.iter_mut().rev() {
                let cur = (rem << 64) | *l as u128;
                *l = (cur / r) as u64;
                rem = cur % r;
            }
            while limbs.last() == Some(&0) {
                limbs.pop();
            }
            d.push(rem as u64);
        }
        debug_assert!(limbs.is_empty());
        Ok(d)
    }

    /// Reduces any integer modulo p and represents it.
    pub fn from_biguint_reduced(&self, v: &BigUint) -> Digits {
        self.from_biguint(&(v % self.prime.modulus())).expect("reduced value is below p")
    }

    /// Value Σ x_i r^i of a canonical representation (Horner on 64-bit limbs).
    pub fn to_biguint(&self, x: &[u64]) -> Result<BigUint, FieldError> {
        self.validate(x)?;
        let r = self.r as u128;
        let mut limbs: Vec<u64> = Vec::with_capacity(self.k + 1);
        for &d in x.iter().rev() {
            let mut carry = d as u128;
            for l in limbs.iter_mut() {
                let t = *l as u128 * r + carry;
                *l = t as u64;
                carry = t >> 64;
            }
            if carry > 0 {
                limbs.push(carry as u64);
            }
        }
        let bytes: Vec<u8> = limbs.iter().flat_map(|l| l.to_le_bytes()).collect();
        Ok(BigUint::from_bytes_le(&bytes))
    }

    pub fn from_u64(&self, v: u64) -> Digits {
        self.from_biguint_reduced(&BigUint::from(v))
    }

    /// Canonical digits of Σ z_i r^i mod p for signed digit sums z (|z_i| < 2^100).
    ///
    /// Each pass leaves digits in [0, r) and a top carry c, with value ≡ D − c
    /// (r^k ≡ −1); c is folded back into digit 0 until it vanishes.  The only
    /// cycle (|c| = 1 around r^k) is exactly the value p − 1, returned specially.
    pub fn normalize(&self, mut z: Vec<i128>) -> Digits {
        debug_assert_eq!(z.len(), self.k);
        let r = self.r as i128;
        loop {
            let mut c: i128 = 0;
            for d in z.iter_mut() {
                let t = *d + c;
                c = t.div_euclid(r);
                *d = t.rem_euclid(r);
            }
            let all = |v: i128| z.iter().all(|&d| d == v);
            if c == 0 {
                return z.iter().map(|&d| d as u64).collect();
            }
            if (c == 1 && all(0)) || (c == -1 && all(r - 1)) {
                return self.minus_one();
            }
            z[0] -= c;
        }
    }

    pub fn add(&self, x: &[u64], y: &[u64]) -> Digits {
        self.normalize(x.iter().zip(y).map(|(&a, &b)| a as i128 + b as i128).collect())
    }

    pub fn sub(&self, x: &[u64], y: &[u64]) -> Digits {
        self.normalize(x.iter().zip(y).map(|(&a, &b)| a as i128 - b as i128).collect())
    }

    pub fn neg(&self, x: &[u64]) -> Digits {
        self.normalize(x.iter().map(|&a| -(a as i128)).collect())
    }

    /// Signed digit sums of x · r^s before normalisation: a negacyclic shift
    /// (r^k = −1, r^{2k} = 1), so digit i moves to i + s with a sign flip per wrap.
    pub fn negacyclic_shift_raw(&self, x: &[u64], s: i64) -> Vec<i128> {
        let k = self.k as i64;
        let s = s.rem_euclid(2 * k);
        let mut z = vec![0i128; self.k];
        for (i, &d) in x.iter().enumerate() {
            let t = i as i64 + s;
            let (pos, flips) = (t % k, t / k);
            z[pos as usize] += if flips % 2 == 0 { d as i128 } else { -(d as i128) };
        }
        z
    }

    /// x · r^s for any integer s (thesis §3.4): one negacyclic shift and a normalisation.
    pub fn negacyclic_shift(&self, x: &[u64], s: i64) -> Digits {
        self.normalize(self.negacyclic_shift_raw(x, s))
    }

    /// x · y (thesis Algorithm 3.3).
    ///
    /// 1. u = f_x f_y mod T^k + 1, each coefficient split into a positive and a
    ///    negative part, accumulated exactly in 192 bits (both below k·r² + … < 2^137);
    /// 2. each part written in base r as a0 + a1·r + a2·r², with a0, a1 < r;
    /// 3. Σ_i ±(a0 r^i + a1 r^{i+1} + a2 r^{i+2}) summed negacyclically and normalised.
    pub fn mul(&self, x: &[u64], y: &[u64]) -> Digits {
        let k = self.k;
        let mut pos = vec![U192::default(); k];
        let mut neg = vec![U192::default(); k];
        for (i, &a) in x.iter().enumerate() {
            if a == 0 {
                continue;
            }
            for (j, &b) in y.iter().enumerate() {
                let prod = a as u128 * b as u128;
                if i + j < k {
                    pos[i + j].add(prod);
                } else {
                    neg[i + j - k].add(prod);
                }
            }
        }
        let mut z = vec![0i128; k];
        for (parts, sign) in [(&pos, 1i128), (&neg, -1i128)] {
            for (i, u) in parts.iter().enumerate() {
                for (l, a) in u.base_r_digits(self.r).into_iter().enumerate() {
                    let t = i + l;
                    let wrap = if t >= k { -1 } else { 1 };
                    z[t % k] += sign * wrap * a as i128;
                }
            }
        }
        self.normalize(z)
    }

    pub fn square(&self, x: &[u64]) -> Digits {
        self.mul(x, x)
    }

    /// x^e by left-to-right square and multiply.
    pub fn pow(&self, x: &[u64], e: &BigUint) -> Digits {
        let mut acc = self.one();
        for i in (0..e.bits()).rev() {
            acc = self.square(&acc);
            if e.bit(i) {
                acc = self.mul(&acc, x);
            }
        }
        acc
    }

    /// x^{-1} = x^{p−2}.
    pub fn inv(&self, x: &[u64]) -> Result<Digits, FieldError> {
        if x.iter().all(|&d| d == 0) {
            return Err(FieldError::ZeroInverse);
        }
        let e = self.prime.modulus() - 2u32;
        Ok(self.pow(x, &e))
    }


    /// Inverse of a small integer n modulo p, as digits (used for 1/N scaling).
    pub fn inv_u64(&self, n: u64) -> Result<Digits, FieldError> {
        let p = self.prime.modulus();
        let nb = BigUint::from(n) % p;
        if nb.is_zero() {
            return Err(FieldError::ZeroInverse);
        }
        let inv = nb.modpow(&(p - 2u32), p);
        Ok(self.from_biguint(&inv).expect("inverse below p"))
    }

    /// r^s as an element (for tests and tables).
    pub fn r_pow(&self, s: i64) -> Digits {
        self.negacyclic_shift(&self.one(), s)
    }

}

/// Unsigned 192-bit accumulator for sums of at most 2^64 products below 2^128.
#[derive(Clone, Copy, Default, Debug)]
struct U192 {
    lo: u128,
    hi: u64,
}

impl U192 {
    fn add(&mut self, v: u128) {
        let (lo, carry) = self.lo.overflowing_add(v);
        self.lo = lo;
        self.hi += carry as u64;
    }

    /// (a0, a1, a2) with value = a0 + a1 r + a2 r², a0, a1 < r (a2 < 2^73 / r, tiny).
    fn base_r_digits(self, r: u64) -> [u64; 3] {
        let limbs = [self.hi, (self.lo >> 64) as u64, self.lo as u64];
        let (q, a0) = divrem_limbs(limbs, r);
        let (q, a1) = divrem_limbs(q, r);
        debug_assert!(q[0] == 0 && q[1] == 0);
        [a0, a1, q[2]]
    }
}

/// Long division of a big-endian 3-limb number by r; returns (quotient, remainder).
fn divrem_limbs(limbs: [u64; 3], r: u64) -> ([u64; 3], u64) {
    let mut q = [0u64; 3];
    let mut rem: u128 = 0;
    for (i, &l) in limbs.iter().enumerate() {
        let cur = (rem << 64) | l as u128;
        q[i] = (cur / r as u128) as u64;
        rem = cur % r as u128;
    }
    (q, rem as u64)
}
