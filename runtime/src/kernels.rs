//! The generated kernels of one prime and radix, built on a session, with a
//! typed launcher per kernel (work sizes chosen as the manifest states).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use ocl::core::ArgVal;
use ocl::{Buffer, Kernel, Program, Queue, SpatialDims};
use srgfn_gen::emit::digits::PassLayout;
use srgfn_gen::emit::{self, fused, EmittedFile, KernelOptions, KernelSet, KernelSig, MulForm, ParamType, TwiddleTable, Variant};
use srgfn_gen::plan::{Halves, Launch, Pass, PlanShape};
use srgfn_gen::rules::Radix;
use srgfn_gen::Prime;

use crate::error::{DeviceContext as _, Error, Result};
use crate::faults::{Fault, Faults};
use crate::session::Session;
use crate::staging::Stage;

mod auxiliary;
mod specs;
mod transfer;

use specs::{LaunchSpec, SpecKey};

/// Work-group size for the non-cooperative kernels.
const WG: usize = 64;

fn round_up(n: usize, m: usize) -> usize {
    n.div_ceil(m).max(1) * m
}

/// Waits for profiled events; returns (first start → last end, sum of their
/// durations) in nanoseconds.
pub(crate) fn event_span(events: &[ocl::Event]) -> Result<(u64, u64)> {
    let (span, busy, _, _) = event_times(events)?;
    Ok((span, busy))
}

/// Like [`event_span`], with each event's duration and its start after the
/// first event's start (ns), in order.
pub(crate) fn event_times(events: &[ocl::Event]) -> Result<(u64, u64, Vec<u64>, Vec<u64>)> {
    let (mut first, mut last, mut each) = (u64::MAX, 0u64, Vec::with_capacity(events.len()));
    let mut starts = Vec::with_capacity(events.len());
    let failed = || "cannot read a kernel's profiling times".to_string();
    for ev in events {
        ev.wait_for().or_device(|| "a kernel failed".into())?;
        let start = ev.profiling_info(ocl::enums::ProfilingInfo::Start).or_device(failed)?.time().or_device(failed)?;
        let end = ev.profiling_info(ocl::enums::ProfilingInfo::End).or_device(failed)?.time().or_device(failed)?;
        first = first.min(start);
        last = last.max(end);
        each.push(end.saturating_sub(start));
        starts.push(start);
    }
    let starts = starts.iter().map(|&t| t.saturating_sub(first)).collect();
    Ok((last.saturating_sub(first.min(last)), each.iter().sum(), each, starts))
}

/// Which launches a benchmark records the profiling event of
/// (`FieldKernels::start_recording`, `srgfn::bench`).  NVIDIA's OpenCL takes 13–15 µs to
/// enqueue a kernel with an event and 6–8 without (H200, v42,
/// docs/perf/h200-v42/enqueue): where a run's kernels are that short, the
/// events of every launch make the host pace the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recording {
    /// Every launch: each kernel's time and start.
    Every,
    /// The first launch and those enqueued after `FieldKernels::mark_last_launch`
    /// (the last launch, both halves where it has them): the run's span, its
    /// host work as light as outside a benchmark.
    Ends,
}

/// The events a benchmark records.
struct Recorder {
    what: Recording,
    events: Vec<ocl::Event>,
    /// Set by [`FieldKernels::mark_last_launch`].
    last: bool,
}

/// Which blocks of a pass one launch runs (`srgfn_gen::plan::Halves`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassPart {
    /// Every block, on the session's queue.
    Whole,
    /// The blocks whose bit `shift` is `half`: half 0 on the session's
    /// queue, half 1 on its side queue.
    Half {
        /// The bit of the block index that tells the halves apart.
        shift: u32,
        /// 0 or 1.
        half: u32,
    },
    /// The blocks whose bit `shift` is `half` and bit `shift2` (> shift) is
    /// `index2`, on the queue of `index2` as for a half (the table variant's
    /// `_q` kernels, `emit::has_quarter_kernels`, `maps::quarter_block`;
    /// `srgfn_gen::plan::Chain::low`).
    Quarter {
        /// The lower bit.
        shift: u32,
        /// Its value, 0 or 1.
        half: u32,
        /// The higher bit.
        shift2: u32,
        /// Its value, 0 or 1: the chain half, whose queue runs the quarter.
        index2: u32,
    },
}

/// A part's kernel arguments and size ([`PassPart::launch`]).
struct PartLaunch {
    /// `half_shift` and `half_index`.
    half: [u32; 2],
    /// `quarter_shift` and `quarter_index` ([`Halves::WHOLE`] and 0 but for a quarter).
    quarter: [u32; 2],
    /// The blocks (or superblocks) launched.
    blocks: u64,
}

