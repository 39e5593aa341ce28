//! `srgfn bench`: the benchmark suite sized to the device, with progress,
//! JSON and plot rewritten as each record arrives, and the final table.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use clap::Args;
use srgfn::bench::{bench_forward, bench_notrick, bench_small_primes, measure_roofline, Pipes, Record, Roofline};
use srgfn::smallprime::check_coverage;
use srgfn::{Fft, FftOptions, Session};
use srgfn_gen::emit::{default_radix, has_fused, variants_for, KernelOptions, MulForm, Variant};
use srgfn_gen::plan::PlanShape;
use srgfn_gen::rules::Radix;
use srgfn_gen::Prime;

use super::bench_report::{record_line, replot, sig3, table, Output};
use super::opts::{check_variant, parse_radix, ChainArg, DeviceOpts, FuseArg, HalvesArg, MulArg, SuperblocksArg, VariantArg};
use super::primes::parse_prime;
use super::progress::{Step, Unit};
use super::size::Size;

/// The suite: (prime, smallest and largest log2 N on a GPU, whether --quick
/// runs it).  k = 64 and 128 (issue 10's large k) stay out of --quick, whose
/// one minute on a CPU their cold builds (PoCL: about 11 and 17 s) would take.
const SUITE: [(&str, u32, u32, bool); 6] = [
    ("(2^64-2^50)^4+1", 16, 24, true),
    ("(2^63+2^34)^8+1", 16, 24, true),
    ("(2^62+2^36)^16+1", 16, 22, true),
    ("(2^62+2^56)^32+1", 14, 20, true),
    ("(2^63-2^40)^64+1", 14, 18, false),
    ("(2^64-2^28)^128+1", 14, 16, false),
];

/// Smallest log2 N of the suite on a CPU, where every size costs seconds.
const CPU_MIN_LOG: u32 = 10;

/// Default time limits: the suite on a CPU, and --quick on any device.
const CPU_LIMIT: Duration = Duration::from_secs(100);
const QUICK_LIMIT: Duration = Duration::from_secs(50);

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Primes to run (repeatable) [default: the suite of docs/performance.md: k = 4, 8, 16, 32, 64, 128; k ≤ 32 with --quick].
    #[arg(long)]
    pub prime: Vec<String>,
    /// Smallest log2 N [default: 16 (14 for k ≥ 32) on GPUs, 10 on CPUs; 10 for --prime].
    #[arg(long)]
    pub min_log: Option<u32>,
    /// Largest log2 N; sizes that do not fit the device are skipped [default: 24, 22 for k = 16, 20 for k = 32, 18 for k = 64, 16 for k = 128; 20 for --prime].
    #[arg(long)]
    pub max_log: Option<u32>,
    /// Timed runs per size, after 3 warm-up runs [default: 20 on GPUs, 5 on CPUs; 10 and 3 with --quick].
    #[arg(long)]
    pub reps: Option<Size>,
    /// Base-case radices to run, e.g. 2,4 [default: 2,4; with --quick or --default-variant each size's default (2 for k = 16, else 4, but 2 for k = 8 from 2^17 on NVIDIA)].
    #[arg(long, alias = "radices", value_delimiter = ',')]
    pub radix: Vec<u32>,
    /// Base-case variants to run, e.g. local,workgroup [default: every variant of the prime on GPUs, the default one on CPUs and with --quick].
    #[arg(long, alias = "variants", value_enum, value_delimiter = ',')]
    pub variant: Vec<VariantArg>,
    /// Run the variant each size takes by default, as `srgfn fft` does (on NVIDIA k = 8 takes the table variant from 2^16, with its passes in pairs up to 2^18 at radix 4, 2^17 at radix 2), instead of the variants above; without --radix, each size's default radix too.
    #[arg(long, conflicts_with = "variant")]
    pub default_variant: bool,
    /// Fusion settings to run, e.g. on,off (two passes per launch; local variant) [default: the prime's default].
    #[arg(long, value_enum, value_delimiter = ',')]
    pub fuse: Vec<FuseArg>,
    /// Halves settings to run, e.g. on,off (later launches as two halves on two queues) [default: the plan's default, on where its launches are large enough].
    #[arg(long, value_enum, value_delimiter = ',')]
    pub halves: Vec<HalvesArg>,
    /// Chain settings to run, e.g. on,off or quarters,halves (halves from the first launch of a transform from the superblock order; the later launches in quarters or halves) [default: the plan's default].
    #[arg(long, value_enum, value_delimiter = ',')]
    pub chain: Vec<ChainArg>,
    /// Superblock-order settings to run, e.g. on,off (vectors uploaded so that the first two passes run in one launch; table variant, N ≥ K²) [default: on where that applies].
    #[arg(long, value_enum, value_delimiter = ',')]
    pub superblocks: Vec<SuperblocksArg>,
    /// f_mul forms to run, e.g. wide64,limb22 [default: the device's default form].
    #[arg(long, alias = "muls", value_enum, value_delimiter = ',')]
    pub mul: Vec<MulArg>,
    /// Skip the "no trick" and "small primes" baselines.
    #[arg(long)]
    pub no_baselines: bool,
    /// Run only the small-primes baseline (NTTs, recombination, both).
    #[arg(long, conflicts_with = "no_baselines")]
    pub small_primes_only: bool,
    /// Compare every f_mul form (with and without PTX on NVIDIA) in the arithmetic
    /// micro-benchmarks (on GPUs the default form's always run: their product-core
    /// rate is the floor each transform is set against; on CPUs only with this flag).
    #[arg(long)]
    pub micro: bool,
    /// Only the arithmetic micro-benchmarks (implies --micro).
    #[arg(long)]
    pub micro_only: bool,
    /// A one-minute overview on any device: the suite's primes at a few sizes, each size's default radix and variant.
    #[arg(long)]
    pub quick: bool,
    /// Start no measurement after this many seconds [default: none on GPUs, 100 on CPUs, 50 with --quick].
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<u64>,
    /// Write the roofline and every record as JSON to this file, rewritten as records arrive.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write an SVG plot of time and % of roofline against N to this file, redrawn as records arrive.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Print the table of a file written by --json, without a device, and redraw --plot from it
    /// where given (--prime picks its primes).
    #[arg(long, value_name = "JSON")]
    pub replot: Option<PathBuf>,
    #[command(flatten)]
    pub dev: DeviceOpts,
}

