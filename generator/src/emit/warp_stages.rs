//! The table variant's butterfly stages in registers: a digit per work-item,
//! the rotations by r^s as shuffles of the warp.
//!
//! Where a block of the table variant is DFT_K itself (n = K = 2k, so that
//! a work-group of G blocks has G·k work-items), work-item lid = gi·k + d
//! holds digit d of all K slots of block gi in registers (`L{q}`, `H{q}`:
//! the lazy digit's low word and high part).  A block's k digits lie in k
//! consecutive lanes of one warp (k ≤ 32), so digit i of r^s·x, which is
//! ±x_((i − s) mod k), is the value of lane (i − s) mod k of the block's
//! lanes, negated where i < s mod k (once more where s ≥ k): a shuffle with
//! a constant offset and a sign test against a constant.  Every stage,
//! butterfly, slot and shift is a constant of straight-line code (the
//! program's radix-2 steps, `butterfly::bf2_steps`); the stages need no
//! barrier between them.  The block goes through local memory twice, once
//! into the registers after the loads and once back before the stores, in
//! rows of k + 1 words per element (`SLOT` of lazy_block.cl.tera with an
//! element stride), so that a warp's accesses to one slot are two runs of
//! consecutive words.  Before (`table.rs`), each stage read and wrote every
//! digit and high part through local memory, with the shifts read from
//! `__constant` tables into run-time rotations.
//!
//! With PTX the shuffles are `shfl.sync` (`SRGFN_SHFL_LAZY` of the field
//! header); with `KernelOptions::warp_emulation` they go through local
//! memory and barriers, so that PoCL runs the same code in the tests.

use super::butterfly::{bf2_steps, Bf2};
use super::KernelOptions;
use crate::unroll::Program;

/// Lanes of a warp.
const WARP: usize = 32;

/// Whether the table variant's kernels of DFT_n run their stages in
/// registers through the warp: n = 2k (a work-item per digit of each
/// block), k ≤ 32 (a block's digits within one warp), and shuffles (PTX,
/// or emulated for tests).
pub fn applies(k: usize, n: usize, threads: usize, opts: &KernelOptions) -> bool {
    n == 2 * k && k <= WARP && threads.is_multiple_of(WARP) && (opts.ptx || opts.warp_emulation)
}

/// The lazy element of slot q in this lane's registers.
fn slot_var(q: usize) -> (String, String) {
    (format!("L{q}"), format!("H{q}"))
}

/// C statements of one radix-2 step on the lane's digit, with `vars` naming
/// the step's elements (slot registers or temporaries): x = a + r^s b,
/// y = a − r^s b, where digit d of r^s b is ±b_((d − s) mod k) from lane
/// (d − s) mod k of the block's k lanes.
fn step_code(k: usize, st: &Bf2, var: &dyn Fn(&str) -> (String, String)) -> Vec<String> {
    let (q, neg) = (st.s as usize % k, st.s as usize >= k);
    let ((al, ah), (bl, bh), (xl, xh), (yl, yh)) = (var(st.a), var(st.b), var(st.x), var(st.y));
    let mut v = Vec::new();
    let (bl, bh) = if q == 0 {
        (bl, bh)
    } else {
        v.push(format!("SRGFN_SHFL_LAZY(rl, rh, {bl}, {bh}, seg | ((d + {}) & {}));", k - q, k - 1));
        // the digits below q wrapped once: negated, unless s ≥ k wraps them back
        v.push(format!("if (d {} {q}) SRGFN_LZ_SUB(rl, rh, (ulong)0, 0, rl, rh);", if neg { ">=" } else { "<" }));
        ("rl".to_string(), "rh".to_string())
    };
    // with q = 0 and s = k every digit is negated: a − r^s b = a + b
    let (plus, minus) = if q == 0 && neg { ("SUB", "ADD") } else { ("ADD", "SUB") };
    v.push(format!("SRGFN_LZ_{plus}({xl}, {xh}, {al}, {ah}, {bl}, {bh}); SRGFN_LZ_{minus}({yl}, {yh}, {al}, {ah}, {bl}, {bh});"));
    v
}

