//! Emission: unrolled programs and field constants → OpenCL C through the
//! tera templates of `templates/`.  All decisions are made here in Rust; the
//! templates only print.  Every kernel file is self-contained (the field
//! header is prepended), deterministic, and commented with its formula.

mod context;

use std::sync::OnceLock;

use serde::Serialize;
use tera::Tera;

pub use context::{mg_reciprocal, ShiftFn};

use crate::prime::Prime;
use crate::rules::Radix;
use crate::unroll::{Descriptor, Program};

/// The generator's version, part of every cache key and manifest.
pub const GENERATOR_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Largest k for which the "private" (one work-item per DFT_K) variant is emitted.
pub const PRIVATE_MAX_K: usize = 16;
/// Largest k for which the "local" (slots in local memory) variant is emitted.
pub const LOCAL_MAX_K: usize = 32;
/// Local memory a "local" work-group may use (fits every OpenCL GPU's 32 KiB minimum).
pub const LOCAL_BYTES: usize = 32 * 1024;
/// Work-items a "local" work-group aims for.
pub const LOCAL_THREADS: usize = 128;
/// Tile edge of the transpose kernel (local size TILE × TILE).
pub const TILE: usize = 16;

#[derive(Debug, thiserror::Error)]
pub enum EmitError {
    #[error("{0}")]
    Unsupported(String),
    #[error("template {template} failed: {message}")]
    Template { template: String, message: String },
}

fn templates() -> &'static Tera {
    static T: OnceLock<Tera> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = Tera::default();
        t.add_raw_templates(vec![
            ("field.cl.tera", include_str!("../../../templates/field.cl.tera")),
            ("dft_private.cl.tera", include_str!("../../../templates/dft_private.cl.tera")),
            ("dft_workgroup.cl.tera", include_str!("../../../templates/dft_workgroup.cl.tera")),
            ("dft_local.cl.tera", include_str!("../../../templates/dft_local.cl.tera")),
            ("dft_tables.cl.tera", include_str!("../../../templates/dft_tables.cl.tera")),
            ("twiddle.cl.tera", include_str!("../../../templates/twiddle.cl.tera")),
            ("transpose.cl.tera", include_str!("../../../templates/transpose.cl.tera")),
            ("pointwise.cl.tera", include_str!("../../../templates/pointwise.cl.tera")),
            ("baseline.cl.tera", include_str!("../../../templates/baseline.cl.tera")),
            ("smallprime.cl.tera", include_str!("../../../templates/smallprime.cl.tera")),
        ])
        .expect("templates parse");
        t.autoescape_on(vec![]);
        t
    })
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

/// How a base-case kernel is organised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// One work-item per DFT_K, slots in private memory, straight-line code (k ≤ 16).
    Private,
    /// One work-group per DFT_K, butterflies of a stage shared by its work-items,
    /// in place in global memory, slot and shift tables in constant memory (any k).
    Workgroup,
    /// Several DFT_K per work-group with their slots in local memory, a stage's
    /// butterflies shared by the work-items (k ≤ 32).
    Local,
}

/// How `f_mul` forms its k² digit products (the only part of the field
/// arithmetic with a device-dependent best form; the result is the same).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MulForm {
    /// 64×64→128-bit products (`mul_hi`) accumulated in 192 bits with carries:
    /// for devices with a native 64-bit multiplier (CPUs).
    #[default]
    Wide64,
    /// 22-bit limbs: 9 exact 32×32→64-bit multiply-adds per digit product into
    /// carry-free 64-bit buckets: for GPUs, whose 64-bit multiplies are emulated.
    Limb22,
}

impl MulForm {
    pub fn parse(s: &str) -> Result<MulForm, EmitError> {
        match s {
            "wide64" => Ok(MulForm::Wide64),
            "limb22" => Ok(MulForm::Limb22),
            _ => Err(EmitError::Unsupported(format!("unknown multiplication form '{s}': use wide64 or limb22"))),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            MulForm::Wide64 => "wide64",
            MulForm::Limb22 => "limb22",
        }
    }
}

/// DFTs per work-group and work-items per DFT of the "local" variant of DFT_n.
pub fn local_shape(k: usize, n: usize) -> (usize, usize) {
    let tpd = (n / 2).max(1);
    let by_threads = (LOCAL_THREADS / tpd).max(1);
    let by_memory = (LOCAL_BYTES / (n * k * 8)).max(1);
    (by_threads.min(by_memory), tpd)
}

