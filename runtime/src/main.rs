//! `srgfn`: command-line front end (primes, roots, kernels, transforms).

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // One line naming what is wrong: the context chain, no backtrace.
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
