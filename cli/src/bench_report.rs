//! What `srgfn bench` writes: one line per record as it arrives, the JSON
//! and the plot rewritten after every record, and the final aligned table.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _, Result};
use serde::{Deserialize, Serialize};
use srgfn::bench::{Record, Roofline};
use srgfn::io::write_atomic;
use srgfn::microbench::MicroRecord;
use srgfn::Session;
use srgfn_gen::Prime;

use super::plot::plot;

/// x rounded to three significant digits (what the roofline line prints).
pub fn sig3(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let scale = 10f64.powi(2 - x.abs().log10().floor() as i32);
    (x * scale).round() / scale
}

/// Above 100% of the roofline, the operation model counts more work than the kernels do.
const OVER_COUNT: &str = "the operation model over-counts";

/// One record as printed when it arrives.
pub fn record_line(r: &Record) -> String {
    format!(
        "{} 2^{} {}: {:.4} ms, {:.1}% of roofline{}",
        r.prime,
        r.log_n,
        r.variant,
        r.median_ms,
        r.pct_roofline,
        if r.pct_roofline > 100.0 { format!(" ({OVER_COUNT})") } else { String::new() }
    )
}

#[derive(Serialize)]
struct Report<'a> {
    device: String,
    roofline: Roofline,
    /// False while the run goes on (or when it was interrupted).
    complete: bool,
    /// The arithmetic micro-benchmarks (f_mul, its product core, butterflies).
    micro: &'a [MicroRecord],
    records: Vec<&'a Record>,
}

/// The records so far, and the files they are written to.
pub struct Output {
    device: String,
    title: String,
    roof: Roofline,
    json: Option<PathBuf>,
    plot: Option<PathBuf>,
    /// (series index, record): the table groups by series.
    records: Vec<(usize, Record)>,
    micro: Vec<MicroRecord>,
}

impl Output {
    pub fn new(session: &Session, roof: Roofline, json: Option<PathBuf>, plot: Option<PathBuf>) -> Output {
        let (device, title) = (session.device().describe(), session.device().name.trim().to_string());
        Output { device, title, roof, json, plot, records: Vec::new(), micro: Vec::new() }
    }

    /// Adds micro-benchmark records and rewrites the files.
    pub fn push_micro(&mut self, records: Vec<MicroRecord>) -> Result<()> {
        self.micro.extend(records);
        self.write(false)
    }

    pub fn micro(&self) -> &[MicroRecord] {
        &self.micro
    }

    /// Adds a record and rewrites the files, so an interrupted run keeps what it measured.
    pub fn push(&mut self, record: Record, series: usize) -> Result<()> {
        self.records.push((series, record));
        self.write(false)
    }

    /// Rewrites the files once more, marked complete.
    pub fn finish(&self) -> Result<()> {
        self.write(true)
    }

    fn write(&self, complete: bool) -> Result<()> {
        let records = self.records();
        if let Some(path) = &self.json {
            let report =
                Report { device: self.device.clone(), roofline: self.roof, complete, micro: &self.micro, records: records.clone() };
            write_atomic(path, (serde_json::to_string_pretty(&report)? + "\n").as_bytes())?;
        }
        if let Some(path) = &self.plot {
            if !records.is_empty() {
                plot(&records.into_iter().cloned().collect::<Vec<_>>(), &self.roof, path, &self.title)?;
            }
        }
        Ok(())
    }

    /// The micro-benchmarks as a table: kernel, form, median, rate.
    pub fn micro_table(&self) -> String {
        let mut t = format!("{:<22} {:<6} {:<12} {:>10} {:>10}\n", "prime", "kernel", "f_mul", "median ms", "G/s");
        for r in &self.micro {
            t.push_str(&format!(
                "{:<22} {:<6} {:<12} {:>10.4} {:>10.2}\n",
                r.prime,
                r.kernel,
                format!("{}{}", r.mul, if r.ptx { "+ptx" } else { "" }),
                r.median_ms,
                r.rate_g
            ));
        }
        t
    }

    /// The records grouped by series, each by size.
    pub fn records(&self) -> Vec<&Record> {
        let mut sorted: Vec<&(usize, Record)> = self.records.iter().collect();
        sorted.sort_by_key(|(series, r)| (*series, r.log_n));
        sorted.into_iter().map(|(_, r)| r).collect()
    }
}

/// `srgfn bench --replot`: the table of a file written by `--json` (every
/// record, or those of `primes`) on stdout, and its plot, titled with the
/// device it ran on, where `plot_path` is given.
pub fn replot(json: &Path, primes: &[Prime], plot_path: Option<&Path>) -> Result<()> {
    #[derive(Deserialize)]
    struct Saved {
        device: String,
        roofline: Roofline,
        records: Vec<Record>,
    }
    let text = std::fs::read_to_string(json).with_context(|| format!("cannot read {}", json.display()))?;
    let saved: Saved =
        serde_json::from_str(&text).with_context(|| format!("{}: not a file written by srgfn bench --json", json.display()))?;
    let names: Vec<String> = primes.iter().map(|p| p.to_string()).collect();
    let records: Vec<Record> = saved.records.into_iter().filter(|r| names.is_empty() || names.contains(&r.prime)).collect();
    if records.is_empty() {
        bail!("{}: no records{}", json.display(), if names.is_empty() { String::new() } else { format!(" of {}", names.join(", ")) });
    }
    print!("{}", table(&records.iter().collect::<Vec<_>>(), &saved.roofline));
    match plot_path {
        Some(path) => plot(&records, &saved.roofline, path, saved.device.split(" (").next().unwrap_or(&saved.device)),
        None => Ok(()),
    }
}

