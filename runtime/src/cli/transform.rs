//! `srgfn plan`, `srgfn fft`, `srgfn polymul`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use num_bigint::{BigUint, RandBigInt};
use rand::SeedableRng;
use srgfn::cache::ProgramCache;
use srgfn::io::{encode, read_elements, write_output, Format};
use srgfn::{select_device, DeviceEntry, Fft, FftOptions, Session};
use srgfn_gen::emit::{MulForm, Variant};
use srgfn_gen::plan::PlanShape;
use srgfn_gen::roots::parse_log_size;
use srgfn_gen::{Digits, Prime};

use super::kernels::parse_radix;
use super::primes::parse_prime;

/// Device and kernel options shared by the commands that run kernels.
#[derive(Args, Debug, Clone)]
pub struct DeviceOpts {
    /// Device index or name substring (see `srgfn devices`); default: first GPU, else PoCL.
    #[arg(long, env = "SRGFN_DEVICE")]
    pub device: Option<String>,
    /// Do not read or write the on-disk program cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Radix of the base-case expansion: 2 or 4.
    #[arg(long, default_value_t = 2)]
    pub radix: u32,
    /// Base-case variant: local (k ≤ 32), private (k ≤ 16) or workgroup; default: the first emitted.
    #[arg(long)]
    pub variant: Option<String>,
    /// How f_mul forms its digit products: wide64 or limb22; default: limb22 on GPUs, else wide64 (or SRGFN_MUL).
    #[arg(long)]
    pub mul: Option<String>,
}

impl DeviceOpts {
    pub fn session(&self) -> Result<Session> {
        let cache = if self.no_cache { ProgramCache::disabled() } else { ProgramCache::from_env()? };
        Session::on(select_device(self.device.as_deref())?, cache)
    }

    pub fn fft(&self, prime: &Prime) -> Result<Fft> {
        let variant = match self.variant.as_deref() {
            None => None,
            Some("private") => Some(Variant::Private),
            Some("workgroup") => Some(Variant::Workgroup),
            Some("local") => Some(Variant::Local),
            Some(v) => bail!("unknown variant '{v}': use local, private or workgroup"),
        };
        let mul = self.mul.as_deref().map(MulForm::parse).transpose()?;
        Fft::with_options(&self.session()?, prime, FftOptions { radix: Some(parse_radix(self.radix)?), variant, mul })
    }
}

#[derive(Args, Debug)]
pub struct PlanArgs {
    #[arg(long)]
    pub prime: String,
    /// Transform size N (a power of two, written 1048576 or 2^20).
    #[arg(long)]
    pub n: String,
    #[arg(long, default_value_t = 1)]
    pub batch: usize,
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct FftArgs {
    #[arg(long)]
    pub prime: String,
    /// Input file (N = number of elements, a power of two).
    #[arg(long, conflicts_with = "random")]
    pub input: Option<PathBuf>,
    /// Generate N random elements instead of reading a file.
    #[arg(long)]
    pub random: Option<String>,
    /// Seed of --random.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Inverse transform (ω^{-1}, scaled by 1/N).
    #[arg(long)]
    pub inverse: bool,
    /// Output file (default: standard output); written atomically.
    #[arg(long)]
    pub output: Option<PathBuf>,
    /// Format of the input and output files.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub dev: DeviceOpts,
}

#[derive(Args, Debug)]
pub struct PolymulArgs {
    #[arg(long)]
    pub prime: String,
    /// Coefficients of A, lowest degree first.
    pub a: PathBuf,
    /// Coefficients of B, lowest degree first.
    pub b: PathBuf,
    /// Output file (default: standard output); written atomically.
    #[arg(long)]
    pub output: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Check C(x) = A(x)·B(x) at random points x mod p (probability of a wrong pass ≤ deg/p).
    #[arg(long)]
    pub verify: bool,
    #[command(flatten)]
    pub dev: DeviceOpts,
}

#[derive(Args, Debug)]
pub struct RandomArgs {
    #[arg(long)]
    pub prime: String,
    /// Number of elements (any count ≥ 1).
    #[arg(long)]
    pub count: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long)]
    pub output: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// `srgfn random`: uniform random elements below p (reproducible by seed).