impl PassPart {
    /// The kernel arguments of this part of a launch of `count` blocks (or
    /// superblocks) whose kernel runs in halves from `min_p` on
    /// (`emit::half_min_p`); an internal error unless the runs of 2^shift
    /// blocks are that long and the parts are equal (min_p ≤ 2^(shift+1),
    /// count a multiple of 2^(shift+1), and of 2^(shift2+1) for a quarter).
    /// Which bits keep the parts apart from launch to launch is the plan's:
    /// below p (`PlanShape::halves`), above it (`PlanShape::chain`), or both
    /// (`Chain::in_quarters`).
    fn launch(self, min_p: Option<usize>, count: u64) -> Result<PartLaunch> {
        let least = min_p.map_or(u64::MAX, |m| m.max(2) as u64);
        let splits = |shift: u32, half: u32| {
            let bit = 1u64.checked_shl(shift).unwrap_or(0);
            half <= 1 && 2 * bit >= least && count.is_multiple_of(2 * bit)
        };
        match self {
            PassPart::Whole => Ok(PartLaunch { half: [Halves::WHOLE, 0], quarter: [Halves::WHOLE, 0], blocks: count }),
            PassPart::Half { shift, half } if splits(shift, half) => {
                Ok(PartLaunch { half: [shift, half], quarter: [Halves::WHOLE, 0], blocks: count / 2 })
            }
            PassPart::Quarter { shift, half, shift2, index2 } if shift2 > shift && splits(shift, half) && splits(shift2, index2) => {
                Ok(PartLaunch { half: [shift, half], quarter: [shift2, index2], blocks: count / 4 })
            }
            _ => Err(Error::internal(format!("no part {self:?} of {count} blocks"))),
        }
    }

    /// [`Self::launch`] for a kernel that runs halves but no quarters.
    fn halves_only(self, min_p: Option<usize>, count: u64) -> Result<([u32; 2], u64)> {
        match self.launch(min_p, count)? {
            PartLaunch { half, quarter: [Halves::WHOLE, 0], blocks } => Ok((half, blocks)),
            _ => Err(Error::internal(format!("a kernel of two levels runs no quarter ({self:?})"))),
        }
    }
}

/// Commands enqueued on `waiter` from now on start after every command
/// enqueued on `other` so far (a marker on `other`, a barrier on `waiter`).
/// `other` is flushed: a marker the device has not been handed yet would hold
/// `waiter` until the next flush.
fn queue_waits_for(waiter: &Queue, other: &Queue) -> Result<()> {
    let marker = other.enqueue_marker::<&ocl::Event>(None).or_device(|| "cannot enqueue a marker".into())?;
    queue_waits_on(waiter, other, &marker)
}

/// Commands enqueued on `waiter` from now on start after `event`, a command
/// of `other`, which is flushed (a command of another queue in a wait list
/// must have been handed to the device).
fn queue_waits_on(waiter: &Queue, other: &Queue, event: &ocl::Event) -> Result<()> {
    other.flush().or_device(|| "cannot flush a queue".into())?;
    ocl::core::enqueue_barrier_with_wait_list(waiter.as_core(), Some(event), None::<&mut ocl::Event>, None)
        .map_err(ocl::Error::from)
        .or_device(|| "cannot enqueue a barrier".into())
}

/// Where the side queue's fork waits ([`FieldKernels::arm_fork`]).
enum ForkEvent {
    /// On a marker enqueued on the session's queue at the fork.
    Idle,
    /// The next launch on the session's queue keeps its event.
    Armed,
    /// On this launch's event.
    Saved(ocl::Event),
}

/// One kernel argument, checked against the kernel's [`KernelSig`] before it is set.
enum Arg<'a> {
    Buf(&'a Buffer<u64>),
    /// A data vector's segments, for a kernel that takes segmented vectors.
    Vec(&'a [Buffer<u64>]),
    U64(u64),
    U32(u32),
}

/// The kernels map indices with shifts and masks: n, the radix and p are
/// powers of two and radix·p divides n (every plan's passes are).
fn pass_shape(n: u64, radix: u64, p: u64) -> Result<()> {
    if [n, radix, p].iter().all(|v| v.is_power_of_two()) && radix.checked_mul(p).is_some_and(|rp| rp <= n) {
        Ok(())
    } else {
        Err(Error::option(format!(
            "a Stockham pass needs n, the radix and p powers of two with radix·p ≤ n (got n = {n}, radix {radix}, p = {p})"
        )))
    }
}

/// The arguments of a Stockham kernel in the order of `emit::sig`'s
/// `stockham`: X, Y, W, (plane, n, p), log_t, the twiddle shifts, count.
fn stockham_args<'a>(
    x: &'a [Buffer<u64>],
    y: &'a [Buffer<u64>],
    w: &'a Buffer<u64>,
    [plane, n, p]: [u64; 3],
    log_t: u32,
    shifts: &[u32],
    count: u64,
) -> Vec<Arg<'a>> {
    let mut args = vec![Arg::Vec(x), Arg::Vec(y), Arg::Buf(w), Arg::U64(plane), Arg::U64(n), Arg::U64(p), Arg::U32(log_t)];
    args.extend(shifts.iter().map(|&s| Arg::U32(s)));
    args.push(Arg::U64(count));
    args
}

