//! Emission: unrolled programs and field constants → OpenCL C through the
//! tera templates of `templates/`.  All decisions are made here in Rust; the
//! templates only print.  Every kernel file is self-contained (the field
//! header is prepended), deterministic, and commented with its formula.

pub mod arith;
mod auxiliary;
mod banks;
mod butterfly;
mod context;
mod defaults;
pub mod digit_bounds;
pub mod digits;
pub mod fastnorm;
pub mod first2;
pub mod fused;
pub mod high_part;
mod karatsuba;
pub mod lazy;
pub mod local;
mod mul;
pub mod mul_split;
mod options;
#[cfg(test)]
mod ptx_model;
pub mod quotient;
mod series;
pub mod sig;
pub mod skip_order;
pub mod small_radix;
mod table;
mod table_layout;
mod twiddle_put;
pub mod warp_stages;

use std::sync::OnceLock;

use serde::Serialize;
use tera::Tera;

use auxiliary::aux_entry;
pub use auxiliary::{aux_file, aux_files};
pub use context::mg_reciprocal;
pub use defaults::{
    check_fuse, default_radix, fuse_default, half_min_p, halves_min_digits, has_fused, has_launch_table_passes, launch_tables, plan_fuses,
    plan_halves, plan_radix, plan_register_caps, plan_shape, plan_variant, ptx_register_cap, small_radix_at, variants_for, CappedKernel,
    DIGITS_DEFAULT_MIN_K, FUSE_DEFAULT_MAX_LOG_N, HALF_MIN_RUN, HALVES_MIN_DIGITS, HALVES_MIN_DIGITS_BY_K, HALVES_MIN_OVERLAPS,
    PTX_REGISTER_CAPS, REGISTER_CAPS_MIN_LOG_N, SMALL_RADIX_SECOND, TABLE_PAIRS_DEFAULT_LOG_N, TABLE_RADIX_MIN_LOG_N,
    TABLE_WARP_DEFAULT_MIN_LOG_N,
};
pub use digits::DigitsShape;
pub use fused::FusedShape;
pub use high_part::HighPart;
pub use local::LocalShape;
pub use options::{KernelOptions, MulForm, Variant};
pub use sig::{KernelSig, Param, ParamType};
pub use small_radix::add_small_radices;
pub use twiddle_put::TwiddleTable;

use crate::prime::Prime;
use crate::rules::Radix;
use crate::unroll::{Descriptor, Program};

