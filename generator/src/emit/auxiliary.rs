//! The auxiliary kernels (twiddle, transpose, element-wise, baseline and
//! micro-benchmark kernels): which file holds which, and their manifest entries.

use super::{sig, KernelEntry, TILE};

/// The auxiliary kernel files: (file, template, kernels); `pointwise_mul_lazy`
/// (the passes' lazy product, normalised: a check of both) where f_mul_lazy exists.
pub fn aux_files(mul_lazy: bool) -> Vec<(&'static str, &'static str, Vec<&'static str>)> {
    let mut pointwise = vec![
        "pointwise_mul",
        "pointwise_add",
        "pointwise_sub",
        "scale",
        "shift_by",
        "reverse_scale",
        "from_binary",
        "to_binary",
        "outer_product",
    ];
    if mul_lazy {
        pointwise.push("pointwise_mul_lazy");
    }
    vec![
        ("twiddle.cl", "twiddle.cl.tera", vec!["twiddle", "fourstep_twiddle"]),
        ("transpose.cl", "transpose.cl.tera", vec!["transpose"]),
        ("pointwise.cl", "pointwise.cl.tera", pointwise),
        ("baseline.cl", "baseline.cl.tera", vec!["radix2_general"]),
    ]
}

pub(super) fn aux_entry(name: &str, file: &str, segments: u32) -> KernelEntry {
    let (formula, gws, lws): (&str, &str, String) = match name {
        "twiddle" => ("I_B ⊗ D_{m,J}", "count", "any".into()),
        "fourstep_twiddle" => ("X_{j,i} ← ω_N^{±(c0 + j)·i} X_{j,i} (four-step split)", "count", "any".into()),
        "transpose" => (
            "I_batch ⊗ L^{rows·cols}_{cols} (per 64-bit word)",
            "(ceil(cols/TILE)·TILE, ceil(rows/TILE)·TILE, batch)",
            format!("({TILE}, {TILE}, 1)"),
        ),
        "radix2_general" => ("baseline: radix-2 Stockham pass, every twiddle a general product", "count", "any".into()),
        "from_binary" => ("X_e ← Σ_i B[e·k + i] 2^(64 i) in base r (0 for e ≥ count)", "n", "any".into()),
        "outer_product" => ("W[t] ← A[t >> log_c]·B[t mod 2^log_c] (twiddle tables)", "n", "any".into()),
        "to_binary" => ("B[e·k + i] ← word i of X_e in binary", "n", "any".into()),
        "scale" => ("X ← c·X", "n", "any".into()),
        "shift_by" => ("X ← r^s·X", "n", "any".into()),
        "reverse_scale" => ("Y_{v,j} ← c·X_{v,−j mod n}", "total", "any".into()),
        "pointwise_mul" => ("Z ← X · Y", "n", "any".into()),
        "pointwise_mul_lazy" => ("Z ← X · Y by the passes' lazy product and normalisation", "n", "any".into()),
        "pointwise_add" => ("Z ← X + Y", "n", "any".into()),
        "mb_mul" => ("micro-benchmark: X ← X · Y, iters times", "n", "any".into()),
        "mb_core" => ("micro-benchmark: the product core of f_mul (digit products, negacyclic fold), iters times", "n", "any".into()),
        "mb_add" => ("micro-benchmark: (X, Y) ← (X + Y, X − Y), iters times", "n", "any".into()),
        _ => ("Z ← X − Y", "n", "any".into()),
    };
    KernelEntry {
        name: name.into(),
        file: file.into(),
        formula: formula.into(),
        args: sig::aux(name).expect("every auxiliary kernel has a signature").manifest_args_for(segments),
        global_work_size: gws.into(),
        local_work_size: lws,
        variant: None,
        descriptor: None,
        ptx_max_registers: None,
    }
}
