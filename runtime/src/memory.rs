//! Memory checks before allocating: what a job needs on the device and on the
//! host, against what there is, so that a size that does not fit is one clear
//! error ("N = 2^31 needs 192 GiB on the device (…) and 832 GiB of host memory
//! for the input and output (23 GiB free)") instead of an abort.
//!
//! Amounts are `u128` and saturate, so no size a caller can ask for overflows.

use std::path::Path;

use srgfn_gen::emit::{variants_for, Variant};
use srgfn_gen::Prime;

use crate::device::DeviceEntry;
use crate::error::{Error, Result};

/// Heap overhead of one small vector per element (`Vec` header and allocator
/// bookkeeping), as in `Vec<Digits>` and `Vec<BigUint>`.
const PER_VEC: u128 = 40;

/// Largest vector (N × batch elements) anything is planned for, 64 PiB: far
/// beyond any device, and small enough that every byte count of a plan (its
/// traffic over all passes included) fits 64 bits.
pub const MAX_VECTOR_BYTES: u128 = 1 << 56;

/// Below this, host checks are skipped: such amounts cannot be the problem,
/// and /proc/meminfo is not read on every small call.
const HOST_CHECK_FLOOR: u128 = 64 << 20;

/// Memory a job needs, in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Need {
    /// Every device buffer together.
    pub device: u128,
    /// The largest single device buffer.
    pub buffer: u128,
    /// Host memory (besides what the caller already holds).
    pub host: u128,
}

/// Memory there is, in bytes, as far as known (part of [`Error::OutOfMemory`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Available {
    /// The device's global memory.
    pub device: Option<u128>,
    /// The device's largest single allocation.
    pub buffer: Option<u128>,
    /// Free host memory ([`host_available`]).
    pub host: Option<u128>,
}

impl Available {
    /// What `device` reports (0 counts as unknown), and `host` bytes free on the host.
    pub fn of(device: Option<&DeviceEntry>, host: Option<u64>) -> Available {
        let known = |v: u64| (v > 0).then_some(v as u128);
        Available {
            device: device.and_then(|d| known(d.global_mem_bytes)),
            buffer: device.and_then(|d| known(d.max_alloc_bytes)),
            host: host.map(u128::from),
        }
    }
}

/// What did not fit: the data of an [`Error::OutOfMemory`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shortfall {
    /// What was needed.
    pub needed: Need,
    /// What there was, as far as known.
    pub available: Available,
    /// Every amount, in words: "N = 2^31 needs 264 GiB on the device (…)".
    pub message: String,
}

impl Shortfall {
    /// Whether the device (its memory or its largest buffer), not the host, is short.
    pub fn device_short(&self) -> bool {
        let (n, a) = (&self.needed, &self.available);
        a.device.is_some_and(|d| n.device > d) || a.buffer.is_some_and(|b| n.buffer > b)
    }
    /// The [`Error::OutOfMemory`] of this shortfall.
    pub(crate) fn into_error(self) -> Error {
        Error::OutOfMemory(Box::new(self))
    }
}

/// Bytes of `elements` elements of k 64-bit digits.
pub fn element_bytes(k: usize, elements: u128) -> u128 {
    elements.saturating_mul(8 * k as u128)
}

/// Device memory of a plan of N × batch elements holding `vectors` data
/// vectors: the vectors, the plan's scratch buffer, the twiddle table (N/K
/// entries when N > K, laid out for the variant: `Variant::table_words`) and
/// the constant 1/N.
pub fn plan_need(prime: &Prime, variant: Variant, n: u128, batch: u128, vectors: u128) -> Need {
    let k = prime.k();
    let buffer = element_bytes(k, n.saturating_mul(batch));
    let table = table_bytes(prime, variant, n);
    let device = buffer.saturating_mul(vectors + 1).saturating_add(table).saturating_add(element_bytes(k, 1));
    Need { device, buffer: buffer.max(table), host: 0 }
}

/// Bytes of a plan's twiddle table: N/K entries when N > K, else none.
pub(crate) fn table_bytes(prime: &Prime, variant: Variant, n: u128) -> u128 {
    let kk = prime.base_size() as u128;
    if n > kk {
        // whole entries of k words: the variant's words over one entry's
        let per_entry = variant.table_words(prime.k(), 1) / prime.k();
        element_bytes(prime.k(), n / kk).saturating_mul(per_entry as u128)
    } else {
        0
    }
}

/// The most segments (buffers) a data vector is split into: the passes take
/// every segment of two vectors as kernel arguments, 2·16 pointers at most.
pub const MAX_SEGMENTS: u32 = 16;

