//! The error type of the library: one enum whose variants a caller can match
//! on, each with the data that explains it and a one-line message.
//!
//! ```
//! use num_bigint::BigUint;
//! use srgfn::{Error, Fft, Session};
//! use srgfn_gen::Prime;
//!
//! let session = Session::open(None)?;
//! let fft = Fft::new(&session, &Prime::parse("(2^63+2^34)^8+1")?)?;
//! match fft.plan(1000, 1) {
//!     Err(Error::UnsupportedSize { max, .. }) => assert_eq!(max, Some(BigUint::from(1u32) << 272)),
//!     other => panic!("N = 1000 is not a power of two: {:?}", other.err()),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::path::PathBuf;

use num_bigint::BigUint;
use srgfn_gen::emit::EmitError;
use srgfn_gen::smallprimes::SmallPrimeError;
use srgfn_gen::{FieldError, PrimeError, SizeError};

use crate::memory::Shortfall;

/// What every fallible function of the library returns.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// How to install an OpenCL implementation when none is found.
pub const INSTALL_HINT: &str =
    "install an OpenCL implementation, e.g. PoCL on the CPU: apt-get install -y pocl-opencl-icd ocl-icd-opencl-dev";

/// Everything that can go wrong in the library.  Every variant's message is
/// one line (a build log follows on the next lines) that names what is wrong
/// and, where there is one, the limit; `#[non_exhaustive]`: match with a
/// wildcard arm.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A prime expression that does not parse, or a p that is not an SRGFN
    /// prime srgfn accepts (composite, k not a power of two in 2 … 256, r ≥ 2^64).
    #[error(transparent)]
    InvalidPrime(#[from] PrimeError),

    /// Input data that is not what the operation takes: a malformed line or a
    /// value ≥ p in a file, digits ≥ r, a count that does not match the plan.
    /// `file`, `line` and `element` say where, when known.
    #[error("{}", InputDisplay { file: file.as_deref(), line: *line, element: *element, reason })]
    InvalidInput {
        /// The file (or stream) the input came from.
        file: Option<String>,
        /// The 1-based line of a text file.
        line: Option<u64>,
        /// The 0-based index of the offending element.
        element: Option<u64>,
        /// What is wrong with it.
        reason: String,
    },

    /// A size srgfn does not support: N not a power of two or beyond the
    /// prime's 2-adic bound, a batch of 0, more elements than a layout change
    /// indexes, a size the small-prime baseline does not cover.
    #[error("{message}")]
    UnsupportedSize {
        /// The largest supported value of the refused quantity (N, elements,
        /// primes, …), when the refusal is an upper bound (N may be allowed up
        /// to 2^272 and beyond, hence a big integer).
        max: Option<BigUint>,
        /// What was asked for and what is supported.
        message: String,
    },

    /// No OpenCL platform or device is available at all.  The message says
    /// how to install PoCL, the CPU implementation.
    #[error("{reason}; {INSTALL_HINT}")]
    NoDevice {
        /// What discovery found missing.
        reason: String,
    },

    /// An OpenCL call failed (context, queue, enqueue, transfer), or the
    /// device returned something impossible.
    #[error("{message}")]
    Device {
        /// The operation and the driver's error.
        message: String,
    },

    /// An OpenCL program did not build.  The source was written to
    /// `kept_source` so that the failure can be reproduced.
    #[error("OpenCL build of {program} failed on {device}; {}; build log:\n{log}", KeptDisplay(kept_source.as_ref()))]
    Build {
        /// The program's name (the prime's slug and the kernel file).
        program: String,
        /// The device it was built for.
        device: String,
        /// The compiler's log.
        log: String,
        /// Where the failing source was written (None if it could not be).
        kept_source: Option<PathBuf>,
    },

    /// Not enough memory, found before allocating (the amounts needed and
    /// available, device and host), or an allocation the driver refused.
    /// Boxed, so that every `Result` of the library stays small.
    #[error("{}", .0.message)]
    OutOfMemory(Box<Shortfall>),

    /// The API was used in a way it cannot be: a device vector given to a
    /// plan that did not make it, or used after an operation on it failed.
    #[error(transparent)]
    Misuse(#[from] Misuse),

    /// The kernel generator cannot emit kernels for this prime or these
    /// options (e.g. k > 128, or r ≤ 2k).
    #[error(transparent)]
    Generator(#[from] EmitError),

    /// An option or setting that cannot be used: a variant the prime has no
    /// kernels for, a malformed `SRGFN_MUL`, an unknown device, inline PTX on
    /// a platform without it, an unsafe program cache folder.
    #[error("{message}")]
    InvalidOption {
        /// The option, its value, and what is accepted.
        message: String,
    },

    /// Reading or writing a file failed; `source` is the system's error.
    #[error("{context}")]
    Io {
        /// What was being done, e.g. "cannot open x.txt".
        context: String,
        /// The underlying error.
        source: std::io::Error,
    },

    /// A check inside srgfn failed: a bug, reported instead of computing on.
    #[error("internal error (a bug in srgfn, please report it): {message}")]
    Internal {
        /// What was inconsistent.
        message: String,
    },
}

/// A device vector used where it cannot be (see [`crate::DeviceVec`]).  The
/// refused vector is left untouched and stays valid with its own plan.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Misuse {
    /// The vector lives in another OpenCL context than the plan.
    #[error("this device vector lives in another OpenCL context (session {vector}) than the plan (session {plan}): download it with its own plan and upload the values with this one")]
    OtherSession {
        /// The vector's [`crate::Session::id`].
        vector: u64,
        /// The plan's session id.
        plan: u64,
    },
    /// The vector holds elements of another prime.
    #[error("this device vector holds elements of {vector} (k = {vector_k}) but the plan is for {plan} (k = {plan_k})")]
    OtherPrime {
        /// The vector's prime.
        vector: String,
        /// Its k.
        vector_k: usize,
        /// The plan's prime.
        plan: String,
        /// Its k.
        plan_k: usize,
    },
    /// The vector has another transform size N or batch than the plan.
    #[error("mismatched sizes: this device vector holds {vector_batch} vector(s) of N = {vector_n} but the plan is for {plan_batch} vector(s) of N = {plan_n}")]
    OtherSize {
        /// The vector's N.
        vector_n: usize,
        /// The vector's batch.
        vector_batch: usize,
        /// The plan's N.
        plan_n: usize,
        /// The plan's batch.
        plan_batch: usize,
    },
    /// Same prime, N and batch, but made by another plan.
    #[error("this device vector was made by plan {vector} and this is plan {plan} (same prime, N and batch): a vector is used only with the plan that made it")]
    OtherPlan {
        /// The [`crate::Plan::id`] that made the vector.
        vector: u64,
        /// This plan's id.
        plan: u64,
    },
    /// An operation on the vector failed part-way: its contents are undefined.
    #[error("this device vector's contents are undefined after an operation on it failed; upload it again")]
    Undefined,
}

/// `file:line: reason`, `file: element i: reason`, `element i: reason` …
struct InputDisplay<'a> {
    file: Option<&'a str>,
    line: Option<u64>,
    element: Option<u64>,
    reason: &'a str,
}

