//! `srgfn batch`: a batch of transforms or polynomial products spread over
//! several devices, timed with the data resident on them, against the first
//! device alone, with both results compared word for word.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::Args;
use num_bigint::{BigUint, RandBigInt};
use rand::SeedableRng;
use rayon::prelude::*;
use serde_json::{json, Value};
use srgfn::{Devices, MultiFft, MultiPlan, MultiVec, ProgramCache};
use srgfn_gen::Prime;

use super::opts::KernelOpts;
use super::primes::parse_prime;
use super::report::{fmt_ms, round3};
use super::size::Size;
use super::verify::{check_product, check_transform};

/// Warm-up runs before the timed ones.
const WARM: usize = 3;

#[derive(Args, Debug)]
pub struct BatchArgs {
    /// The prime, e.g. "(2^63+2^34)^8+1" (see `srgfn primes list`).
    #[arg(long)]
    pub prime: String,
    /// Transform size N, a power of two, written 1048576, 2^20 or 1M.
    #[arg(long)]
    pub n: Size,
    /// Vectors (transforms, or products with --products) in the batch, 1 … 2^20.
    #[arg(long, default_value = "8")]
    pub batch: Size,
    /// Devices: `all` (every GPU, else every device) or a list of indices or names, e.g. 0,1 (see `srgfn devices`).
    #[arg(long, default_value = "all")]
    pub devices: String,
    /// Multiply pairs of random polynomials of N/2 coefficients instead of transforming (two forward transforms, the pointwise product and one inverse each).
    #[arg(long)]
    pub products: bool,
    /// Timed runs, after 3 warm-up runs.
    #[arg(long, default_value = "10")]
    pub reps: Size,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the devices, times, speed-up and the comparison as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Do not read or write the on-disk program cache (~/.cache/srgfn or SRGFN_CACHE_DIR).
    #[arg(long)]
    pub no_cache: bool,
    #[command(flatten)]
    pub kernel: KernelOpts,
}

/// `batch` vectors of `n` values below p, the first `len` of each random
/// (seeded per vector, so the values do not depend on the thread count), the rest 0.
fn random_vectors(prime: &Prime, n: usize, batch: usize, len: usize, seed: u64) -> Vec<BigUint> {
    let p = prime.modulus();
    (0..batch)
        .into_par_iter()
        .flat_map_iter(|v| {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ v as u64);
            (0..n).map(move |i| if i < len { rng.gen_biguint_below(p) } else { BigUint::default() }).collect::<Vec<_>>()
        })
        .collect()
}

/// One configuration's run: its result (downloaded after one operation) and
/// the median and all times of the timed runs, in ms.
struct Run {
    result: Vec<BigUint>,
    median_ms: f64,
    times_ms: Vec<f64>,
    shares: Vec<usize>,
}

/// The work on resident data: forward transforms, or products a ← a·b.
fn operate(plan: &mut MultiPlan, a: &mut MultiVec, b: Option<&mut MultiVec>) -> srgfn::Result<()> {
    match b {
        None => plan.forward(a)?,
        Some(b) => {
            plan.forward(a)?;
            plan.forward(b)?;
            plan.pointwise_mul(a, b)?;
            plan.inverse(a)?;
        }
    }
    plan.finish()
}

/// Uploads the inputs, runs the operation once for the result, then times it.
fn run_on(fft: &MultiFft, n: usize, batch: usize, inputs: &(Vec<BigUint>, Option<Vec<BigUint>>), reps: usize) -> Result<Run> {
    let mut plan = fft.plan(n, batch)?;
    let mut a = plan.upload(&inputs.0)?;
    let mut b = inputs.1.as_ref().map(|b| plan.upload(b)).transpose()?;
    operate(&mut plan, &mut a, b.as_mut())?;
    let result = plan.download(&a)?;
    for _ in 0..WARM {
        operate(&mut plan, &mut a, b.as_mut())?;
    }
    let mut times_ms: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            operate(&mut plan, &mut a, b.as_mut()).map(|_| t.elapsed().as_secs_f64() * 1e3)
        })
        .collect::<srgfn::Result<_>>()?;
    let mut sorted = times_ms.clone();
    sorted.sort_by(f64::total_cmp);
    let median_ms = sorted[sorted.len() / 2];
    times_ms.iter_mut().for_each(|t| *t = round3(*t));
    Ok(Run { result, median_ms, times_ms, shares: plan.shares().iter().map(|s| s.len()).collect() })
}

