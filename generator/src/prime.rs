//! Sparse-radix generalized Fermat primes p = r^k + 1.
//!
//! A radix r is a signed sum of at most four distinct powers of two with a
//! positive leading term (r = 2^w ± 2^u is the thesis's SRGFN case).  The
//! textual form users write is `(2^63+2^34)^8+1`; spaces are ignored.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use num_bigint::BigUint;
use num_traits::One;
use serde::Serialize;

use crate::error::PrimeError;
use crate::primality::is_probable_prime;

/// Largest number of signed power-of-two terms a radix may have.
pub const MAX_TERMS: usize = 4;
/// Smallest and largest k (a power of two) a [`Prime`] may have.
pub const MIN_K: usize = 2;
/// Largest k (see [`MIN_K`]).
pub const MAX_K: usize = 256;

/// The sign of a term of a sparse radix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Sign {
    /// +2^e.
    #[serde(rename = "+")]
    Plus,
    /// −2^e.
    #[serde(rename = "-")]
    Minus,
}

impl Sign {
    /// '+' or '-', as written in expressions.
    pub fn as_char(self) -> char {
        match self {
            Sign::Plus => '+',
            Sign::Minus => '-',
        }
    }
}

/// One signed term ±2^exp of a sparse radix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Term {
    /// The sign.
    pub sign: Sign,
    /// The exponent e of 2^e (at most 64).
    pub exp: u32,
}

/// r = Σ ±2^e_i with strictly decreasing exponents, leading sign +, 1 < r < 2^64.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SparseRadix {
    terms: Vec<Term>,
    value: u64,
}

impl SparseRadix {
    /// Builds a radix from terms in any order; rejects repeated exponents,
    /// a negative leading term, more than [`MAX_TERMS`] terms and r ∉ (1, 2^64).
    pub fn new(mut terms: Vec<Term>) -> Result<Self, PrimeError> {
        if terms.is_empty() || terms.len() > MAX_TERMS {
            return Err(PrimeError::Radix(format!("a radix needs 1 to {MAX_TERMS} power-of-two terms, got {}", terms.len())));
        }
        terms.sort_by_key(|t| std::cmp::Reverse(t.exp));
        if let Some(w) = terms.windows(2).find(|w| w[0].exp == w[1].exp) {
            return Err(PrimeError::Radix(format!("exponent 2^{} appears twice", w[0].exp)));
        }
        if terms[0].sign == Sign::Minus {
            return Err(PrimeError::Radix("the leading term of the radix must be positive".into()));
        }
        if terms[0].exp > 64 {
            return Err(PrimeError::Radix(format!("radix 2^{}... is not below 2^64 (each digit must fit a 64-bit word)", terms[0].exp)));
        }
        let mut v: i128 = 0;
        for t in &terms {
            let m = 1i128 << t.exp;
            v += if t.sign == Sign::Plus { m } else { -m };
        }
        if v >= 1i128 << 64 {
            return Err(PrimeError::Radix(format!("radix {} is not below 2^64 (each digit must fit a 64-bit word)", fmt_terms(&terms))));
        }
        if v <= 1 {
            return Err(PrimeError::Radix(format!("radix {} must be greater than 1", fmt_terms(&terms))));
        }
        Ok(SparseRadix { terms, value: v as u64 })
    }

    /// The terms, exponents strictly decreasing, the first positive.
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }
    /// r as a machine word.
    pub fn value(&self) -> u64 {
        self.value
    }
    /// Exponent of the leading term (the thesis's w).
    pub fn w(&self) -> u32 {
        self.terms[0].exp
    }
    /// Exponent and sign of the second term (the thesis's u), if any.
    pub fn second(&self) -> Option<Term> {
        self.terms.get(1).copied()
    }
    /// Number of zero bits on top of r inside a 64-bit digit.
    pub fn headroom_bits(&self) -> u32 {
        self.value.leading_zeros()
    }
}

