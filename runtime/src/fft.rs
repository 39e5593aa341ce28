//! FFTs, inverse FFTs and polynomial products on an OpenCL device.
//!
//! ```
//! use num_bigint::BigUint;
//! use srgfn::{Fft, Session};
//! use srgfn_gen::Prime;
//!
//! let session = Session::open(None)?;                   // first GPU, else PoCL
//! let prime = Prime::parse("(2^63+2^34)^8+1")?;
//! let fft = Fft::new(&session, &prime)?;
//! let mut plan = fft.plan(1 << 10, 1)?;                 // N = 1024, one vector
//! let x: Vec<BigUint> = (0u32..1024).map(BigUint::from).collect();
//! let mut v = plan.upload(&x)?;                         // digit-major on the device
//! plan.forward(&mut v)?;                                // X_j = Σ x_i ω^{ij}
//! plan.inverse(&mut v)?;                                // back to x
//! assert_eq!(plan.download(&v)?, x);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use num_bigint::BigUint;
use ocl::Buffer;
use srgfn_gen::emit::{self, KernelOptions, MulForm, Variant};
use srgfn_gen::plan::{Chain, Halves, PlanShape};
use srgfn_gen::rules::Radix;
use srgfn_gen::{Digits, Field, Prime};

use crate::device_vec::{DeviceVec, Order, Owner};
use crate::error::{DeviceContext as _, Error, Result};
use crate::kernels::{FieldKernels, Operations};
use crate::memory;
use crate::session::Session;
use crate::wisdom::Choice;

mod chain;
mod fourstep;
mod product;
mod run;
mod tables;
mod transfer;

pub(crate) use fourstep::min_log_n as min_split_log_n;
pub use fourstep::{FourStep, FourStepStats};

/// Kernels by (segments of a vector, radix number, register caps).
type KernelMap = BTreeMap<(u32, u32, bool), Arc<FieldKernels>>;

/// Transforms and products over one prime on one device: the prime's
/// kernels (emitted, and built on first use) and the options they were
/// emitted with.  Cheap to clone (shared); make [`Plan`]s from it.
#[derive(Clone)]
pub struct Fft {
    /// The kernels of the caller's radix, else the prime's default ([`emit::default_radix`]).
    kernels: Arc<FieldKernels>,
    /// The caller's radix ([`FftOptions::radix`]); if none, each plan takes its
    /// size's ([`emit::plan_radix`]).
    radix_chosen: Option<Radix>,
    /// The other kernels plans take, by segment count and radix (made on demand):
    /// for vectors in segments, or at a size's radix ([`Fft::radix_for`]).
    others: Arc<Mutex<KernelMap>>,
    field: Arc<Field>,
    /// The caller's variant, else the prime's default ([`emit::variants_for`]).
    variant: Variant,
    /// Whether the caller chose the variant ([`FftOptions::variant`]); if not,
    /// each plan takes its size's ([`emit::plan_variant`]).
    variant_chosen: bool,
    /// The caller's choice of fusion ([`FftOptions::fuse`]).
    fuse: Option<bool>,
    /// The caller's choice of halves ([`FftOptions::halves`]).
    halves: Option<bool>,
    /// The caller's choice of halves from the first launch ([`FftOptions::chain`]).
    chain: Option<bool>,
    /// The caller's choice of the chain in quarters ([`FftOptions::quarters`]).
    quarters: Option<bool>,
    /// The caller's choice of the superblock order ([`FftOptions::superblocks`]).
    superblocks: Option<bool>,
    /// The largest buffer a plan allocates (bytes): the device's, or less.
    max_buffer: u64,
    /// The session's measured choices by log2 N for the kernels of the size's
    /// radix ([`crate::Wisdom`]): used where the caller chose neither variant nor fusion.
    measured: Arc<BTreeMap<u32, Choice>>,
}