impl fmt::Display for InputDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.file, self.line) {
            (Some(file), Some(line)) => write!(f, "{file}:{line}: ")?,
            (Some(file), None) => write!(f, "{file}: ")?,
            (None, Some(line)) => write!(f, "line {line}: ")?,
            (None, None) => {}
        }
        if let Some(e) = self.element {
            write!(f, "element {e}: ")?;
        }
        f.write_str(self.reason)
    }
}

struct KeptDisplay<'a>(Option<&'a PathBuf>);

impl fmt::Display for KeptDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(path) => write!(f, "source kept at {}", path.display()),
            None => f.write_str("the source could not be kept"),
        }
    }
}

impl Error {
    /// Invalid input with no location yet (see [`Error::in_file`], [`Error::at_element`]).
    pub(crate) fn input(reason: impl Into<String>) -> Error {
        Error::InvalidInput { file: None, line: None, element: None, reason: reason.into() }
    }

    /// An OpenCL failure.
    pub(crate) fn device(message: impl Into<String>) -> Error {
        Error::Device { message: message.into() }
    }

    /// A setting that cannot be used.
    pub(crate) fn option(message: impl Into<String>) -> Error {
        Error::InvalidOption { message: message.into() }
    }

    /// A size beyond `max` (or refused for its form when `max` is None).
    pub(crate) fn size(max: Option<BigUint>, message: impl Into<String>) -> Error {
        Error::UnsupportedSize { max, message: message.into() }
    }

