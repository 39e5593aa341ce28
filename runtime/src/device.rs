//! OpenCL platforms and devices: listing and selection.
//!
//! Selection never assumes platform 0: by default the first GPU of any
//! platform, else the first CPU device (PoCL, the embedded default), else the
//! first device.  `--device INDEX|SUBSTRING` or `SRGFN_DEVICE` override it.

use anyhow::{anyhow, bail, Context as _, Result};
use ocl::enums::{DeviceInfo, DeviceInfoResult, PlatformInfo};
use ocl::flags::DeviceType;
use ocl::{Device, Platform};
use serde::Serialize;

/// How to install an OpenCL implementation when none is found.
pub const INSTALL_HINT: &str =
    "install an OpenCL implementation, e.g. PoCL on the CPU: apt-get install -y pocl-opencl-icd ocl-icd-opencl-dev";

/// One device of one platform, with what `srgfn devices` prints.
#[derive(Clone, Debug, Serialize)]
pub struct DeviceEntry {
    pub index: usize,
    pub platform: String,
    pub name: String,
    pub vendor: String,
    pub driver_version: String,
    pub kind: String,
    pub global_mem_bytes: u64,
    pub local_mem_bytes: u64,
    pub max_alloc_bytes: u64,
    pub compute_units: u32,
    pub max_work_group_size: usize,
    #[serde(skip)]
    pub ocl_platform: Platform,
    #[serde(skip)]
    pub ocl_device: Device,
}

impl DeviceEntry {
    pub fn is_gpu(&self) -> bool {
        self.kind == "GPU"
    }
    /// NVIDIA's OpenCL platform, whose compiler accepts inline PTX.
    pub fn is_nvidia(&self) -> bool {
        self.platform.contains("NVIDIA")
    }
    /// A device of PoCL (Portable Computing Language), the CPU implementation.
    pub fn is_pocl(&self) -> bool {
        self.platform.contains("Portable Computing Language")
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
pub fn list_devices() -> Result<Vec<DeviceEntry>> {
    static DEVICES: std::sync::OnceLock<std::result::Result<Vec<DeviceEntry>, String>> = std::sync::OnceLock::new();
    DEVICES.get_or_init(|| discover().map_err(|e| format!("{e:#}"))).clone().map_err(|e| anyhow!(e))
}

fn discover() -> Result<Vec<DeviceEntry>> {
    let platforms = ocl::core::get_platform_ids()
        .map_err(|e| anyhow!("no OpenCL platform found ({e}); {INSTALL_HINT}"))?;
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
        bail!("no OpenCL device found; {INSTALL_HINT}");
    }
    Ok(out)
}

/// Picks a device: `spec` (or `SRGFN_DEVICE`) as an index or a name substring,
/// else the first GPU, else the first CPU device, else the first device.
pub fn select_device(spec: Option<&str>) -> Result<DeviceEntry> {
    let devices = list_devices()?;
    let env = std::env::var("SRGFN_DEVICE").ok().filter(|s| !s.trim().is_empty());
    let spec = spec.map(str::to_string).or(env);
    if let Some(spec) = spec {
        let spec = spec.trim();
        if let Ok(i) = spec.parse::<usize>() {
            return devices
                .get(i)
                .cloned()
                .with_context(|| format!("device index {i} does not exist: there are {} devices (see `srgfn devices`)", devices.len()));
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
            .with_context(|| format!("no device matches '{spec}' (see `srgfn devices`)"));
    }
    let pick = devices
        .iter()
        .find(|d| d.is_gpu())
        .or_else(|| devices.iter().find(|d| d.kind == "CPU"))
        .unwrap_or(&devices[0]);
    Ok(pick.clone())
}
