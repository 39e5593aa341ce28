//! Errors of the generator crate: each names what is wrong, in one line.

use thiserror::Error;

/// A prime expression that does not parse, or a number that is not an SRGFN
/// prime srgfn accepts.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PrimeError {
    /// The expression does not parse (`why` says where).
    #[error("malformed prime expression '{expr}': {why}")]
    Syntax {
        /// The expression as given.
        expr: String,
        /// What is wrong with it.
        why: String,
    },
    /// The radix r is not a sparse radix srgfn takes (r ≥ 2^64, too many
    /// terms, a term above 2^64, …).
    #[error("invalid radix: {0}")]
    Radix(String),
    /// k is not a power of two from 2 to 256.
    #[error("k = {0} is not allowed: k must be a power of two from 2 to 256")]
    K(String),
    /// r^k + 1 fails a strong probable-prime test.
    #[error("{0} is not prime (it fails a strong probable-prime test)")]
    Composite(String),
}

/// A digit vector that is not a canonical element of the field.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum FieldError {
    /// Not k digits.
    #[error("element has {got} digits, expected k = {k}")]
    Length {
        /// Digits given.
        got: usize,
        /// Digits of an element.
        k: usize,
    },
    /// A digit ≥ r (other than the top digit of p − 1 = (0, …, 0, r)).
    #[error("digit {index} = {digit} is not below the radix r = {r} (only p-1 may be written (0,…,0,r))")]
    Digit {
        /// Position of the digit (0 = least significant).
        index: usize,
        /// Its value.
        digit: u64,
        /// The radix.
        r: u64,
    },
    /// A value ≥ p.
    #[error("value {value} is not below p = {prime}")]
    Value {
        /// The value, in decimal.
        value: String,
        /// The prime.
        prime: String,
    },
    /// Zero was inverted.
    #[error("zero has no inverse")]
    ZeroInverse,
}

/// A transform size the prime does not allow.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SizeError {
    /// N is not a power of two (as written).
    #[error("N = {0} is not a power of two")]
    NotPowerOfTwo(String),
    /// N = 2^log_n is outside 2^min … 2^max, 2^max the largest power of two dividing p − 1.
    #[error(
        "N = 2^{log_n} is out of range for {prime}: allowed are 2^{min} to 2^{max} (2^{max} is the largest power of two dividing p-1)"
    )]
    OutOfRange {
        /// log2 of the N asked for.
        log_n: u32,
        /// log2 of the smallest N.
        min: u32,
        /// log2 of the largest N: the prime's 2-adic valuation.
        max: u32,
        /// The prime.
        prime: String,
    },
}
