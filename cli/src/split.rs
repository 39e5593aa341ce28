//! `srgfn split`: one transform or polynomial product of size N split over
//! the devices by the four-step decomposition (srgfn::FourStep), host memory
//! to host memory, timed against the first device alone (a whole plan where
//! it fits, else the split streamed through that one device), with both
//! results compared word for word.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::Args;
use rayon::prelude::*;
use serde_json::{json, Value};
use srgfn::{Devices, Fft, FourStep, FourStepStats, MultiFft, ProgramCache};
use srgfn_gen::{Field, Prime};

use super::opts::KernelOpts;
use super::primes::parse_prime;
use super::report::{fmt_ms, round3};
use super::size::Size;
use super::verify::{check_product, check_transform, values_of};

/// Above this N the results are checked at their end coefficients (products)
/// or X_0 (transforms) instead of at random points (which take O(N) integer
/// products per point and the whole vector as integers).
const POINT_CHECK_MAX_LOG_N: u32 = 22;

#[derive(Args, Debug)]
pub struct SplitArgs {
    /// The prime, e.g. "(2^63+2^34)^8+1" (see `srgfn primes list`).
    #[arg(long)]
    pub prime: String,
    /// Transform size N, a power of two, written 2^28, 268435456 or 256M; products multiply two polynomials of N/2 coefficients.
    #[arg(long)]
    pub n: Size,
    /// Devices: `all` (every GPU, else every device) or a list of indices or names, e.g. 0,1 (see `srgfn devices`).
    #[arg(long, default_value = "all")]
    pub devices: String,
    /// A polynomial product instead of a forward transform.
    #[arg(long)]
    pub products: bool,
    /// Elements per chunk, a power of two of at least N2 (default: as many as fit every device).
    #[arg(long)]
    pub chunk: Option<Size>,
    /// Timed runs after the first (which gives the result and builds the kernels).
    #[arg(long, default_value = "3")]
    pub reps: Size,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the devices, times, the split's traffic and the comparison as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Do not read or write the on-disk program cache (~/.cache/srgfn or SRGFN_CACHE_DIR).
    #[arg(long)]
    pub no_cache: bool,
    #[command(flatten)]
    pub kernel: KernelOpts,
}

/// The inputs: x (N elements) or the factors (N/2 elements each), digit words.
enum Inputs {
    Transform(Vec<u64>),
    Product(Vec<u64>, Vec<u64>),
}

/// One configuration: its result, median and times (ms, host to host), and
/// the split's statistics of the last run (None for a whole plan).
struct Run {
    /// The result's words, dropped (None) after the first run where host memory is short.
    result: Option<Vec<u64>>,
    /// A digest of the result's words (see [`digest`]).
    digest: u64,
    median_ms: f64,
    times_ms: Vec<f64>,
    stats: Option<FourStepStats>,
    how: String,
}

/// Runs `op` once for the result, then `reps` times for the times.  The
/// result is kept only where host memory holds it besides the later runs
/// (`held` bytes each, twice over for the split's arrays); its digest always.
fn timed(
    reps: usize,
    how: String,
    held: u128,
    check: impl FnOnce(&[u64]) -> Result<()>,
    mut op: impl FnMut() -> srgfn::Result<(Vec<u64>, Option<FourStepStats>)>,
) -> Result<Run> {
    let keep = srgfn::memory::host_available().is_none_or(|free| free as u128 >= 4 * held);
    let (result, _) = op()?;
    let digest = digest(&result);
    check(&result)?;
    let result = keep.then_some(result);
    let mut times_ms = Vec::with_capacity(reps);
    let mut stats = None;
    for _ in 0..reps {
        let t = Instant::now();
        let (_, s) = op()?;
        times_ms.push(round3(t.elapsed().as_secs_f64() * 1e3));
        stats = s;
    }
    let mut sorted = times_ms.clone();
    sorted.sort_by(f64::total_cmp);
    Ok(Run { result, digest, median_ms: sorted[sorted.len() / 2], times_ms, stats, how })
}

/// A 64-bit digest of words (SipHash of every block of 2^17 words, then of
/// the blocks' hashes in order), to compare results too large to keep twice.
fn digest(words: &[u64]) -> u64 {
    use std::hash::{Hash, Hasher};
    let hash = |w: &[u64]| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        w.hash(&mut h);
        h.finish()
    };
    let blocks: Vec<u64> = words.par_chunks(1 << 17).map(hash).collect();
    hash(&blocks)
}

/// The split's operation on `inputs`, with its statistics.
fn on_split(split: &FourStep, inputs: &Inputs) -> srgfn::Result<(Vec<u64>, Option<FourStepStats>)> {
    let out = match inputs {
        Inputs::Transform(x) => split.forward_digits(x)?,
        Inputs::Product(a, b) => split.product_digits(a, b)?,
    };
    Ok((out, Some(split.stats())))
}

