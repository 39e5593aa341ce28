//! The auxiliary kernels (twiddle, transpose, element-wise, baseline and
//! micro-benchmark kernels): which file holds which, and their manifest entries.

use super::{sig, KernelEntry, TILE};

/// Every auxiliary kernel file: (file, template, kernels).  The element-wise
/// kernels are five files rendered from `pointwise.cl.tera`, each with only
/// its own kernels, so that each builds on its own and only where it runs
/// (side by side, `FieldKernels::prepare`): `tables.cl` every plan builds its
/// twiddle tables with; `convert.cl` the binary uploads and downloads;
/// `inverse.cl` the inverse's scaling; `product.cl` the element-wise product
/// of polynomial products; `pointwise.cl` the operations only checks run.
/// One file held them all until v46, three until v47: the longest build of a
/// cold start for k ≥ 16, which a forward plan no longer waits for.
const AUX_FILES: [(&str, &str, &[&str]); 8] = [
    ("twiddle.cl", "twiddle.cl.tera", &["twiddle", "fourstep_twiddle"]),
    ("transpose.cl", "transpose.cl.tera", &["transpose"]),
    ("tables.cl", "pointwise.cl.tera", &["outer_product"]),
    ("convert.cl", "pointwise.cl.tera", &["from_binary", "to_binary"]),
    ("inverse.cl", "pointwise.cl.tera", &["reverse_scale"]),
    ("product.cl", "pointwise.cl.tera", &["pointwise_mul"]),
    ("pointwise.cl", "pointwise.cl.tera", &["pointwise_mul_lazy", "pointwise_add", "pointwise_sub", "scale", "shift_by"]),
    ("baseline.cl", "baseline.cl.tera", &["radix2_general"]),
];

/// The auxiliary kernel files: (file, template, kernels); `pointwise_mul_lazy`
/// (the passes' lazy product, normalised: a check of both) where f_mul_lazy exists.
pub fn aux_files(mul_lazy: bool) -> Vec<(&'static str, &'static str, Vec<&'static str>)> {
    AUX_FILES
        .iter()
        .map(|&(file, tpl, kernels)| (file, tpl, kernels.iter().copied().filter(|&kn| mul_lazy || kn != "pointwise_mul_lazy").collect()))
        .collect()
}

/// The file that holds auxiliary kernel `name` (of [`aux_files`]), None for
/// a name that is no auxiliary kernel.
pub fn aux_file(name: &str) -> Option<&'static str> {
    AUX_FILES.iter().find(|(_, _, kernels)| kernels.contains(&name)).map(|&(file, _, _)| file)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::{emit_with, KernelOptions, MulForm};
    use crate::rules::Radix;
    use crate::Prime;

    /// Every auxiliary kernel is defined in exactly the file `aux_file` names,
    /// for both forms of the lazy product, and every file of `aux_files` is
    /// emitted with its kernels and no other element-wise kernel.
    #[test]
    fn each_auxiliary_kernel_sits_in_the_file_aux_file_names() {
        for (prime, mul) in [("(2^63+2^34)^8+1", MulForm::Wide64), ("(2^63+2^53)^2+1", MulForm::Limb22)] {
            let prime = Prime::parse(prime).unwrap();
            let set = emit_with(&prime, &KernelOptions::new(Radix::R4, mul)).unwrap();
            let all: Vec<&str> = aux_files(true).into_iter().flat_map(|(_, _, kernels)| kernels).collect();
            for name in &all {
                let holders: Vec<&str> =
                    set.files.iter().filter(|f| f.source.contains(&format!("void {name}("))).map(|f| f.name.as_str()).collect();
                match aux_file(name) {
                    Some(file) if set.manifest.kernels.iter().any(|k| k.name == *name) => {
                        assert_eq!(holders, [file], "{prime}: kernel {name}")
                    }
                    Some(_) => assert!(holders.is_empty(), "{prime}: {name} is not emitted, yet {holders:?} define it"),
                    None => panic!("no file for {name}"),
                }
            }
            assert_eq!(aux_file("dft16_r4_table"), None);
        }
    }
}