impl Arg<'_> {
    /// Whether the argument fits a parameter of type `ty` whose vectors come in `segments`.
    fn fits(&self, ty: ParamType, segments: u32) -> bool {
        match self {
            Arg::Buf(_) => ty.is_buffer() && (segments == 1 || !ty.is_vector()),
            Arg::Vec(parts) => ty.is_vector() && parts.len() == segments as usize,
            Arg::U64(_) => ty == ParamType::ULong,
            Arg::U32(_) => ty == ParamType::UInt,
        }
    }
}

/// The multiplication form for a device and prime: `SRGFN_MUL` (wide64,
/// limb22 or mixed) when set, else wide64.  Measured on the H200
/// (docs/performance.md, v6): with PTX carry chains wide64 is the fastest
/// form for k = 4 … 32 (f_mul 10.3 G/s at k = 8 against 8.7 for mixed and 7.3
/// for limb22); on CPUs its 64-bit multiplier is native.
pub(crate) fn default_mul(_session: &Session, _prime: &Prime) -> Result<MulForm> {
    match std::env::var("SRGFN_MUL") {
        Ok(v) if !v.is_empty() => MulForm::parse(&v).map_err(|e| Error::option(format!("SRGFN_MUL: {e}"))),
        _ => Ok(MulForm::Wide64),
    }
}

/// Whether the kernels may use inline PTX: on NVIDIA's platform, unless
/// `SRGFN_PTX=0` asks for the portable C path.
pub(crate) fn default_ptx(session: &Session) -> bool {
    session.device.is_nvidia() && std::env::var("SRGFN_PTX").map_or(true, |v| v != "0")
}

/// The emitted kernels of one prime and radix on a session; programs are
/// compiled on first use (and cached by the session).  Each launcher checks
/// its arguments against the kernel's signature and enqueues it on raw
/// digit-major buffers: the level below [`crate::Plan`].
pub struct FieldKernels {
    session: Session,
    prime: Prime,
    /// Everything the kernels were emitted for (radix, f_mul form, PTX).
    opts: KernelOptions,
    set: KernelSet,
    /// Base-case files of sizes n < K, emitted on demand.
    small: Mutex<BTreeMap<String, EmittedFile>>,
    /// Built programs by file name: a launch looks its program up here
    /// instead of hashing the source again.
    programs: Mutex<BTreeMap<String, Program>>,
    /// Kernel objects by file and name, created on first use: a launch sets
    /// their arguments and enqueues them.  (Creating one per launch cost more
    /// host time than a small pass takes on the GPU: v14c.)
    kernels: Mutex<BTreeMap<String, BTreeMap<String, Kernel>>>,
    /// The pass kernels' launch facts, worked out on first use (`specs.rs`).
    specs: Mutex<Vec<(SpecKey, Arc<LaunchSpec>)>>,
    /// When Some, launches record their profiling events here (benchmarks).
    events: Mutex<Option<Recorder>>,
    /// The event of the launch a plan's halves fork after ([`Self::arm_fork`]).
    fork_event: Mutex<ForkEvent>,
    /// Some while launches keep their events ([`Self::keep_events`]): the last one's.
    kept: Mutex<Option<Option<ocl::Event>>>,
    /// Staging memory of large writes and reads (pinned on NVIDIA).
    stage: Stage,
}

// Some launchers serve only the workspace tests (through `srgfn::internals`).
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
impl FieldKernels {
    /// Emits the kernels for `prime` and `radix` with the device's default
    /// multiplication form (nothing is compiled yet).
    pub fn new(session: &Session, prime: &Prime, radix: Radix) -> Result<FieldKernels> {
        Self::with_mul(session, prime, radix, default_mul(session, prime)?)
    }

    /// Emits the kernels with a chosen multiplication form (PTX where the device allows).
    pub fn with_mul(session: &Session, prime: &Prime, radix: Radix, mul: MulForm) -> Result<FieldKernels> {
        Self::with_options(session, prime, KernelOptions { ptx: default_ptx(session), ..KernelOptions::new(radix, mul) })
    }

    /// Emits the kernels with the given options (nothing is compiled yet).
    pub fn with_options(session: &Session, prime: &Prime, opts: KernelOptions) -> Result<FieldKernels> {
        if opts.ptx && !session.device.is_nvidia() {
            return Err(Error::option(format!("inline PTX needs NVIDIA's OpenCL platform; {} is not one", session.device.describe())));
        }
        let set = emit::emit_with(prime, &opts)?;
        Ok(FieldKernels {
            session: session.clone(),
            prime: prime.clone(),
            opts,
            set,
            small: Mutex::default(),
            programs: Mutex::default(),
            kernels: Mutex::default(),
            specs: Mutex::default(),
            events: Mutex::default(),
            fork_event: Mutex::new(ForkEvent::Idle),
            kept: Mutex::default(),
            stage: Stage::default(),
        })
    }

