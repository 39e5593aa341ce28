//! An OpenCL context and profiling queue on one device, and program builds
//! that report the build log and where the failing source was written.

use std::collections::HashMap;
use std::ffi::CString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use ocl::core::{ProgramBuildInfo, ProgramBuildInfoResult};
use ocl::flags::CommandQueueProperties;
use ocl::{Context, Program, Queue};
use srgfn_gen::emit::RegisterCap;

use crate::cache::ProgramCache;
use crate::device::{select_device, DeviceEntry};
use crate::error::{DeviceContext as _, Error, Result};
use crate::faults::{Fault, Faults};
use crate::wisdom::Wisdom;

/// Compiler options for every srgfn program.
const BUILD_OPTIONS: &str = "-cl-std=CL1.2";

/// The options programs are built with: [`BUILD_OPTIONS`], then
/// `SRGFN_CL_OPTIONS` (for experiments; NVIDIA's driver 580 ignores
/// `-cl-nv-maxrregcount=N`, docs/performance.md); part of every cache key.
fn build_options() -> String {
    match std::env::var("SRGFN_CL_OPTIONS") {
        Ok(extra) if !extra.trim().is_empty() => format!("{BUILD_OPTIONS} {}", extra.trim()),
        _ => BUILD_OPTIONS.to_string(),
    }
}

/// [`build_options`] as the C string OpenCL takes.
fn build_options_c() -> Result<CString> {
    CString::new(build_options()).map_err(|_| Error::option("SRGFN_CL_OPTIONS contains a NUL byte"))
}

/// One device opened for work: its OpenCL context, two in-order
/// profiling-enabled queues (the second for plans run in halves), and the program caches (in memory, and on disk
/// unless disabled).  Cheap to clone: clones share the context, the queue and
/// the programs built, and have the same [`Session::id`].
#[derive(Clone, Debug)]
pub struct Session {
    pub(crate) device: DeviceEntry,
    context: Context,
    pub(crate) queue: Queue,
    /// A second in-order queue on the same device: a plan's second halves
    /// (`srgfn_gen::plan::Halves`) run on it beside the first, so that each
    /// launch's last wave overlaps the other half's work.
    pub(crate) side_queue: Queue,
    cache: ProgramCache,
    /// Faults to inject into this session's builds, allocations, enqueues and
    /// reads (cargo feature `faults`; without it the hook never fires).
    pub(crate) faults: Arc<Faults>,
    built: Arc<Mutex<Built>>,
    /// Measured plan choices for this device ([`Wisdom::for_cache`], or [`Session::with_wisdom`]).
    wisdom: Arc<Wisdom>,
    /// Unique per context in the process (clones share it).
    id: u64,
}

/// Programs by cache key, with their build logs when built in the session.
type Built = HashMap<String, (Program, Option<String>)>;

/// Ids of sessions, unique in the process.
static NEXT_SESSION_ID: AtomicU64 = AtomicU64::new(1);

impl Session {
    /// Opens the selected device (see [`select_device`]: `spec`, else
    /// `SRGFN_DEVICE`, else the first GPU, else PoCL) with the default on-disk
    /// cache (`SRGFN_CACHE_DIR` or the per-user cache folder).
    /// [`Error::NoDevice`] when OpenCL has no device at all.
    pub fn open(spec: Option<&str>) -> Result<Session> {
        Self::on(select_device(spec)?, ProgramCache::from_env()?)
    }

    /// Opens `device` (from [`crate::list_devices`]) with a new OpenCL
    /// context, caching program binaries in `cache`, with the wisdom of
    /// [`Wisdom::for_cache`] (`SRGFN_WISDOM`, else `wisdom.txt` in the cache
    /// folder; a malformed file is an [`Error::InvalidInput`] naming its line).
    /// Each call makes a new context: device vectors do not cross sessions made this way.
    pub fn on(device: DeviceEntry, cache: ProgramCache) -> Result<Session> {
        let wisdom = Wisdom::for_cache(&cache)?;
        Self::on_with_wisdom(device, cache, wisdom)
    }

