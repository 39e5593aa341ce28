//! `srgfn plan`, `srgfn fft`, `srgfn random`, and the element files they read and write.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Result};
use clap::Args;
use num_bigint::{BigUint, RandBigInt};
use rand::SeedableRng;
use rayon::prelude::*;
use serde_json::json;
use srgfn::io::{file_len, read_bin, read_text, write_bin, write_text};
use srgfn::{Fft, FftOptions, Session};
use srgfn_gen::emit::{check_fuse, default_radix, plan_halves, plan_shape, variants_for};
use srgfn_gen::{Field, Prime};

use super::opts::{ChainArg, DeviceOpts, Format, FuseArg, HalvesArg, KernelOpts, OutputOpts};
use super::primes::parse_prime;
use super::progress::{Step, Unit};
use super::report::{check_json_target, conclude, fmt_ms, round3, Phases};
use super::size::Size;
use super::verify::{check_transform, values_of};

/// Largest count of `srgfn random` and of `--random`.
const MAX_RANDOM: u64 = 1 << 30;

/// Files from this size on announce their reading off a terminal.
const LONG_FILE_BYTES: u64 = 32 << 20;

/// Digit words from which writing (or a transform on a CPU) announces itself.
const LONG_WORDS: usize = 1 << 21;

#[derive(Args, Debug)]
pub struct PlanArgs {
    /// The prime, e.g. "(2^63+2^34)^8+1" (see `srgfn primes list`).
    #[arg(long)]
    pub prime: String,
    /// Transform size N, a power of two, written 1048576, 2^20 or 1M.
    #[arg(long)]
    pub n: Size,
    /// Vectors transformed together (1 … 2^20), written like sizes.
    #[arg(long, default_value = "1")]
    pub batch: Size,
    /// Print the plan as JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Two passes per launch, as the default kernels (the prime's default radix and variant) run them [default: where measured faster].
    #[arg(long, value_enum)]
    pub fuse: Option<FuseArg>,
    /// Later launches as two halves side by side on two queues [default: on where a plan has at least two such launches of 2^21 digits or more, 2^22 for k = 64 and 128].
    #[arg(long, value_enum)]
    pub halves: Option<HalvesArg>,
    /// Halves from the first launch of a forward transform from the superblock order [default: on from 2^23 digits (N·k) where the plan runs in halves, the later launches in quarters up to 2^24 digits].
    #[arg(long, value_enum)]
    pub chain: Option<ChainArg>,
}

#[derive(Args, Debug)]
pub struct FftArgs {
    /// The prime, e.g. "(2^63+2^34)^8+1" (see `srgfn primes list`).
    #[arg(long)]
    pub prime: String,
    /// Input file; N is its number of elements, a power of two.
    #[arg(long, conflicts_with = "random")]
    pub input: Option<PathBuf>,
    /// Transform N random elements instead of a file (N a power of two, written 1048576, 2^20 or 1M).
    #[arg(long, value_name = "N")]
    pub random: Option<Size>,
    /// Seed of --random (the same seed gives the same elements).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Inverse transform (ω^{-1}, scaled by 1/N).
    #[arg(long)]
    pub inverse: bool,
    #[command(flatten)]
    pub out: OutputOpts,
    #[command(flatten)]
    pub dev: DeviceOpts,
    #[command(flatten)]
    pub kernel: KernelOpts,
}

#[derive(Args, Debug)]
pub struct RandomArgs {
    /// The prime, e.g. "(2^63+2^34)^8+1" (see `srgfn primes list`).
    #[arg(long)]
    pub prime: String,
    /// Number of elements (1 … 2^30), written 1000, 2^20 or 1M.
    #[arg(long)]
    pub count: Size,
    /// Seed of the generator (the same seed gives the same elements).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output file (default: standard output); written atomically.
    #[arg(long)]
    pub output: Option<PathBuf>,
    /// Format of the output file.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Elements of a file: values (text files) or canonical digit words (binary
/// files, k per element, element after element).
pub enum Elements {
    Values(Vec<BigUint>),
    Words(Vec<u64>),
}

impl Elements {
    pub fn len(&self, k: usize) -> usize {
        match self {
            Elements::Values(v) => v.len(),
            Elements::Words(w) => w.len() / k,
        }
    }