pub fn batch(args: BatchArgs) -> Result<()> {
    let prime = parse_prime(&args.prime)?;
    let log_n = args.n.pow2("N")?;
    let n = 1usize << log_n;
    let batch = args.batch.count("--batch", 1, 1 << 20)? as usize;
    let reps = args.reps.count("--reps", 1, 10_000)? as usize;
    let opts = args.kernel.options(&prime)?;
    let cache = if args.no_cache { ProgramCache::disabled() } else { ProgramCache::from_env()? };
    let devices = Devices::open(&args.devices, &cache)?;
    let names: Vec<String> = devices.sessions().iter().map(|s| s.device().describe()).collect();
    let what = if args.products { "products of N/2 coefficients" } else { "forward transforms" };
    eprintln!("batch of {batch} {what}, N = 2^{log_n}, over {prime} on {} device(s):", devices.len());
    for (i, name) in names.iter().enumerate() {
        eprintln!("  {i}: {name}");
    }

    let many = MultiFft::new(&devices, &prime, opts)?;
    eprintln!("compiling the kernels of N = 2^{log_n} on {} device(s) (cached afterwards)", devices.len());
    many.prepare(n)?;
    let t = Instant::now();
    let len = if args.products { n / 2 } else { n };
    let inputs = (
        random_vectors(&prime, n, batch, len, args.seed),
        args.products.then(|| random_vectors(&prime, n, batch, len, args.seed.wrapping_add(1))),
    );
    eprintln!("inputs: {} elements in {}", inputs.0.len() * if args.products { 2 } else { 1 }, fmt_ms(t.elapsed().as_secs_f64() * 1e3));

    let all = run_on(&many, n, batch, &inputs, reps)?;
    // the first device alone, when there are several: time and word-for-word comparison
    let one = if devices.len() > 1 {
        let first = Devices::new(vec![devices.sessions()[0].clone()])?;
        match run_on(&MultiFft::new(&first, &prime, opts)?, n, batch, &inputs, reps) {
            Ok(run) => Some(Ok(run)),
            Err(e) => Some(Err(format!("{e:#}"))),
        }
    } else {
        None
    };

    // the host reference at random points of one random vector
    let p = prime.modulus();
    let v = (args.seed as usize) % batch;
    let range = v * n..(v + 1) * n;
    let verified = if args.products {
        let c = &all.result[range.start..range.end - 1];
        check_product(
            &inputs.0[range.start..range.start + len],
            &inputs.1.as_ref().expect("products")[range.start..range.start + len],
            c,
            p,
        )
    } else {
        let omega = prime.root_of_unity(log_n)?;
        check_transform(&inputs.0[range.clone()], &omega, false, p, |j| Ok(all.result[range.start + j].clone()))?
    };

    println!("{:<12} {:>16} {:>12} {:>9}", "devices", "vectors", "median ms", "speed-up");
    let shares = |s: &[usize]| s.iter().map(usize::to_string).collect::<Vec<_>>().join("+");
    let mut identical = None;
    let mut one_json = Value::Null;
    match &one {
        Some(Ok(run)) => {
            println!("{:<12} {:>16} {:>12.3} {:>9.2}", "1 (the first)", batch, run.median_ms, 1.0);
            identical = Some(run.result == all.result);
            one_json = json!({ "median_ms": round3(run.median_ms), "times_ms": run.times_ms });
        }
        Some(Err(why)) => println!("{:<12} not run: {why}", "1 (the first)"),
        None => {}
    }
    let speedup = match &one {
        Some(Ok(run)) => run.median_ms / all.median_ms,
        _ => 1.0,
    };
    println!("{:<12} {:>16} {:>12.3} {:>9.2}", devices.len(), shares(&all.shares), all.median_ms, speedup);
    println!("exchange between devices: none (the vectors of a batch are independent)");
    if let Some(same) = identical {
        println!("results on 1 and {} devices: {}", devices.len(), if same { "identical, word for word" } else { "DIFFERENT" });
    }
    println!("host reference at {} random points of vector {v}: {}", super::verify::POINTS, if verified { "agrees" } else { "DISAGREES" });
    if let Some(path) = &args.json {
        let out = json!({
            "prime": prime.to_string(), "n": n, "batch": batch, "operation": if args.products { "product" } else { "forward" },
            "devices": names, "reps": reps,
            "all": { "shares": all.shares, "median_ms": round3(all.median_ms), "times_ms": all.times_ms },
            "one": one_json, "speedup": round3(speedup), "identical": identical, "verified": verified,
        });
        srgfn::io::write_atomic(path, serde_json::to_string_pretty(&out)?.as_bytes())?;
    }
    if identical == Some(false) || !verified {
        bail!("the batch on {} devices is wrong (see above)", devices.len());
    }
    Ok(())
}