/// Options of an [`Fft`]: the base-case radix and variant.
#[derive(Clone, Copy, Debug, Default)]
pub struct FftOptions {
    /// Radix of the DFT_K expansion (default: per size, `emit::plan_radix`:
    /// `emit::default_radix`, 2 for k = 16, else 4, but 2 for k = 8's table
    /// plans with PTX from 2^17).
    pub radix: Option<Radix>,
    /// Base-case variant (default: the first of [`emit::variants_for`], or
    /// per size where [`emit::plan_variant`] picks another).
    pub variant: Option<Variant>,
    /// Multiplication form (default: `SRGFN_MUL` when set, else wide64).
    pub mul: Option<MulForm>,
    /// The largest device buffer to allocate, in bytes (default: the
    /// device's `CL_DEVICE_MAX_MEM_ALLOC_SIZE`).  A data vector larger than
    /// this is split into segments of a power of two of elements each.
    pub max_buffer: Option<u64>,
    /// Two Stockham levels per launch where the variant has a fused kernel
    /// (default: where it was measured faster, [`emit::fuse_default`]);
    /// `Some(true)` for a variant or prime without one is an
    /// [`Error::InvalidOption`].
    pub fuse: Option<bool>,
    /// Run the later launches as two halves side by side, on two queues
    /// (`srgfn_gen::plan::PlanShape::halves`).  Default: where the launches
    /// are large enough to gain (`srgfn_gen::emit::plan_halves`);
    /// `Some(true)` wherever a plan allows it, `Some(false)` never.
    pub halves: Option<bool>,
    /// Where a forward transform from the superblock order runs its first two
    /// passes in one launch, run that launch and the next ones in halves too,
    /// split by a bit that those launches keep above their p
    /// (`srgfn_gen::plan::PlanShape::chain`; a third vector on the device).
    /// Default: where it was measured faster
    /// (`srgfn_gen::emit::first2::plan_chain`); `Some(true)` wherever a
    /// plan allows it, `Some(false)` never.
    pub chain: Option<bool>,
    /// Where such a chain runs, run its launches after the first in quarters
    /// (`srgfn_gen::plan::Chain::in_quarters`), so that from the switch on
    /// each half waits for two quarters only.  Default: where it was measured
    /// faster (`srgfn_gen::emit::first2::CHAIN_QUARTERS_MAX_DIGITS`);
    /// `Some(true)` wherever the kernels allow it, `Some(false)` never.
    pub quarters: Option<bool>,
    /// Upload vectors in the superblock order ([`crate::Order`]) where a
    /// plan's forward transform then runs its first two passes in one launch
    /// (`srgfn_gen::emit::first2`: the table variant with its stages through
    /// the warp, N ≥ K², whole vectors).  Default and `Some(true)`: wherever
    /// a plan allows it; `Some(false)`: never.
    pub superblocks: Option<bool>,
    /// Without PTX, emit the table and digits variants' warp paths with the
    /// shuffles emulated through local memory (`KernelOptions::warp_emulation`),
    /// so that tests on PoCL run the plans NVIDIA runs.  For tests only.
    #[doc(hidden)]
    pub warp_emulation: bool,
}

impl Fft {
    /// The kernels of `prime` on `session` with the default options (see
    /// [`FftOptions`]); nothing is compiled yet.  [`Error::Generator`] for a
    /// prime the generator has no kernels for (k > 128).
    pub fn new(session: &Session, prime: &Prime) -> Result<Fft> {
        Self::with_options(session, prime, FftOptions::default())
    }

    /// Like [`Fft::new`] with chosen options; [`Error::InvalidOption`] for a
    /// variant the prime has no kernels for (the message lists those it has).
    pub fn with_options(session: &Session, prime: &Prime, opts: FftOptions) -> Result<Fft> {
        let radix = opts.radix.unwrap_or_else(|| emit::default_radix(prime));
        let mul = match opts.mul {
            Some(m) => m,
            None => crate::kernels::default_mul(session, prime)?,
        };
        let kopts = KernelOptions {
            ptx: crate::kernels::default_ptx(session),
            warp_emulation: opts.warp_emulation,
            ..KernelOptions::new(radix, mul)
        };
        // a bad SRGFN_REGISTER_CAPS is refused before any kernel is emitted
        crate::kernels::register_caps_override()?;
        let kernels = FieldKernels::with_options(session, prime, kopts)?;
        let variants = emit::variants_for(prime);
        let variant = opts.variant.unwrap_or(variants[0]);
        if !variants.contains(&variant) {
            return Err(Error::option(format!("variant {variant:?} is not emitted for k = {} (available: {variants:?})", prime.k())));
        }
        let device_max = session.device().max_alloc_bytes;
        let max_buffer = match (opts.max_buffer, device_max) {
            (Some(0), _) => return Err(Error::option("max_buffer must be at least one byte")),
            (Some(m), 0) => m,
            (Some(m), d) => m.min(d),
            (None, d) => d,
        };
        emit::check_fuse(prime, variant, &kernels.options(), opts.fuse).map_err(|e| Error::option(e.to_string()))?;
        let mut measured = BTreeMap::new();
        if opts.variant.is_none() && opts.fuse.is_none() {
            // each size's entries for the kernels of its radix (only those are checked)
            let radices = opts.radix.map_or(vec![Radix::R2, Radix::R4], |r| vec![r]);
            for r in radices {
                let of_r = KernelOptions { radix: r, ..kernels.options() };
                let takes_r = |log_n| emit::plan_radix(prime, opts.radix, None, log_n, &of_r) == r;
                measured.extend(session.wisdom().choices_where(session.device(), prime, &of_r, takes_r)?);
            }
        }
        Ok(Fft {
            kernels: Arc::new(kernels),
            radix_chosen: opts.radix,
            others: Arc::default(),
            field: Arc::new(Field::new(prime)),
            variant,
            variant_chosen: opts.variant.is_some(),
            fuse: opts.fuse,
            halves: opts.halves,
            chain: opts.chain,
            quarters: opts.quarters,
            superblocks: opts.superblocks,
            max_buffer,
            measured: Arc::new(measured),
        })
    }