/// The table, columns as wide as their longest entry: each record's median
/// next to the two floors measured in the same run (the bytes at the copy
/// bandwidth; the twiddle products at the product-core rate, "-" for
/// baselines and where the run measured none, in parentheses where the
/// transform beat it), the median over the larger floor that bounds it, and
/// the operation model's roofline as a share of the median.
pub fn table(records: &[&Record], roof: &Roofline) -> String {
    let mut out = String::new();
    let header = ["prime", "N", "variant", "median ms", "memory floor ms", "core floor ms", "x floor", "% model"];
    let rows: Vec<[String; 8]> = records
        .iter()
        .map(|r| {
            [
                r.prime.clone(),
                format!("2^{}", r.log_n),
                r.variant.clone(),
                format!("{:.4}", r.median_ms),
                format!("{:.4}", r.memory_floor_ms(roof)),
                match (r.core_floor_ms, r.binding_core_floor_ms()) {
                    (c, _) if c <= 0.0 => "-".into(),
                    (c, Some(_)) => format!("{c:.4}"),
                    // faster than the floor: it bounds nothing here
                    (c, None) => format!("({c:.4})"),
                },
                format!("{:.2}", r.median_ms / r.floor_ms(roof)),
                format!("{:.1}{}", r.pct_roofline, if r.pct_roofline > 100.0 { "*" } else { "" }),
            ]
        })
        .collect();
    let width = |c: usize| rows.iter().map(|row| row[c].chars().count()).chain([header[c].len()]).max().unwrap_or(0);
    let widths: Vec<usize> = (0..header.len()).map(width).collect();
    let mut line = |cells: &[String]| {
        let text: Vec<String> = cells
            .iter()
            .enumerate()
            // text columns left-aligned, numbers right-aligned
            .map(|(c, cell)| if c == 0 || c == 2 { format!("{cell:<w$}", w = widths[c]) } else { format!("{cell:>w$}", w = widths[c]) })
            .collect();
        out.push_str(text.join("  ").trim_end());
        out.push('\n');
    };
    line(&header.map(String::from));
    for row in &rows {
        line(row);
    }
    if records.iter().any(|r| r.pct_roofline > 100.0) {
        out.push_str(&format!("* above 100%: {OVER_COUNT} for this kernel (its roofline time is too high), docs/performance.md\n"));
    }
    out.push_str(&gaps_note(records));
    out
}

