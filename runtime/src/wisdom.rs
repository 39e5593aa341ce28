//! Measured plan choices ("wisdom", as FFTW calls them): for one device,
//! prime, radix, f_mul form and size, the variant and fusion that ran the
//! forward transform fastest when `srgfn tune` measured them all.
//!
//! The built-in per-size defaults (`emit::plan_variant`, `emit::fuse_default`)
//! were measured on an H200 and an H100; another card, driver or platform can
//! rank the variants otherwise (v33: on the H100 k = 8's local variant beats
//! the table default by up to 4% from 2^22).  A plan whose caller chose
//! neither variant nor fusion takes the session's wisdom for its size where
//! it has an entry, else the defaults.  Every variant computes the same
//! transform: wisdom changes speed, never results.
//!
//! The file is text, one entry per line, tab-separated `key=value` fields
//! (`#` starts a comment line):
//!
//! ```text
//! device=NVIDIA CUDA | NVIDIA H100 80GB HBM3 | 580.159.04  srgfn=0.1.0  prime=(2^63+2^34)^8+1  radix=4  mul=wide64  ptx=1  log_n=24  variant=local  fuse=off  ms=6.581  default_ms=6.850
//! ```
//!
//! Entries of another device, driver or srgfn version are kept in the file
//! and never used.  A malformed line is an [`Error::InvalidInput`] naming the
//! file and line.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use srgfn_gen::emit::{self, KernelOptions, MulForm, Variant};
use srgfn_gen::rules::Radix;
use srgfn_gen::Prime;

use crate::cache::ProgramCache;
use crate::device::DeviceEntry;
use crate::error::{Error, Result};

/// The wisdom file of a cache folder, used unless `SRGFN_WISDOM` names another.
pub const WISDOM_FILE: &str = "wisdom.txt";

/// What one entry is about: everything that decides which kernels a plan runs.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct WisdomKey {
    /// The device as [`device_key`] spells it (platform, name, driver).
    pub device: String,
    /// The srgfn version that measured it (the kernels change between versions).
    pub srgfn: String,
    /// The prime's expression as srgfn prints it.
    pub prime: String,
    /// The base-case radix of the kernels (2 or 4).
    pub radix: u32,
    /// The f_mul form of the kernels ([`MulForm::name`]).
    pub mul: String,
    /// Whether the kernels carry inline PTX (NVIDIA).
    pub ptx: bool,
    /// log2 N.
    pub log_n: u32,
}

/// The measured choice for a [`WisdomKey`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// The fastest variant.
    pub variant: Variant,
    /// Whether it ran two levels per launch.
    pub fuse: bool,
    /// Its median time (ms).
    pub ms: f64,
    /// The median time of the built-in default for the size (ms).
    pub default_ms: f64,
}

/// Measured plan choices, as read from a file (or empty).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Wisdom {
    /// The file it was read from, if any.
    path: Option<PathBuf>,
    entries: BTreeMap<WisdomKey, Choice>,
}

/// The device part of a [`WisdomKey`]: platform, device name and driver version.
pub fn device_key(device: &DeviceEntry) -> String {
    format!("{} | {} | {}", device.platform, device.name, device.driver_version)
}

impl Wisdom {
    /// No entries: every plan takes the built-in defaults.
    pub fn empty() -> Wisdom {
        Wisdom::default()
    }