fn fmt_terms(terms: &[Term]) -> String {
    let mut s = String::new();
    for (i, t) in terms.iter().enumerate() {
        if i > 0 || t.sign == Sign::Minus {
            s.push(t.sign.as_char());
        }
        s.push_str(&format!("2^{}", t.exp));
    }
    s
}

impl fmt::Display for SparseRadix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&fmt_terms(&self.terms))
    }
}

/// A validated prime p = r^k + 1 (k a power of two in [2, 256]).
#[derive(Debug)]
pub struct Prime {
    radix: SparseRadix,
    k: usize,
    p: BigUint,
    two_adicity: u32,
    /// Primitive 2^two_adicity-th root ω_max with ω_max^(2^e / 2k) = r (computed on first use).
    pub(crate) max_root: OnceLock<BigUint>,
    /// ω_N by log2 N, memoised and shared by clones (see `root_of_unity`).
    pub(crate) roots: RootCache,
}

/// Roots of unity computed so far, by log2 N.
pub(crate) type RootCache = Arc<Mutex<BTreeMap<u32, BigUint>>>;

impl Clone for Prime {
    fn clone(&self) -> Self {
        Prime {
            radix: self.radix.clone(),
            k: self.k,
            p: self.p.clone(),
            two_adicity: self.two_adicity,
            max_root: self.max_root.clone(),
            roots: self.roots.clone(),
        }
    }
}

impl PartialEq for Prime {
    fn eq(&self, o: &Self) -> bool {
        self.radix == o.radix && self.k == o.k
    }
}
impl Eq for Prime {}

impl Prime {
    /// Validates shape and primality of r^k + 1.
    pub fn new(radix: SparseRadix, k: usize) -> Result<Self, PrimeError> {
        let prime = Self::new_unchecked(radix, k)?;
        if !is_probable_prime(&prime.p) {
            return Err(PrimeError::Composite(prime.to_string()));
        }
        Ok(prime)
    }

    /// Checks the shape only (k, r); the caller vouches for primality.
    pub fn new_unchecked(radix: SparseRadix, k: usize) -> Result<Self, PrimeError> {
        check_k(k)?;
        let p = BigUint::from(radix.value()).pow(k as u32) + 1u32;
        // p - 1 = r^k, so v2(p - 1) = k * v2(r).
        let two_adicity = k as u32 * radix.value().trailing_zeros();
        Ok(Prime { radix, k, p, two_adicity, max_root: OnceLock::new(), roots: RootCache::default() })
    }

    /// Parses and validates an expression such as `(2^63+2^34)^8+1`.
    pub fn parse(expr: &str) -> Result<Self, PrimeError> {
        let (radix, k) = parse_expr(expr)?;
        Self::new(radix, k)
    }

    /// Parses and checks the shape only, not primality: for primes already
    /// known to be prime (catalog entries in fuzzers and benchmarks).
    pub fn parse_unchecked(expr: &str) -> Result<Self, PrimeError> {
        let (radix, k) = parse_expr(expr)?;
        Self::new_unchecked(radix, k)
    }

    /// The sparse radix r.
    pub fn radix(&self) -> &SparseRadix {
        &self.radix
    }
    /// The radix r as a machine word.
    pub fn r(&self) -> u64 {
        self.radix.value()
    }
    /// Number of digits per element.
    pub fn k(&self) -> usize {
        self.k
    }
    /// Base-case DFT size K = 2k (r is a primitive K-th root of unity).
    pub fn base_size(&self) -> usize {
        2 * self.k
    }
    /// p itself.
    pub fn modulus(&self) -> &BigUint {
        &self.p
    }
    /// Bits of p.
    pub fn bits(&self) -> u64 {
        self.p.bits()
    }
    /// Largest e with 2^e | p - 1: transforms of size up to 2^e exist.
    pub fn two_adicity(&self) -> u32 {
        self.two_adicity
    }
    /// p - 1 (= r^k, written (0, …, 0, r)).
    pub fn minus_one(&self) -> BigUint {
        &self.p - BigUint::one()
    }
    /// A short identifier usable in file names: `r63p34_k8`.
    pub fn slug(&self) -> String {
        let mut s = String::from("r");
        for (i, t) in self.radix.terms().iter().enumerate() {
            if i > 0 {
                s.push(if t.sign == Sign::Plus { 'p' } else { 'm' });
            }
            s.push_str(&t.exp.to_string());
        }
        format!("{s}_k{}", self.k)
    }

