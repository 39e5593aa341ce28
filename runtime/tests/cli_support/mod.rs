//! Helpers of the CLI tests: run the binary with a private kernel cache, read
//! its output, and name temporary files.
#![allow(dead_code)] // each test file uses a part

use std::path::PathBuf;
use std::process::{Command, Output};

/// The prime most tests use.
pub const P: &str = "(2^63+2^34)^8+1";

/// `srgfn ARGS` with a kernel cache private to this test process.
pub fn srgfn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_srgfn")).args(args).env("SRGFN_CACHE_DIR", cache_dir()).output().expect("run srgfn")
}

/// A kernel cache folder for this test process (mode 0700, as the cache requires).
pub fn cache_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("srgfn-cli-cache-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    d
}

/// A path in a folder private to this test process.
pub fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("srgfn-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