    /// The values (converted on every core from digit words).
    pub fn values(&self, field: &Field) -> Result<std::borrow::Cow<'_, [BigUint]>> {
        Ok(match self {
            Elements::Values(v) => v.into(),
            Elements::Words(w) => values_of(w, field)?.into(),
        })
    }

    /// Element i as a value.
    pub fn value(&self, i: usize, field: &Field) -> Result<BigUint> {
        Ok(match self {
            Elements::Values(v) => v[i].clone(),
            Elements::Words(w) => field.to_biguint(&w[i * field.k()..(i + 1) * field.k()])?,
        })
    }
}

/// Reads an element file, with progress.
pub fn read_elements(path: &Path, field: &Field, format: Format) -> Result<Elements> {
    let len = file_len(path);
    let step = Step::start(format!("reading {}", path.display()), len, Unit::Bytes, len >= LONG_FILE_BYTES);
    Ok(match format {
        Format::Text => Elements::Values(read_text(path, field.prime(), &step.counter())?),
        Format::Bin => Elements::Words(read_bin(path, field, &step.counter())?),
    })
}

/// Writes elements in a format (to standard output when `path` is None), with progress.
pub fn write_elements(path: Option<&Path>, elems: &Elements, format: Format, field: &Field) -> Result<()> {
    let n = elems.len(field.k());
    let name = path.map_or("standard output".to_string(), |p| p.display().to_string());
    let step = Step::start(format!("writing {name}"), n as u64, Unit::Items, n * field.k() >= LONG_WORDS);
    match (format, elems) {
        (Format::Text, _) => Ok(write_text(path, &elems.values(field)?, &step.counter())?),
        (Format::Bin, Elements::Words(w)) => Ok(write_bin(path, w, &step.counter())?),
        (Format::Bin, Elements::Values(v)) => {
            let words: Vec<u64> = v.par_iter().map(|x| field.from_biguint(x)).collect::<Result<Vec<_>, _>>()?.concat();
            Ok(write_bin(path, &words, &step.counter())?)
        }
    }
}

/// `--verify` when asked (`check` says whether the result is right), then the
/// output, written unless the check failed; returns the check's result.
pub fn verify_and_write(
    out: &OutputOpts,
    result: &Elements,
    field: &Field,
    phases: &mut Phases,
    long: bool,
    check: impl FnOnce() -> Result<bool>,
) -> Result<Option<bool>> {
    let verified = if out.verify {
        let _step = Step::spinner("verifying at 2 random points", long);
        let ok = check()?;
        phases.mark("verify");
        Some(ok)
    } else {
        None
    };
    if verified != Some(false) {
        write_elements(out.output.as_deref(), result, out.format, field)?;
        phases.mark("write");
    }
    Ok(verified)
}

/// Runs `read` while the device opens on another thread; a read error is
/// reported first (bad input needs no device).  Returns the result, the
/// session and how long opening the device took in ms.
pub fn read_while_opening<T>(dev: &DeviceOpts, read: impl FnOnce() -> Result<T>) -> Result<(T, Session, f64)> {
    std::thread::scope(|s| {
        let opening = s.spawn(|| {
            let t = Instant::now();
            dev.session().map(|session| (session, t.elapsed().as_secs_f64() * 1e3))
        });
        let value = read();
        let opened = opening.join().expect("opening a device does not panic");
        let value = value?;
        let (session, ms) = opened?;
        Ok((value, session, ms))
    })
}

/// Whether a transform of `words` digit words can take seconds on the device.
fn is_long(fft: &Fft, words: usize) -> bool {
    words >= if fft.session().device().is_gpu() { LONG_WORDS << 4 } else { LONG_WORDS / 16 }
}