/// The first device alone: a whole plan (upload, transform or product, download) where it fits.
fn on_one(fft: &Fft, n: usize, inputs: &Inputs) -> srgfn::Result<(Vec<u64>, Option<FourStepStats>)> {
    match inputs {
        Inputs::Transform(x) => {
            let mut plan = fft.plan(n, 1)?;
            let mut v = plan.upload_digit_words(x)?;
            plan.forward(&mut v)?;
            Ok((plan.download_digit_words(&v, n)?, None))
        }
        Inputs::Product(a, b) => Ok((fft.poly_mul_digits(a, b)?, None)),
    }
}

/// Whether the result agrees with its definition: at random points up to
/// 2^[`POINT_CHECK_MAX_LOG_N`], else at its ends (c_0 = a_0·b_0 and the top
/// coefficient, or X_0 = Σ x_i).
fn verify(prime: &Prime, field: &Field, log_n: u32, inputs: &Inputs, c: &[u64]) -> Result<(bool, &'static str)> {
    let (k, p) = (prime.k(), prime.modulus());
    let elem = |w: &[u64], i: usize| w[i * k..(i + 1) * k].to_vec();
    let small = log_n <= POINT_CHECK_MAX_LOG_N;
    Ok(match inputs {
        Inputs::Product(a, b) if small => {
            (check_product(&values_of(a, field)?, &values_of(b, field)?, &values_of(c, field)?, p), "at 2 random points")
        }
        Inputs::Product(a, b) => {
            let (la, lb) = (a.len() / k, b.len() / k);
            let ends =
                field.mul(&elem(a, 0), &elem(b, 0)) == elem(c, 0) && field.mul(&elem(a, la - 1), &elem(b, lb - 1)) == elem(c, la + lb - 2);
            (ends, "at c_0 and the top coefficient")
        }
        Inputs::Transform(x) if small => {
            let omega = prime.root_of_unity(log_n)?;
            let xs = values_of(x, field)?;
            (check_transform(&xs, &omega, false, p, |j| Ok(field.to_biguint(&elem(c, j))?))?, "at 2 random points")
        }
        Inputs::Transform(x) => {
            let sum = x.par_chunks(k).map(<[u64]>::to_vec).reduce(|| field.zero(), |s, e| field.add(&s, &e));
            (sum == elem(c, 0), "at X_0 = Σ x_i")
        }
    })
}

fn run_json(run: &Run) -> Value {
    let stats = run.stats.as_ref().map(|s| {
        json!({
            "total_ms": round3(s.total_ms),
            "steps": s.steps.iter().map(|(name, ms)| json!({ "step": name, "ms": round3(*ms) })).collect::<Vec<_>>(),
            "transfer_ms": s.transfer_ms.iter().map(|&t| round3(t)).collect::<Vec<_>>(),
            "compute_ms": s.compute_ms.iter().map(|&t| round3(t)).collect::<Vec<_>>(),
            "chunks": s.chunks, "bytes": s.bytes as u64,
        })
    });
    json!({ "how": run.how, "median_ms": round3(run.median_ms), "times_ms": run.times_ms, "split": stats })
}

