//! Template contexts: every value a template prints is computed here.

use serde::Serialize;
use tera::Context;

use super::arith::ArithSpec;
use super::Variant;
use crate::prime::Prime;
use crate::unroll::Program;

/// Möller–Granlund reciprocal of a normalised divisor d ≥ 2^63:
/// v = ⌊(2^128 − 1) / d⌋ − 2^64.
pub fn mg_reciprocal(d: u64) -> u64 {
    assert!(d >> 63 == 1, "divisor must be normalised");
    (u128::MAX / d as u128 - (1u128 << 64)) as u64
}

pub fn field(prime: &Prime, mul: super::MulForm, ptx: bool, segments: u32) -> Context {
    let r = prime.r();
    let shift = r.leading_zeros();
    let norm = r << shift;
    let mut c = Context::new();
    c.insert("expr", &prime.to_string());
    c.insert("k", &prime.k());
    c.insert("r_dec", &r.to_string());
    c.insert("bits", &prime.bits());
    c.insert("radix_terms", &prime.radix().to_string());
    c.insert("r_hex", &format!("0x{r:016x}"));
    c.insert("r_shift", &shift);
    c.insert("r_norm_hex", &format!("0x{norm:016x}"));
    c.insert("r_recip_hex", &format!("0x{:016x}", mg_reciprocal(norm)));
    c.insert("mul_form", mul.name());
    c.insert("ptx", &ptx);
    c.insert("segments", &segments);
    let spec = ArithSpec::new(prime, mul, ptx);
    c.insert("lazy_ops", &super::lazy::render_ops(&spec));
    c.insert("arith", &super::arith::render(&spec));
    c.insert("lazy_norm", &super::lazy::render_norm(&spec));
    c.insert("stockham_maps", &crate::maps::render_macros());
    // the conversions' loops fully unrolled (every array index a constant) up to k = 16
    c.insert("mul_unroll", if prime.k() <= 16 { "    #pragma unroll" } else { "" });
    c
}

#[derive(Serialize)]
struct BfCtx {
    slots: Vec<usize>,
    shifts: Vec<u32>,
}

#[derive(Serialize)]
struct StageCtx {
    radix: usize,
    butterflies: Vec<BfCtx>,
}

/// The context of a DFT_R pass kernel of a variant, with twiddles from the
/// plan's table or a launch table, or without (`twiddles` None: the first
/// pass), its lazy digits' high parts `high_part` in local memory (the
/// table variant's; the local variant's are bytes); `sig` names the kernel
/// and gives its parameters.
pub fn dft(
    prime: &Prime,
    prog: &Program,
    sig: &super::sig::KernelSig,
    variant: Variant,
    segments: u32,
    (twiddles, high_part): (Option<super::TwiddleTable>, super::high_part::HighPart),
) -> Result<Context, super::EmitError> {
    let twiddled = twiddles.is_some();
    let k = prime.k();
    // the table variant runs each stage's butterflies in the order its bank model chose
    let layout = (variant == Variant::Table).then(|| {
        let (groups, tpd) = super::table::shape(k, prog.size);
        super::table_layout::TableLayout::of(k, prog, groups, groups * tpd)
    });
    let reordered = layout.as_ref().map(|l| l.reorder(prog));
    let prog = reordered.as_ref().unwrap_or(prog);
    let stages: Vec<StageCtx> = prog
        .stages
        .iter()
        .map(|st| StageCtx {
            radix: st.radix(),
            butterflies: st.butterflies.iter().map(|bf| BfCtx { slots: bf.slots.clone(), shifts: bf.shifts.clone() }).collect(),
        })
        .collect();
    let mut c = Context::new();
    let name = sig.name.as_str();
    c.insert("name", name);
    c.insert("params", &sig.c_params_for(segments));
    c.insert("prologue", &sig.prologue(segments));
    c.insert("size", &prog.size);
    c.insert("log_size", &prog.size.trailing_zeros());
    c.insert("radix", &prog.radix.number());
    c.insert("formula", &prog.formula.to_string());
    c.insert("desc", &prog.descriptor());
    c.insert("w4", &((k / 2) as u32));
    c.insert("out_slots", &prog.output_slots);
    let mul_lazy = has_mul_lazy(prime);
    c.insert("mul_lazy", &mul_lazy);
    c.insert("twiddled", &twiddled);
    c.insert("out_shifts", &prog.output_shifts);
    if variant != Variant::Local {
        c.insert("max_bf", &stages.iter().map(|s| s.butterflies.len()).max().unwrap_or(1));
        c.insert("max_radix", &stages.iter().map(|s| s.radix).max().unwrap_or(2));
        c.insert("stages", &stages);
    }
    match variant {
        Variant::Local => super::local::context(k, name, prog, (twiddles, mul_lazy), &mut c)?,
        Variant::Table => {
            super::table::context(k, name, prog, layout.as_ref().expect("the table layout"), (twiddles, (mul_lazy, high_part)), &mut c)?
        }
        Variant::Digits => super::digits::context(k, name, prog, &mut c)?,
        Variant::Workgroup => {
            let (gpw, tpb) = super::workgroup_shape(prog.size);
            c.insert("gpw", &gpw);
            c.insert("tpb", &tpb);
        }
    }
    Ok(c)
}

/// Whether the prime's field code has f_mul_lazy: where f_mul is
/// straight-line code (the same for every f_mul form).
pub(super) fn has_mul_lazy(prime: &Prime) -> bool {
    super::arith::ArithSpec::new(prime, super::MulForm::Wide64, false).unrolled_mul()
}