    /// The prime.
    pub fn prime(&self) -> &Prime {
        self.kernels.prime()
    }
    /// The host arithmetic of the prime (the specification the kernels match).
    pub fn field(&self) -> &Field {
        &self.field
    }
    /// The session the kernels run on.
    pub fn session(&self) -> &Session {
        self.kernels.session()
    }
    /// The kernels (crate internals and benchmarks).
    pub(crate) fn kernels(&self) -> &FieldKernels {
        &self.kernels
    }
    /// The kernels of a plan of `batch` vectors of size 2^log_n
    /// ([`Fft::kernel_options_for`]: its radix and register caps) for data
    /// vectors in `segments` (emitted on first use).
    fn kernels_for(&self, segments: u32, log_n: u32, batch: usize) -> Result<Arc<FieldKernels>> {
        let segments = segments.max(1);
        let opts = KernelOptions { segments, ..self.kernel_options_for_batch(log_n, batch) };
        if opts == self.kernels.options() {
            return Ok(self.kernels.clone());
        }
        let mut map = self.others.lock().expect("kernel map");
        let key = (segments, opts.radix.number() as u32, opts.register_caps);
        if let Some(k) = map.get(&key) {
            return Ok(k.clone());
        }
        let k = Arc::new(FieldKernels::with_options(self.session(), self.prime(), opts)?);
        map.insert(key, k.clone());
        Ok(k)
    }
    /// The largest device buffer a plan allocates, in bytes (0: no limit known).
    pub fn max_buffer(&self) -> u64 {
        self.max_buffer
    }
    /// The device as the memory checks see it: its largest buffer [`Fft::max_buffer`].
    fn limits(&self) -> crate::DeviceEntry {
        let mut device = self.session().device.clone();
        device.max_alloc_bytes = self.max_buffer;
        device
    }
    /// The base-case variant: the caller's, else the prime's default.  Plans
    /// of some sizes take another where the caller chose none
    /// ([`Fft::variant_for`], [`Plan::variant`]).
    pub fn variant(&self) -> Variant {
        self.variant
    }
    /// The variant a plan of size 2^log_n runs: the caller's, else the
    /// session's measured choice for the size ([`crate::Wisdom`]), else
    /// [`emit::plan_variant`]'s.
    pub fn variant_for(&self, log_n: u32) -> Variant {
        if let Some(c) = self.measured.get(&log_n) {
            return c.variant;
        }
        emit::plan_variant(self.prime(), self.chosen_variant(), log_n, &self.kernels.options())
    }

    fn chosen_variant(&self) -> Option<Variant> {
        self.variant_chosen.then_some(self.variant)
    }

    /// The radix a plan of size 2^log_n runs: the caller's, else the size's
    /// ([`emit::plan_radix`]; the measured choice of variant, if any, was
    /// measured with that radix's kernels).
    pub fn radix_for(&self, log_n: u32) -> Radix {
        emit::plan_radix(self.prime(), self.radix_chosen, self.chosen_variant(), log_n, &self.kernels.options())
    }

