//! Device vectors: elements resident on the device, and the record of what
//! each was made for, against which every operation of a [`crate::Plan`]
//! checks it.

use ocl::Buffer;

use crate::error::{Error, Misuse, Result};

/// Elements resident on the device in the digit-major layout.  A vector
/// belongs to the plan that made it: every operation checks its prime, N,
/// batch, OpenCL context and plan, and refuses a vector made for another
/// ([`Error::Misuse`]).  Dropping it frees the device memory.
pub struct DeviceVec {
    /// Its segments: N · batch · k words in all, split into buffers of equal
    /// length (one when the vector fits a buffer; invariant, checked on every use).
    pub(crate) bufs: Vec<Buffer<u64>>,
    owner: Owner,
    /// False after an operation on it failed part-way: its contents are then
    /// undefined, and every later use is refused rather than computing on them.
    pub(crate) valid: bool,
}

/// What a vector was made for; all of it must match the plan that uses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Owner {
    /// The [`crate::Plan::id`].
    pub(crate) plan: u64,
    /// The [`crate::Session::id`].
    pub(crate) session: u64,
    /// The prime's expression.
    pub(crate) prime: String,
    /// Digits per element.
    pub(crate) k: usize,
    /// The transform size.
    pub(crate) n: usize,
    /// Vectors of size N.
    pub(crate) batch: usize,
}

impl Owner {
    /// Refuses a vector made for another session, prime, size, batch or
    /// plan than this owner's, and one whose contents are undefined.
    pub(crate) fn admits(&self, v: &DeviceVec) -> Result<()> {
        let (mine, its) = (self, &v.owner);
        if its.session != mine.session {
            return Err(Misuse::OtherSession { vector: its.session, plan: mine.session }.into());
        }
        if (&its.prime, its.k) != (&mine.prime, mine.k) {
            return Err(Misuse::OtherPrime { vector: its.prime.clone(), vector_k: its.k, plan: mine.prime.clone(), plan_k: mine.k }.into());
        }
        if (its.n, its.batch) != (mine.n, mine.batch) {
            return Err(Misuse::OtherSize { vector_n: its.n, vector_batch: its.batch, plan_n: mine.n, plan_batch: mine.batch }.into());
        }
        if its.plan != mine.plan {
            return Err(Misuse::OtherPlan { vector: its.plan, plan: mine.plan }.into());
        }
        if !v.valid {
            return Err(Misuse::Undefined.into());
        }
        let words = mine.n * mine.batch * mine.k;
        let held: usize = v.bufs.iter().map(Buffer::len).sum();
        if held != words || v.bufs.iter().any(|b| b.len() != v.bufs[0].len()) {
            return Err(Error::internal(format!("this device vector's buffers hold {held} words, the plan's vectors {words}")));
        }
        Ok(())
    }
}

impl DeviceVec {
    /// A valid vector of `owner` in `buf`.
    pub(crate) fn new(bufs: Vec<Buffer<u64>>, owner: Owner) -> DeviceVec {
        DeviceVec { bufs, owner, valid: true }
    }

    /// N · batch elements.
    pub fn len(&self) -> usize {
        self.owner.n * self.owner.batch
    }
    /// Never true (a plan has N ≥ 2 and batch ≥ 1); for symmetry with [`DeviceVec::len`].
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The transform size N of the plan that made it.
    pub fn n(&self) -> usize {
        self.owner.n
    }
    /// The number of vectors of size N it holds.
    pub fn batch(&self) -> usize {
        self.owner.batch
    }
    /// The [`crate::Plan::id`] of the plan that made it.
    pub fn plan_id(&self) -> u64 {
        self.owner.plan
    }
    /// Whether its contents are defined: false after an operation on it
    /// failed part-way (every later use is then refused).
    pub fn is_valid(&self) -> bool {
        self.valid
    }
    /// The buffers it is split into (1 when it fits one buffer of the device).
    pub fn segments(&self) -> usize {
        self.bufs.len()
    }
}
