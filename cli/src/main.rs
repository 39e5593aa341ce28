//! `srgfn`: the command-line front end of the srgfn library (primes, roots,
//! kernels, transforms, products, benchmarks): argument parsing and dispatch
//! of the subcommands.  Its own dependencies (clap, indicatif, plotters) stay
//! out of the library crate `srgfn`.

mod batch;
mod bench;
mod bench_report;
mod check;
mod kernels;
mod opts;
mod plot;
mod polymul;
mod primes;
mod progress;
mod report;
mod size;
mod split;
mod transform;
mod tune;
mod verify;

use std::process::ExitCode;

use anyhow::Result;
use clap::{CommandFactory, Parser, Subcommand};

/// What `srgfn` and `srgfn --help` show a new user first.
const START_HERE: &str = r#"Start here:
  srgfn primes list                                          # the built-in primes
  srgfn fft --prime "(2^63+2^34)^8+1" --random 2^10 --output X.txt   # transform random data
  srgfn random --prime "(2^63+2^34)^8+1" --count 1000 --seed 1 --output a.txt
  srgfn random --prime "(2^63+2^34)^8+1" --count 1000 --seed 2 --output b.txt
  srgfn polymul --prime "(2^63+2^34)^8+1" a.txt b.txt --output c.txt --verify   # multiply two files
  srgfn inspect --prime "(2^63+2^34)^8+1"                    # DFT_16 stage by stage
  srgfn check                                                # check this device
Sizes and counts are written 1048576, 2^20 or 1M.  `srgfn COMMAND --help` has the details."#;

#[derive(Parser, Debug)]
#[command(name = "srgfn", version, about = "FFTs over sparse-radix generalized Fermat prime fields, on OpenCL devices", after_help = START_HERE)]
pub struct Cli {
    /// Without a command: the help and the start here list.
    #[command(subcommand)]
    pub command: Option<Command>,
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
    /// Describe one prime: r, k, p, bits, 2-adic valuation, headroom bits of r.
    Info(primes::InfoArgs),
    /// Write the generated OpenCL kernels (every file a plan can build, the smaller radices included) and manifest.json for a prime.
    Emit(kernels::EmitArgs),
    /// Print the rewritten formula and the stage table of DFT_K or a smaller base case (--size), and draw it with --svg.
    Inspect(kernels::InspectArgs),
    /// List every OpenCL platform and device.
    Devices(kernels::DevicesArgs),
    /// Print the kernel launches of a transform of size N.
    Plan(transform::PlanArgs),
    /// Forward or inverse FFT of the elements of a file (or random ones).
    Fft(transform::FftArgs),
    /// Product of two polynomials mod p (coefficient files, lowest degree first).
    Polymul(polymul::PolymulArgs),
    /// Write uniform random elements below p (reproducible by --seed).
    Random(transform::RandomArgs),
    /// Benchmark forward transforms against the measured roofline and baselines.
    Bench(bench::BenchArgs),
    /// A batch of transforms or products spread over several devices (`--devices all`), timed against the first alone.
    Batch(batch::BatchArgs),
    /// One transform or product split over the devices (four-step, host memory between the steps), timed against the first device alone.
    Split(split::SplitArgs),
    /// Check this device's kernels against the host reference (field operations, transforms, products).
    Check(check::CheckArgs),
    /// Time every variant of a prime's transform per size on this device and record the fastest for later plans.
    Tune(tune::TuneArgs),
}

fn main() -> ExitCode {
    let args = Cli::parse();
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // One line naming what is wrong: the context chain, no backtrace.
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    let Some(command) = cli.command else {
        Cli::command().print_help()?;
        return Ok(());
    };
    match command {
        Command::Primes { action } => primes::run(action),
        Command::Roots(args) => primes::roots(args),
        Command::Info(args) => primes::info(args),
        Command::Emit(args) => kernels::emit(args),
        Command::Inspect(args) => kernels::inspect(args),
        Command::Devices(args) => kernels::devices(args),
        Command::Plan(args) => transform::plan(args),
        Command::Fft(args) => transform::fft(args),
        Command::Polymul(args) => polymul::polymul(args),
        Command::Random(args) => transform::random(args),
        Command::Bench(args) => bench::bench(args),
        Command::Batch(args) => batch::batch(args),
        Command::Check(args) => check::check(args),
        Command::Split(args) => split::split(args),
        Command::Tune(args) => tune::tune(args),
    }
}
