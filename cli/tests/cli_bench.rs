//! `srgfn bench` on the default device: progress lines, the roofline line and
//! the JSON agreeing, an aligned table, and files that survive an interruption.

mod cli_support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cli_support::{cache_dir, tmp};

fn bench(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_srgfn"));
    c.arg("bench").args(args).env("SRGFN_CACHE_DIR", cache_dir());
    c
}

#[test]
fn bench_prints_what_its_json_holds_in_an_aligned_table() {
    let (json, plot) = (tmp("b.json"), tmp("b.svg"));
    let args = ["--prime", "(2^64-2^50)^4+1", "--min-log", "4", "--max-log", "5", "--reps", "2", "--radix", "2,4", "--variant", "local"];
    let o = bench(&args).args(["--json", json.to_str().unwrap(), "--plot", plot.to_str().unwrap()]).output().unwrap();
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{err}");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["complete"], true);
    // 2 radices, the no-trick baseline and the small-primes baseline's 3 records
    // (total, NTTs, recombination), at 2 sizes
    assert_eq!(v["records"].as_array().unwrap().len(), 12, "{v}");
    // the roofline line prints the JSON's numbers
    let roof = &v["roofline"];
    let line = format!(
        "copy {} GB/s, {} G 64-bit multiplies/s, {} G 64-bit adds/s",
        roof["copy_gbs"].as_f64().unwrap(),
        roof["mul_gops"].as_f64().unwrap(),
        roof["add_gops"].as_f64().unwrap()
    );
    assert!(err.contains(&line), "no '{line}' in {err}");
    assert!(roof["mul_gops"].as_f64().unwrap() > 0.0);
    // the multiplier pipes, where the device runs double precision (PoCL does)
    let pipes = &roof["pipes"];
    let rate = |key: &str| pipes[key].as_f64().unwrap_or_else(|| panic!("no pipes.{key} in {roof}"));
    let line = format!(
        "multiplier pipes: {} G 32-bit multiply-adds/s, {} G double fused multiply-adds/s, {} G/s of both in one loop",
        rate("imad32_gops"),
        rate("dfma_gops"),
        rate("mixed_gops")
    );
    assert!(err.contains(&line), "no '{line}' in {err}");
    assert!(rate("imad32_gops") > 0.0 && rate("dfma_gops") > 0.0 && rate("mixed_gops") > 0.0, "{roof}");
    // one progress line per record, with the time left
    assert_eq!(err.lines().filter(|l| l.starts_with('[') && l.contains(" left] ")).count(), 12, "{err}");
    // the table: a header and 12 rows, columns aligned (right-aligned last column), then
    // the notes (over-counting, gaps between kernels)
    let rows: Vec<&str> = out.lines().filter(|l| !l.starts_with('*') && !l.starts_with("gaps: ")).collect();
    assert_eq!(rows.len(), 13, "{out}");
    let header = rows[0];
    for row in &rows[1..] {
        assert_eq!(row.chars().count(), header.chars().count(), "misaligned:\n{out}");
        let variant_col = header.find("variant").unwrap();
        assert!(row[..variant_col].ends_with("  "), "{row}");
    }
    assert!(std::fs::read_to_string(&plot).unwrap().starts_with("<svg"));
    // --replot draws the same JSON without a device, one prime or all
    let again = tmp("b2.svg");
    let o = bench(&["--replot", json.to_str().unwrap(), "--plot", again.to_str().unwrap()]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(&again).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("baseline-notrick"), "{svg}");
    // without --plot it prints the run's table again: the same rows
    let o = bench(&["--replot", json.to_str().unwrap()]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout), out, "the replotted table differs from the run's");
    assert!(out.lines().next().unwrap().contains("memory floor ms"), "{out}");
    let o = bench(&["--replot", json.to_str().unwrap(), "--prime", "(2^63+2^34)^8+1", "--plot", again.to_str().unwrap()]).output().unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("no records of (2^63+2^34)^8+1"), "{o:?}");
    // a malformed file is named with its line
    std::fs::write(&json, "{\"device\": \"x\",\n\"records\": [1,\n").unwrap();
    let o = bench(&["--replot", json.to_str().unwrap(), "--plot", again.to_str().unwrap()]).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("b.json: not a file written by srgfn bench --json") && err.contains("line "), "{err}");
}

#[test]
fn an_interrupted_bench_leaves_its_records() {
    let json = tmp("i.json");
    let args = ["--prime", "(2^63+2^34)^8+1", "--min-log", "4", "--max-log", "22", "--reps", "2", "--radix", "2", "--no-baselines"];
    let mut child = bench(&args).args(["--json", json.to_str().unwrap()]).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let t = Instant::now();
    let records = loop {
        let n = std::fs::read_to_string(&json)
            .ok()
            .and_then(|s| serde_json::from_str::<serde_json::Value>(&s).ok())
            .map_or(0, |v| v["records"].as_array().map_or(0, Vec::len));
        if n >= 2 || t.elapsed() > Duration::from_secs(300) {
            break n;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(records >= 2, "no records written within {:?}", t.elapsed());
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["complete"], false);
    assert!(v["records"].as_array().unwrap().len() >= 2);
}