    /// Compiles every file of the set through the session's program cache;
    /// returns the build logs (warnings) of the files built from source in
    /// this session, by file.
    pub fn build_all(&self) -> Result<BTreeMap<String, String>> {
        let mut logs = BTreeMap::new();
        for f in self.set.files.iter().filter(|f| f.name != "field.cl") {
            if let (_, Some(log)) = self.session.capped_program(&self.program_name(&f.name), &f.source, &f.ptx_register_caps)? {
                logs.insert(f.name.clone(), log);
            }
        }
        Ok(logs)
    }

    fn program_name(&self, file: &str) -> String {
        format!("{}_{}", self.prime.slug(), file.trim_end_matches(".cl"))
    }

    /// The prime's k (digits per element).
    pub fn k(&self) -> usize {
        self.set.manifest.k
    }
    /// K = 2k, the size of the base-case DFT.
    pub fn base_size(&self) -> usize {
        self.set.program.size
    }
    /// The variants emitted for the prime, the default first.
    pub fn variants(&self) -> Vec<Variant> {
        emit::variants_for(&self.prime)
    }
    /// The prime the kernels are for.
    pub fn prime(&self) -> &Prime {
        &self.prime
    }
    /// The session the kernels run on.
    pub fn session(&self) -> &Session {
        &self.session
    }
    /// The radix of the base-case expansion.
    pub fn radix(&self) -> Radix {
        self.opts.radix
    }
    /// How f_mul forms its digit products (`SRGFN_MUL` when set, else wide64).
    pub fn mul(&self) -> MulForm {
        self.opts.mul
    }
    /// Everything the kernels were emitted for (radix, f_mul form, PTX).
    pub fn options(&self) -> KernelOptions {
        self.opts
    }

    fn program(&self, file: &str) -> Result<Program> {
        if let Some(p) = self.programs.lock().expect("program map").get(file) {
            return Ok(p.clone());
        }
        let emitted = match self.set.file(file) {
            Some(f) => f.clone(),
            None => self
                .small
                .lock()
                .expect("kernel map")
                .get(file)
                .cloned()
                .ok_or_else(|| Error::internal(format!("kernel file {file} was not emitted")))?,
        };
        let (program, _) = self.session.capped_program(&self.program_name(file), &emitted.source, &emitted.ptx_register_caps)?;
        self.programs.lock().expect("program map").insert(file.to_string(), program.clone());
        Ok(program)
    }

    /// Starts recording the profiling events of the launches `what` names.
    pub fn start_recording(&self, what: Recording) {
        *self.events.lock().expect("event list") = Some(Recorder { what, events: Vec::new(), last: false });
    }

    /// While recording the ends of a run ([`Recording::Ends`]): the launches
    /// enqueued from now on are its last (on each queue the last command
    /// before the recording stops).
    pub fn mark_last_launch(&self) {
        if let Some(r) = self.events.lock().expect("event list").as_mut() {
            r.last = true;
        }
    }

    /// Stops recording; waits for the events and returns (first start → last
    /// end, sum of kernel times) in nanoseconds.
    pub fn stop_recording(&self) -> Result<(u64, u64)> {
        let (span, busy, _, _) = self.stop_recording_each()?;
        Ok((span, busy))
    }

    /// Like [`Self::stop_recording`], with each recorded launch's duration and
    /// start (ns after the first start) in order.  A run recorded by its ends
    /// that marked no last launch is an internal error (its span would end
    /// at the first launch).
    pub fn stop_recording_each(&self) -> Result<(u64, u64, Vec<u64>, Vec<u64>)> {
        let Some(r) = self.events.lock().expect("event list").take() else {
            return event_times(&[]);
        };
        if r.what == Recording::Ends && !r.last && !r.events.is_empty() {
            return Err(Error::internal("a run timed by its ends marked no last launch (FieldKernels::mark_last_launch)"));
        }
        event_times(&r.events)
    }

    /// Compiles (or loads) every program a plan's launches need, so that
    /// later launches do not pay for compilation; `launch_tables[j]`: whether
    /// launch j reads a table of its own (`emit::launch_tables`).
    pub fn prepare(&self, variant: Variant, shape: &PlanShape, launch_tables: &[bool]) -> Result<()> {
        for (j, launch) in shape.launches().into_iter().enumerate() {
            let table = if launch_tables.get(j) == Some(&true) { TwiddleTable::Launch } else { TwiddleTable::Plan };
            // the local variant's fused kernel has a file of its own; the table variant's pair
            // kernel is in its pass kernels' file
            let file = match launch {
                Launch::Fused(..) if variant == Variant::Local => format!("{}.cl", fused::name(&self.set.program, table)),
                _ => self.dft_file(variant, launch.first_pass().radix, table)?.0,
            };
            self.program(&file)?;
        }
        for file in ["transpose.cl", "pointwise.cl"] {
            self.program(file)?;
        }
        Ok(())
    }

