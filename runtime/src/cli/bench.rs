//! `srgfn bench`: the benchmark suite, table, JSON and plot.

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;
use serde::Serialize;
use srgfn::bench::{bench_forward, bench_notrick, bench_small_primes, measure_roofline, plot, Record, Roofline};
use srgfn::io::write_atomic;
use srgfn::{Fft, FftOptions};
use srgfn_gen::emit::{variants_for, MulForm};
use srgfn_gen::plan::PlanShape;
use srgfn_gen::rules::Radix;

use super::primes::parse_prime;
use super::transform::DeviceOpts;

/// The default suite: (prime, smallest and largest log2 N).
const SUITE: [(&str, u32, u32); 4] =
    [("(2^64-2^50)^4+1", 16, 24), ("(2^63+2^34)^8+1", 16, 24), ("(2^62+2^36)^16+1", 16, 22), ("(2^62+2^56)^32+1", 14, 20)];

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Primes to run (repeatable); default: the suite of docs/performance.md.
    #[arg(long)]
    pub prime: Vec<String>,
    /// Smallest log2 N (overrides the suite's).
    #[arg(long)]
    pub min_log: Option<u32>,
    /// Largest log2 N (overrides the suite's; sizes that do not fit are skipped).
    #[arg(long)]
    pub max_log: Option<u32>,
    /// Timed runs per size (after 3 warm-up runs).
    #[arg(long, default_value_t = 20)]
    pub reps: usize,
    /// Base-case radices to run.
    #[arg(long, value_delimiter = ',', default_values_t = vec![2u32, 4])]
    pub radices: Vec<u32>,
    /// Base-case variants to run (default: every variant emitted for the prime).
    #[arg(long, value_delimiter = ',')]
    pub variants: Vec<String>,
    /// f_mul forms to run (wide64, limb22); default: the device's default only.
    #[arg(long, value_delimiter = ',')]
    pub muls: Vec<String>,
    /// Skip the "no trick" baseline.
    #[arg(long)]
    pub no_baselines: bool,
    /// Write every record (and the roofline) as JSON.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Write an SVG plot of time and % of roofline against N.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub dev: DeviceOpts,
}

#[derive(Serialize)]
struct Report<'a> {
    device: String,
    roofline: Roofline,
    records: &'a [Record],
}

pub fn bench(args: BenchArgs) -> Result<()> {
    if args.reps == 0 {
        bail!("--reps must be at least 1");
    }
    let session = args.dev.session()?;
    let roof = measure_roofline(&session)?;
    eprintln!(
        "device {}: copy {:.0} GB/s, {:.0} G 64-bit multiplies/s, {:.0} G 64-bit adds/s",
        session.device.describe(),
        roof.copy_gbs,
        roof.mul_gops,
        roof.add_gops
    );
    let suite: Vec<(String, u32, u32)> = if args.prime.is_empty() {
        SUITE.iter().map(|&(p, a, b)| (p.to_string(), a, b)).collect()
    } else {
        args.prime.iter().map(|p| (p.clone(), 10, 20)).collect()
    };
    let muls: Vec<Option<MulForm>> = if args.muls.is_empty() {
        vec![args.dev.mul.as_deref().map(MulForm::parse).transpose()?]
    } else {
        args.muls.iter().map(|m| MulForm::parse(m).map(Some)).collect::<Result<_, _>>()?
    };
    let mut records = Vec::new();
    for (expr, lo, hi) in suite {
        let prime = parse_prime(&expr)?;
        let (lo, hi) = (args.min_log.unwrap_or(lo), args.max_log.unwrap_or(hi).min(prime.two_adicity()));
        for log_n in lo..=hi {
            let shape = PlanShape::new(&prime, log_n, 1)?;
            let need = srgfn::memory::plan_need(&prime, shape.n as u128, 1, 1).device; // no overflow at any N
            if need > session.device.global_mem_bytes as u128 / 10 * 8 {
                eprintln!("skip {prime} N = 2^{log_n}: needs {}", srgfn::memory::human(need));
                continue;
            }
            for &r in &args.radices {
                let radix = Radix::from_number(r).map_err(anyhow::Error::msg)?;
                for variant in variants_for(&prime) {
                    let name = format!("{variant:?}").to_lowercase();
                    if !args.variants.is_empty() && !args.variants.contains(&name) {
                        continue;
                    }
                    for &mul in &muls {
                        let fft = Fft::with_options(&session, &prime, FftOptions { radix: Some(radix), variant: Some(variant), mul })?;
                        let rec = bench_forward(&fft, radix, 1 << log_n, args.reps, &roof)?;
                        eprintln!("{:<22} 2^{log_n:<3} {:<29} {:>10.4} ms  {:>5.1}% of roofline", rec.prime, rec.variant, rec.median_ms, rec.pct_roofline);
                        records.push(rec);
                    }
                }
            }
            if !args.no_baselines {
                let fft = Fft::new(&session, &prime)?;
                let rec = bench_notrick(&fft, 1 << log_n, args.reps.min(10), &roof)?;
                eprintln!("{:<22} 2^{log_n:<3} {:<22} {:>10.4} ms", rec.prime, rec.variant, rec.median_ms);
                records.push(rec);
                // s = 2k 32-bit primes exist up to k = 12 and sizes up to 2^24
                if 2 * prime.k() <= 24 && log_n <= 24 {
                    let rec = bench_small_primes(&session, &prime, 1 << log_n, args.reps, &roof)?;
                    eprintln!("{:<22} 2^{log_n:<3} {:<22} {:>10.4} ms", rec.prime, rec.variant, rec.median_ms);
                    records.push(rec);
                }
            }
        }
    }
    if let Some(path) = &args.json {
        let report = Report { device: session.device.describe(), roofline: roof, records: &records };
        write_atomic(path, (serde_json::to_string_pretty(&report)? + "\n").as_bytes())?;
    }
    if let Some(path) = &args.plot {
        plot(&records, path, session.device.name.trim())?;
    }
    println!(
        "{:<22} {:>6} {:<22} {:>11} {:>9} {:>9} {:>11} {:>7}",
        "prime", "N", "variant", "median ms", "GB/s", "Gops/s", "roofline ms", "% roof"
    );
    for r in &records {
        println!(
            "{:<22} {:>6} {:<22} {:>11.4} {:>9.1} {:>9.1} {:>11.4} {:>7.1}",
            r.prime,
            format!("2^{}", r.log_n),
            r.variant,
            r.median_ms,
            r.gbs,
            r.gops,
            r.roofline_ms,
            r.pct_roofline
        );
    }
    Ok(())
}