/// Segments of a vector of `elements` elements of k digits whose buffers must
/// each fit `largest` bytes (0: no limit known): 1 when it fits whole, else the
/// fewest (a power of two ≤ [`MAX_SEGMENTS`]) of a power of two of elements
/// each; None when no split fits.
pub fn vector_segments(k: usize, elements: u128, largest: u64) -> Option<u32> {
    let bytes = element_bytes(k, elements);
    if largest == 0 || bytes <= largest as u128 {
        return Some(1);
    }
    (1..=MAX_SEGMENTS.trailing_zeros()).map(|l| 1u32 << l).find(|&s| {
        let per = elements / s as u128;
        elements.is_multiple_of(s as u128) && per.is_power_of_two() && element_bytes(k, per) <= largest as u128
    })
}

/// [`plan_need`] with the data vectors split as [`vector_segments`] does for a
/// device whose largest buffer is `largest` bytes: the need (its `buffer` the
/// largest segment or the table) and the segments per vector (1 when no split
/// fits: the need then names the whole vector, and the check refuses it).
pub fn plan_need_split(prime: &Prime, variant: Variant, n: u128, batch: u128, vectors: u128, largest: u64) -> (Need, u32) {
    let mut need = plan_need(prime, variant, n, batch, vectors);
    let elements = n.saturating_mul(batch);
    let segments = vector_segments(prime.k(), elements, largest).unwrap_or(1);
    if segments > 1 {
        need.buffer = element_bytes(prime.k(), elements / segments as u128).max(table_bytes(prime, variant, n));
    }
    (need, segments)
}

/// Host bytes per element that `srgfn fft` holds at its peak: the input and
/// the output as digit vectors, one flat copy of the words for a transfer,
/// and the encoded output (decimal text, the larger format: ⌈bits·log10 2⌉
/// digits and a newline).
pub fn transform_host_bytes_per_element(prime: &Prime) -> u128 {
    let words = 8 * prime.k() as u128;
    let text = prime.bits() as u128 * 30103 / 100000 + 2;
    2 * (words + PER_VEC) + words + text
}