    /// File and kernel name of DFT_n of a variant built for `table`,
    /// emitting the file the first time it is asked for when n < K (launch
    /// tables: n = K only, `emit::launch_tables`).
    fn dft_file(&self, variant: Variant, n: usize, table: TwiddleTable) -> Result<(String, String)> {
        let name = emit::dft_kernel_name(n, self.opts.radix, variant);
        let file = emit::dft_file_name(n, self.opts.radix, variant, table);
        if table == TwiddleTable::Launch && (n != self.base_size() || !emit::has_launch_table_passes(self.prime.k(), variant)) {
            return Err(Error::internal(format!("no pass kernel of DFT_{n} of the {} variant for launch tables", variant.name())));
        }
        if n != self.base_size() {
            let mut small = self.small.lock().expect("kernel map");
            if !small.contains_key(&file) {
                small.insert(file.clone(), emit::emit_dft(&self.prime, n, variant, &self.opts)?);
            }
        }
        Ok((file, name))
    }

    /// One Stockham pass of radix `radix` (| K) over vectors of length n after
    /// sub-transforms of length p (see `srgfn_gen::plan::Pass`): X → Y, Y ≠ X;
    /// `count` = total elements / radix.  W is the twiddle table of 2^log_t
    /// entries: the plan's, of ω_n, with tw_shift = log2(n / (radix·p))
    /// ([`PlanShape::twiddle_shift`]), or (`table` [`TwiddleTable::Launch`])
    /// one that holds every twiddle of the pass
    /// ([`PlanShape::launch_table_log`], `launch_twiddle_shift`).  The workgroup
    /// variant overwrites X.  `part` says which blocks: all of them, or a
    /// half, the blocks whose bit `shift` is `half` (`srgfn_gen::plan::Halves`
    /// says where that is sound; half 1 runs on the session's side queue,
    /// between [`Self::fork`] and [`Self::join`]).
    #[allow(clippy::too_many_arguments)]
    pub fn pass(
        &self,
        variant: Variant,
        radix: usize,
        x: &[Buffer<u64>],
        y: &[Buffer<u64>],
        (w, table): (&Buffer<u64>, TwiddleTable),
        [plane, n, p]: [u64; 3],
        log_t: u32,
        tw_shift: u32,
        count: u64,
        part: PassPart,
        layout: PassLayout,
    ) -> Result<()> {
        pass_shape(n, radix as u64, p)?;
        if table == TwiddleTable::Launch {
            if p < 2 {
                return Err(Error::internal("the first pass (p = 1) has no twiddles to read from a launch table"));
            }
            launch_table_holds(log_t, (radix as u64 * p) << tw_shift, || format!("the pass ({radix}, {p})"))?;
        }
        if !variant.takes_layout() && layout != PassLayout::DIGIT_MAJOR {
            return Err(Error::option(format!(
                "only the digits variant reads or writes element-major vectors (emit::digits::PassLayout), not the {} variant",
                variant.name()
            )));
        }
        // twiddled passes read 2^log_t entries laid out for the variant; the suffix sums sit right
        // after exactly 2^log_t entries, so such a table must have that length
        let words = self.table_words(variant, 1u64.checked_shl(log_t).unwrap_or(u64::MAX));
        let fits = |words: usize| if variant.reads_suffix_sums() { w.len() == words } else { w.len() >= words };
        if p > 1 && !words.is_some_and(fits) {
            return Err(Error::option(format!(
                "the twiddle table holds {} words; the {} variant reads {} for 2^{log_t} entries (Variant::table_words)",
                w.len(),
                variant.name(),
                words.map_or("more than the device can hold".to_string(), |w| format!(
                    "{}{w}",
                    if variant.reads_suffix_sums() { "exactly " } else { "" }
                ))
            )));
        }
        let quarters = matches!(part, PassPart::Quarter { .. });
        let spec = self.spec(SpecKey::Pass { variant, radix, first: p == 1, table, quarters }, p)?;
        let launch = Launch::Single(Pass { radix, p: p as usize });
        let part_args = part.launch(emit::half_min_p(&self.prime, variant, self.opts.radix, &launch), count)?;
        let (gws, lws) = emit::pass_work_size(&self.prime, &spec.program, variant, part_args.blocks as usize);
        let mut extra = vec![tw_shift];
        if variant.runs_in_halves() {
            extra.extend(part_args.half);
        }
        if quarters {
            extra.extend(part_args.quarter);
        }
        if variant.takes_layout() {
            extra.push(layout.bits());
        }
        self.launch_on(
            self.queue_of(part),
            &spec.file,
            &spec.sig,
            gws,
            Some(lws.into()),
            &stockham_args(x, y, w, [plane, n, p], log_t, &extra, count),
        )
    }

    /// The queue that runs `part`: half 1 on the side queue, the rest on the session's.
    fn queue_of(&self, part: PassPart) -> &Queue {
        match part {
            PassPart::Half { half: 1, .. } | PassPart::Quarter { index2: 1, .. } => &self.session.side_queue,
            _ => &self.session.queue,
        }
    }