/// The generator's version, part of every cache key and manifest.
pub const GENERATOR_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Largest k for which the "local" variant (constant shifts, one work-item
/// per block and butterfly position) is emitted: its 32 blocks of K
/// elements must fit [`LOCAL_MAX_BYTES`].
pub const LOCAL_MAX_K: usize = 8;
/// Local memory the "local" and "table" variants may use (OpenCL guarantees
/// 32 KiB; the GPUs they target have 48 KiB).
pub const LOCAL_MAX_BYTES: usize = 48 * 1024;
/// Largest k for which the "table" variant (slots in local memory, shifts from tables) is emitted.
pub const TABLE_MAX_K: usize = 32;
/// Work-items a "table" work-group aims for.
pub const LOCAL_THREADS: usize = 128;
/// Work-items of an NVIDIA warp, the span of a shuffle: the digits variant's
/// carries go through the warp where an element's work-items fit one
/// (k ≤ 64), the table variant's stages where a block's digits do (k ≤ 32).
pub(crate) const WARP: usize = 32;
/// Tile edge of the transpose kernel (local size TILE × TILE).
pub const TILE: usize = 16;

/// Why kernels cannot be emitted.
#[derive(Debug, thiserror::Error)]
pub enum EmitError {
    /// The prime or options are outside what the generator supports (the
    /// message says what is).
    #[error("{0}")]
    Unsupported(String),
    /// A template failed to render (a bug in the generator).
    #[error("template {template} failed: {message}")]
    Template {
        /// The template's file name.
        template: String,
        /// Tera's error chain.
        message: String,
    },
}

fn templates() -> &'static Tera {
    static T: OnceLock<Tera> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = Tera::default();
        t.add_raw_templates(vec![
            ("field.cl.tera", include_str!("../../../templates/field.cl.tera")),
            ("dft_table.cl.tera", include_str!("../../../templates/dft_table.cl.tera")),
            ("dft_workgroup.cl.tera", include_str!("../../../templates/dft_workgroup.cl.tera")),
            ("dft_local.cl.tera", include_str!("../../../templates/dft_local.cl.tera")),
            ("dft_digits.cl.tera", include_str!("../../../templates/dft_digits.cl.tera")),
            ("dft_fused.cl.tera", include_str!("../../../templates/dft_fused.cl.tera")),
            ("dft_tables.cl.tera", include_str!("../../../templates/dft_tables.cl.tera")),
            ("dft_table_first2.cl.tera", include_str!("../../../templates/dft_table_first2.cl.tera")),
            ("lazy_block.cl.tera", include_str!("../../../templates/lazy_block.cl.tera")),
            ("twiddle.cl.tera", include_str!("../../../templates/twiddle.cl.tera")),
            ("transpose.cl.tera", include_str!("../../../templates/transpose.cl.tera")),
            ("pointwise.cl.tera", include_str!("../../../templates/pointwise.cl.tera")),
            ("baseline.cl.tera", include_str!("../../../templates/baseline.cl.tera")),
            ("smallprime.cl.tera", include_str!("../../../templates/smallprime.cl.tera")),
            ("microbench.cl.tera", include_str!("../../../templates/microbench.cl.tera")),
        ])
        .expect("templates parse");
        t.autoescape_on(vec![]);
        t
    })
}

/// C statements, one per line, each indented by `indent` spaces (for a
/// template that prints them inside a block).
fn indented(lines: &[String], indent: usize) -> String {
    let pad = " ".repeat(indent);
    lines.iter().map(|l| format!("{pad}{l}")).collect::<Vec<_>>().join("\n")
}

fn render(name: &str, ctx: &tera::Context) -> Result<String, EmitError> {
    templates().render(name, ctx).map_err(|e| {
        let mut msg = e.to_string();
        let mut src: Option<&dyn std::error::Error> = std::error::Error::source(&e);
        while let Some(s) = src {
            msg.push_str(": ");
            msg.push_str(&s.to_string());
            src = s.source();
        }
        EmitError::Template { template: name.to_string(), message: msg }
    })
}

/// Blocks per work-group and work-items per block of the "table" variant of DFT_n.
pub fn table_shape(k: usize, n: usize) -> (usize, usize) {
    table::shape(k, n)
}

/// A kernel's entry in `manifest.json`.
#[derive(Clone, Debug, Serialize)]
pub struct KernelEntry {
    /// The kernel's name.
    pub name: String,
    /// The file that holds it.
    pub file: String,
    /// What it computes, as a formula.
    pub formula: String,
    /// Its parameters, from its [`KernelSig`].
    pub args: Vec<String>,
    /// The global work size the runtime launches it with.
    pub global_work_size: String,
    /// The local work size.
    pub local_work_size: String,
    /// The variant of a DFT kernel.
    pub variant: Option<Variant>,
    /// The op counts of a DFT kernel.
    pub descriptor: Option<Descriptor>,
    /// Its register cap where the program binary is PTX (see
    /// [`EmittedFile::ptx_register_caps`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ptx_max_registers: Option<u32>,
}

/// `manifest.json`: what was emitted, for whom, and every kernel.
#[derive(Clone, Debug, Serialize)]
pub struct Manifest {
    /// [`GENERATOR_VERSION`].
    pub generator_version: String,
    /// The prime's expression.
    pub prime: String,
    /// Digits per element.
    pub k: usize,
    /// r in decimal.
    pub r: String,
    /// K = 2k.
    pub base_size: usize,
    /// 2 or 4.
    pub radix: usize,
    /// How f_mul forms its digit products.
    pub mul: MulForm,
    /// Whether inline PTX is used.
    pub ptx: bool,
    /// Segments per data vector (1: whole vectors), see [`KernelOptions::segments`].
    pub segments: u32,
    /// Every kernel.
    pub kernels: Vec<KernelEntry>,
}