    /// The file `path`; a missing file is no wisdom (empty), a malformed one an
    /// [`Error::InvalidInput`] naming the file and line.
    pub fn read(path: &Path) -> Result<Wisdom> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Wisdom { path: Some(path.to_path_buf()), ..Wisdom::default() })
            }
            Err(e) => return Err(Error::io(format!("cannot read the wisdom file {}", path.display()), e)),
        };
        let mut wisdom = Wisdom::parse(&text).map_err(|(line, reason)| Error::InvalidInput {
            file: Some(path.display().to_string()),
            line: Some(line),
            element: None,
            reason: format!("{reason} (a wisdom file of `srgfn tune`: delete the line or the file, or run srgfn tune again)"),
        })?;
        wisdom.path = Some(path.to_path_buf());
        Ok(wisdom)
    }

    /// The wisdom a session uses: `SRGFN_WISDOM` (a file, or `off` for none),
    /// else [`WISDOM_FILE`] in the program cache's folder (none without a cache).
    pub fn for_cache(cache: &ProgramCache) -> Result<Wisdom> {
        match Wisdom::default_path(cache) {
            Some(path) => Wisdom::read(&path),
            None => Ok(Wisdom::empty()),
        }
    }

    /// The file [`Wisdom::for_cache`] reads and `srgfn tune` writes by default.
    pub fn default_path(cache: &ProgramCache) -> Option<PathBuf> {
        match std::env::var_os("SRGFN_WISDOM") {
            Some(v) if v == "off" => None,
            Some(v) if !v.is_empty() => Some(PathBuf::from(v)),
            _ => cache.dir().map(|d| d.join(WISDOM_FILE)),
        }
    }

    /// The file it was read from.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The entry for `key`, if measured.
    pub fn get(&self, key: &WisdomKey) -> Option<&Choice> {
        self.entries.get(key)
    }

    /// Entries in all (every device).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries for `device` (its [`device_key`]) and this srgfn version.
    pub fn entries_for(&self, device: &str) -> usize {
        self.entries.keys().filter(|k| k.device == device && k.srgfn == env!("CARGO_PKG_VERSION")).count()
    }

    /// The entries of this srgfn version for `prime` (its expression) at
    /// 2^`log_n` and base-case radix `radix`, every device's.
    pub fn entries_of(&self, prime: &str, radix: u32, log_n: u32) -> Vec<(&WisdomKey, &Choice)> {
        self.entries
            .iter()
            .filter(|(k, _)| k.prime == prime && k.radix == radix && k.log_n == log_n && k.srgfn == env!("CARGO_PKG_VERSION"))
            .collect()
    }

    /// The choices for kernels of `prime` emitted with `opts` on `device`, by
    /// log2 N; an [`Error::InvalidInput`] naming the file for one these
    /// kernels cannot run (a variant the prime has no kernels for, fusion
    /// where the variant has no fused kernel).
    pub fn choices_for(&self, device: &DeviceEntry, prime: &Prime, opts: &KernelOptions) -> Result<BTreeMap<u32, Choice>> {
        self.choices_where(device, prime, opts, |_| true)
    }

    /// [`Self::choices_for`] of the sizes `keep` names (the others' entries
    /// are neither taken nor checked): the sizes whose plans take these
    /// kernels' radix.
    pub fn choices_where(
        &self,
        device: &DeviceEntry,
        prime: &Prime,
        opts: &KernelOptions,
        keep: impl Fn(u32) -> bool,
    ) -> Result<BTreeMap<u32, Choice>> {
        let mut out = BTreeMap::new();
        let mine = WisdomKey::new(device, prime, opts, 0);
        for (key, &c) in self.entries.iter().filter(|(k, _)| k.same_kernels(&mine) && keep(k.log_n)) {
            let log_n = key.log_n;
            let bad = if !emit::variants_for(prime).contains(&c.variant) {
                Some(format!("the {} variant is not emitted for k = {}", c.variant.name(), prime.k()))
            } else if c.fuse && !emit::has_fused(prime, c.variant, opts) {
                Some(format!("the {} variant of k = {} has no fused kernel at radix {}", c.variant.name(), prime.k(), opts.radix.number()))
            } else {
                None
            };
            if let Some(reason) = bad {
                return Err(Error::InvalidInput {
                    file: self.path().map(|p| p.display().to_string()),
                    line: None,
                    element: None,
                    reason: format!("the entry for {prime} at 2^{log_n}: {reason} (run srgfn tune again, or delete the entry)"),
                });
            }
            out.insert(log_n, c);
        }
        Ok(out)
    }

    /// Records (or replaces) the choice for `key`.
    pub fn insert(&mut self, key: WisdomKey, choice: Choice) {
        self.entries.insert(key, choice);
    }

    /// The file's text: a comment line, then one line per entry, in key order.
    pub fn to_text(&self) -> String {
        let mut out =
            String::from("# srgfn wisdom: the fastest variant per device, prime and size, measured by srgfn tune (docs/usage.md)\n");
        for (k, c) in &self.entries {
            out.push_str(&format!(
                "device={}\tsrgfn={}\tprime={}\tradix={}\tmul={}\tptx={}\tlog_n={}\tvariant={}\tfuse={}\tms={:.4}\tdefault_ms={:.4}\n",
                k.device,
                k.srgfn,
                k.prime,
                k.radix,
                k.mul,
                u8::from(k.ptx),
                k.log_n,
                c.variant.name(),
                if c.fuse { "on" } else { "off" },
                c.ms,
                c.default_ms
            ));
        }
        out
    }

    /// Writes [`Wisdom::to_text`] to `path` (through a temporary file, renamed).
    pub fn write(&self, path: &Path) -> Result<()> {
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        std::fs::write(&tmp, self.to_text()).map_err(|e| Error::io(format!("cannot write the wisdom file {}", tmp.display()), e))?;
        std::fs::rename(&tmp, path).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            Error::io(format!("cannot write the wisdom file {}", path.display()), e)
        })
    }

    /// Entries from a file's text; `Err((line, reason))` at the first malformed line.
    fn parse(text: &str) -> std::result::Result<Wisdom, (u64, String)> {
        let mut w = Wisdom::default();
        for (i, line) in text.lines().enumerate() {
            let line_no = i as u64 + 1;
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            let (key, choice) = parse_entry(line).map_err(|r| (line_no, r))?;
            w.entries.insert(key, choice);
        }
        Ok(w)
    }
}

