//! The table variant's butterfly stages in registers: a digit per work-item,
//! the rotations by r^s as shuffles of the warp.
//!
//! Where a block of the table variant is DFT_K itself (n = K = 2k), or DFT_k
//! for the k of [`LANE_PER_DIGIT_AT_HALF_K`] (so that a work-group of G blocks
//! has G·k work-items), work-item lid = gi·k + d holds digit d of all n slots
//! of block gi in registers (`L{q}`, `H{q}`:
//! the lazy digit's low word and high part).  A block's k digits lie in k
//! consecutive lanes of one warp (k ≤ 32), so digit i of r^s·x, which is
//! ±x_((i − s) mod k), is the value of lane (i − s) mod k of the block's
//! lanes, negated where i < s mod k (once more where s ≥ k): a shuffle with
//! a constant offset and a sign test against a constant.  Every stage,
//! butterfly, slot and shift is a constant of straight-line code (the
//! program's radix-2 steps, `butterfly::bf2_steps`); the stages need no
//! barrier between them.  The block goes through local memory twice, once
//! into the registers after the loads and once back before the stores, the
//! outputs then in natural order, in the layout [`WarpLayout`] gives (a
//! twiddled kernel's: rows of k + 1 words, so that a warp's accesses to one
//! slot are runs of consecutive words; a first pass's: the bank model's
//! choice for its output-run stores).  Before (`table.rs`), each stage read and wrote every
//! digit and high part through local memory, with the shifts read from
//! `__constant` tables into run-time rotations.
//!
//! With PTX the shuffles are `shfl.sync` (`SRGFN_SHFL_LAZY` of the field
//! header); with `KernelOptions::warp_emulation` they go through local
//! memory and barriers, so that PoCL runs the same code in the tests.

use serde::Serialize;

use super::banks::wavefronts_lazy;
use super::butterfly::{bf2_steps, Bf2};
use super::{KernelOptions, WARP};
use crate::unroll::Program;

/// The k whose table kernels of DFT_k (half of DFT_K: the plans' small
/// radix s = k) also take a work-item per digit of each block and run their
/// stages through the warp, as DFT_K's do.  H200, v51
/// (docs/perf/h200-v51/w16, two alternated processes each): k = 16 at 2^19,
/// whose last pass is (16, K³), 0.4028–0.4031 → 0.3850–0.3862 ms (−4.3 to
/// −4.5%), the other sizes level (their plans have no DFT_16).  k = 8's
/// DFT_8 so (2^19 and 2^23, `w8/`): −0.3% and −0.1%, not taken.
pub const LANE_PER_DIGIT_AT_HALF_K: [usize; 1] = [16];

/// Whether the table variant's blocks of DFT_n take a work-item per digit
/// (n = 2k, or n = k for the k of [`LANE_PER_DIGIT_AT_HALF_K`]): a
/// work-group of G blocks has G·k work-items (`table::shape`).
pub fn lane_per_digit(k: usize, n: usize) -> bool {
    n == 2 * k || (n == k && LANE_PER_DIGIT_AT_HALF_K.contains(&k))
}

/// Whether the table variant's kernels of DFT_n run their stages in
/// registers through the warp: a work-item per digit of each block
/// ([`lane_per_digit`]), k ≤ 32 (a block's digits within one warp), and
/// shuffles (PTX, or emulated for tests).
pub fn applies(k: usize, n: usize, opts: &KernelOptions) -> bool {
    let (groups, tpd) = super::table::shape(k, n);
    lane_per_digit(k, n) && k <= WARP && (groups * tpd).is_multiple_of(WARP) && (opts.ptx || opts.warp_emulation)
}

/// Where a work-group of the warp stages keeps digit d of slot q of block gi
/// in `SL` and `SH`: q·`slot_stride` + gi·`block_stride` + d.  After the
/// stages each block's outputs are in natural order (slot t holds output t),
/// so that the store phases read slot t.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WarpLayout {
    /// Words from slot q to slot q + 1 of a block.
    pub slot_stride: usize,
    /// Words from block gi to block gi + 1.
    pub block_stride: usize,
    /// Words of `SL` (and bytes of `SH`) the work-group's blocks take.
    pub words: usize,
}

impl WarpLayout {
    /// Index of digit d of slot q of block gi.
    pub fn index(&self, q: usize, d: usize, gi: usize) -> usize {
        q * self.slot_stride + gi * self.block_stride + d
    }