    /// What the kernels of a plan of size 2^log_n are emitted for
    /// ([`Fft::kernel_options`] at the size's radix, [`Fft::radix_for`], with
    /// the size's register caps, [`emit::plan_register_caps`], unless
    /// `SRGFN_REGISTER_CAPS` sets them).
    pub fn kernel_options_for(&self, log_n: u32) -> KernelOptions {
        self.kernel_options_for_batch(log_n, 1)
    }

    /// [`Fft::kernel_options_for`] of a plan of `batch` vectors: its register
    /// caps by the elements its launches cover (N·batch).
    fn kernel_options_for_batch(&self, log_n: u32, batch: usize) -> KernelOptions {
        // N·batch, saturated: a size too large for any plan still gets an answer, not an overflow
        let elements = 1usize.checked_shl(log_n).unwrap_or(usize::MAX).saturating_mul(batch);
        // checked when the Fft was created (Fft::with_options)
        let chosen = crate::kernels::register_caps_override().ok().flatten();
        let register_caps = chosen.unwrap_or_else(|| emit::plan_register_caps(self.prime(), elements));
        KernelOptions { radix: self.radix_for(log_n), register_caps, ..self.kernels.options() }
    }

    /// The fusion a plan of size 2^log_n asks for: the caller's, else the
    /// measured choice's, else None (the default, [`emit::fuse_default`]).
    fn fuse_for(&self, log_n: u32) -> Option<bool> {
        self.measured.get(&log_n).map(|c| c.fuse).or(self.fuse)
    }

    /// Whether plans of size 2^log_n run two levels per launch ([`emit::plan_fuses`]
    /// with the caller's or the measured fusion).
    pub fn fuses_at(&self, log_n: u32) -> bool {
        emit::plan_fuses(self.prime(), self.variant_for(log_n), &self.kernel_options_for(log_n), self.fuse_for(log_n), log_n)
    }

    /// The session's measured choice for plans of size 2^log_n, where one applies
    /// (the caller chose neither variant nor fusion).
    pub fn measured_choice(&self, log_n: u32) -> Option<Choice> {
        self.measured.get(&log_n).copied()
    }
    /// The halves asked for in [`FftOptions::halves`] (`None`: the default).
    pub fn halves_option(&self) -> Option<bool> {
        self.halves
    }

    /// The superblock order asked for in [`FftOptions::superblocks`] (`None`: the default).
    pub fn superblocks_option(&self) -> Option<bool> {
        self.superblocks
    }

    /// The fusion asked for in [`FftOptions::fuse`] (`None`: the default).
    pub fn fuse_option(&self) -> Option<bool> {
        self.fuse
    }
    /// The passes and launches of a transform of size 2^log_n on `batch`
    /// vectors with these kernels ([`emit::plan_shape`]).
    pub(crate) fn shape(&self, log_n: u32, batch: usize) -> Result<PlanShape> {
        Ok(emit::plan_shape(self.prime(), self.variant_for(log_n), &self.kernel_options_for(log_n), self.fuse_for(log_n), log_n, batch)?)
    }
    /// The radix of the base-case expansion: the caller's, else the prime's
    /// default ([`emit::default_radix`]); plans of some sizes take another
    /// where the caller chose none ([`Fft::radix_for`]).
    pub fn radix(&self) -> Radix {
        self.kernels.radix()
    }
    /// How f_mul forms its digit products.
    pub fn mul(&self) -> MulForm {
        self.kernels.mul()
    }
    /// What the kernels are emitted for: radix ([`Fft::radix`]), f_mul form, PTX.
    pub fn kernel_options(&self) -> KernelOptions {
        self.kernels.options()
    }

    /// Compiles (or loads from the cache) every kernel that a plan of size n
    /// runs: its forward and inverse transforms and its products ([`Plan`]
    /// builds only the forward's where this did not run before it);
    /// [`Error::UnsupportedSize`] for N not a power of two or beyond the prime's bound.
    pub fn prepare(&self, n: usize) -> Result<()> {
        if !n.is_power_of_two() {
            return Err(Error::size(self.max_n(), format!("N = {n} is not a power of two")));
        }
        let shape = self.shape(n.trailing_zeros(), 1)?;
        let segments = memory::vector_segments(self.prime().k(), n as u128, self.max_buffer).unwrap_or(1);
        let variant = self.variant_for(n.trailing_zeros());
        // the launch tables' kernels too, as plans build them where memory allows
        let own: Vec<bool> = emit::launch_tables(variant, &shape).iter().map(Option::is_some).collect();
        self.kernels_for(segments, n.trailing_zeros(), 1)?.prepare(variant, &shape, &own, Operations::All)
    }

