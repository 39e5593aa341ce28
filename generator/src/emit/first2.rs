//! The first two Stockham passes of a table plan, (R, 1) then (R, R) with
//! R = K = 2k, in one launch, reading the vector in the superblock order
//! (`maps::superblock_element`).
//!
//! Why (v34, H200, k = 8): the second pass needs, for each of its blocks,
//! outputs of R first-pass blocks; one launch can run both levels on a
//! superblock of R² elements held in local memory (its inputs x[j + m·n/R²],
//! m < R²).  In the natural order those inputs lie n/R² elements apart, each
//! 8-byte load its own 32-byte sector shared with other work-groups, and the
//! launch gained 3% at best; read as R² consecutive elements the two passes
//! took 1.393 instead of 1.683 ms at 2^24 (−17%).  So the runtime keeps a
//! vector it uploads for a forward transform in the superblock order
//! (per vector and digit plane, the transpose of the R² × T matrix,
//! T = n/R²), and this kernel's outputs are the natural order the later
//! passes read.
//!
//! The work-group is the table variant's (G blocks of DFT_R, G·k
//! work-items) with G / R superblocks, in its warp layout: level 1's block
//! gi = sb·R + a (column a) keeps input b in slot b; after its stages (the
//! table variant's warp code, `warp_stages::lane_code`) output t0 of column
//! a is in slot t0, multiplied there by the second pass's twiddle
//! w^((a·t0) << tw_shift2); level 2's block sb·R + t0 reads its input a from
//! slot t0 of block sb·R + a, with the same warp code.

use super::banks::wavefronts_lazy;
use super::sig;
use super::table;
use super::twiddle_put::{TwiddlePut, TwiddleTable};
use super::warp_stages::WarpLayout;
use super::{warp_stages, EmitError, KernelEntry, KernelOptions, Variant, LOCAL_MAX_BYTES};
use crate::prime::Prime;
use crate::unroll::Program;

/// Superblocks of R² elements that a work-group of the table variant of
/// DFT_n holds: G / n, where n = 2k (a block is DFT_K) and n divides G.
pub fn superblocks_per_group(k: usize, n: usize) -> Option<usize> {
    let (groups, _) = table::shape(k, n);
    (n == 2 * k && groups.is_multiple_of(n)).then(|| groups / n)
}

/// Whether the table kernels of DFT_n (n = program size) include the
/// first-two-passes kernel: the stages run through the warp
/// (`warp_stages::applies`) and a work-group holds whole superblocks.
pub fn applies(k: usize, n: usize, opts: &KernelOptions) -> bool {
    warp_stages::applies(k, n, opts) && superblocks_per_group(k, n).is_some()
}

/// The kernel's name: the table kernel's with `_first2`.
pub fn name(program: &Program) -> String {
    format!("{}_first2", super::dft_name(program, Variant::Table))
}

/// (global, local) work-items of a launch over `superblocks` superblocks.
pub fn work_size(k: usize, n: usize, superblocks: usize) -> Option<(usize, usize)> {
    let per = superblocks_per_group(k, n)?;
    let (groups, tpd) = table::shape(k, n);
    Some((superblocks.div_ceil(per).max(1) * groups * tpd, groups * tpd))
}

/// Wavefronts of local memory (bank model, `banks.rs`) of one work-group of
/// this kernel in `layout`, G = `groups` blocks of DFT_n: the loads' writes
/// and the twiddles' reads and writes (an element a lane, a digit at a time;
/// element e is m = e mod n² of superblock e / n², column m mod n, level-1
/// slot m / n), both levels' stages (a digit a lane, a slot at a time: level
/// 1's block gi at block gi, level 2's row gi mod n of superblock gi / n at
/// block (gi / n)·n + q, slot gi mod n) and the stores (output o = t0 + n·t2
/// from slot t0 of block t2).
pub fn wavefronts(layout: &WarpLayout, k: usize, n: usize, groups: usize) -> usize {
    let threads = groups * k;
    let warps = |lanes: &dyn Fn(usize) -> (usize, usize, usize), count: usize| layout.warps_cost(lanes, count, wavefronts_lazy);
    let elements = groups * n;
    let (sb, m) = (|e: usize| e / (n * n), |e: usize| e % (n * n));
    let mut total = 0;
    for d in 0..k {
        // the loads' writes and the twiddles' reads and writes: one map
        total += 3 * warps(&|e| (m(e) / n, d, sb(e) * n + m(e) % n), elements);
        total += warps(&|e| (m(e) % n, d, sb(e) * n + m(e) / n), elements);
    }
    for q in 0..n {
        total += 2 * warps(&|lid| (q, lid % k, lid / k), threads);
        total += 2 * warps(&|lid| ((lid / k) % n, lid % k, (lid / k) / n * n + q), threads);
    }
    total
}

/// The layout with the fewest [`wavefronts`] among those
/// `WarpLayout::search` tries, within `max_words`; the smallest of equals.
pub fn layout(k: usize, n: usize, groups: usize, max_words: usize) -> Option<WarpLayout> {
    WarpLayout::search_by(k, n, groups, max_words, |l| wavefronts(l, k, n, groups))
}

