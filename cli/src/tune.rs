//! `srgfn tune`: every variant of a prime's forward transform timed per size
//! on this device, the fastest recorded in the wisdom file that later plans
//! of the same device, prime and kernels take (`srgfn::Wisdom`).

use anyhow::{bail, Result};
use clap::Args;
use srgfn::tune::{measure, record, Selection, PRUNED};
use srgfn::Wisdom;

use srgfn_gen::emit::Variant;

use super::opts::{check_variant, parse_radix, DeviceOpts, VariantArg};
use super::primes::parse_prime;

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The prime, e.g. "(2^63+2^34)^8+1".
    #[arg(long)]
    pub prime: String,
    /// Smallest log2 N [default: 16 on GPUs, 10 on CPUs].
    #[arg(long)]
    pub min_log: Option<u32>,
    /// Largest log2 N [default: 24 on GPUs (20 for k ≥ 32), 14 on CPUs, at most the prime's bound].
    #[arg(long)]
    pub max_log: Option<u32>,
    /// Timed runs per variant and size, after 3 warm-up runs [default: 10 on GPUs, 3 on CPUs].
    #[arg(long)]
    pub reps: Option<usize>,
    /// Radix of the kernels [default: each size's, as plans take it: 2 for k = 16, else 4, but 2 for k = 8 from 2^17 on NVIDIA].
    #[arg(long)]
    pub radix: Option<u32>,
    /// Variants to time, e.g. local,table (each with its fused form, where it has one) [default: every variant of the prime]; the default is always timed.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub variant: Vec<VariantArg>,
    /// Print the measurements without writing the wisdom file.
    #[arg(long)]
    pub dry_run: bool,
    /// From the second size on, skip the variants that took more than this many times the fastest at the size before, or did not run there (0: time every variant at every size).
    #[arg(long, default_value_t = 3.0, value_name = "FACTOR")]
    pub prune: f64,
    #[command(flatten)]
    pub dev: DeviceOpts,
}

pub fn tune(args: TuneArgs) -> Result<()> {
    let session = args.dev.session()?;
    let prime = parse_prime(&args.prime)?;
    // no --radix: each size's default (Fft::radix_for), whose kernels its wisdom applies to
    let radix = args.radix.map(parse_radix).transpose()?;
    let gpu = session.device().is_gpu();
    let min_log = args.min_log.unwrap_or(if gpu { 16 } else { 10 }).max(1);
    let max_log = args
        .max_log
        .unwrap_or(if !gpu {
            14
        } else if prime.k() >= 32 {
            20
        } else {
            24
        })
        .min(prime.two_adicity());
    if min_log > max_log {
        bail!("no size to tune: --min-log {min_log} is above the largest log2 N {max_log} (the prime allows 2^{})", prime.two_adicity());
    }
    let reps = args.reps.unwrap_or(if gpu { 10 } else { 3 }).max(1);
    let only: Vec<Variant> = args.variant.iter().map(|&v| check_variant(&prime, v)).collect::<Result<_>>()?;
    let path = if args.dry_run { None } else { Some(args.dev.wisdom_file(&session)?) };
    // the file as it is now (another prime's or device's entries are kept)
    let mut wisdom = match &path {
        Some(p) => Wisdom::read(p)?,
        None => Wisdom::empty(),
    };
    let which = if only.is_empty() {
        "every variant".to_string()
    } else {
        format!("the {} variant(s) and the default", only.iter().map(|v| v.name()).collect::<Vec<_>>().join(", "))
    };
    eprintln!(
        "timing {which} of {prime} ({}) on {}, N = 2^{min_log} … 2^{max_log}, {reps} runs each",
        radix.map_or("each size's default radix".to_string(), |r| format!("radix {}", r.number())),
        session.device().describe()
    );
    println!("{:>6}  {:<16} {:>10}  {:<16} {:>10} {:>7}  {:<16} timed", "log_n", "default", "ms", "fastest", "ms", "gain", "recorded");
    if !(args.prune == 0.0 || args.prune >= 1.0) || !args.prune.is_finite() {
        bail!("--prune {}: a factor of at least 1, or 0 to time every variant at every size", args.prune);
    }
    let mut previous = None;
    for log_n in min_log..=max_log {
        let sel = Selection { only: &only, after: previous.as_ref().map(|p| (p, args.prune)) };
        let t = measure(&session, &prime, radix, log_n, reps, sel)?;
        let mut others: Vec<String> = t
            .timings
            .iter()
            .map(|x| match &x.ms {
                Ok(ms) => format!("{} {ms:.4}", x.candidate.label()),
                Err(why) if why.starts_with(PRUNED) => format!("{} ({why})", x.candidate.label()),
                Err(_) => format!("{} -", x.candidate.label()),
            })
            .collect();
        // why the candidates that could not run did not (the first reason; they share it as a rule)
        if let Some(why) = t.timings.iter().filter_map(|x| x.ms.as_ref().err()).find(|w| !w.starts_with(PRUNED)) {
            others.push(format!("(not run: {why})"));
        }
        record(&mut wisdom, &session, &prime, &t);
        let kept = match t.choice() {
            Some((c, _, _)) if c == t.default => format!("{} (default)", c.label()),
            Some((c, _, _)) => c.label(),
            None => "-".to_string(),
        };
        match (t.best(), t.default_ms()) {
            (Some((best, ms)), Some(dms)) => println!(
                "{log_n:>6}  {:<16} {dms:>10.4}  {:<16} {ms:>10.4} {:>6.1}%  {kept:<16} {}",
                t.default.label(),
                best.label(),
                100.0 * (ms / dms - 1.0),
                others.join(", ")
            ),
            _ => println!(
                "{log_n:>6}  {:<16} {:>10}  {:<16} {:>10} {:>7}  {kept:<16} {}",
                t.default.label(),
                "-",
                "-",
                "-",
                "-",
                others.join(", ")
            ),
        }
        if let Some(p) = &path {
            // after every size, so that an interrupted run keeps what it measured
            wisdom.write(p)?;
        }
        previous = Some(t);
    }
    match &path {
        Some(p) => eprintln!(
            "wrote {} ({} entries for this device); plans that choose no variant take them (--wisdom off: the built-in defaults)",
            p.display(),
            wisdom.entries_for(&srgfn::device_key(session.device()))
        ),
        None => eprintln!("--dry-run: nothing written"),
    }
    Ok(())
}