pub fn random(args: RandomArgs) -> Result<()> {
    let prime = parse_prime(&args.prime)?;
    if args.count == 0 || args.count > 1 << 30 {
        bail!("--count must be between 1 and 2^30");
    }
    let per_element = srgfn::memory::transform_host_bytes_per_element(&prime);
    srgfn::memory::check_host(&format!("--count {}", args.count), per_element * args.count as u128)?;
    let field = srgfn_gen::Field::new(&prime);
    let mut rng = rand::rngs::StdRng::seed_from_u64(args.seed);
    let elems: Vec<Digits> =
        (0..args.count).map(|_| field.from_biguint(&rng.gen_biguint_below(prime.modulus()))).collect::<Result<_, _>>()?;
    write_output(args.output.as_deref(), &encode(&elems, &field, args.format)?)
}

fn spinner(msg: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::new_spinner();
    b.set_style(ProgressStyle::with_template("{spinner} {msg} {elapsed}").expect("template"));
    b.set_message(msg.to_string());
    b.enable_steady_tick(Duration::from_millis(120));
    b
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

pub fn plan(args: PlanArgs) -> Result<()> {
    let prime = parse_prime(&args.prime)?;
    let log_n = parse_log_size(&args.n).with_context(|| format!("bad --n '{}'", args.n))?;
    if args.batch == 0 {
        bail!("--batch must be at least 1");
    }
    let shape = PlanShape::new(&prime, log_n, args.batch)?;
    // sizes no device can address are refused (the description sums their bytes)
    let need = srgfn::memory::plan_need(&prime, shape.n as u128, args.batch as u128, 1);
    srgfn::memory::check(&format!("N = 2^{log_n} × batch {}", args.batch), need, None, "")?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&shape)?);
    } else {
        print!("{}", shape.describe());
    }
    Ok(())
}

fn random_elements(prime: &Prime, n: &str, seed: u64, device: Option<&DeviceEntry>) -> Result<Vec<BigUint>> {
    let log_n = parse_log_size(n).with_context(|| format!("bad --random '{n}'"))?;
    prime.check_log_size(log_n)?;
    srgfn::memory::check_transform(prime, log_n, device)?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    Ok((0..1usize << log_n).map(|_| rng.gen_biguint_below(prime.modulus())).collect())
}

pub fn fft(args: FftArgs) -> Result<()> {
    let prime = parse_prime(&args.prime)?;
    let t0 = Instant::now();
    // input first: a bad file is reported before any device is opened
    let field = srgfn_gen::Field::new(&prime);
    // sized against the device (if any) and the host before generating or reading
    let device = select_device(args.dev.device.as_deref()).ok();
    let input: Vec<Digits> = match (&args.input, &args.random) {
        (Some(path), None) => {
            srgfn::memory::check_input_file(path, &prime, args.format == Format::Bin, device.as_ref())?;
            read_elements(path, &field, args.format)?
        }
        (None, Some(n)) => {
            random_elements(&prime, n, args.seed, device.as_ref())?.iter().map(|v| field.from_biguint(v)).collect::<Result<_, _>>()?
        }
        _ => bail!("give --input FILE or --random N"),
    };
    let n = input.len();
    if !n.is_power_of_two() || n < 2 {
        bail!("the input has {n} elements: N must be a power of two, at least 2");
    }
    prime.check_log_size(n.trailing_zeros())?;
    let fft = args.dev.fft(&prime)?;
    let bar = spinner(&format!("{} FFT of N = {n}", if args.inverse { "inverse" } else { "forward" }));
    let mut plan = fft.plan(n, 1)?;
    let mut v = plan.upload_digits(&input)?;
    plan.finish()?;
    let t1 = Instant::now();
    if args.inverse {
        plan.inverse(&mut v)?;
    } else {
        plan.forward(&mut v)?;
    }
    plan.finish()?;
    let t_fft = t1.elapsed();
    let out = plan.download_digits(&v)?;
    bar.finish_and_clear();
    write_output(args.output.as_deref(), &encode(&out, &field, args.format)?)?;
    eprintln!(
        "srgfn: {} FFT, N = 2^{} over {} on {}: {:.3} ms transform, {:.0} ms total",
        if args.inverse { "inverse" } else { "forward" },
        n.trailing_zeros(),
        prime,
        fft.session().device.describe(),
        ms(t_fft),
        ms(t0.elapsed())
    );
    Ok(())
}

