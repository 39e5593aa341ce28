//! Argument parsing and dispatch of the `srgfn` subcommands.

mod bench;
mod check;
mod kernels;
mod primes;
mod transform;

use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(name = "srgfn", version, about = "FFTs over sparse-radix generalized Fermat prime fields, on OpenCL devices")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the built-in primes or search for new ones.
    Primes {
        #[command(subcommand)]
        action: primes::PrimesCommand,
    },
    /// Print the primitive N-th root of unity ω (with ω^{N/2k} = r) used by every transform.
    Roots(primes::RootsArgs),
    /// Describe one prime: r, k, bits, 2-adic valuation.
    Info(primes::InfoArgs),
    /// Write the generated OpenCL kernels and manifest.json for a prime.
    Emit(kernels::EmitArgs),
    /// Print the rewritten formula and the stage table of DFT_K (and draw it with --svg).
    Inspect(kernels::InspectArgs),
    /// List every OpenCL platform and device.
    Devices(kernels::DevicesArgs),
    /// Print the kernel launches of a transform of size N.
    Plan(transform::PlanArgs),
    /// Forward or inverse FFT of the elements of a file (or random ones).
    Fft(transform::FftArgs),
    /// Product of two polynomials mod p (coefficient files, lowest degree first).
    Polymul(transform::PolymulArgs),
    /// Write uniform random elements below p (reproducible by --seed).
    Random(transform::RandomArgs),
    /// Benchmark forward transforms against the measured roofline and baselines.
    Bench(bench::BenchArgs),
    /// Check this device's kernels against the host reference (field operations, transforms, products).
    Check(check::CheckArgs),
}

pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Primes { action } => primes::run(action),
        Command::Roots(args) => primes::roots(args),
        Command::Info(args) => primes::info(args),
        Command::Emit(args) => kernels::emit(args),
        Command::Inspect(args) => kernels::inspect(args),
        Command::Devices(args) => kernels::devices(args),
        Command::Plan(args) => transform::plan(args),
        Command::Fft(args) => transform::fft(args),
        Command::Polymul(args) => transform::polymul(args),
        Command::Random(args) => transform::random(args),
        Command::Bench(args) => bench::bench(args),
        Command::Check(args) => check::check(args),
    }
}
