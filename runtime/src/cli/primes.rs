//! `srgfn primes list|search`, `srgfn roots`, `srgfn info`.

use std::io::Write;

use anyhow::Result;
use clap::{Args, Subcommand};
use rayon::prelude::*;
use srgfn_gen::prime::CATALOG;
use srgfn_gen::search::{candidate_radices, search_radices, SearchSpec};
use srgfn_gen::{Prime, PrimeInfo};

use super::progress::{Step, Unit};
use super::size::Size;

#[derive(Subcommand, Debug)]
pub enum PrimesCommand {
    /// Print the catalog of thesis Table 3.1 (each prime re-validated).
    List {
        /// Print JSON objects (expr, k, r, w, u, sign, terms, bits, two_adicity).
        #[arg(long)]
        json: bool,
    },
    /// Enumerate radices r = 2^w ± 2^u (± …) and print the primes r^k + 1 found.
    Search {
        /// Number of digits k (a power of two, 2 … 256).
        #[arg(long)]
        k: usize,
        /// Number of signed power-of-two terms in the radix.
        #[arg(long, default_value_t = 2)]
        terms: usize,
        /// Smallest leading exponent w.
        #[arg(long, default_value_t = 62)]
        w_min: u32,
        /// Largest leading exponent w (at most 64).
        #[arg(long, default_value_t = 64)]
        w_max: u32,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args, Debug)]
pub struct RootsArgs {
    /// The prime, e.g. "(2^63+2^34)^8+1".
    #[arg(long)]
    pub prime: String,
    /// Transform size N, a power of two, written 1048576, 2^20 or 1M.
    #[arg(long)]
    pub n: Size,
}

#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The prime, e.g. "(2^63+2^34)^8+1".
    #[arg(long)]
    pub prime: String,
    /// Print JSON (expr, k, r, w, u, sign, terms, bits, two_adicity, headroom_bits) instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn parse_prime(expr: &str) -> Result<Prime> {
    Ok(Prime::parse(expr)?)
}

fn print_table(infos: &[PrimeInfo]) {
    println!("{:<32} {:>4} {:>6} {:>12} {:>9}", "prime", "k", "bits", "two_adicity", "headroom");
    for i in infos {
        println!("{:<32} {:>4} {:>6} {:>12} {:>9}", i.expr, i.k, i.bits, i.two_adicity, i.headroom_bits);
    }
}

fn print_infos(infos: &[PrimeInfo], json: bool) -> Result<()> {
    if json {
        let mut out = std::io::stdout().lock();
        serde_json::to_writer_pretty(&mut out, infos)?;
        writeln!(out)?;
    } else {
        print_table(infos);
    }
    Ok(())
}

pub fn run(cmd: PrimesCommand) -> Result<()> {
    match cmd {
        PrimesCommand::List { json } => print_infos(&validated_catalog()?, json),
        PrimesCommand::Search { k, terms, w_min, w_max, json } => {
            let spec = SearchSpec { k, terms, w_min, w_max };
            let candidates = candidate_radices(&spec)?;
            let total = candidates.len();
            let step = Step::start(format!("testing {total} radices r for primes r^{k} + 1"), total as u64, Unit::Items, true);
            let found = search_radices(candidates, k, &|| step.inc(1));
            drop(step);
            let infos: Vec<_> = found.iter().map(Prime::info).collect();
            print_infos(&infos, json)?;
            if !json {
                eprintln!("{} primes among {total} radices", infos.len());
            }
            Ok(())
        }
    }
}

/// The catalog, each prime re-validated on every core (the primality tests
/// of the large primes take seconds).
fn validated_catalog() -> Result<Vec<PrimeInfo>> {
    let step = Step::start(format!("validating the {} catalog primes (primality tests)", CATALOG.len()), CATALOG.len() as u64, Unit::Items, true);
    CATALOG
        .par_iter()
        .map(|expr| {
            let info = parse_prime(expr)?.info();
            step.inc(1);
            Ok(info)
        })
        .collect()
}

pub fn roots(args: RootsArgs) -> Result<()> {
    let prime = parse_prime(&args.prime)?;
    let log_n = args.n.pow2("N")?;
    let w = prime.root_of_unity(log_n)?;
    println!("{w}");
    Ok(())
}

pub fn info(args: InfoArgs) -> Result<()> {
    let prime = parse_prime(&args.prime)?;
    let info = prime.info();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&info)?);
    } else {
        print_table(&[info]);
        println!("r = {} = {}", prime.radix(), prime.r());
        println!("p = r^{} + 1 = {}", prime.k(), prime.modulus());
    }
    Ok(())
}
