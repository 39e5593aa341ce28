//! `srgfn bench`: the benchmark suite, table, JSON and plot.

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;
use serde::Serialize;
use srgfn::bench::{bench_forward, bench_notrick, bench_small_primes, measure_roofline, plot, Record, Roofline};
use srgfn::io::write_atomic;
use srgfn::microbench::MicroRecord;
use srgfn::smallprime::check_coverage;
use srgfn::{Fft, FftOptions};
use srgfn_gen::emit::{variants_for, KernelOptions, MulForm};
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
    /// Also compare every f_mul form (with and without PTX on NVIDIA) in the
    /// arithmetic micro-benchmarks, and skip nothing else.
    #[arg(long)]
    pub micro: bool,
    /// Only the arithmetic micro-benchmarks (implies --micro).
    #[arg(long)]
    pub micro_only: bool,
    /// Run only the small-primes baseline (NTTs, recombination, both).
    #[arg(long, conflicts_with = "no_baselines")]
    pub small_primes_only: bool,
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
    micro: &'a [MicroRecord],
}

/// The option sets the micro-benchmarks compare: the device's default, or
/// (with --micro) every f_mul form, with and without PTX where it is available.
fn micro_forms(session: &srgfn::Session, prime: &srgfn_gen::Prime, radix: Radix, all: bool, mul: Option<MulForm>) -> Result<Vec<KernelOptions>> {
    let ptx = srgfn::kernels::default_ptx(session);
    if !all {
        let mul = match mul {
            Some(m) => m,
            None => srgfn::kernels::default_mul(session, prime)?,
        };
        return Ok(vec![KernelOptions { radix, mul, ptx }]);
    }
    let mut v = Vec::new();
    for mul in MulForm::ALL {
        v.push(KernelOptions { radix, mul, ptx: false });
        if ptx {
            v.push(KernelOptions { radix, mul, ptx: true });
        }
    }
    Ok(v)
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
    let mut micro = Vec::new();
    for (expr, lo, hi) in suite {
        let prime = parse_prime(&expr)?;
        let forms = if args.small_primes_only { Vec::new() } else { micro_forms(&session, &prime, Radix::R2, args.micro || args.micro_only, muls[0])? };
        let (m, failed) = if forms.is_empty() { (Vec::new(), Vec::new()) } else { srgfn::microbench::run(&session, &prime, &forms, args.reps.min(10))? };
        for (form, err) in failed {
            eprintln!("{prime} micro: f_mul form {form} does not build: {err}");
        }
        for r in &m {
            eprintln!("{:<22} micro {:<5} {:<7}{:<4} {:>10.4} ms  {:>8.2} G/s", r.prime, r.kernel, r.mul, if r.ptx { " ptx" } else { "" }, r.median_ms, r.rate_g);
        }
        // the product-core rate of the form the transforms use
        let core_rate = m.iter().find(|r| r.kernel == "core").map(|r| r.rate_g);
        micro.extend(m);
        if args.micro_only {
            continue;
        }
        let (lo, hi) = (args.min_log.unwrap_or(lo), args.max_log.unwrap_or(hi).min(prime.two_adicity()));
        for log_n in lo..=hi {
            let shape = PlanShape::new(&prime, log_n, 1)?;
            if shape.device_bytes() > session.device.global_mem_bytes / 10 * 8 {
                eprintln!("skip {prime} N = 2^{log_n}: needs {} MiB", shape.device_bytes() >> 20);
                continue;
            }
            let radices: &[u32] = if args.small_primes_only { &[] } else { &args.radices };
            for &r in radices {
                let radix = Radix::from_number(r).map_err(anyhow::Error::msg)?;
                for variant in variants_for(&prime) {
                    let name = variant.name().to_string();
                    if !args.variants.is_empty() && !args.variants.contains(&name) {
                        continue;
                    }
                    for &mul in &muls {
                        let fft = Fft::with_options(&session, &prime, FftOptions { radix: Some(radix), variant: Some(variant), mul })?;
                        let rec = bench_forward(&fft, radix, 1 << log_n, args.reps, &roof, core_rate)?;
                        eprintln!("{:<22} 2^{log_n:<3} {:<29} {:>10.4} ms  {:>5.1}% of roofline", rec.prime, rec.variant, rec.median_ms, rec.pct_roofline);
                        records.push(rec);
                    }
                }
            }
            if !args.no_baselines {
                if !args.small_primes_only {
                    let fft = Fft::new(&session, &prime)?;
                    let rec = bench_notrick(&fft, 1 << log_n, args.reps.min(10), &roof)?;
                    eprintln!("{:<22} 2^{log_n:<3} {:<22} {:>10.4} ms", rec.prime, rec.variant, rec.median_ms);
                    records.push(rec);
                }
                match check_coverage(2 * prime.k(), 1 << log_n) {
                    Ok(()) => {
                        for rec in bench_small_primes(&session, &prime, 1 << log_n, args.reps, &roof)? {
                            eprintln!("{:<22} 2^{log_n:<3} {:<22} {:>10.4} ms", rec.prime, rec.variant, rec.median_ms);
                            records.push(rec);
                        }
                    }
                    Err(e) => eprintln!("{prime} 2^{log_n}: no small-primes baseline: {e}"),
                }
            }
        }
    }
    if let Some(path) = &args.json {
        let report = Report { device: session.device.describe(), roofline: roof, records: &records, micro: &micro };
        write_atomic(path, (serde_json::to_string_pretty(&report)? + "\n").as_bytes())?;
    }
    if let Some(path) = &args.plot {
        plot(&records, path, session.device.name.trim())?;
    }
    if !micro.is_empty() {
        println!("{:<22} {:<6} {:<12} {:>10} {:>10}", "prime", "kernel", "f_mul", "median ms", "G/s");
        for r in &micro {
            println!("{:<22} {:<6} {:<12} {:>10.4} {:>10.2}", r.prime, r.kernel, format!("{}{}", r.mul, if r.ptx { "+ptx" } else { "" }), r.median_ms, r.rate_g);
        }
    }
    if !records.is_empty() {
        println!(
            "{:<22} {:>6} {:<30} {:>11} {:>9} {:>11} {:>7} {:>11}",
            "prime", "N", "variant", "median ms", "GB/s", "roofline ms", "% roof", "core floor"
        );
    }
    for r in &records {
        println!(
            "{:<22} {:>6} {:<30} {:>11.4} {:>9.1} {:>11.4} {:>7.1} {:>11.4}",
            r.prime,
            format!("2^{}", r.log_n),
            r.variant,
            r.median_ms,
            r.gbs,
            r.roofline_ms,
            r.pct_roofline,
            r.core_floor_ms
        );
    }
    Ok(())
}
