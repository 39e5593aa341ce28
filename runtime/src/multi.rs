//! Several devices of one host: one [`Session`] per device, a prime's
//! kernels on each, and batches of transforms and products spread over them.
//!
//! A batch of B vectors of size N is split into contiguous shares, one per
//! device ([`shares`]); each device runs an ordinary [`Plan`] on its share, so
//! every result is the one a single device computes, word for word (the
//! arithmetic is exact).  Launches are queued on every device before any is
//! waited for, so the devices run side by side.
//!
//! ```
//! use num_bigint::BigUint;
//! use srgfn::{Devices, FftOptions, MultiFft, Session};
//! use srgfn_gen::Prime;
//!
//! // two contexts on the default device stand in for two GPUs here
//! let devices = Devices::new(vec![Session::open(None)?, Session::open(None)?])?;
//! let prime = Prime::parse("(2^63+2^34)^8+1")?;
//! let fft = MultiFft::new(&devices, &prime, FftOptions::default())?;
//! let mut plan = fft.plan(64, 3)?;                       // 3 vectors of N = 64
//! let x: Vec<BigUint> = (0u32..192).map(BigUint::from).collect();
//! let mut v = plan.upload(&x)?;                           // vectors 0-1 on one, 2 on the other
//! plan.forward(&mut v)?;
//! plan.inverse(&mut v)?;
//! assert_eq!(plan.download(&v)?, x);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use num_bigint::BigUint;
use srgfn_gen::Prime;

use crate::cache::ProgramCache;
use crate::device::{list_devices, select_device};
use crate::device_vec::DeviceVec;
use crate::error::{Error, Misuse, Result};
use crate::fft::{Fft, FftOptions, FourStep, Plan};
use crate::session::Session;

/// The devices a piece of work is spread over: one [`Session`] each, in order.
#[derive(Clone, Debug)]
pub struct Devices {
    sessions: Vec<Session>,
}

impl Devices {
    /// Opens the devices of `spec`: `all` (every GPU, else every device),
    /// or a comma-separated list of indices or name substrings as
    /// `srgfn devices` shows them.  A device named twice gets two contexts
    /// (work is split between them; useful for tests, not for speed).  The
    /// sessions share `cache`.  [`Error::InvalidOption`] for an empty list or
    /// a name that matches nothing.
    pub fn open(spec: &str, cache: &ProgramCache) -> Result<Devices> {
        let spec = spec.trim();
        let entries = if spec.eq_ignore_ascii_case("all") {
            let all = list_devices()?;
            let gpus: Vec<_> = all.iter().filter(|d| d.is_gpu()).cloned().collect();
            if gpus.is_empty() {
                all
            } else {
                gpus
            }
        } else {
            let names: Vec<&str> = spec.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
            if names.is_empty() {
                return Err(Error::option(format!("--devices '{spec}' names no device: give `all` or a list such as 0,1")));
            }
            names.into_iter().map(|s| select_device(Some(s))).collect::<Result<_>>()?
        };
        Devices::new(entries.into_iter().map(|d| Session::on(d, cache.clone())).collect::<Result<_>>()?)
    }

    /// The devices of already opened sessions, in order.  [`Error::InvalidOption`]
    /// for no session, or one session given twice (clones share one queue).
    pub fn new(sessions: Vec<Session>) -> Result<Devices> {
        if sessions.is_empty() {
            return Err(Error::option("no device given: open at least one session"));
        }
        for (i, s) in sessions.iter().enumerate() {
            if sessions[..i].iter().any(|t| t.id() == s.id()) {
                return Err(Error::option(format!("session {} is given twice: open one session per device (Session::on)", s.id())));
            }
        }
        Ok(Devices { sessions })
    }

    /// The sessions, one per device.
    pub fn sessions(&self) -> &[Session] {
        &self.sessions
    }
    /// The number of devices.
    pub fn len(&self) -> usize {
        self.sessions.len()
    }
    /// Never true (there is at least one device); for symmetry with [`Devices::len`].
    pub fn is_empty(&self) -> bool {
        self.sessions.is_empty()
    }
}

/// The contiguous shares of `batch` vectors over `devices` devices: the first
/// `batch mod devices` get one more; devices beyond `batch` get none (and are
/// left out).
pub fn shares(batch: usize, devices: usize) -> Vec<Range<usize>> {
    let used = devices.min(batch);
    let mut start = 0;
    (0..used)
        .map(|i| {
            let len = batch / used + usize::from(i < batch % used);
            start += len;
            start - len..start
        })
        .collect()
}

/// Runs `f` on every item, one thread per item, and collects the results in order.
fn each<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> Result<R> + Sync) -> Result<Vec<R>> {
    std::thread::scope(|s| {
        let handles: Vec<_> = items.into_iter().map(|item| s.spawn(|| f(item))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(Error::internal("a device thread panicked")))).collect()
    })
}

/// A prime's kernels on every device of a [`Devices`].
#[derive(Clone)]
pub struct MultiFft {
    ffts: Vec<Fft>,
}

impl MultiFft {
    /// The kernels of `prime` with `opts` on every device (nothing compiled yet).
    pub fn new(devices: &Devices, prime: &Prime, opts: FftOptions) -> Result<MultiFft> {
        Ok(MultiFft { ffts: devices.sessions.iter().map(|s| Fft::with_options(s, prime, opts)).collect::<Result<_>>()? })
    }

    /// The per-device [`Fft`]s, in device order.
    pub fn ffts(&self) -> &[Fft] {
        &self.ffts
    }

    /// Compiles (or loads) a size-n transform's kernels on every device, side by side.
    pub fn prepare(&self, n: usize) -> Result<()> {
        each(self.ffts.iter().collect(), |f| f.prepare(n)).map(drop)
    }