/// One OpenCL C file, self-contained (the field header included).
#[derive(Clone, Debug)]
pub struct EmittedFile {
    /// The file name, e.g. `dft16_r2_local.cl`.
    pub name: String,
    /// The source.
    pub source: String,
    /// Register caps of its entries where the program binary is PTX (NVIDIA):
    /// the runtime writes `.maxnreg N` into each named entry of the built
    /// binary and loads that (see [`defaults::ptx_register_cap`]).  The
    /// source names them in its first line, so they are part of its cache key.
    pub ptx_register_caps: Vec<RegisterCap>,
}

impl EmittedFile {
    /// A file without register caps.
    pub fn new(name: impl Into<String>, source: impl Into<String>) -> EmittedFile {
        EmittedFile { name: name.into(), source: source.into(), ptx_register_caps: Vec::new() }
    }
}

/// A register cap of one kernel entry (see [`EmittedFile::ptx_register_caps`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RegisterCap {
    /// The kernel's name.
    pub kernel: String,
    /// Registers per work-item at most.
    pub registers: u32,
}

impl RegisterCap {
    /// The comment that opens a file with caps: what the runtime applies,
    /// readable where the source is inspected.
    pub fn comment(caps: &[RegisterCap]) -> String {
        let list: Vec<String> = caps.iter().map(|c| format!("{} {}", c.kernel, c.registers)).collect();
        format!("// PTX register caps (.maxnreg, written into the built binary on NVIDIA): {}\n", list.join(", "))
    }
}

/// Everything `srgfn emit` writes for one prime and radix.
#[derive(Clone, Debug)]
pub struct KernelSet {
    /// The unrolled DFT_K program the base-case kernels run.
    pub program: Program,
    /// The files.
    pub files: Vec<EmittedFile>,
    /// The manifest.
    pub manifest: Manifest,
}

impl KernelSet {
    /// The file named `name`, if emitted.
    pub fn file(&self, name: &str) -> Option<&EmittedFile> {
        self.files.iter().find(|f| f.name == name)
    }
}

/// Name of the DFT kernel of a program and variant (see [`dft_kernel_name`]).
pub fn dft_name(prog: &Program, variant: Variant) -> String {
    dft_kernel_name(prog.size, prog.radix, variant)
}

/// Name of the DFT_n kernel (and, with `.cl`, its file) of a radix and variant.
pub fn dft_kernel_name(n: usize, radix: Radix, variant: Variant) -> String {
    format!("dft{n}_r{}_{}", radix.number(), variant.name())
}

/// Checks that the generator supports the prime (k ≤ 128, r > 2k).
pub fn check_supported(prime: &Prime) -> Result<(), EmitError> {
    if prime.k() > 128 {
        return Err(EmitError::Unsupported(format!("k = {} is not supported by the kernel generator (k = 2 … 128)", prime.k())));
    }
    if prime.r() <= 2 * prime.k() as u64 {
        return Err(EmitError::Unsupported(format!("radix r = {} is too small for the kernels (need r > 2k)", prime.r())));
    }
    Ok(())
}

/// The field header (constants and arithmetic) for a prime.
pub fn field_header(prime: &Prime, opts: &KernelOptions) -> Result<String, EmitError> {
    check_supported(prime)?;
    render("field.cl.tera", &context::field(prime, opts.mul, opts.ptx, opts.segments))
}

/// Blocks per work-group and work-items per block of the "workgroup" variant
/// of DFT_n: R/2 work-items per block (at most 128), and blocks enough for a
/// work-group of 64 work-items where R is small (the smaller last radix).
pub fn workgroup_shape(n: usize) -> (usize, usize) {
    let tpb = (n / 2).clamp(1, 128);
    ((64 / tpb).max(1), tpb)
}

