//! The thesis's alternative to one big prime (ch. 7, Appendices A and C), as
//! a benchmark baseline: s NTTs of size N over 32-bit Fourier primes q_j,
//! then the mixed-radix (Garner) recombination of each element's s residues
//! into one integer below m = q_0 ⋯ q_{s−1}, written as s 32-bit words.
//!
//! **Prime sets.**  The benchmark compares against p = r^k + 1 with s = 2k
//! primes, so that both sides produce k 64-bit words per element (thesis
//! §7.1, "Benchmark 1").  For s primes we take the s largest primes q < 2^32
//! with 2^E | q − 1, where E is 24 (the largest N of the benchmark suite)
//! when s such primes exist and otherwise the largest E for which they do:
//! the largest primes give the largest m, and E bounds the transforms,
//! N ≤ 2^E.  There are 24 primes for E = 24 and 44 for E = 23, so k = 4 and 8
//! (s = 8, 16) cover N ≤ 2^24 and k = 16 (s = 32) N ≤ 2^23; larger N is
//! refused (`SmallPrimeError::NotCovered`).  k = 32 (s = 64, E = 22) is not
//! offered: its straight-line Garner kernel (4000 products per element) takes
//! minutes to compile on PoCL, where the tests must run it.  Word-size
//! (64-bit) primes with s = k would halve the residues, but a 64-bit
//! Montgomery product takes three 64×64-bit products of four 32-bit
//! multiplies each (plus carries) on a GPU: 12 multiplies against 2 × 3 for
//! the two 32-bit residues it replaces.  The thesis's CUMODP baseline uses
//! 32-bit primes too.  m against p: 253.9 against 256
//! bits (k = 4), 503.5 against 504 (k = 8), 1004.9 against 992 (k = 16).
//!
//! **Arithmetic.**  Residues are kept in [0, q); products are Montgomery
//! products a·b·2^−32 mod q, with every constant (twiddles, roots, Garner
//! coefficients) stored premultiplied by 2^32 so that data stay in normal
//! form.  All constants are computed here; the kernels
//! (`templates/smallprime.cl.tera`) only print them, and the host models
//! below run the same arithmetic in the same order so that the index maps and
//! constants are proven without a device.

mod context;
mod dft;
mod plan;

use num_bigint::BigUint;

pub use context::{template_context, SmallPrimeProgram};
pub use dft::{power_steps, Butterfly, DftProgram, PowerStep};
pub use plan::{NttPlan, Pass, BANKS, GROUP_THREADS};

use crate::primality::is_probable_prime;