/// Horner evaluation of a polynomial at x mod p.
fn eval(poly: &[BigUint], x: &BigUint, p: &BigUint) -> BigUint {
    poly.iter().rev().fold(BigUint::default(), |acc, c| (acc * x + c) % p)
}

pub fn polymul(args: PolymulArgs) -> Result<()> {
    let prime = parse_prime(&args.prime)?;
    let t0 = Instant::now();
    // inputs first: a bad file is reported before any device is opened
    let field = srgfn_gen::Field::new(&prime);
    let device = select_device(args.dev.device.as_deref()).ok();
    for path in [&args.a, &args.b] {
        srgfn::memory::check_input_file(path, &prime, args.format == Format::Bin, device.as_ref())?;
    }
    let (a, b) = (read_elements(&args.a, &field, args.format)?, read_elements(&args.b, &field, args.format)?);
    let fft = args.dev.fft(&prime)?;
    let bar = spinner(&format!("product of {} × {} coefficients", a.len(), b.len()));
    let n = (a.len() + b.len() - 1).next_power_of_two().max(2);
    let t_build = Instant::now();
    fft.prepare(n)?; // kernels compiled or loaded from the cache, outside the timing
    let t_build = t_build.elapsed();
    // digit words in and out: the timed product does no base conversion
    let (wa, wb): (Vec<u64>, Vec<u64>) = (a.concat(), b.concat());
    let t1 = Instant::now();
    let wc = fft.poly_mul_digits(&wa, &wb)?;
    let t_mul = t1.elapsed();
    bar.finish_and_clear();
    let digits: Vec<Digits> = wc.chunks(prime.k()).map(<[u64]>::to_vec).collect();
    if args.verify {
        let p = prime.modulus();
        let to_values = |d: &[Digits]| -> Result<Vec<BigUint>> { d.iter().map(|e| Ok(field.to_biguint(e)?)).collect() };
        let (a, b, c) = (to_values(&a)?, to_values(&b)?, to_values(&digits)?);
        let mut rng = rand::rngs::StdRng::seed_from_u64(t0.elapsed().as_nanos() as u64);
        for _ in 0..2 {
            let x = rng.gen_biguint_below(p);
            if eval(&a, &x, p) * eval(&b, &x, p) % p != eval(&c, &x, p) {
                bail!("verification failed: C(x) ≠ A(x)·B(x) at a random point; the product is wrong");
            }
        }
        eprintln!("srgfn: verified C(x) = A(x)·B(x) at 2 random points mod p");
    }
    write_output(args.output.as_deref(), &encode(&digits, &field, args.format)?)?;
    eprintln!(
        "srgfn: product of {} × {} coefficients ({} out, N = 2^{}) over {} on {}: {:.1} ms, {:.0} ms total ({:.0} ms kernel build)",
        a.len(),
        b.len(),
        digits.len(),
        n.trailing_zeros(),
        prime,
        fft.session().device.describe(),
        ms(t_mul),
        ms(t0.elapsed()),
        ms(t_build)
    );
    Ok(())
}
