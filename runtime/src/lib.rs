//! srgfn runtime: OpenCL devices, program builds, and the generated kernels run
//! on digit-major device buffers.
//!
//! The public surface: [`Session`] (a device opened for work), [`Fft`] (a
//! prime's kernels on it), [`Plan`] (a transform size and batch, with its
//! buffers) and [`DeviceVec`] (data resident on the device, tied to its
//! plan); [`Devices`], [`MultiFft`], [`MultiPlan`] and [`MultiVec`] (batches
//! spread over the GPUs of a host); [`Wisdom`] (measured plan choices, which the
//! module [`tune`] measures for `srgfn tune`); [`Error`] and [`Result`]; the modules [`memory`] (checks before
//! allocating), [`io`] (element files), [`check`] (a device's self-test), [`points`]
//! (transforms checked at single outputs) and
//! the benchmark support [`mod@bench`], [`microbench`] and [`smallprime`] that
//! `srgfn bench` drives.  Everything else is internal; the workspace tests
//! reach the kernel level through `srgfn::internals` (cargo feature `internals`).
//!
//! The guide below (`docs/usage.md`) is part of these docs, so its examples run as tests.
#![doc = include_str!("../../docs/usage.md")]
#![deny(missing_docs)]

pub mod bench;
mod cache;
pub mod check;
mod device;
mod device_vec;
mod error;
#[cfg(feature = "faults")]
pub mod faults;
#[cfg(not(feature = "faults"))]
mod faults;
mod fft;
#[cfg(feature = "internals")]
pub mod internals;
pub mod io;
mod kernels;
mod layout;
pub mod memory;
pub mod microbench;
mod multi;
pub mod points;
mod ptx;
mod session;
pub mod smallprime;
mod staging;
pub mod tune;
mod wisdom;

pub use cache::ProgramCache;
pub use device::{list_devices, select_device, DeviceEntry};
pub use device_vec::{DeviceVec, Order};
pub use error::{Error, Misuse, Result, INSTALL_HINT};
pub use fft::{Fft, FftOptions, FourStep, FourStepStats, Plan};
pub use kernels::Recording;
pub use multi::{shares, Devices, MultiFft, MultiPlan, MultiVec};
pub use session::Session;
pub use wisdom::{device_key, Choice, Wisdom, WisdomKey, WISDOM_FILE};