/// `srgfn random`: uniform random elements below p (reproducible by seed).
pub fn random(args: RandomArgs) -> Result<()> {
    let prime = parse_prime(&args.prime)?;
    let count = args.count.count("--count", 1, MAX_RANDOM)?;
    // the values and their text are held before writing: sized before generating
    let per_element = srgfn::memory::transform_host_bytes_per_element(&prime);
    srgfn::memory::check_host(&format!("--count {count}"), per_element * count as u128)?;
    let field = Field::new(&prime);
    let values = random_values(&prime, count as usize, args.seed);
    write_elements(args.output.as_deref(), &Elements::Values(values), args.format, &field)
}

/// `count` uniform values below p from `seed`.
fn random_values(prime: &Prime, count: usize, seed: u64) -> Vec<BigUint> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    (0..count).map(|_| rng.gen_biguint_below(prime.modulus())).collect()
}

pub fn plan(args: PlanArgs) -> Result<()> {
    let prime = parse_prime(&args.prime)?;
    let log_n = args.n.pow2("N")?;
    let batch = args.batch.count("--batch", 1, 1 << 20)?;
    let variant = variants_for(&prime)[0];
    let fuse = args.fuse.map(FuseArg::on);
    let radix = default_radix(&prime);
    let plain = srgfn_gen::emit::KernelOptions::new(radix, srgfn_gen::emit::MulForm::Wide64);
    check_fuse(&prime, variant, &plain, fuse).map_err(|e| anyhow::anyhow!("--fuse on: {e}"))?;
    let shape = plan_shape(&prime, variant, &plain, fuse, log_n, batch as usize)?;
    // sizes no device can address are refused (the description sums their bytes)
    let need = srgfn::memory::plan_need(&prime, variant, shape.n as u128, batch as u128, 1);
    srgfn::memory::check(&format!("N = 2^{log_n} × batch {batch}"), need, None, "")?;
    // as a plan on a device that holds a third vector (emit::plan_halves)
    let halves = plan_halves(&prime, variant, radix, &shape, args.halves.map(HalvesArg::on), true);
    // the vectors between launches: the first launch's output (emit::digits::PassLayout)
    let element_major = srgfn_gen::emit::digits::PassLayout::of_launch(variant, &shape, 0).output_element_major;
    // the variant and radix this size takes on NVIDIA, where the kernels have PTX (emit::plan_variant,
    // emit::plan_radix)
    let mut with_ptx = srgfn_gen::emit::KernelOptions { ptx: true, ..plain };
    let nvidia = srgfn_gen::emit::plan_variant(&prime, None, log_n, &with_ptx);
    let nvidia_radix = srgfn_gen::emit::plan_radix(&prime, None, None, log_n, &with_ptx);
    with_ptx.radix = nvidia_radix;
    let nvidia_shape = plan_shape(&prime, nvidia, &with_ptx, fuse, log_n, batch as usize)?;
    let nvidia_element_major = srgfn_gen::emit::digits::PassLayout::of_launch(nvidia, &nvidia_shape, 0).output_element_major;
    // the launches that read a twiddle table of their own (emit::launch_tables), as "j (2^m entries)"
    let own_tables = |variant, shape: &srgfn_gen::plan::PlanShape| -> Vec<String> {
        srgfn_gen::emit::launch_tables(variant, shape)
            .iter()
            .enumerate()
            .filter_map(|(j, l)| l.map(|log_m| format!("{} (2^{log_m} entries)", j + 1)))
            .collect()
    };
    if args.json {
        let mut value = serde_json::to_value(&shape)?;
        value["variant"] = serde_json::Value::String(variant.name().to_string());
        value["variant_on_nvidia"] = serde_json::Value::String(nvidia.name().to_string());
        value["expansion_radix"] = serde_json::Value::from(radix.number());
        value["expansion_radix_on_nvidia"] = serde_json::Value::from(nvidia_radix.number());
        value["halves"] = serde_json::to_value(halves)?;
        value["element_major_between_launches"] = serde_json::Value::Bool(element_major);
        value["element_major_between_launches_on_nvidia"] = serde_json::Value::Bool(nvidia_element_major);
        // log2 of each launch's own twiddle table (null: the plan's table), emit::launch_tables
        value["launch_table_logs"] = serde_json::to_value(srgfn_gen::emit::launch_tables(variant, &shape))?;
        value["launch_table_logs_on_nvidia"] = serde_json::to_value(srgfn_gen::emit::launch_tables(nvidia, &nvidia_shape))?;
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        print!("{}", shape.describe());
        if let Some(h) = halves {
            println!(
                "launches {} to {} run as two halves side by side, on two queues: the blocks whose bit {} is 0, and those whose bit {} is 1",
                h.from + 1,
                shape.launches().len(),
                h.shift,
                h.shift
            );
            if h.spare_last {
                println!(
                    "the last launch writes a third vector of its own, so that the queues need not wait for each other before it ({} more device memory; on a device without it they wait, and by default the plan runs whole)",
                    srgfn::memory::human(srgfn::memory::element_bytes(prime.k(), shape.n as u128 * batch as u128))
                );
            }
        }
        if element_major {
            println!(
                "the vectors between launches are element-major (digit d of element e at word e·k + d); the input and output digit-major"
            );
        }
        let own = own_tables(variant, &shape);
        if !own.is_empty() {
            println!(
                "launches {} read twiddle tables of their own, ω_M^j for every exponent j of the launch, and store their products unrotated (emit::launch_tables; where the device holds them)",
                own.join(", ")
            );
        }
        if nvidia != variant || nvidia_radix != radix || nvidia_shape.passes != shape.passes {
            let other = &nvidia_shape;
            let halves = plan_halves(&prime, nvidia, nvidia_radix, other, args.halves.map(HalvesArg::on), true);
            let own = own_tables(nvidia, other);
            // the small radix elsewhere (emit::small_radix_at: second for k = 16's table plans)
            let passes = if other.passes == shape.passes {
                format!("the same {}", other.passes.len())
            } else {
                let radices = other.radices();
                let at = match other.small_radix().and_then(|s| radices.iter().position(|&r| r == s)) {
                    Some(0) => ", the small one first",
                    Some(1) if radices.len() > 2 => ", the small one second",
                    _ => "",
                };
                let list: Vec<String> = radices.iter().map(|r| r.to_string()).collect();
                format!("{} (radices {}{at})", other.passes.len(), list.join(", "))
            };
            let what = if nvidia != variant || nvidia_radix != radix {
                format!(
                    "the {} variant{} instead (emit::plan_variant, emit::plan_radix)",
                    nvidia.name(),
                    if nvidia_radix != radix { format!(" at radix {}", nvidia_radix.number()) } else { String::new() }
                )
            } else {
                format!("the {} variant's plan in another order (emit::plan_shape)", nvidia.name())
            };
            println!(
                "on NVIDIA (kernels with PTX) this size runs {what}: {} passes in {} launches{}{}{}",
                passes,
                other.launches().len(),
                halves.map_or(String::new(), |h| format!(", {} to {} in halves by bit {}", h.from + 1, other.launches().len(), h.shift)),
                if own.is_empty() { String::new() } else { format!("; launches {} read twiddle tables of their own", own.join(", ")) },
                if nvidia_element_major && !element_major { "; the vectors between its launches element-major" } else { "" }
            );
        }
        // vectors uploaded in the superblock order: the first two passes as one launch (emit::first2)
        if let Some(r2) = srgfn_gen::emit::first2::plan_superblock(prime.k(), nvidia, &with_ptx, &nvidia_shape) {
            let which = match srgfn_gen::emit::first2::first2_launches(&nvidia_shape) {
                Some(2) => "launches 1 and 2 as one launch",
                _ => "launch 1 (its first two passes)",
            };
            println!(
                "on NVIDIA the {} variant's plan uploads vectors in the superblock order (superblocks of {r2} consecutive elements; --superblocks off: the natural order), and a forward transform of such a vector runs {which} from that order (emit::first2)",
                nvidia.name()
            );
            // halves from that launch on (plan::Chain), as on a device that holds a third vector
            let halves = plan_halves(&prime, nvidia, nvidia_radix, &nvidia_shape, args.halves.map(HalvesArg::on), true);
            let first = srgfn_gen::emit::first2::first2_launches(&nvidia_shape);
            let chain_choice = args.chain.map_or((None, None), ChainArg::choice);
            if let Some(c) =
                srgfn_gen::emit::first2::plan_chain(&prime, nvidia_radix, &nvidia_shape, halves.as_ref(), first, chain_choice, true)
            {
                let shifts: Vec<String> =
                    (c.first..c.switch()).map(|j| format!("launch {} by bit {}", j + 1, c.shift(&nvidia_shape, j))).collect();
                let (quarters, wait) = match c.low {
                    Some(low) => (
                        format!(", each half of these in quarters by its bit {low} too (--chain halves: not)"),
                        format!(
                            "half b of launch {} first waiting for the two quarters of launch {} whose bit {low} is b",
                            c.switch() + 1,
                            c.switch()
                        ),
                    ),
                    None => (String::new(), "each half first waiting for the other half's last launch".to_string()),
                };
                println!(
                    "that forward transform runs in halves from its first launch on (plan::Chain, a third vector; --chain off: the halves fork after it): the superblocks whose bit {} is 0 and 1, each half on its queue, then {}{quarters}; from launch {} on halves by bit {}, {wait}",
                    c.bit,
                    shifts.join(", "),
                    c.switch() + 1,
                    c.halves_bit()
                );
            }
        }
        // measured choices (srgfn tune) that plans of this size take on the devices they were measured on
        if fuse.is_none() {
            let cache = srgfn::ProgramCache::from_env().unwrap_or_else(|_| srgfn::ProgramCache::disabled());
            if let Some(path) = srgfn::Wisdom::default_path(&cache) {
                let wisdom = srgfn::Wisdom::read(&path)?;
                // entries of kernels with PTX were measured at the radix NVIDIA's plans take
                let mut entries = wisdom.entries_of(&prime.to_string(), radix.number() as u32, log_n);
                if nvidia_radix != radix {
                    entries.retain(|(key, _)| !key.ptx);
                    let on_nvidia = wisdom.entries_of(&prime.to_string(), nvidia_radix.number() as u32, log_n);
                    entries.extend(on_nvidia.into_iter().filter(|(key, _)| key.ptx));
                }
                for (key, c) in entries {
                    println!(
                        "wisdom ({}): on {} ({}) srgfn tune measured the {} variant{} fastest at this size ({:.4} ms against {:.4} for the default); plans there run it",
                        path.display(),
                        key.device,
                        if key.ptx { "kernels with PTX" } else { "kernels without PTX" },
                        c.variant.name(),
                        if c.fuse { " fused" } else { "" },
                        c.ms,
                        c.default_ms
                    );
                }
            }
        }
    }
    Ok(())
}