    /// Wavefronts of `SL` and `SH` accesses of one work-group of G = `groups`
    /// blocks of DFT_n (`threads` = G·k work-items) for one pass of each
    /// kind, by the bank model (`banks.rs`): the loads' writes (element
    /// e = lid + j·threads is input e / G of block e mod G, digits unrotated
    /// as in a first pass), the stages' reads and writes (lane gi·k + d, one
    /// slot at a time), the stores' reads of p ≥ G (as the loads) and of an
    /// output run (p = 1: element e is output e mod n of block e / n).
    pub fn wavefronts(&self, k: usize, n: usize, groups: usize) -> usize {
        self.wavefronts_by(k, n, groups, wavefronts_lazy)
    }

    /// The cost of one access of `count` work-items, warp by warp: work-item
    /// i touches (slot, digit, block) `lanes(i)`, a warp costs `cost` of its
    /// lanes' indices.
    pub fn warps_cost(&self, lanes: &dyn Fn(usize) -> (usize, usize, usize), count: usize, cost: fn(&[usize]) -> usize) -> usize {
        (0..count.div_ceil(WARP))
            .map(|w| {
                let idx: Vec<usize> = (WARP * w..(WARP * w + WARP).min(count)).map(lanes).map(|(q, d, gi)| self.index(q, d, gi)).collect();
                cost(&idx)
            })
            .sum()
    }

    /// [`WarpLayout::wavefronts`] with the cost of one warp access given.
    fn wavefronts_by(&self, k: usize, n: usize, groups: usize, cost: fn(&[usize]) -> usize) -> usize {
        let threads = groups * k;
        let mut total = 0;
        let warps = |lanes: &dyn Fn(usize) -> (usize, usize, usize), count: usize| self.warps_cost(lanes, count, cost);
        for d in 0..k {
            // loads and the stores of p >= G, one digit at a time
            total += 2 * warps(&|e| (e / groups, d, e % groups), n * groups);
            // the stores of an output run
            total += warps(&|e| (e % n, d, e / n), n * groups);
        }
        for q in 0..n {
            // the stages: read and write slot q
            total += 2 * warps(&|lid| (q, lid % k, lid / k), threads);
        }
        total
    }

    /// The layout of a kernel: for a twiddled pass the compact one, each
    /// element a row of k + 1 words, slot by slot ([`WarpLayout::rows`]); for
    /// the first pass (p = 1, whose stores are an output run) the one the
    /// bank model prefers ([`WarpLayout::search`]).  H200, v32b (the searched
    /// layout for both kernels, `perf/h200-v32/layout`): the first passes ran
    /// faster (k = 8 2^24 1.07 → 0.57 ms, k = 16 2^20 0.111 → 0.091 with the
    /// output runs), the twiddled ones 1–7% slower with 5–10% more local
    /// memory per work-group, which the model does not count.
    pub fn of(k: usize, n: usize, groups: usize, max_words: usize, twiddled: bool) -> Option<WarpLayout> {
        if twiddled {
            Some(WarpLayout::rows(k, n, groups)).filter(|l| l.words <= max_words)
        } else {
            WarpLayout::search(k, n, groups, max_words)
        }
    }

    /// Each element a row of k + 1 words, the blocks' rows of one slot side
    /// by side.
    pub fn rows(k: usize, n: usize, groups: usize) -> WarpLayout {
        WarpLayout { slot_stride: groups * (k + 1), block_stride: k + 1, words: n * groups * (k + 1) }
    }

    /// The layout with the fewest wavefronts among slot-major rows (blocks
    /// side by side in a slot) and block-major ones (slots in a row per
    /// block), each row of k digits padded by up to 3 words and each slot or
    /// block by up to 15, within `max_words`; the first of equals (the
    /// smallest).
    pub fn search(k: usize, n: usize, groups: usize, max_words: usize) -> Option<WarpLayout> {
        Self::search_by(k, n, groups, max_words, |l| l.wavefronts(k, n, groups))
    }