    /// A failed read or write.
    pub(crate) fn io(context: impl Into<String>, source: std::io::Error) -> Error {
        Error::Io { context: context.into(), source }
    }

    /// A broken invariant.
    pub(crate) fn internal(message: impl Into<String>) -> Error {
        Error::Internal { message: message.into() }
    }

    /// Names the file of an [`Error::InvalidInput`]; other kinds are returned unchanged.
    pub(crate) fn in_file(mut self, name: &str) -> Error {
        if let Error::InvalidInput { file, .. } = &mut self {
            *file = Some(name.to_string());
        }
        self
    }

    /// Names the element of an [`Error::InvalidInput`]; other kinds are returned unchanged.
    pub(crate) fn at_element(mut self, index: usize) -> Error {
        if let Error::InvalidInput { element, .. } = &mut self {
            *element = Some(index as u64);
        }
        self
    }
}

/// An element that is not canonical: invalid input.
impl From<FieldError> for Error {
    fn from(e: FieldError) -> Error {
        Error::input(e.to_string())
    }
}

/// A transform size the prime does not allow.
impl From<SizeError> for Error {
    fn from(e: SizeError) -> Error {
        let max = match &e {
            SizeError::OutOfRange { max, .. } => Some(BigUint::from(1u32) << *max),
            SizeError::NotPowerOfTwo(_) => None,
        };
        Error::size(max, e.to_string())
    }
}

/// A size or prime count the small-prime baseline does not cover.
impl From<SmallPrimeError> for Error {
    fn from(e: SmallPrimeError) -> Error {
        let max = match &e {
            SmallPrimeError::NotCovered { e, .. } => Some(BigUint::from(1u32) << *e),
            SmallPrimeError::PrimeCount(_) => Some(BigUint::from(srgfn_gen::smallprimes::MAX_PRIMES)),
            SmallPrimeError::Size { .. } => None,
        };
        Error::size(max, e.to_string())
    }
}

/// Turns an OpenCL (or any displayable) error into [`Error::Device`] with
/// what was being done.
pub(crate) trait DeviceContext<T> {
    /// `what` describes the failed operation, e.g. "cannot enqueue dft16".
    fn or_device(self, what: impl FnOnce() -> String) -> Result<T>;
}

impl<T, E: fmt::Display> DeviceContext<T> for std::result::Result<T, E> {
    fn or_device(self, what: impl FnOnce() -> String) -> Result<T> {
        self.map_err(|e| Error::device(format!("{}: {e}", what())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_errors_name_where() {
        let e = Error::input("bad").in_file("x.txt");
        assert_eq!(e.to_string(), "x.txt: bad");
        let e = Error::InvalidInput { file: Some("x.txt".into()), line: Some(3), element: None, reason: "bad".into() };
        assert_eq!(e.to_string(), "x.txt:3: bad");
        assert_eq!(Error::input("bad").at_element(4).to_string(), "element 4: bad");
        assert_eq!(Error::input("bad").in_file("x.bin").at_element(4).to_string(), "x.bin: element 4: bad");
        // other kinds keep their message
        assert_eq!(Error::device("d").in_file("x").at_element(1).to_string(), "d");
    }

    #[test]
    fn sizes_carry_their_limit() {
        let e = Error::from(SizeError::OutOfRange { log_n: 40, min: 1, max: 34, prime: "p".into() });
        assert!(matches!(&e, Error::UnsupportedSize { max: Some(m), .. } if *m == BigUint::from(1u64 << 34)), "{e:?}");
        let e = Error::from(SmallPrimeError::NotCovered { s: 32, e: 23, log_n: 24 });
        assert!(matches!(&e, Error::UnsupportedSize { max: Some(m), .. } if *m == BigUint::from(1u32 << 23)), "{e:?}");
        assert!(e.to_string().contains("covers N ≤ 2^23"));
    }

    #[test]
    fn results_stay_small() {
        // clippy's result_large_err limit: the large payloads are boxed
        assert!(std::mem::size_of::<Error>() <= 128, "{}", std::mem::size_of::<Error>());
    }

    #[test]
    fn no_device_says_how_to_install_pocl() {
        let e = Error::NoDevice { reason: "no OpenCL platform found".into() };
        assert!(e.to_string().contains("apt-get install -y pocl-opencl-icd"), "{e}");
    }
}