    /// A plan for `batch` vectors of size `n` (a power of two allowed by the
    /// prime), its device memory checked before it is allocated.
    /// [`Error::UnsupportedSize`] for such an N or a batch of 0,
    /// [`Error::OutOfMemory`] when it does not fit.
    pub fn plan(&self, n: usize, batch: usize) -> Result<Plan> {
        if !n.is_power_of_two() {
            return Err(Error::size(self.max_n(), format!("N = {n} is not a power of two")));
        }
        Plan::new(self.clone(), n.trailing_zeros(), batch)
    }

    /// The largest N of the prime, 2^e with 2^e the largest power of two dividing p − 1.
    fn max_n(&self) -> Option<BigUint> {
        Some(BigUint::from(1u32) << self.prime().two_adicity())
    }
}

/// Ids of plans, unique in the process.
static NEXT_PLAN_ID: AtomicU64 = AtomicU64::new(1);

/// A planned transform of size N on `batch` vectors: its launches, one
/// scratch buffer and the twiddle table, allocated once.  It uploads and
/// downloads [`DeviceVec`]s and transforms them in place; operations are
/// queued in order on the session's queue (`&mut self`: one thread at a time;
/// make a plan per thread).  Making it builds the forward transform's programs;
/// its first inverse or product builds theirs, unless [`Fft::prepare`] did.
pub struct Plan {
    fft: Fft,
    /// The variant its launches run ([`Fft::variant_for`]).
    variant: Variant,
    shape: PlanShape,
    /// The kernels of this plan's vectors (segmented ones where they are split).
    kernels: Arc<FieldKernels>,
    /// Elements per segment of a vector (all of them when it is whole).
    seg: usize,
    /// The scratch vector, in segments like every vector of the plan.
    scratch: Vec<Buffer<u64>>,
    /// A third vector, which the last launch writes where the halves would
    /// otherwise wait for each other before it (`Halves::spare_last`).
    spare: Option<Vec<Buffer<u64>>>,
    /// The launches run as two halves side by side, if any.
    halves: Option<Halves>,
    /// The halves from the first launch of a forward transform from the
    /// superblock order, if any (`emit::first2::plan_chain`): they rotate the
    /// vector, the scratch and the third vector.
    chain: Option<Chain>,
    /// R² where the plan uploads vectors in the superblock order and its
    /// forward transform of such a vector runs the first two passes in one
    /// launch ([`crate::Order`], `emit::first2::plan_superblock`).
    superblocks: Option<usize>,
    /// W[t] = ω_N^t, t < N/K (one dummy element when N ≤ K).
    table: Buffer<u64>,
    /// The launches' own tables, where they have them (`emit::launch_tables`).
    launch_tables: tables::LaunchTables,
    n_inv: Buffer<u64>,
    /// What its vectors are made for, its id (unique in the process) included.
    owner: Owner,
}