/// Free host memory: `MemAvailable` of /proc/meminfo, bounded by the cgroup
/// v2 limit when one is set (Linux); else the free physical pages (other
/// unix systems); else unknown.
pub fn host_available() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
        let kib = meminfo.lines().find_map(|l| l.strip_prefix("MemAvailable:"))?.trim().trim_end_matches("kB").trim();
        let available = kib.parse::<u64>().ok()?.saturating_mul(1024);
        Some(available.min(cgroup_headroom().unwrap_or(u64::MAX)))
    }
    #[cfg(all(unix, not(target_os = "linux")))]
    {
        // SAFETY: sysconf has no preconditions; a negative result means unknown.
        let (pages, size) = unsafe { (libc::sysconf(libc::_SC_AVPHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
        (pages > 0 && size > 0).then(|| pages as u64 * size as u64)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// memory.max − memory.current of this process's cgroup (v2), when limited.
#[cfg(target_os = "linux")]
fn cgroup_headroom() -> Option<u64> {
    let read = |name: &str| std::fs::read_to_string(Path::new("/sys/fs/cgroup").join(name)).ok();
    let max = read("memory.max")?.trim().parse::<u64>().ok()?;
    let current = read("memory.current")?.trim().parse::<u64>().ok()?;
    Some(max.saturating_sub(current))
}

/// "512 MiB", "1.5 GiB", "139.8 GiB", "64 TiB"; from 1024 EiB on "2^75 bytes",
/// and "over 2^128 bytes" for a saturated amount.
pub fn human(bytes: u128) -> String {
    const UNITS: [&str; 7] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    if bytes == u128::MAX {
        return "over 2^128 bytes".into();
    }
    if bytes >= 1 << 70 {
        return format!("2^{:.0} bytes", (bytes as f64).log2());
    }
    let mut v = bytes as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else if (v - v.round()).abs() < 0.05 {
        format!("{v:.0} {}", UNITS[unit])
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}

/// Checks `need` before anything is allocated: against the device's global
/// memory and largest buffer, and against free host memory (for a CPU device,
/// whose buffers are host memory too, the device part counts on the host as
/// well).  The [`Error::OutOfMemory`] names `subject`, every amount needed and
/// every amount there is; `host_what` says what the host memory is for (may
/// be empty).  A buffer of [`MAX_VECTOR_BYTES`] or more, or a total beyond
/// the address space, is refused whatever the limits known.
pub fn check(subject: &str, need: Need, device: Option<&DeviceEntry>, host_what: &str) -> Result<()> {
    let cpu = device.is_some_and(DeviceEntry::is_cpu);
    let on_host = if cpu { need.host.saturating_add(need.device) } else { need.host };
    let free = if on_host > HOST_CHECK_FLOOR { host_available() } else { None };
    let device_short = device.is_some_and(|d| {
        (d.global_mem_bytes > 0 && need.device > d.global_mem_bytes as u128)
            || (d.max_alloc_bytes > 0 && need.buffer > d.max_alloc_bytes as u128)
    });
    let host_short = free.is_some_and(|f| on_host > f as u128);
    // whatever the limits known, every buffer must be addressable
    let unaddressable = need.buffer >= MAX_VECTOR_BYTES || need.device.max(need.host) > isize::MAX as u128;
    if !(device_short || host_short || unaddressable) {
        return Ok(());
    }
    let free = free.or_else(host_available);
    let mut parts = Vec::new();
    if need.device > 0 {
        let has = device.map_or(String::new(), |d| {
            format!("; {} has {}, largest buffer {}", d.name.trim(), human(d.global_mem_bytes as u128), human(d.max_alloc_bytes as u128))
        });
        parts.push(format!("{} on the device (largest buffer {}{has})", human(need.device), human(need.buffer)));
    }
    if on_host > 0 {
        let free = free.map_or("free memory unknown".to_string(), |f| format!("{} free", human(f as u128)));
        let shared = if cpu && need.device > 0 { ", the device's buffers included" } else { "" };
        let purpose = if host_what.is_empty() { String::new() } else { format!(" for {host_what}") };
        parts.push(format!("{} of host memory{purpose}{shared} ({free})", human(on_host)));
    }
    Err(Shortfall { needed: need, available: Available::of(device, free), message: format!("{subject} needs {}", parts.join(" and ")) }
        .into_error())
}

/// Refuses `bytes` of host memory for `what` when more than is free.
pub fn check_host(what: &str, bytes: u128) -> Result<()> {
    check(what, Need { host: bytes, ..Need::default() }, None, "")
}

/// Checks, before generating or reading anything, that a transform of
/// N = 2^log_n elements fits the device (when known) and the host: the device
/// holds a plan of the prime's default variant and one vector, the host
/// `srgfn fft`'s input and output (the plan checks its own variant's need
/// again before it allocates).
pub fn check_transform(prime: &Prime, log_n: u32, device: Option<&DeviceEntry>) -> Result<()> {
    check_transform_of(&format!("N = 2^{log_n}"), prime, log_n, device)
}

/// [`check_transform`] with the subject the error names.
fn check_transform_of(subject: &str, prime: &Prime, log_n: u32, device: Option<&DeviceEntry>) -> Result<()> {
    let n = 1u128.checked_shl(log_n).unwrap_or(u128::MAX);
    let largest = device.map_or(0, |d| d.max_alloc_bytes);
    let need = Need {
        host: n.saturating_mul(transform_host_bytes_per_element(prime)),
        ..plan_need_split(prime, variants_for(prime)[0], n, 1, 1, largest).0
    };
    check(subject, need, device, "the input and output")
}

/// Checks an input file before reading it.  A binary file holds exactly
/// length / 8k elements.  A text file is first sized from its length (about
/// length / L elements, L the longest line of a canonical element: its
/// decimal digits and a newline), which refuses a huge file without reading
/// it; then its lines that hold something besides blanks and a `#` comment
/// are counted (at most one element each, the reader's rule), which bounds
/// what reading it holds whatever its values.  The transform of the next
/// power of two must fit as in [`check_transform`].
pub fn check_input_file(path: &Path, prime: &Prime, binary: bool, device: Option<&DeviceEntry>) -> Result<()> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(format!("cannot open {}", path.display()), e))?;
    if !meta.is_file() {
        return Ok(()); // a folder or a device: the reader says what it is
    }
    let len = meta.len() as u128;
    let fits = |count: u128, sized: String| -> Result<()> {
        if count < 2 {
            return Ok(()); // the reader gives the precise error, if any
        }
        let log_n = count.next_power_of_two().trailing_zeros();
        check_transform_of(&format!("{} ({sized}): N = 2^{log_n}", path.display()), prime, log_n, device)
    };
    if binary {
        let count = len / (8 * prime.k() as u128);
        return fits(count, format!("{len} bytes: {count} elements"));
    }
    let line = prime.bits() as u128 * 30103 / 100000 + 2;
    fits(len / line, format!("{len} bytes: about {} elements of {line} bytes a line", len / line))?;
    let lines = crate::io::count_element_lines(path)?;
    fits(lines, format!("{lines} lines holding an element each"))
}
