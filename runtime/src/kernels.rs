//! The generated kernels of one prime and radix, built on a session, with a
//! typed launcher per kernel (work sizes chosen as the manifest states).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use ocl::core::ArgVal;
use ocl::{Buffer, Kernel, Program, Queue, SpatialDims};
use srgfn_gen::emit::{self, fused, EmittedFile, KernelOptions, KernelSet, KernelSig, MulForm, ParamType, TwiddleTable, Variant};
use srgfn_gen::plan::{Launch, PlanShape};
use srgfn_gen::rules::Radix;
use srgfn_gen::Prime;

use crate::error::{DeviceContext as _, Error, Result};
use crate::faults::{Fault, Faults};
use crate::session::Session;
use crate::staging::Stage;

mod auxiliary;
mod passes;
mod queues;
mod specs;
mod transfer;

pub use passes::PassPart;
use queues::ForkEvent;
use specs::{LaunchSpec, SpecKey};

/// The operations of a plan whose auxiliary programs [`FieldKernels::prepare`]
/// builds beside its passes.  A forward transform needs neither the
/// inverse's scaling (`inverse.cl`) nor the products (`product.cl`), whose
/// file was the longest build of a cold start at k ≥ 16 (v46,
/// `docs/perf/h200-v46/cold2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operations {
    /// The forward transform: transposes, twiddle tables, binary transfers.
    Forward,
    /// Also the inverse's scaling and the element-wise products.
    All,
}

impl Operations {
    /// The auxiliary kernels these operations may run.
    fn aux_kernels(self) -> &'static [&'static str] {
        const ALL: [&str; 5] = ["transpose", "outer_product", "from_binary", "reverse_scale", "pointwise_mul"];
        match self {
            Operations::Forward => &ALL[..3],
            Operations::All => &ALL,
        }
    }
}

/// The files that hold auxiliary `kernels` ([`emit::aux_file`]).
fn aux_files(kernels: &[&str]) -> Result<Vec<String>> {
    kernels
        .iter()
        .map(|&kernel| emit::aux_file(kernel).map(str::to_string).ok_or_else(|| Error::internal(format!("no file holds kernel {kernel}"))))
        .collect()
}

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

/// One kernel argument, checked against the kernel's [`KernelSig`] before it is set.
enum Arg<'a> {
    Buf(&'a Buffer<u64>),
    /// A data vector's segments, for a kernel that takes segmented vectors.
    Vec(&'a [Buffer<u64>]),
    U64(u64),
    U32(u32),
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

/// `SRGFN_REGISTER_CAPS`: `1` (or `on`) gives every plan the register caps
/// of `emit::PTX_REGISTER_CAPS`, `0` (or `off`) none; unset or empty, each
/// plan its size's (`emit::plan_register_caps`).  For measurements, as
/// `SRGFN_PTX` is.  Any other value is an error ([`crate::Fft`] refuses it
/// when it is created).
pub(crate) fn register_caps_override() -> Result<Option<bool>> {
    parse_register_caps(&std::env::var("SRGFN_REGISTER_CAPS").unwrap_or_default())
}

fn parse_register_caps(value: &str) -> Result<Option<bool>> {
    match value.trim() {
        "" => Ok(None),
        "1" | "on" => Ok(Some(true)),
        "0" | "off" => Ok(Some(false)),
        other => Err(Error::option(format!("SRGFN_REGISTER_CAPS: '{other}' is neither 1 (on) nor 0 (off)"))),
    }
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

    /// Compiles (or loads) every program a plan's launches need, and those of
    /// `ops`' auxiliary kernels, so that later launches do not pay for
    /// compilation; `launch_tables[j]`: whether launch j reads a table of its
    /// own (`emit::launch_tables`).  The files build side by side
    /// ([`Self::build_files`]).
    pub fn prepare(&self, variant: Variant, shape: &PlanShape, launch_tables: &[bool], ops: Operations) -> Result<()> {
        let mut files: Vec<String> = Vec::new();
        for (j, launch) in shape.launches().into_iter().enumerate() {
            let table = if launch_tables.get(j) == Some(&true) { TwiddleTable::Launch } else { TwiddleTable::Plan };
            // the local variant's fused kernel has a file of its own; the table variant's pair
            // kernel is in its pass kernels' file
            let file = match launch {
                Launch::Fused(..) if variant == Variant::Local => format!("{}.cl", fused::name(&self.set.program, table)),
                _ => self.dft_file(variant, launch.first_pass().radix, table)?.0,
            };
            files.push(file);
        }
        files.extend(aux_files(ops.aux_kernels())?);
        self.build_files(&files)
    }

    /// Compiles (or loads) the files of auxiliary `kernels` (of
    /// [`emit::aux_file`]) side by side; nothing where they are built.  An
    /// operation calls it before it changes a vector, so that a failed build
    /// leaves the vector as it was.
    pub fn prepare_aux(&self, kernels: &[&str]) -> Result<()> {
        self.build_files(&aux_files(kernels)?)
    }

    /// Compiles (or loads) `files`, one thread each where more than one is
    /// not built yet, so that a cold start waits for about its longest file
    /// rather than for their sum (NVIDIA's OpenCL compiles programs side by
    /// side, each somewhat slower than alone: v46).  On failure, the error of
    /// the first failed file in `files`' order.
    fn build_files(&self, files: &[String]) -> Result<()> {
        let mut pending: Vec<&str> = Vec::new();
        {
            let built = self.programs.lock().expect("program map");
            for f in files {
                if !built.contains_key(f) && !pending.contains(&f.as_str()) {
                    pending.push(f);
                }
            }
        }
        if pending.len() < 2 {
            return pending.iter().try_for_each(|f| self.program(f).map(drop));
        }
        std::thread::scope(|s| {
            let builds: Vec<_> = pending.iter().map(|&f| (f, s.spawn(move || self.program(f)))).collect();
            builds.into_iter().try_for_each(|(f, b)| match b.join() {
                Ok(built) => built.map(drop),
                Err(_) => Err(Error::internal(format!("the thread building {f} panicked"))),
            })
        })
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

#[cfg(test)]
mod tests {
    /// SRGFN_REGISTER_CAPS takes 1/on, 0/off or nothing; anything else is a clear error.
    #[test]
    fn register_caps_values_parse_or_are_refused() {
        use super::parse_register_caps as parse;
        assert_eq!((parse("").unwrap(), parse("1").unwrap(), parse("on").unwrap()), (None, Some(true), Some(true)));
        assert_eq!((parse("0").unwrap(), parse(" off ").unwrap()), (Some(false), Some(false)));
        let e = parse("yes").unwrap_err().to_string();
        assert!(e.contains("SRGFN_REGISTER_CAPS") && e.contains("'yes'"), "{e}");
    }
}
