//! Options shared by the commands that run kernels, and their CLI spellings.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use srgfn::ProgramCache;
use srgfn::{select_device, FftOptions, Session, Wisdom};
use srgfn_gen::emit::{default_radix, variants_for, MulForm, Variant};
use srgfn_gen::rules::Radix;
use srgfn_gen::Prime;

/// The device and the program cache.
#[derive(Args, Debug, Clone)]
pub struct DeviceOpts {
    /// Device index or name substring (see `srgfn devices`); default: the first GPU, else PoCL on the CPU.
    #[arg(long, env = "SRGFN_DEVICE")]
    pub device: Option<String>,
    /// Do not read or write the on-disk program cache (~/.cache/srgfn or SRGFN_CACHE_DIR).
    #[arg(long)]
    pub no_cache: bool,
    /// Measured plan choices (a file of `srgfn tune`), or `off` for the built-in defaults [default: wisdom.txt in the program cache folder, where there is one].
    #[arg(long, env = "SRGFN_WISDOM", value_name = "FILE|off")]
    pub wisdom: Option<String>,
}

impl DeviceOpts {
    pub fn session(&self) -> Result<Session> {
        let cache = if self.no_cache { ProgramCache::disabled() } else { ProgramCache::from_env()? };
        let wisdom = match self.wisdom.as_deref() {
            Some("off") => Wisdom::empty(),
            Some(path) => Wisdom::read(Path::new(path))?,
            None => Wisdom::for_cache(&cache)?,
        };
        Ok(Session::on_with_wisdom(select_device(self.device.as_deref())?, cache, wisdom)?)
    }

    /// The file `srgfn tune` writes: --wisdom, else the session's default
    /// ([`Wisdom::default_path`]); an error for `off` or without a cache folder.
    pub fn wisdom_file(&self, session: &Session) -> Result<PathBuf> {
        match self.wisdom.as_deref() {
            Some("off") => bail!("--wisdom off: name a file to write the measured choices to (--wisdom FILE)"),
            Some(path) => Ok(PathBuf::from(path)),
            None => Wisdom::default_path(session.cache()).ok_or_else(|| {
                anyhow::anyhow!("no program cache folder to keep the wisdom file in (--no-cache): name one with --wisdom FILE")
            }),
        }
    }
}

/// Base-case variant, as spelled on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    /// 32 DFT_K per work-group in local memory, a warp per butterfly position, every shift a constant (k ≤ 8).
    Local,
    /// Several DFT_K per work-group in local memory, slots and shifts from tables (k ≤ 32).
    Table,
    /// Blocks in local memory, one work-item per digit of a twiddle product or butterfly (any k).
    Digits,
    /// One work-group per DFT_K, in global memory (any k).
    Workgroup,
}

impl VariantArg {
    pub fn variant(self) -> Variant {
        match self {
            VariantArg::Local => Variant::Local,
            VariantArg::Table => Variant::Table,
            VariantArg::Digits => Variant::Digits,
            VariantArg::Workgroup => Variant::Workgroup,
        }
    }
}

/// Whether plans fuse two passes per launch, as spelled on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FuseArg {
    /// Two Stockham levels of radix K per launch through local memory (local variant, k ≤ 8; table variant with PTX, k ≤ 8).
    On,
    /// One pass per launch.
    Off,
}

impl FuseArg {
    pub fn on(self) -> bool {
        self == FuseArg::On
    }
}

/// Whether plans run their later launches as two halves side by side, as
/// spelled on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HalvesArg {
    /// Each launch after the first few as two halves on two queues, where the plan allows it.
    On,
    /// Every launch whole, on one queue.
    Off,
}

impl HalvesArg {
    pub fn on(self) -> bool {
        self == HalvesArg::On
    }
}

/// Whether a forward transform from the superblock order runs in halves
/// from its first launch on, as spelled on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ChainArg {
    /// The first two passes' launch and the next ones as two halves on two queues, split by a bit they keep above p, where the plan allows it (the later ones in quarters where measured faster).
    On,
    /// The halves (if any) fork after the first two passes' launch.
    Off,
    /// As on, the launches after the first in quarters (by a bit below p too) wherever the kernels allow it.
    Quarters,
    /// As on, every chain launch in halves only.
    Halves,
}

impl ChainArg {
    /// `FftOptions::chain` and `FftOptions::quarters`.
    pub fn choice(self) -> (Option<bool>, Option<bool>) {
        match self {
            ChainArg::On => (Some(true), None),
            ChainArg::Off => (Some(false), None),
            ChainArg::Quarters => (Some(true), Some(true)),
            ChainArg::Halves => (Some(true), Some(false)),
        }
    }
}

/// Whether plans upload vectors in the superblock order, as spelled on the
/// command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SuperblocksArg {
    /// In the superblock order where the forward transform then runs its first two passes in one launch (table variant, N ≥ K²).
    On,
    /// In the natural order.
    Off,
}

impl SuperblocksArg {
    pub fn on(self) -> bool {
        self == SuperblocksArg::On
    }
}

/// The command-line spelling of a variant.
pub fn variant_name(v: Variant) -> &'static str {
    v.name()
}

