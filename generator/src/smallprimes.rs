//! The thesis's alternative (ch. 7, Appendix A and C), as a benchmark
//! baseline: s NTTs of size N over 32-bit Fourier primes q_j (2^24 | q_j − 1),
//! then the mixed-radix (Garner) recombination of the s residues of each
//! element into one integer modulo m = q_1 ⋯ q_s.  All constants are computed
//! here; the kernels (templates/smallprime.cl.tera) only use them.

use num_bigint::BigUint;
use serde::Serialize;

/// 2-adic valuation every chosen prime has: transforms up to 2^24.
pub const SMALL_PRIME_TWO_ADICITY: u32 = 24;

fn is_prime_u64(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    for p in [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
        if n % p == 0 {
            return n == p;
        }
    }
    let (mut d, mut s) = (n - 1, 0);
    while d % 2 == 0 {
        d /= 2;
        s += 1;
    }
    let mulmod = |a: u64, b: u64| (a as u128 * b as u128 % n as u128) as u64;
    let powmod = |mut a: u64, mut e: u64| {
        let mut r = 1u64;
        while e > 0 {
            if e & 1 == 1 {
                r = mulmod(r, a);
            }
            a = mulmod(a, a);
            e >>= 1;
        }
        r
    };
    // deterministic for n < 2^64 with these bases
    [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37].iter().all(|&a| {
        let mut x = powmod(a, d);
        if x == 1 || x == n - 1 {
            return true;
        }
        for _ in 1..s {
            x = mulmod(x, x);
            if x == n - 1 {
                return true;
            }
        }
        false
    })
}

/// a^e mod q.
pub fn pow_mod(a: u64, mut e: u64, q: u64) -> u64 {
    let (mut a, mut r) = (a % q, 1u64);
    while e > 0 {
        if e & 1 == 1 {
            r = r * a % q;
        }
        a = a * a % q;
        e >>= 1;
    }
    r
}

/// The `s` largest primes q < 2^32 with 2^24 | q − 1, largest first (24 exist).
pub fn fourier_primes(s: usize) -> Vec<u64> {
    let step = 1u64 << SMALL_PRIME_TWO_ADICITY;
    (1..(1u64 << 32) / step).rev().map(|c| c * step + 1).filter(|&q| q < 1 << 32 && is_prime_u64(q)).take(s).collect()
}

/// A primitive 2^24-th root of unity mod q (from the smallest non-residue).
pub fn root_2_24(q: u64) -> u64 {
    let odd = (q - 1) >> SMALL_PRIME_TWO_ADICITY;
    (2..q)
        .map(|a| pow_mod(a, odd, q))
        .find(|&g| pow_mod(g, 1 << (SMALL_PRIME_TWO_ADICITY - 1), q) == q - 1)
        .expect("q is prime")
}

/// Precomputed constants of the small-prime baseline.
#[derive(Clone, Debug, Serialize)]
pub struct SmallPrimes {
    pub q: Vec<u64>,
    /// −q^{−1} mod 2^32 (Montgomery).
    pub qinv: Vec<u64>,
    /// Garner, in Montgomery form (× 2^32 mod q_j): `c[j][i]` = q_0 ⋯ q_{i−1},
    /// `inv[j]` = (q_0 ⋯ q_{j−1})^{−1}.
    pub garner_c: Vec<Vec<u64>>,
    pub garner_inv: Vec<u64>,
    /// M_j = q_0 ⋯ q_{j−1} as s 32-bit words, least significant first.
    pub m_words: Vec<Vec<u64>>,
}