/// One entry line: every field once, each `name=value`, tab-separated.
fn parse_entry(line: &str) -> std::result::Result<(WisdomKey, Choice), String> {
    const NAMES: [&str; 11] = ["device", "srgfn", "prime", "radix", "mul", "ptx", "log_n", "variant", "fuse", "ms", "default_ms"];
    let mut fields: BTreeMap<&str, &str> = BTreeMap::new();
    for f in line.split('\t') {
        let (name, value) = f.split_once('=').ok_or_else(|| format!("field '{f}' is not name=value (fields are tab-separated)"))?;
        if !NAMES.contains(&name) {
            return Err(format!("unknown field '{name}' (the fields are {})", NAMES.join(", ")));
        }
        if fields.insert(name, value).is_some() {
            return Err(format!("field '{name}' given twice"));
        }
    }
    let get = |name: &str| fields.get(name).copied().ok_or_else(|| format!("field '{name}' missing"));
    let number = |name: &str| -> std::result::Result<u32, String> {
        get(name)?.parse::<u32>().map_err(|_| format!("{name} '{}' is not a whole number", fields[name]))
    };
    let ms = |name: &str| -> std::result::Result<f64, String> {
        let v = get(name)?;
        v.parse::<f64>().ok().filter(|x| x.is_finite() && *x > 0.0).ok_or_else(|| format!("{name} '{v}' is not a positive time in ms"))
    };
    let radix = number("radix")?;
    Radix::from_number(radix).map_err(|_| format!("radix {radix} is not 2 or 4"))?;
    let log_n = number("log_n")?;
    if !(1..=63).contains(&log_n) {
        return Err(format!("log_n {log_n} is not in 1 … 63"));
    }
    let ptx = match get("ptx")? {
        "0" => false,
        "1" => true,
        v => return Err(format!("ptx '{v}' is not 0 or 1")),
    };
    let fuse = match get("fuse")? {
        "on" => true,
        "off" => false,
        v => return Err(format!("fuse '{v}' is not on or off")),
    };
    let key = WisdomKey {
        device: get("device")?.to_string(),
        srgfn: get("srgfn")?.to_string(),
        prime: get("prime")?.to_string(),
        radix,
        mul: MulForm::parse(get("mul")?).map_err(|e| e.to_string())?.name().to_string(),
        ptx,
        log_n,
    };
    let choice =
        Choice { variant: Variant::parse(get("variant")?).map_err(|e| e.to_string())?, fuse, ms: ms("ms")?, default_ms: ms("default_ms")? };
    Ok((key, choice))
}