/// The work sizes of a pass kernel of a variant for `count` blocks:
/// (global, local) work-items.  The runtime launches with exactly these.
pub fn pass_work_size(prime: &Prime, program: &Program, variant: Variant, count: usize) -> (usize, usize) {
    match variant {
        Variant::Local => {
            let s = LocalShape::of(prime.k(), program);
            (count.div_ceil(s.groups).max(1) * s.threads(), s.threads())
        }
        Variant::Table => {
            let (g, tpd) = table_shape(prime.k(), program.size);
            (count.div_ceil(g).max(1) * g * tpd, g * tpd)
        }
        Variant::Workgroup => {
            let (gpw, tpb) = workgroup_shape(program.size);
            (count.div_ceil(gpw).max(1) * gpw * tpb, gpw * tpb)
        }
        Variant::Digits => {
            let s = DigitsShape::of(prime.k(), program.size).expect("plans use radices the digits variant holds");
            (count.div_ceil(s.groups).max(1) * s.threads, s.threads)
        }
    }
}

/// The name of the kernel of a pass: the local-memory variants have a second
/// kernel without twiddles, `…_first`, for the first pass (p = 1); else
/// [`twiddled_kernel_name`].
pub fn pass_kernel_name(program: &Program, variant: Variant, p: u64, table: TwiddleTable) -> String {
    if p == 1 && variant != Variant::Workgroup {
        format!("{}_first", dft_name(program, variant))
    } else {
        twiddled_kernel_name(program, variant, table)
    }
}

/// The twiddled pass kernel of `program` built for `table`: a launch
/// table's ends with `_lt` ([`TwiddleTable::suffix`]).
pub fn twiddled_kernel_name(program: &Program, variant: Variant, table: TwiddleTable) -> String {
    format!("{}{}", dft_name(program, variant), table.suffix())
}

/// Whether the kernel file of `program`'s variant has `_q` kernels, its
/// twiddled single pass over a quarter of the blocks (`quarter_shift`,
/// `quarter_index`, `maps::quarter_block`; [`plan::Chain::low`](crate::plan::Chain)): the
/// table variant's where its plans chain (`first2::applies`).  A kernel of
/// its own: the quarter's map in every twiddled pass made k = 8's other
/// launches 0.7–1.1% slower (v45, H200, 2^19 and 2^21–2^23).
pub fn has_quarter_kernels(k: usize, variant: Variant, size: usize, opts: &KernelOptions) -> bool {
    variant == Variant::Table && first2::applies(k, size, opts)
}

/// The twiddled pass kernel of `program` over a quarter of the blocks, built
/// for `table` ([`has_quarter_kernels`]): the twiddled kernel's name with `_q`.
pub fn quarter_kernel_name(program: &Program, variant: Variant, table: TwiddleTable) -> String {
    format!("{}_q", twiddled_kernel_name(program, variant, table))
}

/// The file of the pass kernels of DFT_n of a radix and variant built for
/// `table` ([`dft_kernel`]): `dft{n}_r{radix}_{variant}{suffix}.cl`.
pub fn dft_file_name(n: usize, radix: Radix, variant: Variant, table: TwiddleTable) -> String {
    format!("{}{}.cl", dft_kernel_name(n, radix, variant), table.suffix())
}