    /// What `srgfn info` and `srgfn primes list --json` print about the prime.
    pub fn info(&self) -> PrimeInfo {
        let second = self.radix.second();
        PrimeInfo {
            expr: self.to_string(),
            k: self.k,
            r: self.r().to_string(),
            w: self.radix.w(),
            u: second.map(|t| t.exp),
            sign: second.map(|t| t.sign),
            terms: self.radix.terms().to_vec(),
            bits: self.bits(),
            two_adicity: self.two_adicity,
            headroom_bits: self.radix.headroom_bits(),
        }
    }
}

impl fmt::Display for Prime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({})^{}+1", self.radix, self.k)
    }
}

/// Summary of a prime, as printed by `srgfn primes list --json`.
#[derive(Clone, Debug, Serialize)]
pub struct PrimeInfo {
    /// The canonical expression, e.g. `(2^63+2^34)^8+1`.
    pub expr: String,
    /// Digits per element.
    pub k: usize,
    /// r in decimal (a string: JSON numbers lose precision above 2^53).
    pub r: String,
    /// Exponent of the leading term of r.
    pub w: u32,
    /// Exponent of the second term, if any.
    pub u: Option<u32>,
    /// Sign of the second term, if any.
    pub sign: Option<Sign>,
    /// Every term of r.
    pub terms: Vec<Term>,
    /// Bits of p.
    pub bits: u64,
    /// The 2-adic valuation of p − 1: transforms of size up to 2^two_adicity exist.
    pub two_adicity: u32,
    /// Zero bits above r in a 64-bit digit.
    pub headroom_bits: u32,
}

/// Refuses a k that is not a power of two from [`MIN_K`] to [`MAX_K`].
pub fn check_k(k: usize) -> Result<(), PrimeError> {
    if !k.is_power_of_two() || !(MIN_K..=MAX_K).contains(&k) {
        return Err(PrimeError::K(k.to_string()));
    }
    Ok(())
}

/// Grammar: `( term (±term)* ) ^ k + 1`, term = `2^e` | `2` | `1`.
fn parse_expr(expr: &str) -> Result<(SparseRadix, usize), PrimeError> {
    let bad = |why: &str| PrimeError::Syntax { expr: expr.to_string(), why: why.to_string() };
    let s: String = expr.chars().filter(|c| !c.is_whitespace()).collect();
    if s.is_empty() {
        return Err(bad("empty expression; expected a form like (2^63+2^34)^8+1"));
    }
    let rest = s.strip_prefix('(').ok_or_else(|| bad("expected '(' opening the radix, as in (2^63+2^34)^8+1"))?;
    let close = rest.find(')').ok_or_else(|| bad("missing ')' closing the radix"))?;
    let (inner, tail) = (&rest[..close], &rest[close + 1..]);
    let tail = tail.strip_prefix('^').ok_or_else(|| bad("expected '^k' after the radix"))?;
    let tail = tail.strip_suffix("+1").ok_or_else(|| bad("expected the expression to end with '+1'"))?;
    let k = parse_small_int(tail).ok_or_else(|| bad(&format!("exponent k '{tail}' is not a positive integer")))?;
    let k = usize::try_from(k).map_err(|_| PrimeError::K(tail.to_string()))?;
    check_k(k)?;
    let mut terms = Vec::new();
    let bytes = inner.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let sign = match bytes[i] {
            b'+' => {
                i += 1;
                Sign::Plus
            }
            b'-' => {
                i += 1;
                Sign::Minus
            }
            _ if i == 0 => Sign::Plus,
            c => return Err(bad(&format!("unexpected '{}' in the radix", c as char))),
        };
        let end = inner[i..].find(['+', '-']).map(|j| i + j).unwrap_or(inner.len());
        let term = &inner[i..end];
        let exp = match term {
            "1" => 0,
            "2" => 1,
            _ => {
                let e = term.strip_prefix("2^").ok_or_else(|| bad(&format!("radix term '{term}' is not a power of two 2^e")))?;
                let e = parse_small_int(e).ok_or_else(|| bad(&format!("exponent in '{term}' is not an integer")))?;
                if e > 64 {
                    return Err(PrimeError::Radix(format!("term {term} is too large: the radix must be below 2^64")));
                }
                e as u32
            }
        };
        terms.push(Term { sign, exp });
        if terms.len() > MAX_TERMS {
            return Err(PrimeError::Radix(format!("a radix has at most {MAX_TERMS} power-of-two terms")));
        }
        i = end;
    }
    Ok((SparseRadix::new(terms)?, k))
}

