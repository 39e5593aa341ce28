//! `srgfn tune` on the default device: a table per size, a wisdom file that
//! `srgfn plan`, `srgfn bench` and the transforms read, and clear errors for a
//! malformed one.

mod cli_support;

use std::process::{Command, Output};

use cli_support::{cache_dir, stderr, stdout, tmp};

const K4: &str = "(2^64-2^50)^4+1";

/// `srgfn ARGS` with this process's cache and SRGFN_WISDOM = `wisdom`.
fn srgfn_with(wisdom: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_srgfn"))
        .args(args)
        .env("SRGFN_CACHE_DIR", cache_dir())
        .env("SRGFN_WISDOM", wisdom)
        .output()
        .expect("run srgfn")
}

#[test]
fn tune_writes_a_wisdom_file_that_plans_read() {
    let w = tmp("wisdom.txt");
    let _ = std::fs::remove_file(&w);
    let o = srgfn_with(&w, &["tune", "--prime", K4, "--min-log", "8", "--max-log", "9", "--reps", "1"]);
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(o.status.success(), "{err}");
    // a header and a line per size, every candidate timed
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].contains("default") && lines[0].contains("fastest") && lines[0].contains("recorded"), "{out}");
    for (line, log_n) in lines[1..].iter().zip([8, 9]) {
        assert!(line.trim_start().starts_with(&log_n.to_string()), "{line}");
        for v in ["local fused", "table", "digits", "workgroup"] {
            assert!(line.contains(v), "{v} missing from {line}");
        }
    }
    assert!(err.contains("wrote") && err.contains("2 entries for this device"), "{err}");
    let text = std::fs::read_to_string(&w).unwrap();
    let entries: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(entries.len(), 2, "{text}");
    assert!(entries.iter().all(|l| l.contains(&format!("prime={K4}")) && l.contains("variant=")), "{text}");

    // srgfn plan names the measured choice; bench announces the wisdom
    let o = srgfn_with(&w, &["plan", "--prime", K4, "--n", "2^8"]);
    assert!(o.status.success() && stdout(&o).contains("srgfn tune measured the"), "{}", stdout(&o));
    let o =
        srgfn_with(&w, &["bench", "--prime", K4, "--min-log", "8", "--max-log", "8", "--reps", "1", "--no-baselines", "--default-variant"]);
    assert!(o.status.success() && stderr(&o).contains("2 measured choices for this device"), "{}", stderr(&o));

    // a transform with the wisdom is exact (--verify against the host reference)
    let o = srgfn_with(&w, &["fft", "--prime", K4, "--random", "2^8", "--verify", "--output", tmp("y.txt").to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));

    // --variant restricts the candidates (the default is timed in any case); a variant the prime lacks is refused
    let o =
        srgfn_with(&w, &["tune", "--prime", K4, "--min-log", "8", "--max-log", "8", "--reps", "1", "--variant", "workgroup", "--dry-run"]);
    let line = stdout(&o).lines().nth(1).unwrap_or("").to_string();
    assert!(o.status.success() && line.contains("workgroup") && line.contains("local fused") && !line.contains("digits"), "{line}");
    let o = srgfn_with(&w, &["tune", "--prime", "(2^62+2^56)^32+1", "--variant", "local", "--dry-run"]);
    assert!(!o.status.success() && stderr(&o).contains("not available for k = 32"), "{}", stderr(&o));

    // --prune 1: from the second size on only the fastest at the size before and the default are timed
    let o = srgfn_with(&w, &["tune", "--prime", K4, "--min-log", "8", "--max-log", "9", "--reps", "1", "--prune", "1", "--dry-run"]);
    let line = stdout(&o).lines().nth(2).unwrap_or("").to_string();
    assert!(o.status.success() && line.contains("(pruned: ") && line.contains("× the fastest at 2^8"), "{line}");
    let o = srgfn_with(&w, &["tune", "--prime", K4, "--prune", "0.5", "--dry-run"]);
    assert!(!o.status.success() && stderr(&o).contains("--prune 0.5"), "{}", stderr(&o));

    // --dry-run leaves the file as it was
    let before = std::fs::read_to_string(&w).unwrap();
    let o = srgfn_with(&w, &["tune", "--prime", K4, "--min-log", "10", "--max-log", "10", "--reps", "1", "--dry-run"]);
    assert!(o.status.success() && stderr(&o).contains("nothing written"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&w).unwrap(), before);
}

#[test]
fn a_malformed_wisdom_file_is_an_error_naming_file_and_line() {
    let w = tmp("bad-wisdom.txt");
    std::fs::write(&w, "# srgfn wisdom\ndevice=x\tprime=y\n").unwrap();
    let o = srgfn_with(&w, &["fft", "--prime", K4, "--random", "2^6", "--output", tmp("z.txt").to_str().unwrap()]);
    let err = stderr(&o);
    assert!(!o.status.success(), "a malformed wisdom file was accepted");
    assert!(err.contains(&format!("{}:2:", w.display())) && err.contains("missing") && err.contains("srgfn tune"), "{err}");
    // --wisdom off runs with the built-in defaults
    let o = srgfn_with(&w, &["fft", "--prime", K4, "--random", "2^6", "--wisdom", "off", "--output", tmp("z.txt").to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    // tune refuses an empty range of sizes, and reports sizes the device cannot hold without timing them
    let o = srgfn_with(&w, &["tune", "--prime", K4, "--min-log", "12", "--max-log", "10", "--wisdom", "off", "--dry-run"]);
    assert!(!o.status.success() && stderr(&o).contains("no size to tune"), "{}", stderr(&o));
    let o = srgfn_with(&w, &["tune", "--prime", K4, "--min-log", "48", "--max-log", "48", "--wisdom", "off", "--dry-run"]);
    let out = stdout(&o);
    assert!(
        o.status.success() && out.lines().nth(1).is_some_and(|l| l.contains("table -") && l.contains("(not run: ")),
        "{out}{}",
        stderr(&o)
    );
}