/// One self-contained base-case kernel file for `program`: for the plan's
/// table, its pass kernel and, for the local-memory variants, the pass
/// kernel of p = 1 (no twiddles, so fewer registers and more work-items in
/// flight); for a launch table ([`launch_tables`], the table variant only),
/// its twiddled kernels alone, built to store their products unrotated.
pub fn dft_kernel(
    prime: &Prime,
    program: &Program,
    variant: Variant,
    header: &str,
    (opts, table): (&KernelOptions, TwiddleTable),
) -> Result<(EmittedFile, Vec<KernelEntry>), EmitError> {
    let segments = opts.segments;
    let name = dft_name(program, variant);
    let file_name = dft_file_name(program.size, program.radix, variant, table);
    if variant == Variant::Local && LocalShape::of(prime.k(), program).bytes(program.size) > LOCAL_MAX_BYTES {
        return Err(EmitError::Unsupported(format!(
            "the local variant of DFT_{} needs more than {LOCAL_MAX_BYTES} bytes of local memory for k = {}",
            program.size,
            prime.k()
        )));
    }
    let (tpl, gws, lws) = match variant {
        Variant::Workgroup => {
            let (gpw, tpb) = workgroup_shape(program.size);
            ("dft_workgroup.cl.tera", format!("ceil(count / {gpw}) * {}", gpw * tpb), format!("{} (required)", gpw * tpb))
        }
        Variant::Table => {
            let (g, tpd) = table_shape(prime.k(), program.size);
            ("dft_table.cl.tera", format!("ceil(count / {g}) * {}", g * tpd), format!("{} (required)", g * tpd))
        }
        Variant::Local => {
            let s = LocalShape::of(prime.k(), program);
            ("dft_local.cl.tera", format!("ceil(count / {}) * {}", s.groups, s.threads()), format!("{} (required)", s.threads()))
        }
        Variant::Digits => {
            let s = digits::shape_for(prime.k(), program.size)?;
            ("dft_digits.cl.tera", format!("ceil(count / {}) * {}", s.groups, s.threads), format!("{} (required)", s.threads))
        }
    };
    // each kernel with the table of its twiddles (None: the first pass's, without), and whether it runs
    // a quarter of the blocks
    let with_twiddles = (twiddled_kernel_name(program, variant, table), Some(table), false);
    let mut kernels: Vec<(String, Option<TwiddleTable>, bool)> = match (variant, table) {
        (Variant::Workgroup, TwiddleTable::Plan) | (Variant::Table, TwiddleTable::Launch) => vec![with_twiddles],
        (_, TwiddleTable::Plan) => vec![with_twiddles, (format!("{name}_first"), None, false)],
        (_, TwiddleTable::Launch) => {
            return Err(EmitError::Unsupported(format!("the {} variant has no kernels for launch tables", variant.name())))
        }
    };
    if has_quarter_kernels(prime.k(), variant, program.size, opts) {
        kernels.push((quarter_kernel_name(program, variant, table), Some(table), true));
    }
    let mut src = String::new();
    let mut entries = Vec::new();
    for (kname, twiddles, quarters) in kernels {
        let twiddled = twiddles.is_some();
        // a twiddled single pass of the table variant keeps two-byte high parts where that saves a series term
        let high_part = match variant {
            Variant::Table => HighPart::of_table_pass(prime.k(), prime.r(), twiddled, context::has_mul_lazy(prime)),
            _ => HighPart::Byte,
        };
        let sig = sig::pass(&kname, variant, quarters);
        let mut ctx = context::dft(prime, program, &sig, variant, segments, (twiddles, high_part))?;
        if variant == Variant::Digits {
            digits::kernel_context(prime.k(), program.size, twiddled, opts, &mut ctx)?;
        }
        if variant == Variant::Table {
            table::kernel_context(prime.k(), &kname, program, (twiddled, high_part), quarters, opts, &mut ctx);
            let order = table::LoadOrder::of(prime, program.size, twiddled && !quarters, opts);
            ctx.insert("load_order", &order.c_code(8));
            ctx.insert("load_order_rule", order.rule());
        }
        src.push_str(&render(tpl, &ctx)?);
        entries.push(KernelEntry {
            name: kname,
            file: file_name.clone(),
            formula: format!(
                "one Stockham pass of radix {}{}: DFT_{} = {}",
                program.size,
                match twiddles {
                    Some(_) if quarters => " with twiddles, over a quarter of the blocks (plan::Chain::low)",
                    Some(TwiddleTable::Plan) => " with twiddles",
                    Some(TwiddleTable::Launch) => " with twiddles from a launch table (every twiddle an entry, no rotation by r^s)",
                    None => " for p = 1 (no twiddles)",
                },
                program.size,
                program.formula
            ),
            args: sig.manifest_args_for(segments),
            global_work_size: gws.clone(),
            local_work_size: lws.clone(),
            variant: Some(variant),
            descriptor: Some(program.descriptor()),
            ptx_max_registers: twiddled
                .then(|| {
                    let kind = if program.size == 2 * prime.k() { CappedKernel::TwiddledPass } else { CappedKernel::SmallTwiddledPass };
                    defaults::ptx_register_cap(prime.k(), variant, kind, opts)
                })
                .flatten(),
        });
    }
    // the table plans' passes in pairs (emit::first2): the first two from the superblock order, whose
    // twiddles (p = K) never take a launch table (PlanShape::launch_table_log), and any later pair
    if variant == Variant::Table && first2::applies(prime.k(), program.size, opts) {
        let which = match table {
            TwiddleTable::Plan => &[first2::TwoLevel::First2, first2::TwoLevel::Pair][..],
            TwiddleTable::Launch => &[first2::TwoLevel::Pair][..],
        };
        for &w in which {
            let (two_src, entry) = first2::kernel(prime, program, opts, w, table)?;
            src.push_str(&two_src);
            entries.push(entry);
        }
    }
    let caps: Vec<RegisterCap> =
        entries.iter().filter_map(|e| e.ptx_max_registers.map(|registers| RegisterCap { kernel: e.name.clone(), registers })).collect();
    let cap_line = if caps.is_empty() { String::new() } else { RegisterCap::comment(&caps) };
    let file = EmittedFile { name: file_name, source: format!("{cap_line}{header}\n{src}"), ptx_register_caps: caps };
    Ok((file, entries))
}