    /// [`Session::on`] with `wisdom` instead of the cache folder's.
    pub fn on_with_wisdom(device: DeviceEntry, cache: ProgramCache, wisdom: Wisdom) -> Result<Session> {
        let wisdom = Arc::new(wisdom);
        let context = Context::builder()
            .platform(device.ocl_platform)
            .devices(device.ocl_device)
            .build()
            .or_device(|| format!("cannot create an OpenCL context on {}", device.describe()))?;
        let queue = Queue::new(&context, device.ocl_device, Some(CommandQueueProperties::PROFILING_ENABLE))
            .or_device(|| format!("cannot create a command queue on {}", device.describe()))?;
        let side_queue = Queue::new(&context, device.ocl_device, Some(CommandQueueProperties::PROFILING_ENABLE))
            .or_device(|| format!("cannot create a second command queue on {}", device.describe()))?;
        let id = NEXT_SESSION_ID.fetch_add(1, Ordering::Relaxed);
        Ok(Session { device, context, queue, side_queue, cache, faults: Arc::default(), built: Arc::default(), wisdom, id })
    }

    /// The same session with `wisdom` instead of the one it was opened with
    /// (for plans made from it afterwards; [`Wisdom::empty`] for the built-in defaults).
    pub fn with_wisdom(mut self, wisdom: Wisdom) -> Session {
        self.wisdom = Arc::new(wisdom);
        self
    }

    /// The measured plan choices plans of this session take ([`crate::Wisdom`]).
    pub fn wisdom(&self) -> &Wisdom {
        &self.wisdom
    }

    /// This session's id: one per OpenCL context, shared by clones.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The device this session runs on.
    pub fn device(&self) -> &DeviceEntry {
        &self.device
    }

    /// The on-disk program cache this session uses.
    pub fn cache(&self) -> &ProgramCache {
        &self.cache
    }

    /// The fault-injection hook of this session (tests only: cargo feature
    /// `faults`).  Armed faults are shared by the session's clones.
    #[cfg(feature = "faults")]
    pub fn faults(&self) -> &Faults {
        &self.faults
    }

    /// Builds `source` once per session: from memory, else from a verified
    /// on-disk binary, else from source (and stores the binary).  A cached
    /// binary that fails to load is rebuilt from source.
    pub(crate) fn program(&self, name: &str, source: &str) -> Result<Program> {
        Ok(self.program_with_log(name, source)?.0)
    }

    /// Like [`Self::program`], with the build log (warnings, if any) when the
    /// program was built from source in this session, `None` when it was
    /// loaded from the on-disk cache.  Binaries are stored only where
    /// [`ProgramCache::stores_binaries_of`] says so (not on PoCL by default).
    pub(crate) fn program_with_log(&self, name: &str, source: &str) -> Result<(Program, Option<String>)> {
        self.capped_program(name, source, &[])
    }