/// Parses a decimal integer of at most 9 digits (so absurd exponents fail fast).
fn parse_small_int(s: &str) -> Option<u64> {
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// The seven primes of thesis Table 3.1 (valuations recomputed, not copied).
pub const CATALOG: [&str; 7] = [
    "(2^63+2^53)^2+1",
    "(2^64-2^50)^4+1",
    "(2^63+2^34)^8+1",
    "(2^62+2^36)^16+1",
    "(2^62+2^56)^32+1",
    "(2^63-2^40)^64+1",
    "(2^64-2^28)^128+1",
];

/// The catalog primes.  Only their shape is checked here: their primality is
/// proven once, by a test (`tests/primes_roots.rs`: a Pocklington certificate
/// from p − 1 = r^k fully factored), instead of by a probable-prime test of
/// the 8192-bit entry in every process.  [`Prime::parse`] of an entry still
/// runs the full test.
pub fn catalog() -> &'static [Prime] {
    static CAT: OnceLock<Vec<Prime>> = OnceLock::new();
    CAT.get_or_init(|| {
        CATALOG.iter().map(|e| Prime::parse_unchecked(e).unwrap_or_else(|err| panic!("catalog prime {e} rejected: {err}"))).collect()
    })
}

/// The catalog prime with that k, if any.
pub fn catalog_prime(k: usize) -> Option<&'static Prime> {
    catalog().iter().find(|p| p.k() == k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_with_spaces_and_three_terms() {
        let p = Prime::parse(" ( 2^63 + 2^34 ) ^ 8 + 1 ").unwrap();
        assert_eq!(p.k(), 8);
        assert_eq!(p.r(), (1u64 << 63) + (1u64 << 34));
        assert_eq!(p.to_string(), "(2^63+2^34)^8+1");
        assert_eq!(p.two_adicity(), 272);
        assert_eq!(p.slug(), "r63p34_k8");
    }

    #[test]
    fn rejects_bad_shapes() {
        for (e, needle) in [
            ("(2^63+2^34)^6+1", "power of two"),
            ("(2^63+2^34)^512+1", "power of two"),
            ("(2^64+2^34)^8+1", "below 2^64"),
            ("(2^65-2^34)^8+1", "too large"),
            ("(2^63+2^34)^8+2", "end with '+1'"),
            ("2^63+2^34^8+1", "'('"),
            ("(3^63+2^34)^8+1", "power of two"),
            ("(2^63+2^63)^8+1", "twice"),
            ("(-2^63+2^34)^8+1", "positive"),
            ("(2^60+2^50+2^40+2^30+2^20)^8+1", "at most"),
            ("(2^63+2^34)^99999999999999999999+1", "not a positive integer"),
            ("(2^63+2^33)^8+1", "not prime"),
        ] {
            let err = Prime::parse(e).expect_err(e).to_string();
            assert!(err.contains(needle), "{e}: {err}");
        }
    }
}