    /// On NVIDIA, the next launch on the session's queue keeps its event, on
    /// which the next [`Self::fork`] makes the side queue wait instead of on
    /// a marker: a plan arms the fork just before the launch its halves
    /// follow, so that nothing else is enqueued between them.  (v41, H200,
    /// k = 8 at 2^20: the first half-launch starts 1.4 µs after that launch
    /// ends instead of 3.2 with the marker.)  A fork after a join (a layout
    /// change) finds nothing armed and takes the marker.
    pub fn arm_fork(&self) {
        if self.session.device.is_nvidia() {
            *self.fork_event.lock().expect("fork event") = ForkEvent::Armed;
        }
    }

    /// Before the first half-launch: the side queue waits for everything
    /// enqueued so far on the session's queue (on the armed launch's event,
    /// which is the last command there, or a marker).
    pub fn fork(&self) -> Result<()> {
        let saved = std::mem::replace(&mut *self.fork_event.lock().expect("fork event"), ForkEvent::Idle);
        match saved {
            ForkEvent::Saved(ev) => queue_waits_on(&self.session.side_queue, &self.session.queue, &ev),
            _ => self.queue_waits_for(&self.session.side_queue, &self.session.queue),
        }
    }

    /// After the last half-launch: the session's queue waits for everything
    /// enqueued so far on the side queue, so later commands see both halves.
    pub fn join(&self) -> Result<()> {
        self.queue_waits_for(&self.session.queue, &self.session.side_queue)
    }

    /// From now on (`on`) every launch keeps its event for
    /// [`Self::take_event`], on which a plan's chain of halves makes the other
    /// queue wait (`fft::chain`); `false` stops.
    pub fn keep_events(&self, on: bool) {
        *self.kept.lock().expect("kept events") = on.then_some(None);
    }

    /// The event of the last launch since [`Self::keep_events`].
    pub fn take_event(&self) -> Result<ocl::Event> {
        let mut kept = self.kept.lock().expect("kept events");
        kept.as_mut().and_then(Option::take).ok_or_else(|| Error::internal("no launch kept its event"))
    }

    /// Commands enqueued for half `half` (its queue, [`PassPart`]) from now on
    /// start after `event`, a launch of the other half's queue: on NVIDIA by
    /// a barrier on the event ([`queue_waits_on`]), elsewhere by the host
    /// waiting for it (as [`Self::join`]: PoCL's barriers between queues
    /// passed early).
    pub fn half_waits_on(&self, half: u32, event: &ocl::Event) -> Result<()> {
        let (waiter, other) = match half {
            1 => (&self.session.side_queue, &self.session.queue),
            _ => (&self.session.queue, &self.session.side_queue),
        };
        if self.session.device.is_nvidia() {
            queue_waits_on(waiter, other, event)
        } else {
            other.flush().or_device(|| "cannot flush a queue".into())?;
            event.wait_for().or_device(|| "cannot wait for a launch".into())
        }
    }

    /// `waiter` waits for everything enqueued on `other` so far: on NVIDIA by
    /// a marker and a barrier between the queues ([`queue_waits_for`], the
    /// form v23 measured and `srgfn check --halves on` runs), elsewhere by
    /// the host finishing `other`.  PoCL 3.1 let the barrier pass early: k =
    /// 128's plans in halves gave half their outputs stale in 2 of 45 runs of
    /// `k64_and_k128_full_transforms_at_k_squared` (docs/reliability.md).
    fn queue_waits_for(&self, waiter: &Queue, other: &Queue) -> Result<()> {
        if self.session.device.is_nvidia() {
            queue_waits_for(waiter, other)
        } else {
            other.finish().or_device(|| "cannot finish a queue".into())
        }
    }

    /// Two Stockham passes of radix `radix` (= K), (R, p) then (R, pR), in
    /// one launch: the local variant's fused kernel (`emit::fused`) or the
    /// table variant's pair kernel (`emit::first2`, `TwoLevel::Pair`, X and
    /// Y digit- or element-major as `layout` says; the local variant's are
    /// digit-major).  X → Y, Y ≠ X; `count` = total elements / R²; `tw_shift`
    /// = the two passes' [`PlanShape::twiddle_shift`], in units of the root
    /// of W, which is the plan's table or (`table` [`TwiddleTable::Launch`])
    /// one that holds every twiddle of the launch
    /// ([`PlanShape::launch_table_log`]); `part` as for [`Self::pass`].
    #[allow(clippy::too_many_arguments)]
    pub fn fused_pass(
        &self,
        variant: Variant,
        radix: usize,
        x: &[Buffer<u64>],
        y: &[Buffer<u64>],
        (w, table): (&Buffer<u64>, TwiddleTable),
        [plane, n, p]: [u64; 3],
        log_t: u32,
        tw_shift: [u32; 2],
        count: u64,
        part: PassPart,
        layout: PassLayout,
    ) -> Result<()> {
        pass_shape(n, (radix * radix) as u64, p)?;
        let k = self.prime.k();
        let launch = Launch::Fused(Pass { radix, p: p as usize }, Pass { radix, p: p as usize * radix });
        if table == TwiddleTable::Launch {
            let passes = || format!("the passes ({radix}, {p}), ({radix}, {})", p * radix as u64);
            launch_table_holds(log_t, ((radix * radix) as u64 * p) << tw_shift[1], passes)?;
        }
        let (half, superblocks) = part.halves_only(emit::half_min_p(&self.prime, variant, self.opts.radix, &launch), count)?;
        let mut extra = vec![tw_shift[0], tw_shift[1], half[0], half[1]];
        let base = self.base_size();
        let (spec, (gws, lws)) = match variant {
            Variant::Local if layout == PassLayout::DIGIT_MAJOR => {
                let none = || Error::internal(format!("no fused kernel of radix {radix} for k = {k}"));
                let spec = if radix == base { self.spec(SpecKey::Fused { table }, p)? } else { return Err(none()) };
                let shape = spec.fused.ok_or_else(none)?;
                (spec, fused::work_size(&shape, superblocks as usize))
            }
            Variant::Table if radix == base && emit::first2::applies(k, radix, &self.opts) => {
                let size = emit::first2::work_size(k, radix, superblocks as usize)
                    .ok_or_else(|| Error::internal("the pair kernel's work-group holds no whole superblock"))?;
                extra.push(layout.bits());
                (self.spec(SpecKey::Pair { table }, p)?, size)
            }
            _ => {
                return Err(Error::internal(format!(
                    "no fused kernel of radix {radix} for k = {k} of the {} variant with layout {layout:?}",
                    variant.name()
                )))
            }
        };
        let args = stockham_args(x, y, w, [plane, n, p], log_t, &extra, count);
        self.launch_on(self.queue_of(part), &spec.file, &spec.sig, gws, Some(lws.into()), &args)
    }

