//! Errors of the generator crate: each names what is wrong, in one line.

use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PrimeError {
    #[error("malformed prime expression '{expr}': {why}")]
    Syntax { expr: String, why: String },
    #[error("invalid radix: {0}")]
    Radix(String),
    #[error("k = {0} is not allowed: k must be a power of two from 2 to 256")]
    K(String),
    #[error("{0} is not prime (it fails a strong probable-prime test)")]
    Composite(String),
}

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum FieldError {
    #[error("element has {got} digits, expected k = {k}")]
    Length { got: usize, k: usize },
    #[error("digit {index} = {digit} is not below the radix r = {r} (only p-1 may be written (0,…,0,r))")]
    Digit { index: usize, digit: u64, r: u64 },
    #[error("value {value} is not below p = {prime}")]
    Value { value: String, prime: String },
    #[error("zero has no inverse")]
    ZeroInverse,
}

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SizeError {
    #[error("N = {0} is not a power of two")]
    NotPowerOfTwo(String),
    #[error("N = 2^{log_n} is out of range for {prime}: allowed are 2^{min} to 2^{max} (2^{max} is the largest power of two dividing p-1)")]
    OutOfRange { log_n: u32, min: u32, max: u32, prime: String },
}