impl Plan {
    fn new(fft: Fft, log_n: u32, batch: usize) -> Result<Plan> {
        if batch == 0 {
            return Err(Error::size(None, "batch must be at least 1"));
        }
        let prime = fft.prime().clone();
        let shape = fft.shape(log_n, batch)?;
        let variant = fft.variant_for(log_n);
        let subject = if batch == 1 { format!("N = 2^{log_n}") } else { format!("N = 2^{log_n} × batch {batch}") };
        let (need, segments) = memory::plan_need_split(&prime, variant, shape.n as u128, batch as u128, 1, fft.max_buffer);
        memory::check(&subject, need, Some(&fft.limits()), "")?;
        let k = prime.k();
        let total = shape.n * batch;
        let seg = total / segments as usize;
        let kernels = fft.kernels_for(segments, log_n, batch)?;
        // a third vector for the last launch where the halves would otherwise wait for each other
        // before it (emit::plan_halves), where the device holds it; a failed allocation (the first
        // of the plan's) leaves the plan without it
        let (spare_need, _) = memory::plan_need_split(&prime, variant, shape.n as u128, batch as u128, 2, fft.max_buffer);
        let spare_fits = memory::check(&subject, spare_need, Some(&fft.limits()), "").is_ok();
        let superblocks = match fft.superblocks {
            Some(false) => None,
            _ => emit::first2::plan_superblock(k, variant, &kernels.options(), &shape),
        };
        let first2 = superblocks.and(emit::first2::first2_launches(&shape));
        let (radix, chain_choice) = (kernels.radix(), (fft.chain, fft.quarters));
        let choose = |spare: bool| {
            let halves = emit::plan_halves(&prime, variant, radix, &shape, fft.halves, spare);
            (halves, emit::first2::plan_chain(&prime, radix, &shape, halves.as_ref(), first2, chain_choice, spare))
        };
        let (mut halves, mut chain) = choose(spare_fits);
        let spare = match (halves, chain) {
            (Some(Halves { spare_last: true, .. }), _) | (_, Some(_)) => {
                match (0..segments).map(|_| kernels.alloc(seg * k)).collect::<Result<Vec<_>>>() {
                    Ok(bufs) => Some(bufs),
                    Err(_) => {
                        (halves, chain) = choose(false);
                        None
                    }
                }
            }
            _ => None,
        };
        let scratch = (0..segments).map(|_| kernels.alloc(seg * k)).collect::<Result<Vec<_>>>()?;
        // the forward transform's programs first, side by side (the tables' kernels among them),
        // then the tables; the inverse's and the products' file waits for their first use
        let planned = tables::LaunchTables::planned(&shape, variant, k, need, &fft.limits());
        kernels.prepare(variant, &shape, &planned.iter().map(Option::is_some).collect::<Vec<_>>(), Operations::Forward)?;
        let table = tables::plan_table(&kernels, &fft.field, &shape, variant)?;
        let launch_tables = tables::LaunchTables::build(&kernels, &fft.field, variant, &planned)?;
        let n_inv = kernels.upload(&fft.field.inv_u64(shape.n as u64)?)?;
        let owner = Owner {
            plan: NEXT_PLAN_ID.fetch_add(1, Ordering::Relaxed),
            session: fft.session().id(),
            prime: prime.to_string(),
            k,
            n: shape.n,
            batch,
        };
        Ok(Plan { fft, variant, shape, kernels, seg, scratch, spare, halves, chain, superblocks, table, launch_tables, n_inv, owner })
    }

    /// The launches this plan runs as two halves side by side, if any
    /// ([`emit::plan_halves`]).
    pub fn halves(&self) -> Option<Halves> {
        self.halves
    }

    /// The halves from the first launch of a forward transform from the
    /// superblock order, if any ([`FftOptions::chain`], `PlanShape::chain`).
    pub fn chain(&self) -> Option<Chain> {
        self.chain
    }

    /// The order the plan uploads vectors in: the superblock order where its
    /// forward transform reads that fastest ([`FftOptions::superblocks`]).
    pub fn input_order(&self) -> Order {
        self.superblocks.map_or(Order::Natural, |r2| Order::Superblocks { r2 })
    }

    /// Puts `v`'s elements in `order` on the device (a transpose of each
    /// vector's digit planes, R² × n/R², through the plan's scratch vector).
    /// [`Error::InvalidOption`] for the superblock order in a plan without it.
    pub fn reorder(&mut self, v: &mut DeviceVec, order: Order) -> Result<()> {
        self.check_vec(v)?;
        if v.order == order {
            return Ok(());
        }
        let r2 = match (v.order, order) {
            (Order::Superblocks { r2 }, Order::Natural) => r2,
            (_, Order::Superblocks { r2 }) if Some(r2) == self.superblocks => r2,
            _ => {
                return Err(Error::option(format!(
                    "this plan has no superblock order {order:?} (its input order: {:?})",
                    self.input_order()
                )))
            }
        };
        // one segment (plan_superblock): k·batch consecutive matrices of R² × T (natural) or T × R²
        let (t, planes) = ((self.shape.n / r2) as u32, (self.fft.prime().k() * self.shape.batch) as u32);
        let (rows, cols) = if order == Order::Natural { (t, r2 as u32) } else { (r2 as u32, t) };
        v.valid = false;
        self.kernels.transpose(&v.bufs[0], &self.scratch[0], rows, cols, planes)?;
        std::mem::swap(&mut v.bufs[0], &mut self.scratch[0]);
        v.order = order;
        v.valid = true;
        Ok(())
    }

    /// This plan's id, unique in the process (see [`DeviceVec::plan_id`]).
    pub fn id(&self) -> u64 {
        self.owner.plan
    }