impl SmallPrimes {
    pub fn new(s: usize) -> SmallPrimes {
        let q = fourier_primes(s);
        assert_eq!(q.len(), s, "not enough 32-bit Fourier primes");
        let qinv = q
            .iter()
            .map(|&qj| {
                // Newton iteration for q^{-1} mod 2^32
                let mut x: u64 = 1;
                for _ in 0..5 {
                    x = x.wrapping_mul(2u64.wrapping_sub(qj.wrapping_mul(x))) & 0xffff_ffff;
                }
                (1u64 << 32).wrapping_sub(x) & 0xffff_ffff
            })
            .collect();
        let mut garner_c = vec![vec![0u64; s]; s];
        let mut garner_inv = vec![0u64; s];
        for j in 0..s {
            let mut prod = 1u64;
            for i in 0..j {
                garner_c[j][i] = prod;
                prod = prod * (q[i] % q[j]) % q[j];
            }
            garner_inv[j] = pow_mod(prod, q[j] - 2, q[j]);
        }
        let mont = |x: u64, qj: u64| ((x as u128) << 32) % qj as u128;
        for j in 0..s {
            for i in 0..j {
                garner_c[j][i] = mont(garner_c[j][i], q[j]) as u64;
            }
            garner_inv[j] = mont(garner_inv[j], q[j]) as u64;
        }
        let mut m_words = Vec::new();
        let mut m = BigUint::from(1u32);
        for &qj in &q {
            let mut w: Vec<u64> = m.to_u32_digits().into_iter().map(u64::from).collect();
            w.resize(s, 0);
            m_words.push(w);
            m *= qj;
        }
        SmallPrimes { q, qinv, garner_c, garner_inv, m_words }
    }

    pub fn s(&self) -> usize {
        self.q.len()
    }

    /// Twiddle table of prime j for size n: ω^e · 2^32 mod q (Montgomery form), e < n.
    pub fn twiddles(&self, j: usize, n: usize) -> Vec<u32> {
        let q = self.q[j];
        let w = pow_mod(root_2_24(q), (1u64 << SMALL_PRIME_TWO_ADICITY) / n as u64, q);
        let mut out = Vec::with_capacity(n);
        let mut acc = (1u64 << 32) % q; // 1 in Montgomery form
        for _ in 0..n {
            out.push(acc as u32);
            acc = acc * w % q;
        }
        out
    }

    /// Naive DFT mod q_j with the same root (host reference).
    pub fn naive_ntt(&self, j: usize, x: &[u64]) -> Vec<u64> {
        let q = self.q[j];
        let n = x.len();
        let w = pow_mod(root_2_24(q), (1u64 << SMALL_PRIME_TWO_ADICITY) / n as u64, q);
        (0..n)
            .map(|k| {
                let wk = pow_mod(w, k as u64, q);
                let mut acc = 0u64;
                let mut t = 1u64;
                for &xi in x {
                    acc = (acc + xi * t) % q;
                    t = t * wk % q;
                }
                acc
            })
            .collect()
    }

    /// The integer n < m with n ≡ `residues[j]` mod q_j (host reference, BigUint CRT).
    pub fn crt(&self, residues: &[u64]) -> BigUint {
        let m: BigUint = self.q.iter().map(|&q| BigUint::from(q)).product();
        let mut acc = BigUint::default();
        for (j, &a) in residues.iter().enumerate() {
            let qj = BigUint::from(self.q[j]);
            let mj = &m / &qj;
            let inv = (&mj % &qj).modpow(&(&qj - 2u32), &qj);
            acc += BigUint::from(a) * mj * inv;
        }
        acc % m
    }
}

/// Template context of the small-prime kernels.
pub fn template_context(sp: &SmallPrimes) -> tera::Context {
    let mut c = tera::Context::new();
    c.insert("s", &sp.s());
    c.insert("q", &sp.q);
    c.insert("qinv", &sp.qinv);
    c.insert("garner_c", &sp.garner_c);
    c.insert("garner_inv", &sp.garner_inv);
    c.insert("m_words", &sp.m_words);
    let radices = [2usize, 4, 8, 16];
    c.insert("radices", &radices);
    let rev: Vec<Vec<usize>> = radices
        .iter()
        .map(|&r| (0..r).map(|t| t.reverse_bits() >> (usize::BITS - r.trailing_zeros())).collect())
        .collect();
    c.insert("rev", &rev);
    c
}