/// What one series measures at each of its sizes.
#[derive(Clone, Copy)]
enum Kind {
    /// `radix` and `variant`: None for the size's default (`emit::plan_radix`,
    /// `emit::plan_variant`).
    Forward {
        radix: Option<Radix>,
        variant: Option<Variant>,
        mul: Option<MulForm>,
        fuse: Option<bool>,
        halves: Option<bool>,
        chain: (Option<bool>, Option<bool>),
        superblocks: Option<bool>,
    },
    NoTrick,
    SmallPrimes,
}

/// One prime and kind over a range of sizes; `last` is the wall time of its
/// latest size, from which the next one is predicted.
struct Series {
    prime: Prime,
    kind: Kind,
    min_log: u32,
    max_log: u32,
    fft: Option<Fft>,
    last: Option<(u32, f64)>,
    stopped: bool,
}

impl Series {
    fn runs_at(&self, log_n: u32) -> bool {
        !self.stopped && (self.min_log..=self.max_log).contains(&log_n)
    }

    /// Predicted wall seconds at `log_n`: the last size's, scaled by N log N.
    fn predict(&self, log_n: u32) -> Option<f64> {
        // 20% margin: larger sizes fall out of caches
        self.last.map(|(l, s)| s * 2f64.powi(log_n as i32 - l as i32) * log_n as f64 / l as f64 * 1.2)
    }

    /// The variant whose plans the series makes (the prime's default for the
    /// baselines and the default series; those of a size may differ, but not
    /// in the memory they need: `Variant::table_words`).
    fn variant(&self) -> Variant {
        match self.kind {
            Kind::Forward { variant: Some(variant), .. } => variant,
            _ => variants_for(&self.prime)[0],
        }
    }

    fn fft(&mut self, session: &Session) -> Result<Fft> {
        if self.fft.is_none() {
            let opts = match self.kind {
                Kind::Forward { radix, variant, mul, fuse, halves, chain, superblocks } => {
                    let (chain, quarters) = chain;
                    FftOptions { radix, variant, mul, fuse, halves, chain, quarters, superblocks, ..FftOptions::default() }
                }
                _ => FftOptions::default(),
            };
            self.fft = Some(Fft::with_options(session, &self.prime, opts)?);
        }
        Ok(self.fft.clone().expect("set above"))
    }

