//! OpenCL platforms and devices: listing and selection.
//!
//! Selection never assumes platform 0: by default the first GPU of any
//! platform, else the first CPU device (PoCL, the embedded default), else the
//! first device.  `--device INDEX|SUBSTRING` or `SRGFN_DEVICE` override it.

use ocl::enums::{DeviceInfo, DeviceInfoResult, PlatformInfo};
use ocl::flags::DeviceType;
use ocl::{Device, Platform};
use serde::Serialize;

use crate::error::{Error, Result};

/// One device of one platform, as [`list_devices`] found it (what `srgfn
/// devices` prints).  Made only by discovery; its description fields are
/// public data (the memory checks read them).
#[derive(Clone, Debug, Serialize)]
pub struct DeviceEntry {
    /// Position in [`list_devices`], counted across platforms.
    pub index: usize,
    /// The platform's name, e.g. "NVIDIA CUDA" or "Portable Computing Language".
    pub platform: String,
    /// The device's name.
    pub name: String,
    /// The device's vendor.
    pub vendor: String,
    /// The driver's version (part of every program cache key).
    pub driver_version: String,
    /// "GPU", "CPU", "accelerator" or "other".
    pub kind: String,
    /// Global memory in bytes (0 when the driver does not say).
    pub global_mem_bytes: u64,
    /// Local (work-group) memory in bytes.
    pub local_mem_bytes: u64,
    /// Largest single buffer in bytes (0 when the driver does not say).
    pub max_alloc_bytes: u64,
    /// Compute units.
    pub compute_units: u32,
    /// Largest work-group size.
    pub max_work_group_size: usize,
    #[serde(skip)]
    pub(crate) ocl_platform: Platform,
    #[serde(skip)]
    pub(crate) ocl_device: Device,
}

impl DeviceEntry {
    /// A GPU (the default device when there is one).
    pub fn is_gpu(&self) -> bool {
        self.kind == "GPU"
    }
    /// A CPU device, whose buffers are host memory.
    pub fn is_cpu(&self) -> bool {
        self.kind == "CPU"
    }
    /// NVIDIA's OpenCL platform, whose compiler accepts inline PTX.
    pub fn is_nvidia(&self) -> bool {
        self.platform.contains("NVIDIA")
    }
    /// A device of PoCL (Portable Computing Language), the CPU implementation.
    pub fn is_pocl(&self) -> bool {
        self.platform.contains("Portable Computing Language")
    }
    /// Whether the device runs double precision (`cl_khr_fp64`).
    pub fn has_fp64(&self) -> bool {
        self.ocl_device.info(DeviceInfo::Extensions).map(|e| e.to_string().contains("cl_khr_fp64")).unwrap_or(false)
    }
    /// "NVIDIA H100 (NVIDIA CUDA, driver 580.1)".
    pub fn describe(&self) -> String {
        format!("{} ({}, driver {})", self.name.trim(), self.platform.trim(), self.driver_version.trim())
    }
}

fn info_u64(d: &Device, what: DeviceInfo) -> u64 {
    match d.info(what) {
        Ok(DeviceInfoResult::GlobalMemSize(v)) | Ok(DeviceInfoResult::LocalMemSize(v)) | Ok(DeviceInfoResult::MaxMemAllocSize(v)) => v,
        Ok(DeviceInfoResult::MaxComputeUnits(v)) => v as u64,
        Ok(DeviceInfoResult::MaxWorkGroupSize(v)) => v as u64,
        _ => 0,
    }
}

/// Every device of every platform, numbered across platforms.  Discovery runs
/// once per process (some drivers misbehave when it runs on several threads).
/// [`Error::NoDevice`] when there is no platform or no device.
pub fn list_devices() -> Result<Vec<DeviceEntry>> {
    static DEVICES: std::sync::OnceLock<std::result::Result<Vec<DeviceEntry>, String>> = std::sync::OnceLock::new();
    DEVICES.get_or_init(discover).clone().map_err(|reason| Error::NoDevice { reason })
}

