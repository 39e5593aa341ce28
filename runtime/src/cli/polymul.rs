//! `srgfn polymul`: the product of two coefficient files.

use std::path::PathBuf;

use anyhow::{bail, Context as _, Result};
use clap::Args;
use serde_json::json;
use srgfn::Fft;
use srgfn_gen::Field;

use super::opts::{DeviceOpts, Format, KernelOpts};
use super::primes::parse_prime;
use super::progress::Step;
use super::report::{check_json_target, fmt_ms, write_json, Phases};
use super::transform::{read_elements, read_while_opening, write_elements, Elements};
use super::verify::check_product;

#[derive(Args, Debug)]
pub struct PolymulArgs {
    /// The prime, e.g. "(2^63+2^34)^8+1" (see `srgfn primes list`).
    #[arg(long)]
    pub prime: String,
    /// File of the coefficients of A, lowest degree first.
    pub a: PathBuf,
    /// File of the coefficients of B, lowest degree first.
    pub b: PathBuf,
    /// Output file (default: standard output); written atomically.
    #[arg(long)]
    pub output: Option<PathBuf>,
    /// Format of the input and output files; bin is the fast path (no decimal conversion).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Check C(x) = A(x)·B(x) at 2 random points x mod p (a wrong product passes with probability ≤ deg C / p each).
    #[arg(long)]
    pub verify: bool,
    /// Write device, lengths, N, phase times and the --verify result as JSON to this file (- for standard output, with --output).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    #[command(flatten)]
    pub dev: DeviceOpts,
    #[command(flatten)]
    pub kernel: KernelOpts,
}

/// The product on the device: values in and out (text files, converted to
/// and from base r on the device), or digit words (binary files, no conversion).
fn product(fft: &Fft, a: &Elements, b: &Elements) -> Result<Elements> {
    Ok(match (a, b) {
        (Elements::Values(a), Elements::Values(b)) => Elements::Values(fft.poly_mul(a, b)?),
        (Elements::Words(a), Elements::Words(b)) => Elements::Words(fft.poly_mul_digits(a, b)?),
        _ => bail!("both factors must be read in the same format"),
    })
}

pub fn polymul(args: PolymulArgs) -> Result<()> {
    let prime = parse_prime(&args.prime)?;
    let field = Field::new(&prime);
    let k = prime.k();
    check_json_target(args.json.as_deref(), args.output.as_deref())?;
    let options = args.kernel.options(&prime)?;
    let mut phases = Phases::start();
    let ((a, b), session, open_ms) = read_while_opening(&args.dev, || {
        let a = read_elements(&args.a, &field, args.format)?;
        phases.mark("read A");
        let b = read_elements(&args.b, &field, args.format)?;
        phases.mark("read B");
        Ok((a, b))
    })?;
    // the device opened while the files were read: only the wait is a phase
    phases.mark("device");
    let (la, lb) = (a.len(k), b.len(k));
    let len = la + lb - 1;
    let n = len.next_power_of_two().max(2);
    prime.check_log_size(n.trailing_zeros()).with_context(|| format!("the product has {len} coefficients, so N = {n}"))?;
    let fft = Fft::with_options(&session, &prime, options)?;
    let device = fft.session().device.describe();
    {
        let _step = Step::spinner(format!("preparing kernels for N = 2^{}", n.trailing_zeros()), false);
        fft.prepare(n)?;
    }
    phases.mark("kernels");
    let c = {
        let msg = format!("product of {la} × {lb} coefficients (N = 2^{}) on {}", n.trailing_zeros(), fft.session().device.name.trim());
        let _step = Step::spinner(msg, n * k >= 1 << 20);
        product(&fft, &a, &b)?
    };
    let product_ms = phases.mark("product");
    let verified = if args.verify {
        let _step = Step::spinner("verifying at 2 random points", len * k >= 1 << 20);
        let ok = check_product(&a.values(&field)?, &b.values(&field)?, &c.values(&field)?, prime.modulus());
        phases.mark("verify");
        Some(ok)
    } else {
        None
    };
    if verified != Some(false) {
        write_elements(args.output.as_deref(), &c, args.format, &field)?;
        phases.mark("write");
    }
    if let Some(path) = &args.json {
        let report = json!({
            "command": "polymul",
            "prime": prime.to_string(),
            "device": device,
            "format": args.format.name(),
            "len_a": la,
            "len_b": lb,
            "len_c": len,
            "n": n,
            "log_n": n.trailing_zeros(),
            "product_ms": product_ms,
            "device_open_ms": open_ms,
            "phases": phases.json(),
            "total_ms": phases.total_ms(),
            "verified": verified,
        });
        write_json(path, &report)?;
    }
    if verified == Some(false) {
        bail!("verification failed: C(x) ≠ A(x)·B(x) at a random point; the product is wrong");
    }
    if verified == Some(true) {
        eprintln!("srgfn: verified C(x) = A(x)·B(x) at 2 random points mod p");
    }
    eprintln!(
        "srgfn: product of {la} × {lb} coefficients → {len} coefficients (N = 2^{}) over {prime} on {device}: product {} (upload, transforms, download); total {} ({})",
        n.trailing_zeros(),
        fmt_ms(product_ms),
        fmt_ms(phases.total_ms()),
        phases.summary()
    );
    Ok(())
}