    /// The records of one size: one, or the small-primes baseline's three
    /// (NTTs, recombination, total); none where the baseline does not cover N.
    fn measure(&mut self, session: &Session, log_n: u32, reps: usize, roof: &Roofline, core_rate: Option<f64>) -> Result<Vec<Record>> {
        let n = 1usize << log_n;
        Ok(match self.kind {
            Kind::Forward { .. } => vec![bench_forward(&self.fft(session)?, n, reps, roof, core_rate)?],
            Kind::NoTrick => vec![bench_notrick(&self.fft(session)?, n, reps.min(10), roof)?],
            Kind::SmallPrimes => match check_coverage(2 * self.prime.k(), n) {
                Ok(()) => bench_small_primes(session, &self.prime, n, reps, roof)?,
                Err(e) => {
                    eprintln!("{} 2^{log_n}: no small-primes baseline: {e}", self.prime);
                    Vec::new()
                }
            },
        })
    }
}

/// The series of the run, from the options and the device.
fn plan_series(args: &BenchArgs, session: &Session) -> Result<Vec<Series>> {
    let gpu = session.device().is_gpu() && !args.quick;
    let suite: Vec<(String, u32, u32)> = if args.prime.is_empty() {
        SUITE
            .iter()
            .filter(|&&(_, _, _, quick)| quick || !args.quick)
            .map(|&(p, lo, hi, _)| (p.to_string(), if gpu { lo } else { CPU_MIN_LOG }, hi))
            .collect()
    } else {
        args.prime.iter().map(|p| (p.clone(), 10, 20)).collect()
    };
    let chosen: Vec<Radix> = args.radix.iter().map(|&r| parse_radix(r)).collect::<Result<_>>()?;
    let muls: Vec<Option<MulForm>> = if args.mul.is_empty() { vec![None] } else { args.mul.iter().map(|m| Some(m.form())).collect() };
    let fusions: Vec<Option<bool>> = if args.fuse.is_empty() { vec![None] } else { args.fuse.iter().map(|f| Some(f.on())).collect() };
    let halves: Vec<Option<bool>> = if args.halves.is_empty() { vec![None] } else { args.halves.iter().map(|h| Some(h.on())).collect() };
    let chains: Vec<(Option<bool>, Option<bool>)> =
        if args.chain.is_empty() { vec![(None, None)] } else { args.chain.iter().map(|c| c.choice()).collect() };
    let superblocks: Vec<Option<bool>> =
        if args.superblocks.is_empty() { vec![None] } else { args.superblocks.iter().map(|h| Some(h.on())).collect() };
    let mut series = Vec::new();
    for (expr, lo, hi) in suite {
        let prime = parse_prime(&expr)?;
        let (min_log, max_log) = (args.min_log.unwrap_or(lo).max(1), args.max_log.unwrap_or(hi).min(prime.two_adicity()));
        let variants: Vec<Option<Variant>> = if !args.variant.is_empty() {
            args.variant.iter().map(|&v| check_variant(&prime, v).map(Some)).collect::<Result<_>>()?
        } else if gpu && !args.default_variant && !args.quick {
            variants_for(&prime).into_iter().map(Some).collect()
        } else {
            vec![None]
        };
        let mut add = |kind| series.push(Series { prime: prime.clone(), kind, min_log, max_log, fft: None, last: None, stopped: false });
        if args.small_primes_only {
            add(Kind::SmallPrimes);
            continue;
        }
        // no --radix: both, or with --quick or --default-variant each size's default
        let radices: Vec<Option<Radix>> = match (chosen.is_empty(), args.quick || args.default_variant) {
            (false, _) => chosen.iter().copied().map(Some).collect(),
            (true, true) => vec![None],
            (true, false) => vec![Some(Radix::R2), Some(Radix::R4)],
        };
        for &radix in &radices {
            for &variant in &variants {
                for &mul in &muls {
                    for &fuse in &fusions {
                        // an explicit "on" runs where the variant has a fused kernel (the table variant's with PTX)
                        let r = radix.unwrap_or_else(|| default_radix(&prime));
                        let with_ptx = KernelOptions { ptx: true, ..KernelOptions::new(r, MulForm::Wide64) };
                        if fuse != Some(true) || has_fused(&prime, variant.unwrap_or(variants_for(&prime)[0]), &with_ptx) {
                            for &halves in &halves {
                                for &superblocks in &superblocks {
                                    for &chain in &chains {
                                        add(Kind::Forward { radix, variant, mul, fuse, halves, chain, superblocks });
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        if !args.no_baselines {
            add(Kind::NoTrick);
            // 2k 32-bit Fourier primes exist up to k = 16 (each size checked when it runs)
            if check_coverage(2 * prime.k(), 1 << min_log).is_ok() {
                add(Kind::SmallPrimes);
            }
        }
    }
    if args.quick && args.min_log.is_none() && args.max_log.is_none() {
        let (lo, hi) = if session.device().is_gpu() { (16, 20) } else { (CPU_MIN_LOG, 16) };
        for s in &mut series {
            s.min_log = lo.max(1);
            s.max_log = hi.min(s.prime.two_adicity());
        }
    }
    if let Some(s) = series.iter().find(|s| s.min_log > s.max_log) {
        bail!("no size to run for {}: the smallest log2 N {} is above the largest {}", s.prime, s.min_log, s.max_log);
    }
    Ok(series)
}

/// Seconds left of the time limit (None: no limit).
fn left(deadline: Option<Instant>) -> Option<f64> {
    deadline.map(|d| d.saturating_duration_since(Instant::now()).as_secs_f64())
}

/// "1m05s", "42s".
fn fmt_secs(s: f64) -> String {
    let s = s.round() as u64;
    if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

pub fn bench(args: BenchArgs) -> Result<()> {
    if let Some(json) = &args.replot {
        let primes = args.prime.iter().map(|p| parse_prime(p)).collect::<Result<Vec<_>>>()?;
        return replot(json, &primes, args.plot.as_deref());
    }
    let start = Instant::now();
    let session = args.dev.session()?;
    let gpu = session.device().is_gpu();
    let reps = match &args.reps {
        Some(r) => r.count("--reps", 1, 10_000)? as usize,
        None => match (gpu, args.quick) {
            (true, false) => 20,
            (true, true) => 10,
            (false, false) => 5,
            (false, true) => 3,
        },
    };
    let limit = match (args.time_limit, args.quick, gpu) {
        (Some(s), _, _) => Some(Duration::from_secs(s)),
        (None, true, _) => Some(QUICK_LIMIT),
        (None, false, false) => Some(CPU_LIMIT),
        (None, false, true) => None,
    };
    let deadline = limit.map(|l| start + l);
    let mut series = plan_series(&args, &session)?;
    let measured = session.wisdom().entries_for(&srgfn::device_key(session.device()));
    if measured > 0 {
        eprintln!(
            "wisdom: {} has {measured} measured choices for this device; the series that choose no variant and no fusion take them (--wisdom off: the built-in defaults)",
            session.wisdom().path().map_or("the session's wisdom".to_string(), |p| p.display().to_string())
        );
    }
    let roof = {
        let _step = Step::spinner(format!("measuring the roofline of {}", session.device().name.trim()), true);
        let r = measure_roofline(&session)?;
        // the JSON holds what is printed: three significant digits
        let pipes =
            r.pipes.map(|p| Pipes { imad32_gops: sig3(p.imad32_gops), dfma_gops: sig3(p.dfma_gops), mixed_gops: sig3(p.mixed_gops) });
        Roofline { copy_gbs: sig3(r.copy_gbs), mul_gops: sig3(r.mul_gops), add_gops: sig3(r.add_gops), pipes }
    };
    eprintln!(
        "device {}: copy {} GB/s, {} G 64-bit multiplies/s, {} G 64-bit adds/s",
        session.device().describe(),
        roof.copy_gbs,
        roof.mul_gops,
        roof.add_gops
    );
    if let Some(p) = roof.pipes {
        eprintln!(
            "multiplier pipes: {} G 32-bit multiply-adds/s, {} G double fused multiply-adds/s, {} G/s of both in one loop",
            p.imad32_gops, p.dfma_gops, p.mixed_gops
        );
    }
    let mut out = Output::new(&session, roof, args.json.clone(), args.plot.clone());
    // the arithmetic micro-benchmarks of each prime: the product-core rate is
    // the floor every transform record is set against
    let mut core_rates: Vec<(Prime, f64)> = Vec::new();
    // on CPUs only when asked: there the compilation costs more than the floor tells
    if !args.small_primes_only && (session.device().is_gpu() || args.micro || args.micro_only) {
        let mut primes: Vec<Prime> = Vec::new();
        for s in &series {
            if !primes.contains(&s.prime) {
                primes.push(s.prime.clone());
            }
        }
        for prime in primes {
            let forms = srgfn::microbench::forms(&session, &prime, args.micro || args.micro_only, args.mul.first().map(|m| m.form()))?;
            let _step = Step::spinner(format!("micro-benchmarks of the field arithmetic of {prime}"), true);
            let (records, failed) = srgfn::microbench::run(&session, &prime, &forms, reps.min(10))?;
            for (form, err) in failed {
                eprintln!("{prime}: f_mul form {form} does not build: {err}");
            }
            if let Some(core) = records.iter().find(|r| r.kernel == "core") {
                core_rates.push((prime.clone(), core.rate_g));
            }
            out.push_micro(records)?;
        }
    }
    if args.micro_only {
        out.finish()?;
        print!("{}", out.micro_table());
        return Ok(());
    }
    let (lo, hi) = (series.iter().map(|s| s.min_log).min().unwrap_or(1), series.iter().map(|s| s.max_log).max().unwrap_or(1));
    let total: usize = series.iter().map(|s| (s.max_log - s.min_log + 1) as usize).sum();
    let step = Step::start("benchmark", total as u64, Unit::Items, false);
    let mut done = 0usize;
    let mut skipped_for_time = 0usize;
    let mut skip_lines: Vec<String> = Vec::new();
    for log_n in lo..=hi {
        for idx in 0..series.len() {
            let s = &mut series[idx];
            if !s.runs_at(log_n) {
                continue;
            }
            let shape = PlanShape::new(&s.prime, log_n, 1)?;
            // a plan, one vector and the host's random words; no overflow at any N
            let largest = session.device().max_alloc_bytes;
            let mut need = srgfn::memory::plan_need_split(&s.prime, s.variant(), shape.n as u128, 1, 1, largest).0;
            need.host = srgfn::memory::element_bytes(s.prime.k(), shape.n as u128);
            let subject = format!("N = 2^{log_n}");
            let why = match srgfn::memory::check(&subject, need, Some(session.device()), "the random input") {
                Err(e) => Some(e.to_string()),
                // allocations of the very last bytes fail in practice
                Ok(()) if need.device > session.device().global_mem_bytes as u128 / 32 * 31 => Some(format!(
                    "{subject} needs {} of the device's {} (the benchmark keeps 1/32 free)",
                    srgfn::memory::human(need.device),
                    srgfn::memory::human(session.device().global_mem_bytes as u128)
                )),
                Ok(()) => None,
            };
            if let Some(why) = why {
                // once per prime and size, whatever the series
                let line = format!("skip {} N = 2^{log_n} and above: {why}", s.prime);
                if !skip_lines.contains(&line) {
                    step.println(&line);
                    skip_lines.push(line);
                }
                s.stopped = true;
                continue;
            }
            if let Some(secs) = left(deadline) {
                if secs <= 0.0 || s.predict(log_n).is_some_and(|p| p > secs) {
                    skipped_for_time += (s.max_log - log_n + 1) as usize;
                    s.stopped = true;
                    continue;
                }
            }
            let t = Instant::now();
            let core_rate = core_rates.iter().find(|(p, _)| *p == s.prime).map(|&(_, g)| g);
            let recs = s.measure(&session, log_n, reps, &roof, core_rate)?;
            s.last = Some((log_n, t.elapsed().as_secs_f64()));
            done += 1;
            step.inc(1);
            let eta = eta(&series, start, done, deadline);
            step.set_message(format!("benchmark, ~{} left", fmt_secs(eta)));
            for rec in recs {
                step.println(format!("[{done:>3}, ~{:>5} left] {}", fmt_secs(eta), record_line(&rec)));
                out.push(rec, idx)?;
            }
        }
    }
    drop(step);
    if skipped_for_time > 0 {
        eprintln!(
            "time limit of {}: {skipped_for_time} larger sizes not run (--time-limit SECONDS, --max-log or --prime choose more)",
            fmt_secs(limit.map_or(0.0, |l| l.as_secs_f64()))
        );
    }
    out.finish()?;
    if !out.micro().is_empty() {
        print!("{}", out.micro_table());
    }
    print!("{}", table(&out.records(), &roof));
    eprintln!("{done} measurements in {}", fmt_secs(start.elapsed().as_secs_f64()));
    Ok(())
}

/// Seconds left: the predicted time of every remaining size, or the time
/// limit when it ends first.  Sizes of series with no measurement yet are
/// estimated by the mean of the measurements so far.
fn eta(series: &[Series], start: Instant, done: usize, deadline: Option<Instant>) -> f64 {
    let mean = start.elapsed().as_secs_f64() / done.max(1) as f64;
    let mut total = 0.0;
    for s in series.iter().filter(|s| !s.stopped) {
        let next = s.last.map_or(s.min_log, |(l, _)| l + 1);
        for log_n in next..=s.max_log {
            total += s.predict(log_n).unwrap_or(mean);
        }
    }
    left(deadline).map_or(total, |l| total.min(l))
}