/// The devices, or why there are none.
fn discover() -> std::result::Result<Vec<DeviceEntry>, String> {
    if !any_platform() {
        return Err("no OpenCL platform found (the OpenCL loader lists none)".into());
    }
    let platforms = ocl::core::get_platform_ids().map_err(|e| format!("no OpenCL platform found ({e})"))?;
    let mut out = Vec::new();
    for pid in platforms {
        let platform = Platform::new(pid);
        let pname = match platform.info(PlatformInfo::Name) {
            Ok(n) => n.to_string(),
            Err(_) => continue,
        };
        let devices = match Device::list_all(platform) {
            Ok(d) => d,
            Err(_) => continue, // a platform with no usable device
        };
        for d in devices {
            let kind = match d.info(DeviceInfo::Type) {
                Ok(DeviceInfoResult::Type(t)) if t.contains(DeviceType::GPU) => "GPU",
                Ok(DeviceInfoResult::Type(t)) if t.contains(DeviceType::CPU) => "CPU",
                Ok(DeviceInfoResult::Type(t)) if t.contains(DeviceType::ACCELERATOR) => "accelerator",
                _ => "other",
            };
            out.push(DeviceEntry {
                index: out.len(),
                platform: pname.clone(),
                name: d.name().unwrap_or_default(),
                vendor: d.vendor().unwrap_or_default(),
                driver_version: d.info(DeviceInfo::DriverVersion).map(|v| v.to_string()).unwrap_or_default(),
                kind: kind.into(),
                global_mem_bytes: info_u64(&d, DeviceInfo::GlobalMemSize),
                local_mem_bytes: info_u64(&d, DeviceInfo::LocalMemSize),
                max_alloc_bytes: info_u64(&d, DeviceInfo::MaxMemAllocSize),
                compute_units: info_u64(&d, DeviceInfo::MaxComputeUnits) as u32,
                max_work_group_size: d.max_wg_size().unwrap_or(1),
                ocl_platform: platform,
                ocl_device: d,
            });
        }
    }
    if out.is_empty() {
        return Err("no OpenCL device found".into());
    }
    Ok(out)
}

/// Whether the OpenCL loader lists a platform, asked a few times over 0.2 s.
/// `ocl::core::get_platform_ids` waits 10 s for platforms to appear (against
/// loaders that answer "none" to threads asking at once); discovery asks once
/// per process, so a machine without OpenCL hears so at once.
fn any_platform() -> bool {
    const CL_PLATFORM_NOT_FOUND_KHR: i32 = -1001;
    for attempt in 0..4 {
        let mut count = 0;
        // SAFETY: a count query: no list is written, `count` outlives the call.
        let status = unsafe { ocl::core::ffi::clGetPlatformIDs(0, std::ptr::null_mut(), &mut count) };
        if status != CL_PLATFORM_NOT_FOUND_KHR {
            return status != 0 || count > 0; // other errors: let ocl report them
        }
        if attempt < 3 {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
    false
}

/// Picks a device: `spec` (or `SRGFN_DEVICE`) as an index or a name substring,
/// else the first GPU, else the first CPU device, else the first device.
/// [`Error::InvalidOption`] when `spec` matches no device.
pub fn select_device(spec: Option<&str>) -> Result<DeviceEntry> {
    let devices = list_devices()?;
    let env = std::env::var("SRGFN_DEVICE").ok().filter(|s| !s.trim().is_empty());
    let spec = spec.map(str::to_string).or(env);
    if let Some(spec) = spec {
        let spec = spec.trim();
        if let Ok(i) = spec.parse::<usize>() {
            return devices.get(i).cloned().ok_or_else(|| {
                Error::option(format!("device index {i} does not exist: there are {} devices (see `srgfn devices`)", devices.len()))
            });
        }
        let needle = spec.to_lowercase();
        return devices
            .iter()
            .find(|d| {
                d.name.to_lowercase().contains(&needle)
                    || d.platform.to_lowercase().contains(&needle)
                    || d.vendor.to_lowercase().contains(&needle)
            })
            .cloned()
            .ok_or_else(|| Error::option(format!("no device matches '{spec}' (see `srgfn devices`)")));
    }
    let pick = devices.iter().find(|d| d.is_gpu()).or_else(|| devices.iter().find(|d| d.is_cpu())).unwrap_or(&devices[0]);
    Ok(pick.clone())
}