/// What `fft` and `polymul` check before reading anything: the prime, its
/// field, the kernel options and where the report goes; then the clock starts.
pub struct Start {
    pub prime: Prime,
    pub field: Field,
    pub options: FftOptions,
    pub phases: Phases,
}

pub fn start(prime: &str, kernel: &KernelOpts, out: &OutputOpts) -> Result<Start> {
    let prime = parse_prime(prime)?;
    check_json_target(out.json.as_deref(), out.output.as_deref())?;
    let options = kernel.options(&prime)?;
    Ok(Start { field: Field::new(&prime), prime, options, phases: Phases::start() })
}

pub fn fft(args: FftArgs) -> Result<()> {
    let Start { prime, field, options, mut phases } = start(&args.prime, &args.kernel, &args.out)?;
    let k = prime.k();
    // sized against the device (if any) and the host before generating or reading
    let device = srgfn::select_device(args.dev.device.as_deref()).ok();
    let read = || -> Result<Elements> {
        match (&args.input, &args.random) {
            (Some(path), None) => {
                srgfn::memory::check_input_file(path, &prime, args.out.format == Format::Bin, device.as_ref())?;
                read_elements(path, &field, args.out.format)
            }
            (None, Some(n)) => {
                let log_n = n.pow2("N")?;
                prime.check_log_size(log_n)?;
                srgfn::memory::check_transform(&prime, log_n, device.as_ref())?;
                let count = n.count("--random", 2, MAX_RANDOM)?;
                Ok(Elements::Values(random_values(&prime, count as usize, args.seed)))
            }
            _ => bail!("give --input FILE or --random N"),
        }
    };
    let (input, session, open_ms) = read_while_opening(&args.dev, || {
        let input = read()?;
        phases.mark(if args.input.is_some() { "read" } else { "generate" });
        let n = input.len(k);
        if !n.is_power_of_two() || n < 2 {
            bail!("the input has {n} elements: N must be a power of two, at least 2");
        }
        prime.check_log_size(n.trailing_zeros())?;
        Ok(input)
    })?;
    // the device opened while the input was read: only the wait is a phase
    phases.mark("device");
    let n = input.len(k);
    let fft = Fft::with_options(&session, &prime, options)?;
    let direction = if args.inverse { "inverse" } else { "forward" };
    let long = is_long(&fft, n * k);
    let mut plan = {
        let _step = Step::spinner(format!("preparing the {direction} FFT of N = 2^{} (kernels, twiddles)", n.trailing_zeros()), false);
        if args.inverse {
            // the inverse's scaling too, side by side with the passes (a plan builds the forward's)
            fft.prepare(n)?;
        }
        fft.plan(n, 1)?
    };
    plan.finish()?;
    phases.mark("plan");
    let mut v = match &input {
        Elements::Values(values) => plan.upload(values)?,
        Elements::Words(words) => plan.upload_digit_words(words)?,
    };
    plan.finish()?;
    phases.mark("upload");
    {
        let _step =
            Step::spinner(format!("{direction} FFT of N = 2^{} on {}", n.trailing_zeros(), fft.session().device().name.trim()), long);
        if args.inverse {
            plan.inverse(&mut v)?;
        } else {
            plan.forward(&mut v)?;
        }
        plan.finish()?;
    }
    let transform_ms = phases.mark("transform");
    let output = match args.out.format {
        Format::Text => Elements::Values(plan.download(&v)?),
        Format::Bin => Elements::Words(plan.download_digit_words(&v, n)?),
    };
    phases.mark("download");
    let verified = verify_and_write(&args.out, &output, &field, &mut phases, long, || {
        let omega = prime.root_of_unity(n.trailing_zeros())?;
        check_transform(&input.values(&field)?, &omega, args.inverse, prime.modulus(), |j| output.value(j, &field))
    })?;
    let device = fft.session().device().describe();
    let fields = json!({
        "command": "fft",
        "direction": direction,
        "prime": prime.to_string(),
        "device": device,
        "n": n,
        "log_n": n.trailing_zeros(),
        "format": args.out.format.name(),
        "transform_ms": round3(transform_ms),
    });
    conclude(args.out.json.as_deref(), fields, &phases, open_ms, verified, "an output differs from the definition of the transform")?;
    eprintln!(
        "srgfn: {direction} FFT, N = 2^{} over {prime} on {device}: transform {}{}; total {} ({})",
        n.trailing_zeros(),
        fmt_ms(transform_ms),
        if verified == Some(true) { ", verified at 2 random outputs" } else { "" },
        fmt_ms(phases.total_ms()),
        phases.summary()
    );
    Ok(())
}