/// The base-case kernel file of DFT_n (n | 2k) for a variant, self-contained.
pub fn emit_dft(prime: &Prime, n: usize, variant: Variant, opts: &KernelOptions) -> Result<EmittedFile, EmitError> {
    check_supported(prime)?;
    Ok(dft_file_of_size(prime, n, variant, &field_header(prime, opts)?, opts)?.0)
}

/// DFT_n's file of a variant for the plan's table, after the field `header`,
/// with its kernels' manifest entries: what [`emit_dft`] and
/// [`add_small_radices`] write.
fn dft_file_of_size(
    prime: &Prime,
    n: usize,
    variant: Variant,
    header: &str,
    opts: &KernelOptions,
) -> Result<(EmittedFile, Vec<KernelEntry>), EmitError> {
    let program = Program::unroll_size(prime.k(), n, opts.radix).map_err(EmitError::Unsupported)?;
    dft_kernel(prime, &program, variant, header, (opts, TwiddleTable::Plan))
}

/// The micro-benchmark kernels of the field arithmetic (`mb_mul`, `mb_core`,
/// `mb_add`), self-contained: what `srgfn bench` measures the arithmetic's
/// rates with.
pub fn emit_microbench(prime: &Prime, opts: &KernelOptions) -> Result<EmittedFile, EmitError> {
    let header = field_header(prime, opts)?;
    let mut ctx = context::field(prime, opts.mul, opts.ptx, opts.segments);
    ctx.insert("core", &mul::render_core(&arith::ArithSpec::new(prime, opts.mul, opts.ptx)));
    for kn in MICROBENCH_KERNELS {
        ctx.insert(format!("params_{kn}"), &sig::aux(kn).expect("signature").c_params());
    }
    let src = render("microbench.cl.tera", &ctx)?;
    Ok(EmittedFile::new("microbench.cl", format!("{header}\n{src}")))
}

/// Adds [`emit_microbench`]'s file and its kernels' manifest entries to a set
/// emitted with the same options (`srgfn emit --micro`).
pub fn add_microbench(prime: &Prime, opts: &KernelOptions, set: &mut KernelSet) -> Result<(), EmitError> {
    let file = emit_microbench(prime, opts)?;
    for kn in MICROBENCH_KERNELS {
        set.manifest.kernels.push(aux_entry(kn, &file.name, 1));
    }
    set.files.push(file);
    Ok(())
}

/// The kernels of [`emit_microbench`].
pub const MICROBENCH_KERNELS: [&str; 3] = ["mb_mul", "mb_core", "mb_add"];