    /// Like [`Self::program_with_log`], with register caps written into the
    /// built binary where it is PTX (NVIDIA; see [`srgfn_gen::emit::EmittedFile::ptx_register_caps`]).
    /// The caps must be named in `source` (the generator's first line does
    /// so): the cache key is the source's.  Caps that cannot be applied leave
    /// the program as built, and the build log says why.
    pub(crate) fn capped_program(&self, name: &str, source: &str, caps: &[RegisterCap]) -> Result<(Program, Option<String>)> {
        let key = ProgramCache::key(&self.device, &build_options(), source);
        if let Some(entry) = self.built.lock().expect("program map").get(&key) {
            return Ok(entry.clone());
        }
        let binaries = self.cache.stores_binaries_of(&self.device);
        let entry = match self.cache.load(&key).filter(|_| binaries).and_then(|bin| self.load_binary(&bin).ok()) {
            Some(p) => (p, None),
            None => {
                let t = std::time::Instant::now();
                let (p, log) = self.build(name, source)?;
                let (p, log) = if caps.is_empty() || !self.device.is_nvidia() { (p, log) } else { self.cap_registers(p, log, caps) };
                if std::env::var_os("SRGFN_TRACE").is_some() {
                    eprintln!("srgfn trace: built {name}: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
                }
                if binaries {
                    if let Ok(ocl::core::ProgramInfoResult::Binaries(bins)) =
                        ocl::core::get_program_info(p.as_core(), ocl::core::ProgramInfo::Binaries)
                    {
                        if let Some(bin) = bins.first().filter(|b| !b.is_empty()) {
                            self.cache.store(&key, bin);
                        }
                    }
                }
                (p, Some(log))
            }
        };
        self.built.lock().expect("program map").insert(key, entry.clone());
        Ok(entry)
    }

    /// `program` rebuilt from its PTX with `caps` written in; on any failure
    /// `program` itself, with the reason appended to its build log.
    fn cap_registers(&self, program: Program, log: String, caps: &[RegisterCap]) -> (Program, String) {
        let binary = match ocl::core::get_program_info(program.as_core(), ocl::core::ProgramInfo::Binaries) {
            Ok(ocl::core::ProgramInfoResult::Binaries(bins)) => bins.into_iter().next().unwrap_or_default(),
            _ => Vec::new(),
        };
        match crate::ptx::cap_registers(&binary, caps).and_then(|b| self.load_binary(&b).map_err(|e| e.to_string())) {
            Ok(capped) => (capped, log),
            Err(why) => {
                let note = format!("srgfn: register caps not applied ({why}); the program runs as the compiler built it");
                (program, if log.is_empty() { note } else { format!("{log}\n{note}") })
            }
        }
    }

    fn load_binary(&self, bin: &[u8]) -> Result<Program> {
        let dev = self.device.ocl_device;
        let core = ocl::core::create_program_with_binary(self.context.as_core(), &[*dev.as_core()], &[bin])
            .or_device(|| "cannot load a cached program binary".into())?;
        ocl::core::build_program(&core, Some(&[dev.as_core()]), &build_options_c()?, None, None)
            .or_device(|| "cannot build a cached program binary".into())?;
        Ok(Program::from(core))
    }

    /// The [`Error::Build`] of program `name`, keeping its source.
    fn build_error(&self, name: &str, source: &str, log: String) -> Error {
        Error::Build { program: name.to_string(), device: self.device.describe(), log, kept_source: keep_failed_source(name, source) }
    }

    /// Builds `source`; on failure the [`Error::Build`] holds the device's
    /// build log and the path where the source was kept.  Returns the program
    /// and the log of a successful build (warnings, if any).
    pub(crate) fn build(&self, name: &str, source: &str) -> Result<(Program, String)> {
        if self.faults.hit(Fault::Build) {
            return Err(self.build_error(name, source, "(injected fault: Build)".into()));
        }
        let dev = self.device.ocl_device;
        let Ok(src) = CString::new(source) else {
            return Err(self.build_error(name, source, "the source contains a NUL byte".into()));
        };
        let opts = build_options_c()?;
        let core =
            ocl::core::create_program_with_source(self.context.as_core(), &[src]).or_device(|| format!("cannot create program {name}"))?;
        let built = ocl::core::build_program(&core, Some(&[dev.as_core()]), &opts, None, None);
        let log = match ocl::core::get_program_build_info(&core, dev.as_core(), ProgramBuildInfo::BuildLog) {
            Ok(ProgramBuildInfoResult::BuildLog(l)) => l.trim().to_string(),
            _ => String::new(),
        };
        if let Err(e) = built {
            return Err(self.build_error(name, source, if log.is_empty() { e.to_string() } else { log }));
        }
        Ok((Program::from(core), log))
    }
}

/// Writes a source that failed to build where a person can read it; None
/// when it cannot be written.
fn keep_failed_source(name: &str, source: &str) -> Option<PathBuf> {
    let dir = std::env::temp_dir().join("srgfn-failed-builds");
    let path = dir.join(format!("{name}.cl"));
    std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&path, source)).ok().map(|_| path)
}
