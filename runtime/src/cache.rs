//! On-disk cache of compiled program binaries.
//!
//! An entry is keyed by SHA-256 over (generator version, device name, driver
//! version, platform, build options, source).  The file holds a magic line,
//! the key, the SHA-256 of the binary and the binary; anything that does not
//! verify is deleted and rebuilt, never trusted.  A compiled binary is code
//! that runs on the device, so a cache folder owned by another user or
//! writable by group/others is refused.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::device::DeviceEntry;
use crate::error::{Error, Result};

const MAGIC: &[u8] = b"srgfn-program-binary v1\n";

/// Where a [`crate::Session`] stores and finds compiled program binaries:
/// a private folder, or nowhere ([`ProgramCache::disabled`]).
#[derive(Clone, Debug)]
pub struct ProgramCache {
    dir: Option<PathBuf>,
    /// Store binaries on PoCL too (see [`ProgramCache::stores_binaries_of`]).
    pocl_binaries: bool,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl ProgramCache {
    /// No on-disk cache (`--no-cache`).
    pub fn disabled() -> Self {
        ProgramCache { dir: None, pocl_binaries: false }
    }

    /// `SRGFN_CACHE_DIR`, else the per-user cache folder (`~/.cache/srgfn`);
    /// refused as in [`ProgramCache::at`].
    pub fn from_env() -> Result<Self> {
        let dir = match std::env::var_os("SRGFN_CACHE_DIR").filter(|s| !s.is_empty()) {
            Some(d) => PathBuf::from(d),
            None => match dirs::cache_dir() {
                Some(d) => d.join("srgfn"),
                None => return Ok(Self::disabled()),
            },
        };
        Self::at(&dir)
    }

    /// A cache in `dir` (created with mode 0700 when missing).  A folder owned
    /// by another user or writable by group or others is refused
    /// ([`Error::InvalidOption`]): a compiled binary is code that runs on the device.
    pub fn at(dir: &Path) -> Result<Self> {
        if !dir.exists() {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(format!("cannot create the program cache {}", dir.display()), e))?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
                    .map_err(|e| Error::io(format!("cannot restrict the program cache {}", dir.display()), e))?;
            }
        }
        check_safe(dir)?;
        Ok(ProgramCache { dir: Some(dir.to_path_buf()), pocl_binaries: false })
    }

    /// The cache folder (None when disabled).
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// Also stores binaries of programs built on PoCL.
    pub fn with_pocl_binaries(mut self) -> Self {
        self.pocl_binaries = true;
        self
    }

    /// Whether programs built on `device` are stored and loaded.  Not on
    /// PoCL by default: to hand out a program's binary PoCL compiles every
    /// kernel in it, 5 to 10 times the cost of the build itself, and PoCL
    /// keeps its own cache of compiled kernels (`~/.cache/pocl`).
    pub fn stores_binaries_of(&self, device: &DeviceEntry) -> bool {
        self.dir.is_some() && (self.pocl_binaries || !device.is_pocl())
    }

    /// Cache key of a source built on a device.
    pub(crate) fn key(device: &DeviceEntry, options: &str, source: &str) -> String {
        let mut h = Sha256::new();
        for part in
            [srgfn_gen::emit::GENERATOR_VERSION, device.platform.as_str(), device.name.as_str(), device.driver_version.as_str(), options]
        {
            h.update(part.as_bytes());
            h.update([0u8]);
        }
        h.update(source.as_bytes());
        hex(&h.finalize())
    }

    fn path(&self, key: &str) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join(format!("{key}.bin")))
    }

    /// The verified binary of `key`, or None (a corrupt entry is removed).
    pub(crate) fn load(&self, key: &str) -> Option<Vec<u8>> {
        let path = self.path(key)?;
        let data = std::fs::read(&path).ok()?;
        match parse_entry(&data, key) {
            Some(bin) => Some(bin.to_vec()),
            None => {
                let _ = std::fs::remove_file(&path);
                None
            }
        }
    }

    /// Stores a binary atomically; failures only lose the cache entry.
    pub(crate) fn store(&self, key: &str, binary: &[u8]) {
        let Some(path) = self.path(key) else { return };
        let mut data = MAGIC.to_vec();
        data.extend_from_slice(format!("{key}\n{}\n", hex(&Sha256::digest(binary))).as_bytes());
        data.extend_from_slice(binary);
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        if std::fs::write(&tmp, &data).is_ok() && std::fs::rename(&tmp, &path).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

fn parse_entry<'a>(data: &'a [u8], key: &str) -> Option<&'a [u8]> {
    let rest = data.strip_prefix(MAGIC)?;
    let nl = rest.iter().position(|&b| b == b'\n')?;
    if &rest[..nl] != key.as_bytes() {
        return None;
    }
    let rest = &rest[nl + 1..];
    let nl = rest.iter().position(|&b| b == b'\n')?;
    let (sum, bin) = (&rest[..nl], &rest[nl + 1..]);
    (!bin.is_empty() && sum == hex(&Sha256::digest(bin)).as_bytes()).then_some(bin)
}

#[cfg(unix)]
fn check_safe(dir: &Path) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(dir).map_err(|e| Error::io(format!("cannot read the program cache {}", dir.display()), e))?;
    if !meta.is_dir() {
        return Err(Error::option(format!("program cache {} is not a folder", dir.display())));
    }
    // SAFETY: geteuid has no preconditions and cannot fail.
    let uid = unsafe { libc::geteuid() };
    if meta.uid() != uid {
        return Err(Error::option(format!(
            "refusing program cache {}: it is owned by uid {}, not by you (uid {uid}); compiled binaries run on the device. Set SRGFN_CACHE_DIR to a folder of your own or pass --no-cache",
            dir.display(),
            meta.uid()
        )));
    }
    if meta.mode() & 0o022 != 0 {
        return Err(Error::option(format!(
            "refusing program cache {}: it is writable by group or others (mode {:o}); compiled binaries run on the device. Run chmod 700 on it or pass --no-cache",
            dir.display(),
            meta.mode() & 0o777
        )));
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_safe(_dir: &Path) -> Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: &str, binary: &[u8]) -> Vec<u8> {
        let mut data = MAGIC.to_vec();
        data.extend_from_slice(format!("{key}\n{}\n", hex(&Sha256::digest(binary))).as_bytes());
        data.extend_from_slice(binary);
        data
    }

    #[test]
    fn only_an_intact_entry_of_its_key_is_trusted() {
        let data = entry("k1", b"binary");
        assert_eq!(parse_entry(&data, "k1"), Some(&b"binary"[..]));
        assert_eq!(parse_entry(&data, "k2"), None, "another key");
        let mut flipped = data.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert_eq!(parse_entry(&flipped, "k1"), None, "a changed binary");
        assert_eq!(parse_entry(&data[..data.len() - 1], "k1"), None, "a truncated binary");
        assert_eq!(parse_entry(&entry("k1", b""), "k1"), None, "an empty binary");
        assert_eq!(parse_entry(&data[1..], "k1"), None, "no magic line");
    }
}
