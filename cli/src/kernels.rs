//! `srgfn emit`, `srgfn inspect`, `srgfn devices`.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use srgfn_gen::emit;
use srgfn_gen::inspect::{butterfly_svg, stage_table};
use srgfn_gen::unroll::Program;

use srgfn::io::write_atomic;

use super::opts::{radix_or_default, MulArg};
use super::primes::parse_prime;
use super::size::Size;

#[derive(Args, Debug)]
pub struct EmitArgs {
    /// The prime, e.g. "(2^63+2^34)^8+1".
    #[arg(long)]
    pub prime: String,
    /// Radix of the base-case expansion: 2 or 4 [default: the prime's, 2 for k = 16, else 4].
    #[arg(long)]
    pub radix: Option<u32>,
    /// Folder to write the .cl files and manifest.json into (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// How f_mul forms its digit products.
    #[arg(long, value_enum, default_value_t = MulArg::Wide64)]
    pub mul: MulArg,
    /// Carry chains as inline PTX, as built on NVIDIA platforms (other OpenCL compilers reject them).
    #[arg(long)]
    pub ptx: bool,
    /// Emit for data vectors split into this many buffers (1, 2, 4, 8 or 16), as plans do
    /// where a vector exceeds the device's largest buffer.
    #[arg(long, default_value_t = 1)]
    pub segments: u32,
    /// Also write microbench.cl: the arithmetic micro-benchmarks of `srgfn bench` (f_mul, its product core, f_add + f_sub).
    #[arg(long)]
    pub micro: bool,
}

#[derive(Args, Debug)]
pub struct InspectArgs {
    /// The prime, e.g. "(2^63+2^34)^8+1".
    #[arg(long)]
    pub prime: String,
    /// Radix of the base-case expansion: 2 or 4 [default: the prime's, 2 for k = 16, else 4].
    #[arg(long)]
    pub radix: Option<u32>,
    /// The base case to show: DFT_n for n a power of two from 2 to K = 2k, written like sizes
    /// [default: K]; n < K is the pass of radix below K that plans of N not a power of K run.
    #[arg(long)]
    pub size: Option<Size>,
    /// Also draw the butterfly network of the base case into this SVG file.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Print the program (stages, slots, shifts) as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct DevicesArgs {
    /// Print JSON (index, platform, name, vendor, driver, kind, memory sizes, compute units) instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn emit(args: EmitArgs) -> Result<()> {
    let prime = parse_prime(&args.prime)?;
    let radix = radix_or_default(args.radix, &prime)?;
    if !args.segments.is_power_of_two() || args.segments > srgfn::memory::MAX_SEGMENTS {
        bail!("--segments {} is not 1, 2, 4, 8 or 16", args.segments);
    }
    let opts = emit::KernelOptions { ptx: args.ptx, segments: args.segments, ..emit::KernelOptions::new(radix, args.mul.form()) };
    let mut set = emit::emit_with(&prime, &opts)?;
    // the files of the radices below the largest, which plans of N not a power of it build on demand
    let small = emit::add_small_radices(&prime, &opts, &mut set)?;
    if args.micro {
        emit::add_microbench(&prime, &opts, &mut set)?;
    }
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot create output folder {}", args.out.display()))?;
    for f in &set.files {
        write_atomic(&args.out.join(&f.name), f.source.as_bytes())?;
    }
    let manifest = serde_json::to_string_pretty(&set.manifest)? + "\n";
    write_atomic(&args.out.join("manifest.json"), manifest.as_bytes())?;
    eprintln!(
        "wrote {} files ({small} of them the base cases of the smaller radices) and manifest.json to {}",
        set.files.len(),
        args.out.display()
    );
    Ok(())
}

pub fn inspect(args: InspectArgs) -> Result<()> {
    let prime = parse_prime(&args.prime)?;
    let radix = radix_or_default(args.radix, &prime)?;
    emit::check_supported(&prime)?;
    let kk = 2 * prime.k();
    let n = match &args.size {
        Some(size) => size.count("--size", 2, kk as u64)? as usize,
        None => kk,
    };
    let prog = Program::unroll_size(prime.k(), n, radix).map_err(anyhow::Error::msg)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&prog)?);
    } else {
        print!("{}", stage_table(&prime, &prog));
    }
    if let Some(path) = args.svg {
        write_atomic(&path, butterfly_svg(&prime, &prog).as_bytes())?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

pub fn devices(args: DevicesArgs) -> Result<()> {
    let devices = srgfn::list_devices()?;
    let default = srgfn::select_device(None).ok().map(|d| d.index);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&devices)?);
        return Ok(());
    }
    for d in &devices {
        println!(
            "{}{} [{}] {} — platform {}, vendor {}, driver {}, {:.1} GiB global, {} KiB local, {} compute units",
            if Some(d.index) == default { "*" } else { " " },
            d.index,
            d.kind,
            d.name.trim(),
            d.platform.trim(),
            d.vendor.trim(),
            d.driver_version.trim(),
            d.global_mem_bytes as f64 / (1u64 << 30) as f64,
            d.local_mem_bytes / 1024,
            d.compute_units
        );
    }
    println!("(* = default: first GPU, else the first CPU device; override with --device or SRGFN_DEVICE)");
    Ok(())
}