pub fn split(args: SplitArgs) -> Result<()> {
    let prime = parse_prime(&args.prime)?;
    let field = Field::new(&prime);
    let log_n = args.n.pow2("N")?;
    let n = 1usize << log_n;
    let reps = args.reps.count("--reps", 1, 1000)? as usize;
    let chunk = args.chunk.map(|c| c.pow2("--chunk").map(|l| 1usize << l)).transpose()?;
    let opts = args.kernel.options(&prime)?;
    let cache = if args.no_cache { ProgramCache::disabled() } else { ProgramCache::from_env()? };
    let devices = Devices::open(&args.devices, &cache)?;
    let names: Vec<String> = devices.sessions().iter().map(|s| s.device().describe()).collect();
    let many = MultiFft::new(&devices, &prime, opts)?;
    let split = many.four_step(n, chunk)?;
    let (n1, n2) = split.split();
    let what = if args.products { "product of two polynomials of N/2 coefficients" } else { "forward transform" };
    eprintln!(
        "one {what}, N = 2^{log_n} over {prime}, split as {n1} × {n2} in chunks of {} elements over {} device(s):",
        split.chunk(),
        devices.len()
    );
    for (i, name) in names.iter().enumerate() {
        eprintln!("  {i}: {name}");
    }
    let kinds = devices.sessions().iter().map(|s| s.device().is_gpu());
    if kinds.clone().any(|g| g) && kinds.clone().any(|g| !g) {
        eprintln!("note: the list mixes GPUs and other devices (`srgfn devices` numbers every platform's): a CPU's chunks take far longer; `--devices all` takes the GPUs only");
    }
    // the inputs, host memory checked first (the split checks its own arrays)
    let k = prime.k();
    srgfn::memory::check_host("the random inputs", srgfn::memory::element_bytes(k, n as u128))?;
    let t = Instant::now();
    let first = &many.ffts()[0];
    let inputs = if args.products {
        Inputs::Product(srgfn::bench::random_words(first, n / 2, args.seed), srgfn::bench::random_words(first, n / 2, args.seed ^ 1))
    } else {
        Inputs::Transform(srgfn::bench::random_words(first, n, args.seed))
    };
    eprintln!("inputs: {n} elements in {}", fmt_ms(t.elapsed().as_secs_f64() * 1e3));

    let held = srgfn::memory::element_bytes(k, n as u128);
    let mut verdict = (false, "");
    let all = timed(
        reps,
        format!("split over {} device(s)", devices.len()),
        held,
        |c| {
            verdict = verify(&prime, &field, log_n, &inputs, c)?;
            Ok(())
        },
        || on_split(&split, &inputs),
    )?;
    let (verified, how) = verdict;
    drop(split);
    // the first device alone (when there are several): a whole plan where it fits, else the split on it
    let one = if devices.len() > 1 {
        let one = Fft::with_options(&devices.sessions()[0], &prime, opts)?;
        let vectors = if args.products { 2 } else { 1 };
        let need = srgfn::memory::plan_need_split(&prime, one.variant(), n as u128, 1, vectors, one.max_buffer()).0;
        let whole_fits = srgfn::memory::check("", need, Some(one.session().device()), "").is_ok();
        let run = if whole_fits {
            timed(reps, "whole plan on the first device".into(), held, |_| Ok(()), || on_one(&one, n, &inputs))
        } else {
            let alone = one.four_step(n, chunk)?;
            timed(reps, "split on the first device alone".into(), held, |_| Ok(()), || on_split(&alone, &inputs))
        };
        Some(run.map_err(|e| format!("{e:#}")))
    } else {
        None
    };

    println!("{:<36} {:>12} {:>12} {:>9}", "run", "median ms", "transfer ms", "speed-up");
    let transfer =
        |r: &Run| r.stats.as_ref().map_or("–".to_string(), |s| format!("{:.1}", s.transfer_ms.iter().cloned().fold(0.0, f64::max)));
    let mut identical = None;
    let speedup = match &one {
        Some(Ok(run)) => {
            println!("{:<36} {:>12.1} {:>12} {:>9.2}", run.how, run.median_ms, transfer(run), 1.0);
            identical = Some(match (&run.result, &all.result) {
                (Some(a), Some(b)) => (a == b, "identical, word for word"),
                _ => (run.digest == all.digest, "identical (equal 64-bit digests of the words; too large to hold both)"),
            });
            run.median_ms / all.median_ms
        }
        Some(Err(why)) => {
            println!("{:<36} not run: {why}", "the first device alone");
            1.0
        }
        None => 1.0,
    };
    println!("{:<36} {:>12.1} {:>12} {:>9.2}", all.how, all.median_ms, transfer(&all), speedup);
    if let Some(s) = &all.stats {
        let steps: Vec<String> = s.steps.iter().map(|(name, ms)| format!("{name} {}", fmt_ms(*ms))).collect();
        println!("steps: {}", steps.join(", "));
        println!(
            "exchange through host memory: {} moved; per device {} ms moving data, {} ms of kernels, chunks {:?}",
            srgfn::memory::human(s.bytes),
            s.transfer_ms.iter().map(|t| format!("{t:.1}")).collect::<Vec<_>>().join(" / "),
            s.compute_ms.iter().map(|t| format!("{t:.1}")).collect::<Vec<_>>().join(" / "),
            s.chunks
        );
    }
    if let Some((same, how)) = identical {
        println!("results of the two runs: {}", if same { how } else { "DIFFERENT" });
    }
    println!("host reference {how}: {}", if verified { "agrees" } else { "DISAGREES" });
    if let Some(path) = &args.json {
        let out = json!({
            "prime": prime.to_string(), "n": n, "operation": if args.products { "product" } else { "forward" },
            "devices": names, "reps": reps, "split": [n1, n2],
            "all": run_json(&all),
            "one": match &one { Some(Ok(run)) => run_json(run), Some(Err(why)) => json!({ "error": why }), None => Value::Null },
            "speedup": round3(speedup), "identical": identical.map(|(same, _)| same), "compared": identical.map(|(_, how)| how), "verified": verified, "verified_how": how,
        });
        srgfn::io::write_atomic(path, serde_json::to_string_pretty(&out)?.as_bytes())?;
    }
    if identical.is_some_and(|(same, _)| !same) || !verified {
        bail!("the split result is wrong (see above)");
    }
    Ok(())
}
