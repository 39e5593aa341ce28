//! `srgfn check`: the device against the host reference, one line per case.

use anyhow::{bail, Result};
use clap::Args;
use srgfn::check::{run, CheckSpec};
use srgfn_gen::catalog;
use srgfn_gen::emit::MulForm;

use super::primes::parse_prime;
use super::transform::DeviceOpts;

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Primes to check (repeatable); default: every catalog prime.
    #[arg(long)]
    pub prime: Vec<String>,
    /// f_mul forms whose field operations are checked, comma-separated (wide64,limb22,mixed); default: the device's.
    #[arg(long, value_delimiter = ',')]
    pub mul: Vec<String>,
    /// Print the cases as JSON lines instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub device: CheckDevice,
}

/// The device options of `check` (no radix or variant: it checks them all).
#[derive(Args, Debug)]
pub struct CheckDevice {
    /// Device index or name substring (see `srgfn devices`); default: first GPU, else PoCL.
    #[arg(long, env = "SRGFN_DEVICE")]
    pub device: Option<String>,
    /// Do not read or write the on-disk program cache.
    #[arg(long)]
    pub no_cache: bool,
}

pub fn check(args: CheckArgs) -> Result<()> {
    let session = DeviceOpts { device: args.device.device.clone(), no_cache: args.device.no_cache, radix: 2, variant: None, mul: None }.session()?;
    let primes = if args.prime.is_empty() { catalog().to_vec() } else { args.prime.iter().map(|p| parse_prime(p)).collect::<Result<_>>()? };
    let mut spec = CheckSpec::new(&session, primes)?;
    if !args.mul.is_empty() {
        spec.muls = args.mul.iter().map(|m| MulForm::parse(m)).collect::<Result<_, _>>()?;
    }
    eprintln!("checking {} against the host reference", session.device.describe());
    let json = args.json;
    let cases = run(&session, &spec, &mut |c| {
        if json {
            println!("{}", serde_json::to_string(c).expect("a case serialises"));
        } else {
            println!("{:<4} {:<22} {:<40} {:>9.1} ms  {}", if c.passed { "ok" } else { "FAIL" }, c.prime, c.name, c.ms, c.detail);
        }
    });
    let failed = cases.iter().filter(|c| !c.passed).count();
    if failed > 0 {
        bail!("{failed} of {} cases FAILED on {}", cases.len(), session.device.describe());
    }
    eprintln!("check: all {} cases passed on {}", cases.len(), session.device.describe());
    Ok(())
}
