//! Device vectors: elements resident on the device, and the record of what
//! each was made for, against which every operation of a [`crate::Plan`]
//! checks it.

use ocl::Buffer;

use crate::error::{Error, Misuse, Result};

/// The order of a vector's elements on the device (digit-major either way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Element i of each vector at position i.
    Natural,
    /// The superblock order of R² elements (`srgfn_gen::maps::superblock_element`):
    /// what a plan's forward transform reads fastest where it runs its first
    /// two passes in one launch (`srgfn_gen::emit::first2`).  Plans upload
    /// into it where that applies; transforms leave their output in the
    /// natural order, and downloads and products take either.
    Superblocks {
        /// R², the elements of a superblock.
        r2: usize,
    },
}

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
    /// The order of its elements ([`Order`]).
    pub(crate) order: Order,
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
        DeviceVec { bufs, owner, valid: true, order: Order::Natural }
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
    /// The order of its elements on the device.
    pub fn order(&self) -> Order {
        self.order
    }
    /// The buffers it is split into (1 when it fits one buffer of the device).
    pub fn segments(&self) -> usize {
        self.bufs.len()
    }
}
