//! An OpenCL context and profiling queue on one device, and program builds
//! that report the build log and where the failing source was written.

use std::collections::HashMap;
use std::ffi::CString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use anyhow::{anyhow, Context as _, Result};
use ocl::core::{ProgramBuildInfo, ProgramBuildInfoResult};
use ocl::flags::CommandQueueProperties;
use ocl::{Context, Program, Queue};

use crate::cache::ProgramCache;
use crate::device::{select_device, DeviceEntry};
use crate::faults::{Fault, Faults};

/// Compiler options for every srgfn program.
pub const BUILD_OPTIONS: &str = "-cl-std=CL1.2";

/// The options programs are built with: [`BUILD_OPTIONS`], then
/// `SRGFN_CL_OPTIONS` (for experiments, e.g. `-cl-nv-maxrregcount=96` on
/// NVIDIA); part of every cache key.
pub fn build_options() -> String {
    match std::env::var("SRGFN_CL_OPTIONS") {
        Ok(extra) if !extra.trim().is_empty() => format!("{BUILD_OPTIONS} {}", extra.trim()),
        _ => BUILD_OPTIONS.to_string(),
    }
}

/// A device with its context, an in-order profiling-enabled queue, and the
/// program caches (in memory, and on disk unless disabled).
#[derive(Clone, Debug)]
pub struct Session {
    pub device: DeviceEntry,
    pub context: Context,
    pub queue: Queue,
    pub cache: ProgramCache,
    /// Test hook (cargo feature `faults`): faults to inject into this
    /// session's builds, allocations, enqueues and reads.
    #[cfg(feature = "faults")]
    pub faults: Arc<Faults>,
    /// Without the feature the hook never fires.
    #[cfg(not(feature = "faults"))]
    pub(crate) faults: Arc<Faults>,
    built: Arc<Mutex<Built>>,
    /// Unique per context in the process (clones share it).
    id: u64,
}

/// Programs by cache key, with their build logs when built in the session.
type Built = HashMap<String, (Program, Option<String>)>;

/// Ids of sessions, unique in the process.
static NEXT_SESSION_ID: AtomicU64 = AtomicU64::new(1);

impl Session {
    /// Opens the selected device (see [`select_device`]) with the default
    /// on-disk cache (`SRGFN_CACHE_DIR` or the per-user cache folder).
    pub fn open(spec: Option<&str>) -> Result<Session> {
        Self::on(select_device(spec)?, ProgramCache::from_env()?)
    }

    pub fn on(device: DeviceEntry, cache: ProgramCache) -> Result<Session> {
        let context = Context::builder()
            .platform(device.ocl_platform)
            .devices(device.ocl_device)
            .build()
            .with_context(|| format!("cannot create an OpenCL context on {}", device.describe()))?;
        let queue = Queue::new(&context, device.ocl_device, Some(CommandQueueProperties::PROFILING_ENABLE))
            .with_context(|| format!("cannot create a command queue on {}", device.describe()))?;
        let id = NEXT_SESSION_ID.fetch_add(1, Ordering::Relaxed);
        Ok(Session { device, context, queue, cache, faults: Arc::default(), built: Arc::default(), id })
    }

    /// This session's id: one per OpenCL context, shared by clones.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Builds `source` once per session: from memory, else from a verified
    /// on-disk binary, else from source (and stores the binary).  A cached
    /// binary that fails to load is rebuilt from source.
    pub fn program(&self, name: &str, source: &str) -> Result<Program> {
        Ok(self.program_with_log(name, source)?.0)
    }

    /// Like [`Self::program`], with the build log (warnings, if any) when the
    /// program was built from source in this session, `None` when it was
    /// loaded from the on-disk cache.  Binaries are stored only where
    /// [`ProgramCache::stores_binaries_of`] says so (not on PoCL by default).
    pub fn program_with_log(&self, name: &str, source: &str) -> Result<(Program, Option<String>)> {
        let key = ProgramCache::key(&self.device, &build_options(), source);
        if let Some(entry) = self.built.lock().expect("program map").get(&key) {
            return Ok(entry.clone());
        }
        let binaries = self.cache.stores_binaries_of(&self.device);
        let entry = match self.cache.load(&key).filter(|_| binaries).and_then(|bin| self.load_binary(&bin).ok()) {
            Some(p) => (p, None),
            None => {
                let (p, log) = self.build(name, source)?;
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

    fn load_binary(&self, bin: &[u8]) -> Result<Program> {
        let dev = self.device.ocl_device;
        let core = ocl::core::create_program_with_binary(self.context.as_core(), &[*dev.as_core()], &[bin])?;
        let opts = CString::new(build_options()).map_err(|_| anyhow!("SRGFN_CL_OPTIONS contains a NUL byte"))?;
        ocl::core::build_program(&core, Some(&[dev.as_core()]), &opts, None, None)?;
        Ok(Program::from(core))
    }

    /// Builds `source`; on failure the error holds the device's build log and
    /// the path where the source was kept.  Returns the program and the log
    /// of a successful build (warnings, if any).
    pub fn build(&self, name: &str, source: &str) -> Result<(Program, String)> {
        if self.faults.hit(Fault::Build) {
            let path = keep_failed_source(name, source);
            return Err(anyhow!(
                "OpenCL build of {name} failed on {}; source kept at {}; build log:\n(injected fault: Build)",
                self.device.describe(),
                path.display()
            ));
        }
        let dev = self.device.ocl_device;
        let src = CString::new(source).map_err(|_| anyhow!("kernel source {name} contains a NUL byte"))?;
        let opts = CString::new(build_options()).map_err(|_| anyhow!("SRGFN_CL_OPTIONS contains a NUL byte"))?;
        let core = ocl::core::create_program_with_source(self.context.as_core(), &[src])
            .with_context(|| format!("cannot create program {name}"))?;
        let built = ocl::core::build_program(&core, Some(&[dev.as_core()]), &opts, None, None);
        let log = match ocl::core::get_program_build_info(&core, dev.as_core(), ProgramBuildInfo::BuildLog) {
            Ok(ProgramBuildInfoResult::BuildLog(l)) => l.trim().to_string(),
            _ => String::new(),
        };
        if let Err(e) = built {
            let path = keep_failed_source(name, source);
            let log = if log.is_empty() { e.to_string() } else { log };
            return Err(anyhow!(
                "OpenCL build of {name} failed on {}; source kept at {}; build log:\n{log}",
                self.device.describe(),
                path.display()
            ));
        }
        Ok((Program::from(core), log))
    }
}

/// Writes a source that failed to build where a person can read it.
fn keep_failed_source(name: &str, source: &str) -> PathBuf {
    let dir = std::env::temp_dir().join("srgfn-failed-builds");
    let path = dir.join(format!("{name}.cl"));
    if std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&path, source)).is_err() {
        return PathBuf::from("(could not be written)");
    }
    path
}
