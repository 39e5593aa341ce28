//! The kernel level below [`crate::Plan`], for srgfn's own tests (cargo
//! feature `internals`, turned on by the workspace tests): launchers of every
//! generated kernel on raw digit-major buffers, the layout helpers, and a
//! session's raw OpenCL queue and program builds.  Not part of the supported
//! API: it changes with the kernels, and nothing here checks that buffers
//! belong together the way [`crate::Plan`] and [`crate::DeviceVec`] do.

use ocl::{Program, Queue};
use srgfn_gen::Prime;

use crate::{Result, Session};

pub use crate::kernels::{FieldKernels, PassPart};
pub use crate::layout::{from_digit_major, to_digit_major};

/// The kernels `plan` launches (to record their profiling events as the
/// benchmark does, [`FieldKernels::start_recording`]).
pub fn plan_kernels(plan: &crate::Plan) -> std::sync::Arc<FieldKernels> {
    plan.kernels().clone()
}

/// The field-operation check of `srgfn check` (f_mul, f_add, f_sub and
/// shifts on every pair of edge values and on random pairs, against the
/// host) on kernels already emitted: (passed, what was compared or what differed).
pub fn field_ops_of(fk: &FieldKernels, prime: &Prime) -> Result<(bool, String)> {
    crate::check::field_ops_of(fk, prime)
}

/// Raw OpenCL access to a [`Session`], for tests that run their own kernels.
pub trait SessionInternals {
    /// The session's in-order profiling queue.
    fn queue(&self) -> &Queue;
    /// Builds `source` once per session through the program cache (see
    /// [`crate::ProgramCache`]).
    fn program(&self, name: &str, source: &str) -> Result<Program>;
    /// Builds `source` from source, bypassing every cache; a failure is an
    /// [`crate::Error::Build`] with the log and the kept source.
    fn build(&self, name: &str, source: &str) -> Result<(Program, String)>;
}

impl SessionInternals for Session {
    fn queue(&self) -> &Queue {
        &self.queue
    }
    fn program(&self, name: &str, source: &str) -> Result<Program> {
        Session::program(self, name, source)
    }
    fn build(&self, name: &str, source: &str) -> Result<(Program, String)> {
        Session::build(self, name, source)
    }
}