impl WisdomKey {
    /// Whether `other` is about the same device, srgfn version, prime and kernels, at any size.
    fn same_kernels(&self, other: &WisdomKey) -> bool {
        (&self.device, &self.srgfn, &self.prime, self.radix, &self.mul, self.ptx)
            == (&other.device, &other.srgfn, &other.prime, other.radix, &other.mul, other.ptx)
    }

    /// The key of plans of 2^`log_n` over `prime` with kernels emitted with
    /// `opts` (radix, f_mul form, PTX; [`crate::Fft::kernel_options_for`]) on
    /// `device`, for this srgfn version.
    pub fn new(device: &DeviceEntry, prime: &Prime, opts: &KernelOptions, log_n: u32) -> WisdomKey {
        WisdomKey {
            device: device_key(device),
            srgfn: env!("CARGO_PKG_VERSION").to_string(),
            prime: prime.to_string(),
            radix: opts.radix.number() as u32,
            mul: opts.mul.name().to_string(),
            ptx: opts.ptx,
            log_n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = "device=NVIDIA CUDA | NVIDIA H100 80GB HBM3 | 580.159.04\tsrgfn=0.1.0\tprime=(2^63+2^34)^8+1\tradix=4\tmul=wide64\tptx=1\tlog_n=24\tvariant=local\tfuse=off\tms=6.5810\tdefault_ms=6.8500";

    #[test]
    fn entries_read_back_as_written() {
        let w = Wisdom::parse(&format!("# a comment\n\n{LINE}\n")).unwrap();
        assert_eq!(w.len(), 1);
        let text = w.to_text();
        assert!(text.lines().any(|l| l == LINE), "{text}");
        assert_eq!(Wisdom::parse(&text).unwrap(), w);
        let (k, c) = w.entries.iter().next().unwrap();
        assert_eq!((k.log_n, k.radix, k.ptx, k.mul.as_str()), (24, 4, true, "wide64"));
        assert_eq!((c.variant, c.fuse, c.ms, c.default_ms), (Variant::Local, false, 6.581, 6.85));
    }

    #[test]
    fn a_malformed_line_is_refused_with_its_number_and_reason() {
        let cases = [
            (LINE.replace("variant=local", "variant=fast"), "unknown variant"),
            (LINE.replace("fuse=off", "fuse=maybe"), "fuse 'maybe'"),
            (LINE.replace("radix=4", "radix=8"), "radix 8"),
            (LINE.replace("ptx=1", "ptx=yes"), "ptx 'yes'"),
            (LINE.replace("ms=6.5810", "ms=-1"), "ms '-1'"),
            (LINE.replace("log_n=24", "log_n=x"), "log_n 'x'"),
            (LINE.replace("\tmul=wide64", ""), "field 'mul' missing"),
            (LINE.replace("\tmul=wide64", "\tmul=wide64\tmul=limb22"), "given twice"),
            (LINE.replace("\tmul=wide64", "\tspeed=9"), "unknown field 'speed'"),
            (format!("{LINE}\tjunk"), "'junk' is not name=value"),
            (LINE.replace('\t', " "), "missing"),
        ];
        for (bad, want) in cases {
            let (line, reason) = Wisdom::parse(&format!("# header\n{LINE}\n{bad}\n")).unwrap_err();
            assert_eq!(line, 3, "{bad}");
            assert!(reason.contains(want), "{reason} lacks {want}");
        }
    }

    #[test]
    fn a_missing_file_is_no_wisdom_and_a_bad_one_names_file_and_line() {
        let dir = std::env::temp_dir().join(format!("srgfn-wisdom-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("none.txt");
        assert!(Wisdom::read(&missing).unwrap().is_empty());
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, format!("{LINE}\nvariant=local\n")).unwrap();
        let e = Wisdom::read(&bad).unwrap_err().to_string();
        assert!(e.contains("bad.txt:2:") && e.contains("srgfn tune"), "{e}");
        let good = dir.join("good.txt");
        let w = Wisdom::parse(LINE).unwrap();
        w.write(&good).unwrap();
        assert_eq!(Wisdom::read(&good).unwrap().entries, w.entries);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
