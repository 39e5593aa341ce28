//! `srgfn polymul`: the product of two coefficient files.

use std::path::PathBuf;

use anyhow::{bail, Context as _, Result};
use clap::Args;
use serde_json::json;
use srgfn::Fft;

use super::opts::{DeviceOpts, Format, KernelOpts, OutputOpts};
use super::progress::Step;
use super::report::{conclude, fmt_ms, round3};
use super::transform::{read_elements, read_while_opening, start, verify_and_write, Elements, Start};
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
    #[command(flatten)]
    pub out: OutputOpts,
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
    let Start { prime, field, options, mut phases } = start(&args.prime, &args.kernel, &args.out)?;
    let k = prime.k();
    let ((a, b), session, open_ms) = read_while_opening(&args.dev, || {
        // both files sized against the device (if any) and the host before reading
        let device = srgfn::select_device(args.dev.device.as_deref()).ok();
        for path in [&args.a, &args.b] {
            srgfn::memory::check_input_file(path, &prime, args.out.format == Format::Bin, device.as_ref())?;
        }
        phases.mark("size check");
        let a = read_elements(&args.a, &field, args.out.format)?;
        phases.mark("read A");
        let b = read_elements(&args.b, &field, args.out.format)?;
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
    let device = fft.session().device().describe();
    {
        let _step = Step::spinner(format!("preparing kernels for N = 2^{}", n.trailing_zeros()), false);
        fft.prepare(n)?;
    }
    phases.mark("kernels");
    let c = {
        let msg = format!("product of {la} × {lb} coefficients (N = 2^{}) on {}", n.trailing_zeros(), fft.session().device().name.trim());
        let _step = Step::spinner(msg, n * k >= 1 << 20);
        product(&fft, &a, &b)?
    };
    let product_ms = phases.mark("product");
    let verified = verify_and_write(&args.out, &c, &field, &mut phases, len * k >= 1 << 20, || {
        Ok(check_product(&a.values(&field)?, &b.values(&field)?, &c.values(&field)?, prime.modulus()))
    })?;
    let fields = json!({
        "command": "polymul",
        "prime": prime.to_string(),
        "device": device,
        "format": args.out.format.name(),
        "len_a": la,
        "len_b": lb,
        "len_c": len,
        "n": n,
        "log_n": n.trailing_zeros(),
        "product_ms": round3(product_ms),
    });
    conclude(args.out.json.as_deref(), fields, &phases, open_ms, verified, "C(x) ≠ A(x)·B(x) at a random point")?;
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
    // The process ends here: its memory and OpenCL objects go back to the OS
    // whole, rather than millions of integers freed one by one (~0.1 s at 2^20).
    std::mem::forget((a, b, c, fft, session));
    Ok(())
}
