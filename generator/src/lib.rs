//! srgfn generator: SRGFN primes, exact host arithmetic, roots of unity,
//! CPU reference transforms, the tensor-formula IR, the unroller and OpenCL
//! emission.  Pure Rust, no OpenCL dependency.
//!
//! Its errors are its own `thiserror` types ([`PrimeError`], [`FieldError`],
//! [`SizeError`], [`emit::EmitError`], [`smallprimes::SmallPrimeError`]);
//! the runtime crate `srgfn` converts each into its `srgfn::Error`.
#![deny(missing_docs)]

pub mod error;
pub mod field;
pub mod primality;
pub mod prime;
pub mod reference;
pub mod roots;
pub mod search;

pub use error::{FieldError, PrimeError, SizeError};
pub use field::{Digits, Field};
pub use prime::{catalog, catalog_prime, Prime, PrimeInfo, Sign, SparseRadix, Term};
pub mod emit;
pub mod inspect;
pub mod maps;
pub mod plan;
pub mod rules;
pub mod smallprimes;
pub mod spl;
pub mod unroll;
