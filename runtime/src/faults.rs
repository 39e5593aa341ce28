//! Fault injection for tests: a hook in the runtime (not a patch of OpenCL),
//! compiled in with the cargo feature `faults` (the workspace tests turn it
//! on; without it the hook never fires and the module is private).
//!
//! A [`Session`](crate::Session) carries a `Faults`; arming a fault makes the
//! next N operations of that kind fail with an error that says so, exactly
//! where a real driver failure would surface.  The tests check that every
//! such failure gives a clear error, never a wrong result or a hang, and that
//! the session keeps working afterwards.

#[cfg(feature = "faults")]
use std::sync::atomic::{AtomicU32, Ordering};

/// A kind of operation a fault can be injected into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A program build fails (as with a driver compiler error).
    Build,
    /// A buffer allocation fails (as with CL_MEM_OBJECT_ALLOCATION_FAILURE).
    Alloc,
    /// A kernel enqueue fails (as with CL_OUT_OF_RESOURCES).
    Enqueue,
    /// A read back to the host fails.
    Read,
}

/// The armed faults of a session, by kind (see [`crate::Session::faults`]).
#[derive(Debug, Default)]
pub struct Faults {
    #[cfg(feature = "faults")]
    counters: [AtomicU32; 4],
}

impl Faults {
    #[cfg(feature = "faults")]
    fn slot(&self, f: Fault) -> &AtomicU32 {
        &self.counters[f as usize]
    }

    /// Makes the next `times` operations of kind `f` fail.
    #[cfg(feature = "faults")]
    pub fn arm(&self, f: Fault, times: u32) {
        self.slot(f).store(times, Ordering::SeqCst);
    }

    /// Consumes one armed fault of kind `f`; true when the operation must fail
    /// (never without the `faults` feature).
    #[inline]
    pub(crate) fn hit(&self, f: Fault) -> bool {
        #[cfg(feature = "faults")]
        {
            self.slot(f).fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_ok()
        }
        #[cfg(not(feature = "faults"))]
        {
            let _ = f;
            false
        }
    }

    /// The [`crate::Error::Device`] of an injected fault.
    pub(crate) fn error(f: Fault, what: &str) -> crate::Error {
        crate::Error::device(format!("{what} failed (injected fault: {f:?})"))
    }
}