    /// A plan for `batch` vectors of size `n`, split over the devices by
    /// [`shares`]; each device's memory is checked before it allocates.
    pub fn plan(&self, n: usize, batch: usize) -> Result<MultiPlan> {
        if batch == 0 {
            return Err(Error::size(None, "batch must be at least 1"));
        }
        let shares = shares(batch, self.ffts.len());
        let plans = each(self.ffts.iter().zip(&shares).collect(), |(f, share)| f.plan(n, share.len()))?;
        Ok(MultiPlan { plans, shares, n, id: NEXT_MULTI_ID.fetch_add(1, Ordering::Relaxed) })
    }

    /// One transform or product of size n split over the devices by the
    /// four-step decomposition ([`FourStep`]), in chunks of at most `chunk`
    /// elements (default: as large as fit every device).
    pub fn four_step(&self, n: usize, chunk: Option<usize>) -> Result<FourStep> {
        FourStep::new(self.ffts.clone(), n, chunk)
    }

    /// Products of polynomial pairs mod p (as [`Fft::poly_mul`]), the pairs
    /// spread over the devices in contiguous shares; results in order.
    pub fn poly_mul_batch(&self, pairs: &[(Vec<BigUint>, Vec<BigUint>)]) -> Result<Vec<Vec<BigUint>>> {
        let shares = shares(pairs.len(), self.ffts.len());
        let parts = each(self.ffts.iter().zip(shares).collect(), |(f, share)| {
            pairs[share].iter().map(|(a, b)| f.poly_mul(a, b)).collect::<Result<Vec<_>>>()
        })?;
        Ok(parts.into_iter().flatten().collect())
    }
}

/// Ids of multi-device plans, unique in the process.
static NEXT_MULTI_ID: AtomicU64 = AtomicU64::new(1);

/// A batch transform over several devices: one [`Plan`] per device for its
/// share of the vectors.  Vectors are [`MultiVec`]s made by this plan.
pub struct MultiPlan {
    plans: Vec<Plan>,
    shares: Vec<Range<usize>>,
    n: usize,
    id: u64,
}

/// A batch of vectors spread over devices, one [`DeviceVec`] per device;
/// made by, and used only with, one [`MultiPlan`].
pub struct MultiVec {
    parts: Vec<DeviceVec>,
    plan: u64,
}

impl MultiVec {
    /// The per-device parts, in device order.
    pub fn parts(&self) -> &[DeviceVec] {
        &self.parts
    }
}

impl MultiPlan {
    /// The transform size N.
    pub fn n(&self) -> usize {
        self.n
    }
    /// The vectors each device holds (contiguous, in device order).
    pub fn shares(&self) -> &[Range<usize>] {
        &self.shares
    }
    /// The per-device plans (devices with no share have none).
    pub fn plans(&self) -> &[Plan] {
        &self.plans
    }

    fn elements(&self, share: &Range<usize>) -> Range<usize> {
        share.start * self.n..share.end * self.n
    }

    /// Refuses a vector of another multi-device plan (each part is then
    /// checked by its device's plan, as [`Plan`] does).
    fn check(&self, v: &MultiVec) -> Result<()> {
        if v.plan != self.id || v.parts.len() != self.plans.len() {
            return Err(Misuse::OtherPlan { vector: v.plan, plan: self.id }.into());
        }
        Ok(())
    }

    /// Uploads N·batch values (< p each, vector after vector), each device's
    /// share from its own thread.
    pub fn upload(&mut self, values: &[BigUint]) -> Result<MultiVec> {
        let total = self.shares.last().map_or(0, |s| s.end) * self.n;
        if values.len() != total {
            return Err(Error::input(format!(
                "mismatched sizes: the plan is for {} vector(s) of N = {} ({total} elements), got {}",
                total / self.n,
                self.n,
                values.len()
            )));
        }
        let ranges: Vec<_> = self.shares.iter().map(|s| self.elements(s)).collect();
        let parts = each(self.plans.iter_mut().zip(ranges).collect(), |(plan, r)| plan.upload(&values[r]))?;
        Ok(MultiVec { parts, plan: self.id })
    }

    /// Reads every vector back, in order.
    pub fn download(&mut self, v: &MultiVec) -> Result<Vec<BigUint>> {
        self.check(v)?;
        let parts = each(self.plans.iter_mut().zip(&v.parts).collect(), |(plan, part)| plan.download(part))?;
        Ok(parts.concat())
    }

    /// Forward DFT of every vector (queued on every device, then returns).
    pub fn forward(&mut self, v: &mut MultiVec) -> Result<()> {
        self.check(v)?;
        self.plans.iter_mut().zip(&mut v.parts).try_for_each(|(plan, part)| plan.forward(part))
    }

    /// Inverse DFT of every vector, scaled by 1/N.
    pub fn inverse(&mut self, v: &mut MultiVec) -> Result<()> {
        self.check(v)?;
        self.plans.iter_mut().zip(&mut v.parts).try_for_each(|(plan, part)| plan.inverse(part))
    }

    /// a ← a · b element-wise (both vectors of this plan).
    pub fn pointwise_mul(&mut self, a: &mut MultiVec, b: &MultiVec) -> Result<()> {
        self.check(a)?;
        self.check(b)?;
        self.plans.iter_mut().zip(a.parts.iter_mut().zip(&b.parts)).try_for_each(|(plan, (pa, pb))| plan.pointwise_mul(pa, pb))
    }

    /// Waits for every device's queued launches.
    pub fn finish(&self) -> Result<()> {
        self.plans.iter().try_for_each(Plan::finish)
    }
}
