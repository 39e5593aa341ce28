//! srgfn runtime: OpenCL devices, program builds, and the generated kernels run
//! on digit-major device buffers.
//!
//! The guide below (`docs/usage.md`) is part of these docs, so its examples run as tests.
#![doc = include_str!("../../docs/usage.md")]

pub mod bench;
pub mod cache;
pub mod check;
pub mod device;
#[cfg(feature = "faults")]
pub mod faults;
#[cfg(not(feature = "faults"))]
pub(crate) mod faults;
pub mod fft;
pub mod io;
pub mod kernels;
pub mod layout;
pub mod memory;
pub mod microbench;
pub mod session;
pub mod smallprime;

pub use device::{list_devices, select_device, DeviceEntry};
pub use fft::{DeviceVec, Fft, FftOptions, Plan};
pub use session::Session;