/// Records whose median run spent over a fifth of its time, and at least
/// 20 µs, between its kernels (the median runs from the first kernel's start
/// to the last one's end, `busy_ms` sums the kernels of the median run with
/// every kernel's event, whose span is `profiled_median_ms` where recorded):
/// host work between launches or launch latency, which the floors do not
/// bound.  Empty when none; else a line naming the worst three.
pub fn gaps_note(records: &[&Record]) -> String {
    let span = |r: &Record| if r.profiled_median_ms > 0.0 { r.profiled_median_ms } else { r.median_ms };
    let gap = |r: &Record| span(r) - r.busy_ms;
    let mut gapped: Vec<&Record> = records.iter().copied().filter(|r| r.busy_ms > 0.0 && gap(r) > 0.02 && gap(r) > 0.2 * span(r)).collect();
    if gapped.is_empty() {
        return String::new();
    }
    gapped.sort_by(|a, b| (gap(b) / span(b)).total_cmp(&(gap(a) / span(a))));
    let worst: Vec<String> = gapped
        .iter()
        .take(3)
        .map(|r| format!("{} 2^{} {} ({:.4} ms, kernels {:.4})", r.prime, r.log_n, r.variant, span(r), r.busy_ms))
        .collect();
    format!(
        "gaps: {} of {} records spent over 20% of the median between kernels (host work or launch latency), e.g. {}\n",
        gapped.len(),
        records.len(),
        worst.join("; ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(variant: &str, log_n: u32, pct: f64) -> Record {
        Record {
            prime: "(2^63+2^34)^8+1".into(),
            k: 8,
            n: 1 << log_n,
            log_n,
            variant: variant.into(),
            mul: "wide64".into(),
            median_ms: 1.5,
            min_ms: 1.0,
            max_ms: 2.0,
            reps: 3,
            busy_ms: 1.4,
            kernel_ms: vec![0.7, 0.7],
            kernel_start_ms: vec![0.0, 0.7],
            enqueue_ms: 0.0,
            profiled_median_ms: 0.0,
            bytes: 1 << 20,
            muls: 1e6,
            adds: 1e6,
            gbs: 0.7,
            gops: 1.3,
            roofline_ms: 1.5 * pct / 100.0,
            pct_roofline: pct,
            twiddle_products: 1e4,
            core_floor_ms: 1.5 * pct / 100.0,
        }
    }

    #[test]
    fn the_table_is_aligned_and_flags_over_counting() {
        let roof = Roofline { copy_gbs: 1000.0, mul_gops: 1000.0, add_gops: 1000.0, pipes: None };
        let recs = [record("srgfn-r2-local-wide64", 10, 40.0), record("baseline-smallprimes-s16-with-a-long-name", 12, 252.0)];
        let text = table(&recs.iter().collect::<Vec<_>>(), &roof);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1].chars().count(), lines[0].chars().count(), "{text}");
        assert_eq!(lines[2].chars().count(), lines[0].chars().count(), "{text}");
        assert!(lines[2].ends_with("252.0*"), "{text}");
        assert!(lines[3].contains("over-counts"), "{text}");
        assert!(!table(&[&recs[0]], &roof).contains("over-counts"));
        assert!(record_line(&recs[1]).ends_with("252.0% of roofline (the operation model over-counts)"));
    }

    /// A median far above the kernels' busy time is named (the fused
    /// launches of one v20c run spent 99% of it in host work); a few per
    /// cent of launch gaps are not.
    #[test]
    fn the_table_names_records_that_wait_between_kernels() {
        let roof = Roofline { copy_gbs: 1000.0, mul_gops: 1000.0, add_gops: 1000.0, pipes: None };
        let fine = record("srgfn-r2-local-wide64", 20, 40.0);
        let mut slow = record("srgfn-r2-local-fused-wide64", 16, 40.0);
        slow.median_ms = 132.0;
        slow.busy_ms = 0.096;
        // 0.01 ms of gaps in a 0.03 ms run: over a fifth, under 20 µs
        let mut tiny = record("srgfn-r2-local-wide64", 12, 40.0);
        tiny.median_ms = 0.03;
        tiny.busy_ms = 0.02;
        assert_eq!(gaps_note(&[&fine, &tiny]), "");
        let text = table(&[&fine, &slow, &tiny], &roof);
        let note = text.lines().last().unwrap();
        assert!(
            note.starts_with("gaps: 1 of 3 records") && note.contains("2^16 srgfn-r2-local-fused-wide64 (132.0000 ms, kernels 0.0960)"),
            "{text}"
        );
    }

    #[test]
    fn the_table_sets_each_median_against_both_floors() {
        let roof = Roofline { copy_gbs: 1000.0, mul_gops: 1000.0, add_gops: 1000.0, pipes: None };
        // 2^20 bytes at 1000 GB/s: 0.0010 ms; core floor 0.6 ms; median 1.5 ms
        let mut r = record("srgfn-r4-local-wide64", 20, 40.0);
        let cells = |r: &Record| table(&[r], &roof).lines().nth(1).unwrap().split_whitespace().map(String::from).collect::<Vec<_>>();
        assert_eq!(cells(&r)[3..7], ["1.5000", "0.0010", "0.6000", "2.50"], "{:?}", cells(&r));
        // no core floor measured: "-", and the memory floor bounds the ratio
        r.core_floor_ms = 0.0;
        r.bytes = 1 << 30;
        assert_eq!(cells(&r)[3..7], ["1.5000", "1.0737", "-", "1.40"], "{:?}", cells(&r));
        // a core floor above the median (products shared among work-items) bounds nothing
        r.core_floor_ms = 3.0;
        assert_eq!(cells(&r)[3..7], ["1.5000", "1.0737", "(3.0000)", "1.40"], "{:?}", cells(&r));
    }

    #[test]
    fn the_plot_shows_points_above_the_floor() {
        let path = std::env::temp_dir().join(format!("srgfn-plot-{}.svg", std::process::id()));
        let mut recs = [record("a", 10, 40.0), record("a", 11, 252.0)];
        // a memory floor of 3.78 ms against the median's 1.5: the bytes' model over-counts
        recs[1].bytes = 3_780_000_000;
        let roof = Roofline { copy_gbs: 1000.0, mul_gops: 1000.0, add_gops: 1000.0, pipes: None };
        plot(&recs, &roof, &path, "test").unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.contains("above 100: a floor over-counts"), "caption");
        // the % axis reaches 250: not clipped at 100
        let axis_max = svg.lines().filter_map(|l| l.trim().parse::<f64>().ok()).fold(0.0, f64::max);
        assert!(axis_max >= 250.0, "axis ends at {axis_max}");
        std::fs::remove_file(path).ok();
    }

    #[test]
    fn three_significant_digits() {
        assert_eq!(sig3(0.482_345), 0.482);
        assert_eq!(sig3(12.345), 12.3);
        assert_eq!(sig3(1234.5), 1230.0);
        assert_eq!(sig3(0.0), 0.0);
        assert_eq!(format!("{}", sig3(0.000_123_456)), "0.000123");
    }
}