/// The small-prime baseline kernels (s NTTs over 32-bit Fourier primes and the
/// Garner recombination), self-contained.
pub fn emit_small_primes(
    sp: &crate::smallprimes::SmallPrimes,
    program: crate::smallprimes::SmallPrimeProgram,
) -> Result<String, EmitError> {
    render("smallprime.cl.tera", &crate::smallprimes::template_context(sp, program))
}

/// Emits every kernel for a prime, radix and multiplication form (portable C).
pub fn emit(prime: &Prime, radix: Radix, mul: MulForm) -> Result<KernelSet, EmitError> {
    emit_with(prime, &KernelOptions::new(radix, mul))
}

/// Emits every kernel for a prime with the given options.
pub fn emit_with(prime: &Prime, opts: &KernelOptions) -> Result<KernelSet, EmitError> {
    check_supported(prime)?;
    let program = Program::unroll(prime.k(), opts.radix).map_err(EmitError::Unsupported)?;
    let header = field_header(prime, opts)?;
    let mut files = vec![EmittedFile::new("field.cl", header.clone())];
    let mut kernels = Vec::new();
    let with_header = |body: String| format!("{header}\n{body}");
    // the digits variant's largest block is the plans' largest radix (k = 64, 128: below K)
    let max = digits::max_radix(prime.k());
    for variant in variants_for(prime) {
        let (file, entries) = if variant == Variant::Digits && program.size > max {
            let largest = Program::unroll_size(prime.k(), max, opts.radix).map_err(EmitError::Unsupported)?;
            dft_kernel(prime, &largest, variant, &header, (opts, TwiddleTable::Plan))?
        } else {
            dft_kernel(prime, &program, variant, &header, (opts, TwiddleTable::Plan))?
        };
        files.push(file);
        kernels.extend(entries);
        if has_launch_table_passes(prime.k(), variant) {
            // the twiddled kernels again, for launch tables (emit::launch_tables)
            let (file, entries) = dft_kernel(prime, &program, variant, &header, (opts, TwiddleTable::Launch))?;
            files.push(file);
            kernels.extend(entries);
        }
        if variant == Variant::Local && has_fused(prime, variant, opts) {
            // for the plan's table, and for launch tables (emit::launch_tables)
            for table in [TwiddleTable::Plan, TwiddleTable::Launch] {
                let (file, entry) = fused::kernel(prime, &program, &header, opts.segments, table)?;
                files.push(file);
                kernels.push(entry);
            }
        }
    }
    let size = program.size;
    let mut ctx = tera::Context::new();
    ctx.insert("size", &size);
    ctx.insert("log_size", &size.trailing_zeros());
    ctx.insert("tile", &TILE);
    let mul_lazy = arith::ArithSpec::new(prime, opts.mul, opts.ptx).unrolled_mul();
    for (file, tpl, kernel_names) in aux_files(mul_lazy) {
        for kn in kernel_names.iter() {
            let sig = sig::aux(kn).expect("every auxiliary kernel has a signature");
            ctx.insert(format!("params_{kn}"), &sig.c_params_for(opts.segments));
            ctx.insert(format!("prologue_{kn}"), &sig.prologue(opts.segments));
        }
        ctx.insert("kernels", &kernel_names);
        let src = render(tpl, &ctx)?;
        let src = if file == "transpose.cl" { src } else { with_header(src) };
        debug_assert!(kernel_names.iter().all(|kn| src.contains(&format!("void {kn}("))), "{file} defines its kernels");
        files.push(EmittedFile::new(file, src));
        for kn in kernel_names.iter() {
            kernels.push(aux_entry(kn, file, opts.segments));
        }
    }
    let manifest = Manifest {
        generator_version: GENERATOR_VERSION.into(),
        prime: prime.to_string(),
        k: prime.k(),
        r: prime.r().to_string(),
        base_size: size,
        radix: opts.radix.number(),
        mul: opts.mul,
        ptx: opts.ptx,
        segments: opts.segments,
        kernels,
    };
    Ok(KernelSet { program, files, manifest })
}