/// The lane code of every stage of `program` (DFT_K, k = `k`), as the table
/// template prints it inside the work-group's stage phase; `lid` and the
/// block macros `SLOT`, `SL` and `SH` in scope.
pub fn lane_code(k: usize, program: &Program) -> String {
    let n = program.size;
    let mut v = vec![
        format!("/* lane: digit d of block gi (lid = gi {k} + d); seg: the block's first lane in the warp */"),
        format!("const uint d = lid % {k}, gi = lid / {k}, seg = lid & {};", (WARP - 1) & !(k - 1)),
        "ulong rl; int rh;".to_string(),
    ];
    let decl: Vec<String> = (0..n).map(|q| format!("L{q}")).collect();
    v.push(format!("ulong {};", decl.join(", ")));
    let decl: Vec<String> = (0..n).map(|q| format!("H{q}")).collect();
    v.push(format!("int {};", decl.join(", ")));
    for q in 0..n {
        v.push(format!("L{q} = SL[SLOT({q}, d, gi)]; H{q} = SH[SLOT({q}, d, gi)];"));
    }
    for (si, stage) in program.stages.iter().enumerate() {
        v.push(format!("/* stage {si}: {} x DFT_{} */", stage.butterflies.len(), stage.radix()));
        for bf in &stage.butterflies {
            let (inputs, outputs, steps) = bf2_steps(k, &bf.shifts);
            let slots = &bf.slots;
            let var = |name: &str| match inputs.iter().position(|&i| i == name) {
                Some(m) => slot_var(slots[m]),
                None => (format!("{name}l"), format!("{name}h")),
            };
            let temps: Vec<&str> = steps.iter().flat_map(|st| [st.x, st.y]).collect();
            v.push(format!("{{ /* slots {slots:?}, shifts {:?} */", bf.shifts));
            v.push(format!("    ulong {};", temps.iter().map(|t| format!("{t}l")).collect::<Vec<_>>().join(", ")));
            v.push(format!("    int {};", temps.iter().map(|t| format!("{t}h")).collect::<Vec<_>>().join(", ")));
            for st in &steps {
                v.extend(step_code(k, st, &var).into_iter().map(|l| format!("    {l}")));
            }
            let puts: Vec<String> = outputs.iter().zip(slots).map(|(o, &q)| format!("L{q} = {o}l; H{q} = {o}h;")).collect();
            v.push(format!("    {}", puts.join(" ")));
            v.push("}".to_string());
        }
    }
    for q in 0..n {
        v.push(format!("SL[SLOT({q}, d, gi)] = L{q}; SH[SLOT({q}, d, gi)] = (char)H{q};"));
    }
    v.iter().map(|l| format!("        {l}")).collect::<Vec<_>>().join("\n")
}

/// Shuffles a lane runs for `program`: one per radix-2 step whose shift is
/// not a multiple of k.
pub fn shuffles(k: usize, program: &Program) -> usize {
    program
        .stages
        .iter()
        .flat_map(|st| &st.butterflies)
        .flat_map(|bf| bf2_steps(k, &bf.shifts).2)
        .filter(|st| !(st.s as usize).is_multiple_of(k))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::{emit_with, MulForm};
    use crate::prime::Prime;
    use crate::rules::Radix;

    /// The table kernels of DFT_K run their stages through the warp exactly
    /// where shuffles exist (PTX, or emulated), with one shuffle per shifted
    /// radix-2 step and no run-time rotation or shift table in the stages.
    #[test]
    fn table_stages_go_through_the_warp_with_shuffles() {
        for expr in ["(2^63+2^53)^2+1", "(2^64-2^50)^4+1", "(2^63+2^34)^8+1", "(2^62+2^36)^16+1", "(2^62+2^56)^32+1"] {
            let prime = Prime::parse(expr).unwrap();
            let k = prime.k();
            for radix in [Radix::R2, Radix::R4] {
                let program = Program::unroll(k, radix).unwrap();
                for (ptx, emulated) in [(false, false), (true, false), (false, true)] {
                    let opts = KernelOptions { ptx, warp_emulation: emulated, ..KernelOptions::new(radix, MulForm::Wide64) };
                    let set = emit_with(&prime, &opts).unwrap();
                    let name = format!("dft{}_{}_table.cl", 2 * k, if radix == Radix::R4 { "r4" } else { "r2" });
                    let Some(file) = set.files.iter().find(|f| f.name == name) else { continue };
                    let src = &file.source;
                    let warp = ptx || emulated;
                    // two kernels a file (twiddled and first), each with every shuffle once
                    assert_eq!(
                        src.matches("SRGFN_SHFL_LAZY(rl").count(),
                        if warp { 2 * shuffles(k, &program) } else { 0 },
                        "{expr} {radix:?}"
                    );
                    // the stages' run-time rotations: only ROT_GET's definition in each kernel is left
                    let rotations = src.matches("ROT_GET(").count() - 2;
                    assert_eq!(rotations == 0, warp || program.stages.len() == 1, "{expr} {radix:?}");
                    assert!(shuffles(k, &program) > 0);
                    assert_eq!(src.contains("#define SRGFN_SHFL_LAZY(ol, oh, l, h, src) do { barrier"), emulated, "{expr}");
                }
            }
        }
    }
}