    /// The first two Stockham passes of radix K, (K, 1) then (K, K), in one
    /// launch of the table variant's `…_first2` kernel (`emit::first2`): X,
    /// in the superblock order, digit-major, → Y in the natural order, Y ≠ X,
    /// element-major where `layout` says; `count` = total elements / K²;
    /// `tw_shift2` = the second pass's [`PlanShape::twiddle_shift`] in the
    /// plan's table W (a pass of p = K has no launch table,
    /// [`PlanShape::launch_table_log`]); `part`: every superblock, or the
    /// half of them whose bit `shift` is `half` (`PlanShape::chain`).
    #[allow(clippy::too_many_arguments)]
    pub fn first2_pass(
        &self,
        x: &[Buffer<u64>],
        y: &[Buffer<u64>],
        w: &Buffer<u64>,
        [plane, n]: [u64; 2],
        log_t: u32,
        tw_shift2: u32,
        count: u64,
        layout: PassLayout,
        part: PassPart,
    ) -> Result<()> {
        if layout.input_element_major {
            return Err(Error::internal("the first-two-passes kernel reads a digit-major vector in the superblock order"));
        }
        let kk = self.base_size();
        pass_shape(n, (kk * kk) as u64, 1)?;
        if !emit::first2::applies(self.prime.k(), kk, &self.opts) {
            return Err(Error::internal(format!("no first-two-passes kernel for k = {} with these options", self.prime.k())));
        }
        let spec = self.spec(SpecKey::First2, 1)?;
        // its superblocks in halves by a bit above p (PlanShape::chain)
        let ([shift, half], superblocks) = part.halves_only(emit::first2::half_min_superblocks(&self.prime, self.opts.radix), count)?;
        let (gws, lws) = emit::first2::work_size(self.prime.k(), kk, superblocks as usize)
            .ok_or_else(|| Error::internal("the first-two-passes kernel's work-group holds no whole superblock"))?;
        let args = stockham_args(x, y, w, [plane, n, 1], log_t, &[tw_shift2, shift, half, layout.bits()], count);
        self.launch_on(self.queue_of(part), &spec.file, &spec.sig, gws, Some(lws.into()), &args)
    }

    /// The unrolled program of DFT_n (n | K) with this set's radix.
    /// Words of a twiddle table of `entries` entries laid out for `variant`
    /// (`Variant::table_words`), or None beyond the host's addresses.
    fn table_words(&self, variant: Variant, entries: u64) -> Option<usize> {
        usize::try_from(entries).ok()?.checked_mul(variant.table_words(self.prime.k(), 1))
    }

    fn dft_program(&self, n: usize) -> Result<srgfn_gen::unroll::Program> {
        if n == self.base_size() {
            return Ok(self.set.program.clone());
        }
        srgfn_gen::unroll::Program::unroll_size(self.prime.k(), n, self.opts.radix).map_err(|e| emit::EmitError::Unsupported(e).into())
    }

    /// Sets the arguments of kernel `sig` of `file` in its signature's order,
    /// each checked against the declared type, and enqueues it.
    fn launch(&self, file: &str, sig: &KernelSig, gws: impl Into<SpatialDims>, lws: Option<SpatialDims>, args: &[Arg]) -> Result<()> {
        self.launch_on(&self.session.queue, file, sig, gws, lws, args)
    }