/// The kernel's source (after the table kernels, in their file) and its
/// manifest entry.
pub(super) fn kernel(prime: &Prime, program: &Program, opts: &KernelOptions) -> Result<(String, KernelEntry), EmitError> {
    let k = prime.k();
    let n = program.size;
    let sbn = superblocks_per_group(k, n)
        .filter(|_| applies(k, n, opts))
        .ok_or_else(|| EmitError::Unsupported(format!("no first-two-passes kernel of DFT_{n} for k = {k} with these options")))?;
    let name = name(program);
    let mut ctx = super::context::dft(prime, program, &name, Variant::Table, opts.segments, Some(TwiddleTable::Plan))?;
    table::kernel_context(k, &name, program, false, opts, &mut ctx)
        .ok_or_else(|| EmitError::Unsupported(format!("the table stages of DFT_{n} do not run through the warp for k = {k}")))?;
    let (groups, tpd) = table::shape(k, n);
    ctx.insert("threads", &(groups * tpd));
    let scratch = table::shuffle_scratch_bytes(groups * tpd, opts);
    let layout = layout(k, n, groups, (LOCAL_MAX_BYTES - scratch) / 9)
        .ok_or_else(|| EmitError::Unsupported(format!("{sbn} superblocks of DFT_{n} do not fit local memory for k = {k}")))?;
    ctx.insert("lmem_words", &layout.words);
    ctx.insert("lmem_bytes", &(layout.words * 9 + scratch));
    let sig = sig::first2_pass(&name);
    ctx.insert("params", &sig.c_params_for(opts.segments));
    ctx.insert("prologue", &sig.prologue(opts.segments));
    ctx.insert("slot_stride", &layout.slot_stride);
    ctx.insert("block_stride", &layout.block_stride);
    ctx.insert("sbn", &sbn);
    ctx.insert("square", &(n * n));
    ctx.insert("log_square", &(2 * n.trailing_zeros()));
    let at = |digit: &str| format!("F2_SLOT(t0, {digit}, sbase + a)");
    let put = TwiddlePut {
        exponent: Some("SRGFN_TW_EXP(a, t0, tw_shift2)"),
        guard: Some("a > 0 && t0 > 0"),
        index_of_digit: &at,
        mul_lazy: super::context::has_mul_lazy(prime),
        table: TwiddleTable::Plan,
    };
    ctx.insert("twiddle_put", &put.render(8));
    let src = super::render("dft_table_first2.cl.tera", &ctx)?;
    let entry = KernelEntry {
        name: name.clone(),
        file: format!("{}.cl", super::dft_name(program, Variant::Table)),
        formula: format!(
            "the first two Stockham passes of radix {n}, (R, 1) then (R, R), in one launch, from the superblock order: DFT_{n} = {}",
            program.formula
        ),
        args: sig.manifest_args_for(opts.segments),
        global_work_size: format!("ceil(count / {sbn}) * {}", groups * tpd),
        local_work_size: format!("{} (required)", groups * tpd),
        variant: Some(Variant::Table),
        descriptor: Some(program.descriptor()),
        ptx_max_registers: super::defaults::ptx_register_cap(k, Variant::Table, super::defaults::CappedKernel::First2, opts),
    };
    Ok((src, entry))
}

/// R² where a plan of `shape` runs its first two launches as this kernel
/// when its input is in the superblock order: the table variant with the
/// kernel emitted, whole vectors (one segment), and a plan whose first two
/// launches are the passes (K, 1) and (K, K) (every plan of N ≥ K² does:
/// the smaller radix comes last).
pub fn plan_superblock(k: usize, variant: Variant, opts: &KernelOptions, shape: &crate::plan::PlanShape) -> Option<usize> {
    use crate::plan::{Launch, Pass};
    let kk = 2 * k;
    let first_two = shape
        .launches()
        .get(..2)
        .is_some_and(|l| l == [Launch::Single(Pass { radix: kk, p: 1 }), Launch::Single(Pass { radix: kk, p: kk })]);
    (variant == Variant::Table && opts.segments == 1 && applies(k, kk, opts) && first_two).then_some(kk * kk)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The searched layouts fit local memory, give every digit its own
    /// place, and cost no more wavefronts than the first pass's layout or a
    /// twiddled pass's rows (v35: with those rows at k = 8, level 2's lanes
    /// fell on the same banks and the launch took 1.61 instead of 1.43 ms at
    /// 2^24, H200).
    #[test]
    fn the_first2_layouts_beat_the_table_kernels_layouts() {
        for k in [2usize, 4, 8] {
            let n = 2 * k;
            let (groups, _) = table::shape(k, n);
            let max = LOCAL_MAX_BYTES / 9;
            let l = layout(k, n, groups, max).unwrap();
            assert!(l.words <= max);
            let mut seen = std::collections::HashSet::new();
            for q in 0..n {
                for gi in 0..groups {
                    for d in 0..k {
                        assert!(l.index(q, d, gi) < l.words && seen.insert(l.index(q, d, gi)), "k = {k}");
                    }
                }
            }
            let cost = wavefronts(&l, k, n, groups);
            for other in [WarpLayout::of(k, n, groups, max, false).unwrap(), WarpLayout::rows(k, n, groups)] {
                assert!(cost <= wavefronts(&other, k, n, groups), "k = {k}: {l:?} {cost} against {other:?}");
            }
            eprintln!(
                "k = {k}: {l:?} {cost} wavefronts; first pass's {}, rows {}",
                wavefronts(&WarpLayout::of(k, n, groups, max, false).unwrap(), k, n, groups),
                wavefronts(&WarpLayout::rows(k, n, groups), k, n, groups)
            );
        }
    }
}