    /// [`WarpLayout::search`] with the cost of a layout given.
    pub fn search_by(k: usize, n: usize, groups: usize, max_words: usize, cost_of: impl Fn(&WarpLayout) -> usize) -> Option<WarpLayout> {
        let mut best: Option<(usize, WarpLayout)> = None;
        for row in k..k + 4 {
            for pad in 0..16 {
                let slot_major = (groups * row + pad, row);
                let block_major = (row, n * row + pad);
                for (slot_stride, block_stride) in [slot_major, block_major] {
                    let l = WarpLayout { slot_stride, block_stride, words: 0 };
                    let words = l.index(n - 1, k - 1, groups - 1) + 1;
                    if words > max_words {
                        continue;
                    }
                    let l = WarpLayout { words, ..l };
                    let cost = cost_of(&l);
                    if best.is_none_or(|(c, b)| cost < c || (cost == c && words < b.words)) {
                        best = Some((cost, l));
                    }
                }
            }
        }
        best.map(|(_, l)| l)
    }
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
/// block macros `SLOT`, `SL` and `SH` (of `high_part`'s type) in scope.
pub fn lane_code(k: usize, program: &Program, high_part: super::high_part::HighPart) -> String {
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
    // output t (in slot output_slots[t]) back to slot t
    for (t, &q) in program.output_slots.iter().enumerate() {
        v.push(format!("SL[SLOT({t}, d, gi)] = L{q}; SH[SLOT({t}, d, gi)] = ({})H{q};", high_part.c_type()));
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

    /// The layouts the search picks: within local memory, one place per
    /// digit, and within half of the bank model's floor (each warp access in
    /// 3 wavefronts: two half-warps of 64-bit words, one of bytes); for
    /// k = 16 (the table variant's default) the 64-bit accesses at their
    /// floor (the bytes take two wavefronts in places).
    #[test]
    fn the_warp_layouts_are_near_conflict_free() {
        for k in [2usize, 4, 8, 16, 32] {
            let n = 2 * k;
            let (groups, tpd) = crate::emit::table_shape(k, n);
            let l = WarpLayout::search(k, n, groups, crate::emit::LOCAL_MAX_BYTES / 9).unwrap();
            assert!(l.words * 9 <= crate::emit::LOCAL_MAX_BYTES);
            let mut seen = std::collections::HashSet::new();
            for q in 0..n {
                for gi in 0..groups {
                    for d in 0..k {
                        assert!(l.index(q, d, gi) < l.words && seen.insert(l.index(q, d, gi)), "k = {k}");
                    }
                }
            }
            let warps = |count: usize| count.div_ceil(32);
            let accesses = 3 * k * warps(n * groups) + 2 * n * warps(groups * tpd);
            let (cost, floor) = (l.wavefronts(k, n, groups), 3 * accesses);
            assert!(2 * cost <= 3 * floor, "k = {k}: {cost} wavefronts, floor {floor} ({l:?})");
            if k == 16 {
                assert_eq!(l.wavefronts_by(k, n, groups, crate::emit::banks::wavefronts_u64), 2 * accesses, "k = {k}: {l:?}");
            }
        }
    }

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
                    // two single-pass kernels a file (twiddled and first), each with every shuffle
                    // once, and where a work-group holds whole superblocks the quarter kernel (_q)
                    // likewise and the first two passes' and the pair kernels (emit::first2) with them
                    // twice each
                    let first2 = super::super::first2::applies(k, 2 * k, &opts);
                    let singles = 2 + first2 as usize;
                    assert_eq!(first2, warp && k <= 8, "{expr}");
                    assert_eq!(src.contains("_first2("), first2, "{expr}");
                    assert_eq!(src.contains("_pair("), first2, "{expr}");
                    assert_eq!(src.contains("_table_q("), first2, "{expr}");
                    assert_eq!(
                        src.matches("SRGFN_SHFL_LAZY(rl").count(),
                        if warp { (singles + 4 * first2 as usize) * shuffles(k, &program) } else { 0 },
                        "{expr} {radix:?}"
                    );
                    // the stages' run-time rotations: only ROT_GET's definition in each single-pass
                    // kernel is left
                    let rotations = src.matches("ROT_GET(").count() - singles;
                    assert_eq!(rotations == 0, warp || program.stages.len() == 1, "{expr} {radix:?}");
                    assert!(shuffles(k, &program) > 0);
                    assert_eq!(src.contains("#define SRGFN_SHFL_LAZY(ol, oh, l, h, src) do { barrier"), emulated, "{expr}");
                }
            }
        }
    }
}