    /// [`Self::launch`] on `queue` (one of the session's).
    fn launch_on(
        &self,
        queue: &Queue,
        file: &str,
        sig: &KernelSig,
        gws: impl Into<SpatialDims>,
        lws: Option<SpatialDims>,
        args: &[Arg],
    ) -> Result<()> {
        let name = &sig.name;
        if args.len() != sig.params.len() {
            return Err(Error::internal(format!("kernel {name} takes {} arguments, {} given", sig.params.len(), args.len())));
        }
        let segments = sig.segments_of(self.opts.segments);
        if let Some(i) = args.iter().zip(&sig.params).position(|(a, p)| !a.fits(p.ty, segments)) {
            return Err(Error::internal(format!("argument {} ({}) of kernel {name} has the wrong type", i, sig.params[i].name)));
        }
        // the kernel object, created on the first launch (its program built then)
        let known = self.kernels.lock().expect("kernel map").get(file).is_some_and(|m| m.contains_key(name));
        let program = if known { None } else { Some(self.program(file)?) };
        let mut kernels = self.kernels.lock().expect("kernel map");
        let of_file = kernels.entry(file.to_string()).or_default();
        if let Some(program) = program {
            of_file.insert(name.clone(), self.declare_kernel(&program, name, args)?);
        }
        let k = of_file.get_mut(name).ok_or_else(|| Error::internal(format!("no kernel object {file}/{name}")))?;
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            match a {
                Arg::Buf(buf) => values.push(ArgVal::mem(buf.as_core())),
                Arg::Vec(parts) => values.extend(parts.iter().map(|part| ArgVal::mem(part.as_core()))),
                Arg::U64(v) => values.push(ArgVal::scalar(v)),
                Arg::U32(v) => values.push(ArgVal::scalar(v)),
            }
        }
        for (i, v) in values.into_iter().enumerate() {
            // SAFETY: every argument was checked above against the type the kernel declares, and
            // every launch sets all of them before it enqueues.  The enqueued command captures
            // the values (OpenCL 1.2, clEnqueueNDRangeKernel) and the driver keeps its buffers
            // alive until it completes; the kernel object holds no reference to them after.
            unsafe { k.set_arg_unchecked(i as u32, v) }.or_device(|| format!("cannot set argument {i} of kernel {name}"))?;
        }
        if self.session.faults.hit(Fault::Enqueue) {
            return Err(Faults::error(Fault::Enqueue, &format!("enqueue of {name}")));
        }
        let cmd = k.cmd().queue(queue).global_work_size(gws).local_work_size(lws.unwrap_or(SpatialDims::Unspecified));
        let mut recording = self.events.lock().expect("event list");
        let mut fork = self.fork_event.lock().expect("fork event");
        let armed = matches!(*fork, ForkEvent::Armed) && queue.as_core().as_ptr() == self.session.queue.as_core().as_ptr();
        let record = recording.as_ref().is_some_and(|r| r.what == Recording::Every || r.events.is_empty() || r.last);
        let mut kept = self.kept.lock().expect("kept events");
        if !record && !armed && kept.is_none() {
            // SAFETY: as above: the arguments match the kernel's declared types, and the buffers
            // outlive the enqueue (the queues are in order, and a plan joins its side queue back
            // into the session's before its last command).
            return unsafe { cmd.enq() }.or_device(|| format!("cannot enqueue {name}"));
        }
        let mut ev = ocl::Event::empty();
        // SAFETY: as above.
        unsafe { cmd.enew(&mut ev).enq() }.or_device(|| format!("cannot enqueue {name}"))?;
        if armed {
            *fork = ForkEvent::Saved(ev.clone());
        }
        if let Some(last) = kept.as_mut() {
            *last = Some(ev.clone());
        }
        if let Some(r) = recording.as_mut().filter(|_| record) {
            r.events.push(ev);
        }
        Ok(())
    }

    /// Kernel `name` of `program` with its arguments declared by type (null
    /// buffers, zero scalars): created once, every launch sets them all.
    fn declare_kernel(&self, program: &Program, name: &str, args: &[Arg]) -> Result<Kernel> {
        let mut b = Kernel::builder();
        b.program(program).name(name).queue(self.session.queue.clone());
        for a in args {
            match a {
                Arg::Buf(_) => b.arg(None::<&Buffer<u64>>),
                Arg::Vec(parts) => {
                    for _ in parts.iter() {
                        b.arg(None::<&Buffer<u64>>);
                    }
                    &mut b
                }
                Arg::U64(_) => b.arg(0u64),
                Arg::U32(_) => b.arg(0u32),
            };
        }
        b.build().or_device(|| format!("cannot set up kernel {name}"))
    }
}

/// A launch table of 2^`log_t` entries must hold every exponent of the
/// passes it serves, all below `end` in its units (R·p, shifted).
fn launch_table_holds(log_t: u32, end: u64, passes: impl FnOnce() -> String) -> Result<()> {
    if end > 1u64.checked_shl(log_t).unwrap_or(0) {
        return Err(Error::internal(format!("a launch table of 2^{log_t} entries does not hold the twiddles of {}", passes())));
    }
    Ok(())
}