/// The largest transform the prime sets aim to cover (the benchmark suite's largest N).
pub const TARGET_LOG_N: u32 = 24;
/// Most primes a set may have (s = 2k for k ≤ 16).
pub const MAX_PRIMES: usize = 32;
/// Entries of the table of ω_256 powers (the largest radix of a pass).
pub const INNER_ROOTS: usize = 256;
/// Largest prime the Garner step accepts: (2^32 − 1)·q + 2^55 < 2^64 (`garner_digit`).
pub const Q_MAX: u32 = 0xff7f_ffff;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SmallPrimeError {
    #[error("the small-prime baseline supports 1 to {MAX_PRIMES} primes, got s = {0}")]
    PrimeCount(usize),
    #[error("N = {n} is not a power of two ≥ 2")]
    Size { n: usize },
    #[error("the s = {s} prime set (2^{e} | q − 1) covers N ≤ 2^{e}; N = 2^{log_n} is too large")]
    NotCovered { s: usize, e: u32, log_n: u32 },
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

/// a·b·2^−32 mod q for any a < 2^32 and b < q (the kernels' `mont`): with
/// m = (a·b mod 2^32)·q^−1 mod 2^32, a·b − m·q ≡ 0 mod 2^32 and
/// (a·b − m·q)/2^32 = hi(a·b) − hi(m·q) lies in (−q, q).
pub fn mont_mul(a: u32, b: u32, q: u32, qinv: u32) -> u32 {
    let t = a as u64 * b as u64;
    let m = (t as u32).wrapping_mul(qinv);
    let (h, mh) = ((t >> 32) as u32, ((m as u64 * q as u64) >> 32) as u32);
    if h >= mh {
        h - mh
    } else {
        h.wrapping_sub(mh).wrapping_add(q)
    }
}

/// x·2^32 mod q (Montgomery form).
pub fn to_mont(x: u32, q: u32) -> u32 {
    (((x as u128) << 32) % q as u128) as u32
}

/// The s largest primes q < 2^32 with 2^E | q − 1 (largest first) and E (module doc).
pub fn fourier_primes(s: usize) -> Result<(Vec<u32>, u32), SmallPrimeError> {
    if s == 0 || s > MAX_PRIMES {
        return Err(SmallPrimeError::PrimeCount(s));
    }
    for e in (1..=TARGET_LOG_N).rev() {
        let primes: Vec<u32> = (1..1u64 << (32 - e))
            .rev()
            .map(|c| (c << e) + 1)
            .filter(|&q| is_probable_prime(&BigUint::from(q)))
            .take(s)
            .map(|q| q as u32)
            .collect();
        if primes.len() == s {
            return Ok((primes, e));
        }
    }
    Err(SmallPrimeError::PrimeCount(s))
}

/// A primitive 2^e-th root of unity mod q (the first a = 2, 3, … whose power has that order).
pub fn primitive_root(q: u32, e: u32) -> u32 {
    let (q, odd) = (q as u64, (q as u64 - 1) >> e);
    (2..q).map(|a| pow_mod(a, odd, q)).find(|&w| pow_mod(w, 1 << (e - 1), q) == q - 1).expect("q is prime and 2^e | q − 1") as u32
}

/// Constants of the s-prime baseline (independent of N).
#[derive(Clone, Debug)]
pub struct SmallPrimes {
    pub q: Vec<u32>,
    /// E: 2^E | q_j − 1 for every j, so N ≤ 2^E.
    pub two_adicity: u32,
    /// q^−1 mod 2^32.
    pub qinv: Vec<u32>,
    /// ω_j, a primitive 2^E-th root mod q_j; the transforms of size N use ω_j^{2^E/N}.
    pub root: Vec<u32>,
    /// ω_16^h·2^32 mod q_j for h < 8 (the roots of the DFT_16 network), and their companions.
    pub w16: Vec<[u32; 8]>,
    /// Garner for j ≥ 1, Montgomery-squared (× 2^64 mod q_j): `garner[j][0]` =
    /// (M_j)^−1 multiplies a_j, `garner[j][1 + i]` = −(M_i mod q_j)·(M_j)^−1
    /// multiplies b_i, where M_j = q_0 ⋯ q_{j−1}.
    pub garner: Vec<Vec<u32>>,
    /// Per prime, `table_words()` words in Montgomery form: ω^a for a < 2^L,
    /// ω^{b·2^L} for b < 2^{E−L} (L = `lo_bits()`), then the pairs
    /// (ω_256^e, its companion) for e < 256 (`companion`).
    pub tables: Vec<u32>,
}

impl SmallPrimes {
    pub fn new(s: usize) -> Result<SmallPrimes, SmallPrimeError> {
        let (q, two_adicity) = fourier_primes(s)?;
        // the Garner sums (module doc of `garner_digit`) need (2^32 − 1)·q + 2^55 < 2^64
        assert!(q.iter().all(|&qj| qj <= Q_MAX), "a prime above Q_MAX");
        let qinv = q.iter().map(|&qj| (0..5).fold(1u32, |x, _| x.wrapping_mul(2u32.wrapping_sub(qj.wrapping_mul(x))))).collect();
        let root: Vec<u32> = q.iter().map(|&qj| primitive_root(qj, two_adicity)).collect();
        let mut sp = SmallPrimes { q, two_adicity, qinv, root, w16: Vec::new(), garner: Vec::new(), tables: Vec::new() };
        for j in 0..s {
            let qj = sp.q[j];
            let w16 = std::array::from_fn(|h| to_mont(sp.root_pow(j, (h as u64) << (two_adicity - 4)), qj));
            sp.w16.push(w16);
            let mut m_j = 1u64; // M_j mod q_j
            let mut c = Vec::with_capacity(j);
            for &qi in &sp.q[..j] {
                c.push(m_j);
                m_j = m_j * qi as u64 % qj as u64;
            }
            let inv = pow_mod(m_j, qj as u64 - 2, qj as u64);
            let r2 = |x: u64| to_mont(to_mont(x as u32, qj), qj);
            let mut row = vec![if j == 0 { 0 } else { r2(inv) }];
            row.extend(c.iter().map(|&ci| r2((qj as u64 - ci) % qj as u64 * inv % qj as u64)));
            sp.garner.push(row);
        }
        sp.tables = (0..s).flat_map(|j| sp.table(j)).collect();
        Ok(sp)
    }

    pub fn s(&self) -> usize {
        self.q.len()
    }

    /// Checks that N is a power of two the set covers; returns log₂ N.
    pub fn check_size(&self, n: usize) -> Result<u32, SmallPrimeError> {
        if !n.is_power_of_two() || n < 2 {
            return Err(SmallPrimeError::Size { n });
        }
        let log_n = n.trailing_zeros();
        if log_n > self.two_adicity {
            return Err(SmallPrimeError::NotCovered { s: self.s(), e: self.two_adicity, log_n });
        }
        Ok(log_n)
    }

    /// ω_j^e mod q_j (normal form).
    pub fn root_pow(&self, j: usize, e: u64) -> u32 {
        pow_mod(self.root[j] as u64, e, self.q[j] as u64) as u32
    }

    /// Bits of the low table: ω^e = ω^{e mod 2^L} · ω^{⌊e/2^L⌋·2^L}.
    pub fn lo_bits(&self) -> u32 {
        self.two_adicity.div_ceil(2)
    }

    /// Words of one prime's table.
    pub fn table_words(&self) -> usize {
        (1 << self.lo_bits()) + (1 << (self.two_adicity - self.lo_bits())) + 2 * INNER_ROOTS
    }

    fn table(&self, j: usize) -> Vec<u32> {
        let (e, lo) = (self.two_adicity, self.lo_bits());
        let mont = |x| to_mont(x, self.q[j]);
        let mut t: Vec<u32> = (0..1u64 << lo).map(|a| mont(self.root_pow(j, a))).collect();
        t.extend((0..1u64 << (e - lo)).map(|b| mont(self.root_pow(j, b << lo))));
        t.extend((0..INNER_ROOTS as u64).flat_map(|i| {
            let w = mont(self.root_pow(j, i << (e - 8)));
            [w, self.companion(j, w)]
        }));
        t
    }

    /// ω_j^e·2^32 mod q_j for e < 2^E from the table (the kernels' `POW`).
    pub fn table_pow(&self, j: usize, e: usize) -> u32 {
        let t = &self.tables[j * self.table_words()..];
        let lo = self.lo_bits();
        mont_mul(t[e & ((1 << lo) - 1)], t[(1 << lo) + (e >> lo)], self.q[j], self.qinv[j])
    }

    /// Offset of the (ω_256^e, companion) pairs in a prime's table.
    pub fn inner_base(&self) -> usize {
        self.table_words() - 2 * INNER_ROOTS
    }

    /// ω_256^e·2^32 mod q_j (e < 256) from the table.
    pub fn inner_root(&self, j: usize, e: usize) -> u32 {
        self.tables[j * self.table_words() + self.inner_base() + 2 * e]
    }

    /// w·q_j^−1 mod 2^32: with it a Montgomery product by w needs one
    /// multiply less (m = a·companion instead of (a·w mod 2^32)·q^−1) and gives
    /// the same result, so the host models use `mont_mul` for both.
    pub fn companion(&self, j: usize, w: u32) -> u32 {
        w.wrapping_mul(self.qinv[j])
    }

    /// Naive DFT mod q_j at ω_N = ω_j^{2^E/N} (host reference, O(N²)).
    pub fn naive_ntt(&self, j: usize, x: &[u32]) -> Vec<u32> {
        let (q, n) = (self.q[j] as u64, x.len());
        let w = self.root_pow(j, (1u64 << self.two_adicity) / n as u64) as u64;
        (0..n)
            .map(|m| {
                let wm = pow_mod(w, m as u64, q);
                let (mut acc, mut t) = (0u64, 1u64);
                for &xi in x {
                    acc = (acc + xi as u64 * t) % q;
                    t = t * wm % q;
                }
                acc as u32
            })
            .collect()
    }

    /// Recursive radix-2 DFT mod q_j at the same root (host reference, O(N log N),
    /// independent of the kernels' passes).
    pub fn reference_ntt(&self, j: usize, x: &[u32]) -> Vec<u32> {
        fn fft(x: &[u64], w: u64, q: u64) -> Vec<u64> {
            let n = x.len();
            if n == 1 {
                return x.to_vec();
            }
            let even: Vec<u64> = x.iter().step_by(2).copied().collect();
            let odd: Vec<u64> = x.iter().skip(1).step_by(2).copied().collect();
            let (e, o) = (fft(&even, w * w % q, q), fft(&odd, w * w % q, q));
            let mut out = vec![0; n];
            let mut wm = 1u64;
            for m in 0..n / 2 {
                let t = o[m] * wm % q;
                out[m] = (e[m] + t) % q;
                out[m + n / 2] = (e[m] + q - t) % q;
                wm = wm * w % q;
            }
            out
        }
        let q = self.q[j] as u64;
        let w = self.root_pow(j, (1u64 << self.two_adicity) / x.len() as u64) as u64;
        fft(&x.iter().map(|&v| v as u64).collect::<Vec<_>>(), w, q).into_iter().map(|v| v as u32).collect()
    }

    /// The integer n < m with n ≡ `residues[j]` mod q_j (host reference, BigUint CRT).
    pub fn crt(&self, residues: &[u32]) -> BigUint {
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

    /// The recombination as the kernel computes it (host model): Garner's
    /// mixed-radix digits b_j, then n = b_0 + q_0(b_1 + q_1(b_2 + …)) by
    /// Horner, as s 32-bit words, least significant first.
    pub fn recombine_host(&self, residues: &[u32]) -> Vec<u32> {
        let s = self.s();
        let mut b = Vec::with_capacity(s);
        for j in 0..s {
            if j == 0 {
                b.push(residues[0]);
                continue;
            }
            let terms = std::iter::once(residues[j]).chain(b.iter().copied()).zip(&self.garner[j]);
            b.push(garner_digit(terms, self.q[j], self.qinv[j]));
        }
        let mut n = vec![b[s - 1]];
        for i in (0..s - 1).rev() {
            let mut carry = b[i] as u64;
            for w in n.iter_mut() {
                let t = *w as u64 * self.q[i] as u64 + carry;
                *w = t as u32;
                carry = t >> 32;
            }
            n.push(carry as u32);
        }
        n
    }
}

/// Σ x·c·2^−64 mod q over (x, c) with x < 2^32, c < q, at most 64 terms (the
/// kernel's Garner step): each c is split in 16-bit halves so that the two
/// sums of 48-bit products fit 64 bits, then two Montgomery reductions (with
/// m = −t·q^−1, so every intermediate is non-negative) leave a value below
/// q + 2^7, one subtraction from [0, q).
fn garner_digit<'a>(terms: impl Iterator<Item = (u32, &'a u32)>, q: u32, qinv: u32) -> u32 {
    let (mut acc_lo, mut acc_hi) = (0u64, 0u64);
    for (x, &c) in terms {
        acc_lo += x as u64 * (c & 0xffff) as u64;
        acc_hi += x as u64 * (c >> 16) as u64;
    }
    let neg_qinv = qinv.wrapping_neg();
    let mq = |m: u32| m as u64 * q as u64;
    // S = acc_lo + acc_hi·2^16 = low + (acc_hi >> 16)·2^32 with low < 2^55;
    // low + m·q and s1 + m2·q stay below 2^64 because q ≤ Q_MAX
    let low = acc_lo + ((acc_hi & 0xffff) << 16);
    let s1 = (low.checked_add(mq((low as u32).wrapping_mul(neg_qinv))).expect("below 2^64") >> 32) + (acc_hi >> 16);
    let s2 = (s1.checked_add(mq((s1 as u32).wrapping_mul(neg_qinv))).expect("below 2^64") >> 32) as u32;
    if s2 >= q {
        s2 - q
    } else {
        s2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn prime_sets_and_their_limits() {
        for (s, e) in [(8usize, 24u32), (16, 24), (24, 24), (25, 23), (32, 23)] {
            let sp = SmallPrimes::new(s).unwrap();
            assert_eq!(sp.two_adicity, e, "s = {s}");
            for (j, &q) in sp.q.iter().enumerate() {
                assert_eq!((q - 1) % (1 << e), 0);
                assert_eq!(q.wrapping_mul(sp.qinv[j]), 1);
                assert_eq!(sp.root_pow(j, 1 << (e - 1)), q - 1, "ω has order 2^E");
            }
            assert!(sp.q.windows(2).all(|w| w[0] > w[1]), "largest first, distinct");
            assert_eq!(sp.check_size(1 << e), Ok(e));
            assert_eq!(sp.check_size(1 << (e + 1)), Err(SmallPrimeError::NotCovered { s, e, log_n: e + 1 }));
        }
        assert_eq!(SmallPrimes::new(33).unwrap_err(), SmallPrimeError::PrimeCount(33));
        assert_eq!(SmallPrimes::new(0).unwrap_err(), SmallPrimeError::PrimeCount(0));
        assert!(SmallPrimes::new(8).unwrap().check_size(3 << 4).is_err());
        // the first prime of E = 24: 250·2^24 + 1
        assert_eq!(fourier_primes(1).unwrap(), (vec![0xfa00_0001], 24));
    }

    #[test]
    fn montgomery_products_are_exact_at_the_edges() {
        let sp = SmallPrimes::new(32).unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        for j in 0..sp.s() {
            let (q, qi) = (sp.q[j], sp.qinv[j]);
            let mut xs = vec![0, 1, q - 1, q - 2, u32::MAX];
            xs.extend((0..200).map(|_| rng.gen::<u32>()));
            for &a in &xs {
                for &b in &[0, 1, q - 1, rng.gen_range(0..q)] {
                    // mont(mont(a, b), 2^64 mod q) = a·b mod q
                    let got = mont_mul(mont_mul(a, b, q, qi), to_mont(to_mont(1, q), q), q, qi);
                    assert_eq!(got as u64, a as u64 * b as u64 % q as u64, "q = {q}, a = {a}, b = {b}");
                }
            }
        }
    }

    #[test]
    fn tables_hold_the_powers() {
        let sp = SmallPrimes::new(16).unwrap();
        for j in [0, 15] {
            let q = sp.q[j];
            for e in [0usize, 1, 4095, 4096, 123_457, (1 << 24) - 1] {
                assert_eq!(sp.table_pow(j, e), to_mont(sp.root_pow(j, e as u64), q));
            }
            assert_eq!(sp.inner_root(j, 1), to_mont(sp.root_pow(j, 1 << 16), q));
            assert_eq!(sp.w16[j][1], sp.inner_root(j, 16));
        }
    }

    #[test]
    fn reference_ntt_is_the_naive_dft() {
        let sp = SmallPrimes::new(8).unwrap();
        for n in [2usize, 8, 64] {
            let x: Vec<u32> = (0..n as u32).map(|i| sp.q[3] - 1 - i * 977).collect();
            assert_eq!(sp.reference_ntt(3, &x), sp.naive_ntt(3, &x));
        }
    }

    #[test]
    fn garner_host_model_is_the_crt() {
        for s in [1usize, 8, 16, 32] {
            let sp = SmallPrimes::new(s).unwrap();
            let mut rng = rand::rngs::StdRng::seed_from_u64(s as u64);
            let mut cases: Vec<Vec<u32>> = vec![vec![0; s], sp.q.iter().map(|&q| q - 1).collect(), (0..s).map(|j| (j == 0) as u32).collect()];
            cases.extend((0..50).map(|_| sp.q.iter().map(|&q| rng.gen_range(0..q)).collect()));
            for r in &cases {
                assert_eq!(BigUint::from_slice(&sp.recombine_host(r)), sp.crt(r), "s = {s}, residues {r:?}");
            }
        }
    }
}
