//! `srgfn check`: the device against the host reference, one line per case.

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use srgfn::check::{run, CheckSpec};
use srgfn_gen::catalog;

use super::opts::DeviceOpts;
use super::opts::{MulArg, VariantArg};
use super::primes::parse_prime;

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Primes to check (repeatable); default: every catalog prime.
    #[arg(long)]
    pub prime: Vec<String>,
    /// f_mul forms whose field operations are checked, e.g. wide64,limb22,mixed [default: the device's form].
    #[arg(long, value_enum, value_delimiter = ',')]
    pub mul: Vec<MulArg>,
    /// Variants whose transforms are checked, e.g. local,workgroup [default: every variant of each prime].
    #[arg(long, value_enum, value_delimiter = ',')]
    pub variant: Vec<VariantArg>,
    /// Each radix and variant also at two large sizes, at single outputs against their definition [default: on for GPUs].
    #[arg(long, value_enum)]
    pub large: Option<LargeArg>,
    /// Print the cases as JSON lines instead of text.
    #[arg(long)]
    pub json: bool,
    /// (no radix or variant: the check covers them all)
    #[command(flatten)]
    pub dev: DeviceOpts,
}

/// Whether `srgfn check` runs its large sizes, as spelled on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LargeArg {
    /// The sizes where default plans run as production ones do (launches in halves, launch tables), 2^16 … 2^22 (`srgfn::check::large_sizes`).
    On,
    /// Only the sizes the host FFT checks whole.
    Off,
}

pub fn check(args: CheckArgs) -> Result<()> {
    let session = args.dev.session()?;
    let primes =
        if args.prime.is_empty() { catalog().to_vec() } else { args.prime.iter().map(|p| parse_prime(p)).collect::<Result<_>>()? };
    let mut spec = CheckSpec::new(&session, primes)?;
    if !args.mul.is_empty() {
        spec.muls = args.mul.iter().map(|m| m.form()).collect();
    }
    spec.variants = args.variant.iter().map(|v| v.variant()).collect();
    if let Some(large) = args.large {
        spec.large = large == LargeArg::On;
    }
    eprintln!("checking {} against the host reference", session.device().describe());
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
        bail!("{failed} of {} cases FAILED on {}", cases.len(), session.device().describe());
    }
    eprintln!("check: all {} cases passed on {}", cases.len(), session.device().describe());
    Ok(())
}