/// The variant if the prime has it, else an error in CLI spellings.
pub fn check_variant(prime: &Prime, v: VariantArg) -> Result<Variant> {
    let available = variants_for(prime);
    if !available.contains(&v.variant()) {
        let names: Vec<&str> = available.iter().map(|&a| variant_name(a)).collect();
        bail!("--variant {} is not available for k = {}: use {}", variant_name(v.variant()), prime.k(), names.join(" or "));
    }
    Ok(v.variant())
}

/// How f_mul forms its digit products, as spelled on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MulArg {
    /// 64×64→128-bit products, with PTX carry chains on NVIDIA (the fastest form measured, CPUs and GPUs).
    Wide64,
    /// 22-bit limbs with 32-bit multiply-adds.
    Limb22,
    /// x in 32-bit halves, y in 22-bit limbs: 6 32-bit multiply-adds per digit product.
    Mixed,
}

impl MulArg {
    pub fn form(self) -> MulForm {
        match self {
            MulArg::Wide64 => MulForm::Wide64,
            MulArg::Limb22 => MulForm::Limb22,
            MulArg::Mixed => MulForm::Mixed,
        }
    }
}

pub fn parse_radix(r: u32) -> Result<Radix> {
    Radix::from_number(r).map_err(anyhow::Error::msg)
}

/// `--radix` when given, else the prime's default (`emit::default_radix`).
pub fn radix_or_default(r: Option<u32>, prime: &Prime) -> Result<Radix> {
    Ok(r.map(parse_radix).transpose()?.unwrap_or_else(|| default_radix(prime)))
}

/// How the base case and f_mul are generated.
#[derive(Args, Debug, Clone)]
pub struct KernelOpts {
    /// Radix of the base-case expansion of DFT_K: 2 or 4 [default: 2 for k = 16, else 4; on NVIDIA k = 8 takes 2 from N = 2^17].
    #[arg(long)]
    pub radix: Option<u32>,
    /// Base-case variant [default: local for k ≤ 8, table for k = 16, digits from k = 32; on NVIDIA k = 8 takes table from N = 2^16; a size srgfn tune measured on this device takes its choice].
    #[arg(long, value_enum)]
    pub variant: Option<VariantArg>,
    /// How f_mul forms its digit products; all give identical results [default: wide64].
    #[arg(long, value_enum, env = "SRGFN_MUL")]
    pub mul: Option<MulArg>,
    /// Two passes per launch (local variant; table variant with PTX, k ≤ 8) [default: where measured faster: the local variant of k ≤ 8, k = 8 table 2^16–2^18 at radix 4, 2^16–2^17 at radix 2].
    #[arg(long, value_enum)]
    pub fuse: Option<FuseArg>,
    /// Later launches as two halves side by side on two queues [default: on where a plan has at least two such launches of 2^21 digits or more, 2^22 for k = 64 and 128].
    #[arg(long, value_enum)]
    pub halves: Option<HalvesArg>,
    /// Halves from the first launch of a forward transform from the superblock order, split by a bit the next launches keep above p [default: on from 2^23 digits (N·k) where the plan runs in halves and the device holds a third vector, in quarters up to 2^24 digits].
    #[arg(long, value_enum)]
    pub chain: Option<ChainArg>,
    /// Upload vectors in the superblock order, so that the forward transform runs its first two passes in one launch [default: on where that applies: the table variant with its stages through the warp (NVIDIA), N ≥ K²].
    #[arg(long, value_enum)]
    pub superblocks: Option<SuperblocksArg>,
}

impl KernelOpts {
    /// The options checked against the prime.
    pub fn options(&self, prime: &Prime) -> Result<FftOptions> {
        let variant = self.variant.map(|v| check_variant(prime, v)).transpose()?;
        Ok(FftOptions {
            radix: self.radix.map(parse_radix).transpose()?,
            variant,
            mul: self.mul.map(MulArg::form),
            max_buffer: None,
            fuse: self.fuse.map(FuseArg::on),
            halves: self.halves.map(HalvesArg::on),
            chain: self.chain.and_then(|c| c.choice().0),
            quarters: self.chain.and_then(|c| c.choice().1),
            superblocks: self.superblocks.map(SuperblocksArg::on),
            warp_emulation: false,
        })
    }
}

/// Format of element files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One element per line, decimal or 0x-hex; `#` starts a comment.
    Text,
    /// k little-endian 64-bit digits per element, least significant first: the fast path.
    Bin,
}

impl Format {
    /// The command-line spelling.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Bin => "bin",
        }
    }
}

/// How `fft` and `polymul` check, write and report their result.
#[derive(Args, Debug)]
pub struct OutputOpts {
    /// Check the result at 2 random points against its definition: fft X_j = Σ_i x_i ω^{ij}, polymul C(x) = A(x)·B(x) mod p.
    #[arg(long)]
    pub verify: bool,
    /// Output file (default: standard output); written atomically.
    #[arg(long)]
    pub output: Option<PathBuf>,
    /// Format of the input and output files; bin is the fast path (no decimal conversion).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write the device, sizes, phase times and the --verify result as JSON to this file (- for standard output, with --output).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}
