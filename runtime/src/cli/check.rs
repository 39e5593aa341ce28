//! `srgfn check`: the device against the host reference, one line per case.

use anyhow::{bail, Result};
use clap::Args;
use srgfn::check::{run, CheckSpec};
use srgfn_gen::catalog;

use super::opts::MulArg;
use super::primes::parse_prime;
use super::opts::DeviceOpts;

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Primes to check (repeatable); default: every catalog prime.
    #[arg(long)]
    pub prime: Vec<String>,
    /// f_mul forms whose field operations are checked, e.g. wide64,limb22,mixed [default: the device's form].
    #[arg(long, value_enum, value_delimiter = ',')]
    pub mul: Vec<MulArg>,
    /// Print the cases as JSON lines instead of text.
    #[arg(long)]
    pub json: bool,
    /// (no radix or variant: the check covers them all)
    #[command(flatten)]
    pub dev: DeviceOpts,
}

pub fn check(args: CheckArgs) -> Result<()> {
    let session = args.dev.session()?;
    let primes = if args.prime.is_empty() { catalog().to_vec() } else { args.prime.iter().map(|p| parse_prime(p)).collect::<Result<_>>()? };
    let mut spec = CheckSpec::new(&session, primes)?;
    if !args.mul.is_empty() {
        spec.muls = args.mul.iter().map(|m| m.form()).collect();
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
