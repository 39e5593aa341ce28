//! `srgfn fft`, `srgfn polymul`, `srgfn plan` on the default device, with real files.

mod cli_support;

use std::path::Path;
use std::process::{Command, Output};

use cli_support::{cache_dir, srgfn, stderr, tmp, P};
use num_bigint::BigUint;
use srgfn_gen::reference::{naive_dft, schoolbook_mul};
use srgfn_gen::Prime;

fn values(path: &Path) -> Vec<BigUint> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| l.parse().unwrap()).collect()
}

#[test]
fn fft_of_a_text_file_matches_the_naive_dft() {
    let prime = Prime::parse(P).unwrap();
    let x: Vec<BigUint> = (0..32u64).map(|i| BigUint::from(i * i * 977 + 3) * BigUint::from(u64::MAX)).collect();
    let mut text = String::from("# a comment line\n\n");
    for (i, v) in x.iter().enumerate() {
        if i % 2 == 0 {
            text.push_str(&format!("{v}   # trailing comment\n"));
        } else {
            text.push_str(&format!("0x{}\n", v.to_str_radix(16)));
        }
    }
    let input = tmp("x.txt");
    std::fs::write(&input, text).unwrap();
    let out = tmp("X.txt");
    let o = srgfn(&["fft", "--prime", P, "--input", input.to_str().unwrap(), "--output", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("N = 2^5"), "summary line: {}", stderr(&o));
    assert_eq!(values(&out), naive_dft(&prime, &x).unwrap());
    let back = tmp("x2.txt");
    let o = srgfn(&["fft", "--prime", P, "--input", out.to_str().unwrap(), "--inverse", "--output", back.to_str().unwrap()]);
    assert!(o.status.success());
    assert_eq!(values(&back), x);
}

#[test]
fn binary_format_round_trips() {
    let bin = tmp("r.bin");
    let o = srgfn(&["random", "--prime", P, "--count", "64", "--seed", "9", "--format", "bin", "--output", bin.to_str().unwrap()]);
    assert!(o.status.success());
    assert_eq!(std::fs::metadata(&bin).unwrap().len(), 64 * 8 * 8);
    let f1 = tmp("f.bin");
    let f2 = tmp("g.bin");
    assert!(srgfn(&["fft", "--prime", P, "--input", bin.to_str().unwrap(), "--format", "bin", "--output", f1.to_str().unwrap()])
        .status
        .success());
    assert!(srgfn(&[
        "fft",
        "--prime",
        P,
        "--input",
        f1.to_str().unwrap(),
        "--format",
        "bin",
        "--inverse",
        "--output",
        f2.to_str().unwrap()
    ])
    .status
    .success());
    assert_eq!(std::fs::read(&bin).unwrap(), std::fs::read(&f2).unwrap());
}

#[test]
fn polymul_matches_schoolbook_for_any_lengths() {
    let prime = Prime::parse(P).unwrap();
    for (la, lb) in [(1usize, 1usize), (3, 1), (7, 12), (33, 31)] {
        let a = tmp(&format!("a{la}.txt"));
        let b = tmp(&format!("b{lb}.txt"));
        srgfn(&["random", "--prime", P, "--count", &la.to_string(), "--seed", "1", "--output", a.to_str().unwrap()]);
        srgfn(&["random", "--prime", P, "--count", &lb.to_string(), "--seed", "2", "--output", b.to_str().unwrap()]);
        let o = srgfn(&["polymul", "--prime", P, a.to_str().unwrap(), b.to_str().unwrap(), "--verify"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let got: Vec<BigUint> = String::from_utf8_lossy(&o.stdout).lines().map(|l| l.parse().unwrap()).collect();
        assert_eq!(got, schoolbook_mul(&prime, &values(&a), &values(&b)), "{la}×{lb}");
    }
}

#[test]
fn bad_files_and_sizes_are_clear_errors() {
    let write = |name: &str, text: &str| {
        let p = tmp(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let p_value = Prime::parse(P).unwrap().modulus().to_string();
    let cases = vec![
        (vec!["fft".to_string(), "--input".into(), write("bad1.txt", "1\n2\nabc\n4\n")], "bad1.txt:3".to_string()),
        (vec!["fft".into(), "--input".into(), write("bad2.txt", &format!("1\n{p_value}\n"))], "bad2.txt:2: value".into()),
        (vec!["fft".into(), "--input".into(), write("bad3.txt", "# nothing\n\n")], "no elements".into()),
        (vec!["fft".into(), "--input".into(), write("bad4.txt", "1\n2\n3\n")], "power of two".into()),
        (vec!["fft".into(), "--input".into(), write("bad5.bin", "1234567")], "whole number".into()),
        (vec!["fft".into(), "--input".into(), "/nonexistent/x.txt".into()], "cannot open".into()),
        (vec!["fft".into(), "--random".into(), "2^300".into()], "out of range".into()),
        (vec!["plan".into(), "--n".into(), "1000".into()], "not a power of two".into()),
    ];
    for (mut args, needle) in cases {
        args.extend(["--prime".to_string(), P.to_string()]);
        if args[2].ends_with(".bin") {
            args.extend(["--format".to_string(), "bin".to_string()]);
        }
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = srgfn(&a);
        let err = stderr(&o);
        assert!(!o.status.success(), "{args:?}");
        assert!(err.contains(&needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // a failed run leaves no output file behind
    let out = tmp("never.txt");
    let o = srgfn(&["fft", "--prime", P, "--input", &write("bad6.txt", "1\nxyz\n"), "--output", out.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(!out.exists());
}

#[test]
fn plan_prints_the_launches() {
    let o = srgfn(&["plan", "--prime", P, "--n", "2^20", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let passes = v["passes"].as_array().unwrap();
    let radices: Vec<u64> = passes.iter().map(|p| p["radix"].as_u64().unwrap()).collect();
    let ps: Vec<u64> = passes.iter().map(|p| p["p"].as_u64().unwrap()).collect();
    assert_eq!(radices, [16, 16, 16, 16, 16]);
    assert_eq!(ps, [1, 16, 256, 4096, 65536]);
    let o = srgfn(&["plan", "--prime", P, "--n", "2^9"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("3 Stockham passes") && text.contains("pass radix 2, p = 256"), "{text}");
    // small sizes run two passes per launch by default; --fuse off, one
    for (fuse, launches) in [(None, "4 Stockham passes in 2 launches"), (Some("off"), "4 Stockham passes in 4 launches")] {
        let mut args = vec!["plan", "--prime", P, "--n", "2^16"];
        args.extend(fuse.map(|f| ["--fuse", f]).into_iter().flatten());
        let o = srgfn(&args);
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains(launches), "{fuse:?}: {text}");
    }
    let o = srgfn(&["plan", "--prime", "(2^62+2^36)^16+1", "--n", "2^16", "--fuse", "on"]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("no fused kernel"));
    // the digits variant (k ≥ 32) keeps the vectors between its launches element-major; not k = 8's
    for (prime, n, em) in [("(2^62+2^56)^32+1", "2^20", true), ("(2^62+2^56)^32+1", "2^6", false), (P, "2^20", false)] {
        let o = srgfn(&["plan", "--prime", prime, "--n", n, "--json"]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["element_major_between_launches"], em, "{prime} {n}");
        let text = String::from_utf8_lossy(&srgfn(&["plan", "--prime", prime, "--n", n]).stdout).to_string();
        assert_eq!(text.contains("between launches are element-major"), em, "{prime} {n}: {text}");
        // in halves (2^22 digits and more), the last launch of an element-major plan writes a third
        // vector, so that the queues need not wait for each other before it (emit::plan_halves)
        let spare = em && v["halves"].is_object();
        assert_eq!(v["halves"]["spare_last"].as_bool().unwrap_or(false), spare, "{prime} {n}");
        assert_eq!(text.contains("the last launch writes a third vector"), spare, "{prime} {n}: {text}");
        assert!(!em || spare, "{prime} {n}: no halves");
    }
    // k = 8 at 2^17 on NVIDIA: the table variant's passes in pairs, element-major between its launches,
    // its first pair from the superblock order; at 2^20 one pass per launch, digit-major
    for (n, em, first2) in
        [("2^17", true, "runs launch 1 (its first two passes) from that order"), ("2^20", false, "runs launches 1 and 2 as one launch")]
    {
        let o = srgfn(&["plan", "--prime", P, "--n", n, "--json"]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["variant_on_nvidia"], "table", "{n}");
        assert_eq!(v["element_major_between_launches_on_nvidia"], em, "{n}");
        let text = String::from_utf8_lossy(&srgfn(&["plan", "--prime", P, "--n", n]).stdout).to_string();
        assert_eq!(text.contains("the vectors between its launches element-major"), em, "{n}: {text}");
        assert!(text.contains(first2), "{n}: {text}");
    }
    // k = 4 at 2^24: four fused launches, all but the last with a table of its own (ω_M, M = 8²·p)
    let o = srgfn(&["plan", "--prime", "(2^64-2^50)^4+1", "--n", "2^24", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["launch_table_logs"], serde_json::json!([6, 12, 18, null]));
    let text = String::from_utf8_lossy(&srgfn(&["plan", "--prime", "(2^64-2^50)^4+1", "--n", "2^24"]).stdout).to_string();
    assert!(text.contains("launches 1 (2^6 entries), 2 (2^12 entries), 3 (2^18 entries) read twiddle tables of their own"), "{text}");
    // k = 8 at 2^20 on NVIDIA: the table variant's launches 3 and 4 (p = K², K³) with tables of their own
    let o = srgfn(&["plan", "--prime", P, "--n", "2^20", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["launch_table_logs_on_nvidia"], serde_json::json!([null, null, 12, 16, null]));
    let text = String::from_utf8_lossy(&srgfn(&["plan", "--prime", P, "--n", "2^20"]).stdout).to_string();
    assert!(text.contains("launches 3 (2^12 entries), 4 (2^16 entries) read twiddle tables of their own"), "{text}");
}

#[test]
fn no_opencl_platform_says_how_to_install_pocl() {
    let empty = tmp("no-icd");
    std::fs::create_dir_all(&empty).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_srgfn"))
        .args(["fft", "--prime", P, "--random", "16"])
        .env("OCL_ICD_VENDORS", &empty)
        .env("SRGFN_CACHE_DIR", cache_dir())
        .output()
        .unwrap();
    let err = stderr(&o);
    assert!(!o.status.success());
    assert!(err.contains("pocl-opencl-icd"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

/// Runs srgfn; returns its output and its peak resident memory in KiB, from
/// wait4 (this child's own rusage, whatever other tests run meanwhile).
#[allow(clippy::zombie_processes)] // reaped by wait4, not Child::wait
fn srgfn_peak_rss(args: &[&str]) -> (Output, u64) {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_srgfn"))
        .args(args)
        .env("SRGFN_CACHE_DIR", cache_dir())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run srgfn");
    let mut pipes = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let out = std::thread::spawn(move || {
        let (mut o, mut e) = (Vec::new(), Vec::new());
        pipes.0.read_to_end(&mut o).unwrap();
        pipes.1.read_to_end(&mut e).unwrap();
        (o, e)
    });
    let (mut status, mut usage) = (0, unsafe { std::mem::zeroed::<libc::rusage>() });
    // SAFETY: waits for our own child, writing into locals of the right types
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32);
    let (stdout, stderr) = out.join().unwrap();
    (Output { status: std::process::ExitStatus::from_raw(status), stdout, stderr }, usage.ru_maxrss as u64)
}

#[test]
fn absurd_inputs_are_refused_quickly_with_bounded_memory() {
    use std::time::Instant;
    // the same path on a tiny file: OpenCL discovery, reading, the error
    let small = tmp("small-bad.txt");
    std::fs::write(&small, "1\nxyz\n").unwrap();
    let (o, control) = srgfn_peak_rss(&["fft", "--prime", P, "--input", small.to_str().unwrap()]);
    assert!(stderr(&o).contains("small-bad.txt:2"), "{}", stderr(&o));
    // a 10 MB line is refused without being held
    let long = tmp("long.txt");
    std::fs::write(&long, "7".repeat(10 << 20)).unwrap();
    let t = Instant::now();
    let (o, rss) = srgfn_peak_rss(&["fft", "--prime", P, "--input", long.to_str().unwrap()]);
    assert!(stderr(&o).contains("long.txt:1: line longer than"), "{}", stderr(&o));
    assert!(rss < control + 8 * 1024, "a 10 MB line: peak {rss} KiB, {control} KiB for a tiny file");
    // 10^7 empty lines: no element, and no memory held per line
    let empty = tmp("empty.txt");
    std::fs::write(&empty, "\n".repeat(10_000_000)).unwrap();
    let (o, rss) = srgfn_peak_rss(&["fft", "--prime", P, "--input", empty.to_str().unwrap()]);
    assert!(stderr(&o).contains("contains no elements"), "{}", stderr(&o));
    // the reader holds at most two 8 MiB blocks of the file at a time
    assert!(rss < control + 16 * 1024, "10^7 empty lines: peak {rss} KiB, {control} KiB for a tiny file");
    // absurd exponents in prime expressions
    for e in ["(2^999999999+1)^8+1", "(2^63+2^34)^1073741824+1", "(2^63+2^34)^99999999999999999999+1", "(2^63+2^34)^8+1+1"] {
        let o = srgfn(&["roots", "--prime", e, "--n", "16"]);
        assert!(!o.status.success(), "{e}");
        assert_eq!(stderr(&o).trim().lines().count(), 1, "{e}: {}", stderr(&o));
    }
    assert!(t.elapsed().as_secs() < 60, "took {:?}", t.elapsed());
    std::fs::remove_file(long).ok();
    std::fs::remove_file(empty).ok();
}

fn json_file(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn phase_names(report: &serde_json::Value) -> Vec<String> {
    report["phases"].as_array().unwrap().iter().map(|p| p["phase"].as_str().unwrap().to_string()).collect()
}

#[test]
fn fft_reports_device_size_phases_and_verification_as_json() {
    let out = tmp("fj.txt");
    let report = tmp("fj.json");
    let o =
        srgfn(&["fft", "--prime", P, "--random", "2^6", "--verify", "--json", report.to_str().unwrap(), "--output", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json_file(&report);
    assert_eq!(v["n"], 64);
    assert_eq!(v["direction"], "forward");
    assert_eq!(v["verified"], true);
    assert!(v["device"].as_str().unwrap().contains("driver"), "{v}");
    assert_eq!(phase_names(&v), ["generate", "device", "plan", "upload", "transform", "download", "verify", "write"]);
    assert!(v["transform_ms"].as_f64().unwrap() > 0.0);
    assert!(stderr(&o).contains("verified at 2 random outputs"), "{}", stderr(&o));
    // the inverse of the output, verified against the definition, as JSON on stdout
    let back = tmp("fj2.txt");
    let o = srgfn(&[
        "fft",
        "--prime",
        P,
        "--input",
        out.to_str().unwrap(),
        "--inverse",
        "--verify",
        "--json",
        "-",
        "--output",
        back.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((v["direction"].as_str(), v["verified"].as_bool(), v["format"].as_str()), (Some("inverse"), Some(true), Some("text")));
    assert_eq!(phase_names(&v)[0], "read");
    // without --output, standard output carries the result
    let o = srgfn(&["fft", "--prime", P, "--random", "16", "--json", "-"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("give --output FILE"), "{}", stderr(&o));
}

#[test]
fn polymul_labels_every_number_and_reports_json() {
    let (a, b) = (tmp("pa.txt"), tmp("pb.txt"));
    srgfn(&["random", "--prime", P, "--count", "100", "--seed", "1", "--output", a.to_str().unwrap()]);
    srgfn(&["random", "--prime", P, "--count", "50", "--seed", "2", "--output", b.to_str().unwrap()]);
    let (c, report) = (tmp("pc.txt"), tmp("pc.json"));
    let o = srgfn(&[
        "polymul",
        "--prime",
        P,
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--verify",
        "--output",
        c.to_str().unwrap(),
        "--json",
        report.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json_file(&report);
    assert_eq!(
        (v["len_a"].as_u64(), v["len_b"].as_u64(), v["len_c"].as_u64(), v["n"].as_u64()),
        (Some(100), Some(50), Some(149), Some(256))
    );
    assert_eq!(v["verified"], true);
    assert_eq!(phase_names(&v), ["size check", "read A", "read B", "device", "kernels", "product", "verify", "write"]);
    let summary = stderr(&o).lines().last().unwrap().to_string();
    // every number has a label: a size, or a phase name before its time
    for label in [
        "100 × 50 coefficients",
        "149 coefficients",
        "N = 2^8",
        "product ",
        "total ",
        "size check ",
        "read A ",
        "read B ",
        "kernels ",
        "write ",
    ] {
        assert!(summary.contains(label), "no '{label}' in {summary}");
    }
    let times = summary.matches(" ms").count();
    assert_eq!(times, 2 + 8, "{summary}");
    // binary files: the same product
    let (ab, bb, cb) = (tmp("pa.bin"), tmp("pb.bin"), tmp("pc.bin"));
    srgfn(&["random", "--prime", P, "--count", "100", "--seed", "1", "--format", "bin", "--output", ab.to_str().unwrap()]);
    srgfn(&["random", "--prime", P, "--count", "50", "--seed", "2", "--format", "bin", "--output", bb.to_str().unwrap()]);
    let o = srgfn(&[
        "polymul",
        "--prime",
        P,
        ab.to_str().unwrap(),
        bb.to_str().unwrap(),
        "--format",
        "bin",
        "--verify",
        "--output",
        cb.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let field = srgfn_gen::Field::new(&Prime::parse(P).unwrap());
    let words: Vec<u64> = std::fs::read(&cb).unwrap().chunks(8).map(|w| u64::from_le_bytes(w.try_into().unwrap())).collect();
    let from_bin: Vec<BigUint> = words.chunks(8).map(|e| field.to_biguint(e).unwrap()).collect();
    assert_eq!(from_bin, values(&c));
}

#[test]
fn folders_and_unavailable_variants_are_named_in_cli_terms() {
    let dir = std::env::temp_dir();
    let o = srgfn(&["fft", "--prime", P, "--input", dir.to_str().unwrap()]);
    assert!(stderr(&o).contains(&format!("error: {}: it is a folder, not a file", dir.display())), "{}", stderr(&o));
    let o = srgfn(&["polymul", "--prime", P, dir.to_str().unwrap(), dir.to_str().unwrap()]);
    assert!(stderr(&o).contains("it is a folder"), "{}", stderr(&o));
    let o = srgfn(&["fft", "--prime", "(2^62+2^56)^32+1", "--random", "64", "--variant", "local"]);
    let err = stderr(&o);
    assert!(!o.status.success());
    assert!(err.contains("--variant local is not available for k = 32: use digits or table or workgroup"), "{err}");
    assert!(!err.contains("Table") && !err.contains("Local"), "{err}");
    let o = srgfn(&["fft", "--prime", P, "--random", "64", "--mul", "wide32"]);
    assert!(stderr(&o).contains("wide64") && stderr(&o).contains("limb22"), "{}", stderr(&o));
}

/// One error line with the limits, exit status 1 (not an abort), in well
/// under a second: nothing is generated, read or allocated first.
fn refused_with_limits(args: &[&str], subject: &str) {
    let t = std::time::Instant::now();
    let (o, rss) = srgfn_peak_rss(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains(subject), "{args:?}: {err}");
    assert!(err.contains("of host memory") && err.contains(" free)"), "{args:?}: {err}");
    assert!(rss < 512 * 1024 && t.elapsed().as_secs() < 20, "{args:?}: {rss} KiB, {:?}", t.elapsed());
}

#[test]
fn sizes_that_do_not_fit_are_refused_with_the_limits() {
    for n in ["2^31", "2^32", "2^40"] {
        refused_with_limits(&["fft", "--prime", P, "--random", n], &format!("N = {n} needs "));
    }
    // a vector beyond the device's largest buffer is counted in segments when it splits
    refused_with_limits(&["fft", "--prime", P, "--random", "2^31"], "needs 264 GiB on the device (largest buffer ");
    refused_with_limits(&["random", "--prime", P, "--count", "1073741824"], "--count 1073741824 needs ");
    // input files are sized from their length, not read: sparse files of 200 GiB
    let (bin, text) = (tmp("huge.bin"), tmp("huge.txt"));
    for f in [&bin, &text] {
        std::fs::File::create(f).unwrap().set_len(200 << 30).unwrap();
    }
    let (bin_s, text_s) = (bin.to_str().unwrap(), text.to_str().unwrap());
    refused_with_limits(
        &["fft", "--prime", P, "--input", bin_s, "--format", "bin"],
        "huge.bin (214748364800 bytes: 3355443200 elements): N = 2^32 needs ",
    );
    refused_with_limits(
        &["fft", "--prime", P, "--input", text_s],
        "huge.txt (214748364800 bytes: about 1394469901 elements of 154 bytes a line): N = 2^31 needs ",
    );
    let small = tmp("one.txt");
    std::fs::write(&small, "5\n").unwrap();
    refused_with_limits(
        &["polymul", "--prime", P, small.to_str().unwrap(), text_s],
        "huge.txt (214748364800 bytes: about 1394469901 elements of 154 bytes a line): N = 2^31 needs ",
    );
    std::fs::remove_file(bin).ok();
    std::fs::remove_file(text).ok();
}

/// `plan` and `bench` of sizes no device has: a clear error or a skip, never
/// an overflow (the plan's byte counts are checked before they are summed).
#[test]
fn plans_and_benchmarks_of_any_size_do_not_overflow() {
    for (n, batch, needle) in
        [("2^62", "1", "N = 2^62 × batch 1 needs 528 EiB on the device"), ("2^20", "2^21", "--batch 2^21 is too large: at most 2^20")]
    {
        let o = srgfn(&["plan", "--prime", P, "--n", n, "--batch", batch]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{}", stderr(&o));
    }
    let o = srgfn(&["plan", "--prime", P, "--n", "2^49"]);
    assert!(o.status.success() && String::from_utf8_lossy(&o.stdout).contains("MiB moved per transform"), "{}", stderr(&o));
    let o = srgfn(&["bench", "--prime", P, "--min-log", "61", "--max-log", "62", "--reps", "1", "--no-baselines"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("skip (2^63+2^34)^8+1 N = 2^61 and above: N = 2^61 needs 264 EiB on the device"), "{err}");
    assert_eq!(err.matches("skip ").count(), 1, "one line per prime and size: {err}");
}

#[test]
fn batch_over_two_contexts_matches_one_device_and_the_host() {
    let json = tmp("batch.json");
    let o =
        srgfn(&["batch", "--prime", P, "--n", "2^6", "--batch", "3", "--devices", "0,0", "--reps", "2", "--json", json.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("identical, word for word") && out.contains("agrees"), "{out}");
    let j: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(j["all"]["shares"], serde_json::json!([2, 1]));
    assert_eq!(j["identical"], true);
    let o = srgfn(&["batch", "--prime", P, "--n", "2^6", "--devices", "0,0", "--products", "--reps", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = srgfn(&["batch", "--prime", P, "--n", "2^6", "--devices", "9"]);
    assert!(!o.status.success() && stderr(&o).contains("device index 9 does not exist"), "{}", stderr(&o));
}

#[test]
fn split_over_two_contexts_matches_one_device_and_the_host() {
    let json = tmp("split.json");
    let o = srgfn(&[
        "split",
        "--prime",
        P,
        "--n",
        "2^10",
        "--devices",
        "0,0",
        "--products",
        "--chunk",
        "2^6",
        "--reps",
        "1",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("identical, word for word") && out.contains("host reference at 2 random points: agrees"), "{out}");
    let j: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(j["split"], serde_json::json!([32, 32]));
    assert_eq!(j["all"]["split"]["chunks"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).sum::<u64>(), 4 * 16);
    let o = srgfn(&["split", "--prime", P, "--n", "2^8", "--devices", "0,0", "--reps", "1"]);
    assert!(o.status.success() && String::from_utf8_lossy(&o.stdout).contains("agrees"), "{}", stderr(&o));
    let o = srgfn(&["split", "--prime", P, "--n", "2^8", "--chunk", "2^2", "--devices", "0"]);
    assert!(!o.status.success() && stderr(&o).contains("at least N2 = 2^4"), "{}", stderr(&o));
    let o = srgfn(&["split", "--prime", P, "--n", "2^2", "--devices", "0"]);
    assert!(!o.status.success() && stderr(&o).contains("the four-step split takes N ≥ 2^4"), "{}", stderr(&o));
}

/// `srgfn check` on the default device (a CPU in CI): the large sizes only
/// when asked (`--large on`; by default on GPUs), each a passing case at its
/// points; without them none (k = 2, table variant: 2^20 and 2^21, the
/// least size of `emit::halves_min_digits` digits and the next).
#[test]
fn check_runs_its_large_sizes_when_asked() {
    let k2 = "(2^63+2^53)^2+1";
    let run = |large: Option<&str>| {
        let mut args = vec!["check", "--prime", k2, "--variant", "table", "--json"];
        if let Some(l) = large {
            args.extend(["--large", l]);
        }
        let o = srgfn(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let cases: Vec<serde_json::Value> =
            String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).expect("a JSON case")).collect();
        assert!(cases.iter().all(|c| c["passed"] == true), "{cases:?}");
        cases
            .into_iter()
            .filter(|c| c["name"].as_str().unwrap().ends_with("at points"))
            .map(|c| c["name"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let on = run(Some("on"));
    assert_eq!(
        on,
        [
            "r2 table forward+inverse N=2^20 at points",
            "r2 table forward+inverse N=2^21 at points",
            "r4 table forward+inverse N=2^20 at points",
            "r4 table forward+inverse N=2^21 at points"
        ]
    );
    assert!(run(Some("off")).is_empty());
    let gpu = srgfn(&["devices"]);
    if !String::from_utf8_lossy(&gpu.stdout).contains("[GPU]") {
        assert!(run(None).is_empty(), "a CPU device runs no large size unasked");
    }
}