    /// The base-case variant this plan's launches run ([`Fft::variant_for`]).
    pub fn variant(&self) -> Variant {
        self.variant
    }
    /// The radix of the DFT_K expansion this plan's kernels run ([`Fft::radix_for`]).
    pub fn radix(&self) -> Radix {
        self.kernels.radix()
    }
    /// The launches of a transform (passes, their radices and twiddles).
    pub fn shape(&self) -> &PlanShape {
        &self.shape
    }
    /// The transform size N.
    pub fn n(&self) -> usize {
        self.shape.n
    }
    /// The number of vectors of size N transformed together.
    pub fn batch(&self) -> usize {
        self.shape.batch
    }
    /// The [`Fft`] the plan was made from.
    pub fn fft(&self) -> &Fft {
        &self.fft
    }
    /// The kernels this plan launches (crate internals and benchmarks).
    pub(crate) fn kernels(&self) -> &Arc<FieldKernels> {
        &self.kernels
    }
    fn total(&self) -> usize {
        self.shape.n * self.shape.batch
    }

    /// Refuses a vector made for another session, prime, size, batch or
    /// plan, and one whose contents are undefined.
    fn check_vec(&self, v: &DeviceVec) -> Result<()> {
        self.owner.admits(v)
    }

    fn check_len(&self, len: usize) -> Result<()> {
        if len != self.total() {
            return Err(Error::input(format!(
                "mismatched sizes: the plan is for {} vector(s) of N = {} ({} elements), got {len}",
                self.shape.batch,
                self.shape.n,
                self.total()
            )));
        }
        Ok(())
    }

    /// Forward DFT of every vector: X_j = Σ_i x_i ω^{ij}, ω = `srgfn roots` of N.
    /// [`Error::Misuse`] for a vector of another plan; if a launch fails the
    /// vector is marked undefined ([`crate::Misuse::Undefined`] on later use).
    pub fn forward(&mut self, v: &mut DeviceVec) -> Result<()> {
        self.run(v)
    }

    /// Inverse DFT: the DFT at ω^{-1}, scaled by 1/N (x_j = (1/N)·X_{−j} of the forward DFT).
    pub fn inverse(&mut self, v: &mut DeviceVec) -> Result<()> {
        self.check_vec(v)?;
        self.kernels.prepare_aux(&["reverse_scale"])?;
        self.run(v)?;
        let total = self.total() as u64;
        v.valid = false;
        self.kernels.reverse_scale(&v.bufs, &self.scratch, &self.n_inv, self.seg as u64, self.shape.n as u64, total)?;
        std::mem::swap(&mut v.bufs, &mut self.scratch);
        v.valid = true;
        Ok(())
    }

    /// a ← a · b element-wise (both vectors of this plan).
    /// The product takes b's order ([`Plan::reorder`] of a first where they differ).
    pub fn pointwise_mul(&mut self, a: &mut DeviceVec, b: &DeviceVec) -> Result<()> {
        self.check_vec(a)?;
        self.check_vec(b)?;
        self.kernels.prepare_aux(&["pointwise_mul"])?;
        self.reorder(a, b.order)?;
        a.valid = false;
        let seg = self.seg as u64;
        for (x, y) in a.bufs.iter().zip(&b.bufs) {
            self.kernels.pointwise("mul", x, y, x, seg, seg)?;
        }
        a.valid = true;
        Ok(())
    }

    /// Waits for every queued launch.
    pub fn finish(&self) -> Result<()> {
        self.fft.session().queue.finish().or_device(|| "the device queue failed".into())
    }
}

/// With `SRGFN_TRACE` set, prints the time since `t` for a phase.
fn trace_phase(name: &str, t: std::time::Instant) {
    if std::env::var_os("SRGFN_TRACE").is_some() {
        eprintln!("srgfn trace: {name}: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    }
}

/// Powers w^(start + i·step), i < count, as digit vectors (host products).
pub(crate) fn powers(field: &Field, w: &BigUint, start: usize, step: usize, count: usize) -> Result<Vec<Digits>> {
    let p = field.prime().modulus();
    let mut acc = field.from_biguint(&w.modpow(&BigUint::from(start as u64), p))?;
    let ws = field.from_biguint(&w.modpow(&BigUint::from(step as u64), p))?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let next = field.mul(&acc, &ws);
        out.push(std::mem::replace(&mut acc, next));
    }
    Ok(out)
}