/// A kernel's entry in `manifest.json`.
#[derive(Clone, Debug, Serialize)]
pub struct KernelEntry {
    pub name: String,
    pub file: String,
    pub formula: String,
    pub args: Vec<String>,
    pub global_work_size: String,
    pub local_work_size: String,
    pub variant: Option<Variant>,
    pub descriptor: Option<Descriptor>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Manifest {
    pub generator_version: String,
    pub prime: String,
    pub k: usize,
    pub r: String,
    pub base_size: usize,
    pub radix: usize,
    pub mul: MulForm,
    pub kernels: Vec<KernelEntry>,
}

#[derive(Clone, Debug)]
pub struct EmittedFile {
    pub name: String,
    pub source: String,
}

/// Everything `srgfn emit` writes for one prime and radix.
#[derive(Clone, Debug)]
pub struct KernelSet {
    pub program: Program,
    pub files: Vec<EmittedFile>,
    pub manifest: Manifest,
}

impl KernelSet {
    pub fn file(&self, name: &str) -> Option<&EmittedFile> {
        self.files.iter().find(|f| f.name == name)
    }
}

pub fn dft_name(prog: &Program, variant: Variant) -> String {
    dft_kernel_name(prog.size, prog.radix, variant)
}

/// Name of the DFT_n kernel (and, with `.cl`, its file) of a radix and variant.
pub fn dft_kernel_name(n: usize, radix: Radix, variant: Variant) -> String {
    let v = match variant {
        Variant::Private => "private",
        Variant::Workgroup => "workgroup",
        Variant::Local => "local",
    };
    format!("dft{n}_r{}_{v}", radix.number())
}

/// Checks that the generator supports the prime (k ≤ 128, r > 2k).
pub fn check_supported(prime: &Prime) -> Result<(), EmitError> {
    if prime.k() > 128 {
        return Err(EmitError::Unsupported(format!(
            "k = {} is not supported by the kernel generator (k = 2 … 128)",
            prime.k()
        )));
    }
    if prime.r() <= 2 * prime.k() as u64 {
        return Err(EmitError::Unsupported(format!("radix r = {} is too small for the kernels (need r > 2k)", prime.r())));
    }
    Ok(())
}

/// The field header (constants and arithmetic) for a prime.
pub fn field_header(prime: &Prime, mul: MulForm) -> Result<String, EmitError> {
    check_supported(prime)?;
    render("field.cl.tera", &context::field(prime, mul))
}

/// Variants emitted for a prime, the default first: "local" for k ≤ 32,
/// "private" for k ≤ 16, "workgroup" always.
pub fn variants_for(prime: &Prime) -> Vec<Variant> {
    let mut v = Vec::new();
    if prime.k() <= LOCAL_MAX_K {
        v.push(Variant::Local);
    }
    if prime.k() <= PRIVATE_MAX_K {
        v.push(Variant::Private);
    }
    v.push(Variant::Workgroup);
    v
}

/// One self-contained base-case kernel file for `program` (DFT_n, n | 2k).
pub fn dft_kernel(prime: &Prime, program: &Program, variant: Variant, header: &str) -> Result<(EmittedFile, KernelEntry), EmitError> {
    let name = dft_name(program, variant);
    let (tpl, gws, lws) = match variant {
        Variant::Private => ("dft_private.cl.tera", "count".to_string(), "any".to_string()),
        Variant::Workgroup => ("dft_workgroup.cl.tera", "count * WG".into(), format!("WG (any; {} uses all)", (program.size / 2).max(1))),
        Variant::Local => {
            let (g, tpd) = local_shape(prime.k(), program.size);
            ("dft_local.cl.tera", format!("ceil(count / {g}) * {}", g * tpd), format!("{} (required)", g * tpd))
        }
    };
    let src = render(tpl, &context::dft(prime, program, &name, variant))?;
    let file = EmittedFile { name: format!("{name}.cl"), source: format!("{header}\n{src}") };
    let entry = KernelEntry {
        name,
        file: file.name.clone(),
        formula: format!("I_B ⊗ ({}) ⊗ I_J", program.formula),
        args: ["X: in, digit-major", "Y: out, digit-major", "plane: ulong, digit plane stride", "J: ulong, inner stride", "count: ulong, number of DFTs = B*J"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        global_work_size: gws,
        local_work_size: lws,
        variant: Some(variant),
        descriptor: Some(program.descriptor()),
    };
    Ok((file, entry))
}

/// The base-case kernel file of DFT_n (n | 2k) for a variant, self-contained.
pub fn emit_dft(prime: &Prime, n: usize, radix: Radix, variant: Variant, mul: MulForm) -> Result<EmittedFile, EmitError> {
    check_supported(prime)?;
    let program = Program::unroll_size(prime.k(), n, radix).map_err(EmitError::Unsupported)?;
    Ok(dft_kernel(prime, &program, variant, &field_header(prime, mul)?)?.0)
}

/// The small-prime baseline kernels (s NTTs over 32-bit Fourier primes and the
/// Garner recombination), self-contained.
pub fn emit_small_primes(sp: &crate::smallprimes::SmallPrimes, program: crate::smallprimes::SmallPrimeProgram) -> Result<String, EmitError> {
    render("smallprime.cl.tera", &crate::smallprimes::template_context(sp, program))
}

/// Emits every kernel for a prime, radix and multiplication form.
pub fn emit(prime: &Prime, radix: Radix, mul: MulForm) -> Result<KernelSet, EmitError> {
    check_supported(prime)?;
    let program = Program::unroll(prime.k(), radix).map_err(EmitError::Unsupported)?;
    let header = field_header(prime, mul)?;
    let mut files = vec![EmittedFile { name: "field.cl".into(), source: header.clone() }];
    let mut kernels = Vec::new();
    let with_header = |body: String| format!("{header}\n{body}");
    for variant in variants_for(prime) {
        let (file, entry) = dft_kernel(prime, &program, variant, &header)?;
        files.push(file);
        kernels.push(entry);
    }
    let size = program.size;
    let mut ctx = tera::Context::new();
    ctx.insert("size", &size);
    ctx.insert("log_size", &size.trailing_zeros());
    ctx.insert("tile", &TILE);
    for (file, tpl, kernel_names) in [
        ("twiddle.cl", "twiddle.cl.tera", vec!["twiddle"]),
        ("transpose.cl", "transpose.cl.tera", vec!["transpose"]),
        ("pointwise.cl", "pointwise.cl.tera", vec!["pointwise_mul", "pointwise_add", "pointwise_sub", "scale", "shift_by", "reverse_scale", "from_binary", "to_binary", "outer_product"]),
        ("baseline.cl", "baseline.cl.tera", vec!["radix2_general"]),
    ] {
        let src = render(tpl, &ctx)?;
        let src = if file == "transpose.cl" { src } else { with_header(src) };
        files.push(EmittedFile { name: file.into(), source: src });
        for kn in kernel_names {
            kernels.push(aux_entry(kn, file));
        }
    }
    let manifest = Manifest {
        generator_version: GENERATOR_VERSION.into(),
        prime: prime.to_string(),
        k: prime.k(),
        r: prime.r().to_string(),
        base_size: size,
        radix: radix.number(),
        mul,
        kernels,
    };
    Ok(KernelSet { program, files, manifest })
}

fn aux_entry(name: &str, file: &str) -> KernelEntry {
    let (formula, args, gws, lws): (String, &[&str], &str, String) = match name {
        "twiddle" => (
            "I_B ⊗ D_{m,J}".to_string(),
            &["X: inout", "plane: ulong", "W: table w^t, t < T", "log_t: uint (T = 2^log_t, w^T = r)", "m: uint (m | K)", "J: uint", "step: ulong (omega_mJ = w^step)", "count: ulong (elements)"],
            "count",
            "any".into(),
        ),
        "transpose" => (
            "I_batch ⊗ L^{rows·cols}_{cols} (per 64-bit word)".into(),
            &["X: in", "Y: out", "rows: uint", "cols: uint"],
            "(ceil(cols/TILE)·TILE, ceil(rows/TILE)·TILE, batch)",
            format!("({TILE}, {TILE}, 1)"),
        ),
        "radix2_general" => (
            "baseline: radix-2 Stockham pass, every twiddle a general product".into(),
            &["X: in", "Y: out", "W: table w^e, e < n/2", "plane: ulong", "n: ulong", "p: ulong", "count: ulong (= total/2)"],
            "count",
            "any".into(),
        ),
        "from_binary" => (
            "X_e ← Σ_i B[e·k + i] 2^(64 i) in base r (0 for e ≥ count)".into(),
            &["B: in, k binary words per element", "X: out, digit-major", "plane: ulong", "count: ulong (values given)", "n: ulong (elements written)"],
            "n",
            "any".into(),
        ),
        "outer_product" => (
            "W[t] ← A[t >> log_c]·B[t mod 2^log_c] (twiddle tables)".into(),
            &["A: in, n >> log_c elements", "B: in, 2^log_c elements", "W: out, n elements", "log_c: uint", "n: ulong"],
            "n",
            "any".into(),
        ),
        "to_binary" => (
            "B[e·k + i] ← word i of X_e in binary".into(),
            &["X: in, digit-major", "B: out, k binary words per element", "plane: ulong", "n: ulong"],
            "n",
            "any".into(),
        ),
        "scale" => ("X ← c·X".into(), &["X: inout", "C: constant element", "plane: ulong", "n: ulong"], "n", "any".into()),
        "shift_by" => ("X ← r^s·X".into(), &["X: inout", "s: uint", "plane: ulong", "n: ulong"], "n", "any".into()),
        "reverse_scale" => (
            "Y_{v,j} ← c·X_{v,−j mod n}".into(),
            &["X: in", "Y: out", "C: constant element", "plane: ulong", "n: ulong (vector length)", "total: ulong"],
            "total",
            "any".into(),
        ),
        _ => (
            format!("Z ← X {} Y", if name.ends_with("mul") { "·" } else if name.ends_with("add") { "+" } else { "−" }),
            &["X: in", "Y: in", "Z: out", "plane: ulong", "n: ulong"],
            "n",
            "any".into(),
        ),
    };
    KernelEntry {
        name: name.into(),
        file: file.into(),
        formula,
        args: args.iter().map(|s| s.to_string()).collect(),
        global_work_size: gws.into(),
        local_work_size: lws,
        variant: None,
        descriptor: None,
    }
}
