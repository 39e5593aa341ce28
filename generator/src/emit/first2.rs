//! Two Stockham passes of radix R = K = 2k, (R, p) then (R, pR), in one
//! launch of the table variant, on superblocks of R² elements held in local
//! memory.  Two kernels ([`TwoLevel`]):
//!
//! * `…_first2`, the first two passes (p = 1), reading the vector in the
//!   superblock order (`maps::superblock_element`).  Why (v34, H200, k = 8):
//!   a superblock's inputs are x[j + m·n/R²], m < R²; in the natural order
//!   they lie n/R² elements apart, each 8-byte load of a digit-major vector
//!   its own 32-byte sector shared with other work-groups, and the launch
//!   gained 3% at best; read as R² consecutive elements the two passes took
//!   1.393 instead of 1.683 ms at 2^24 (−17%).  So the runtime keeps a
//!   vector it uploads for a forward transform in the superblock order (per
//!   vector and digit plane, the transpose of the R² × T matrix, T = n/R²).
//! * `…_pair`, any later pair of passes (a plan with fusion on,
//!   `PlanShape::with_fusion`): superblock g = vec·T + i0 with κ = i0 mod p
//!   reads x[vec·n + i0 + m·T] (input b of level-1 block a at m = a + R·b),
//!   twiddled by w^((b·κ) << tw_shift), and writes level 2's output t2 of
//!   row t0 where the pass (R, pR) puts output t2 of its block
//!   (i0 − κ)·R + κ + t0·p.  Its inputs are R² elements n/R² apart as
//!   well: such plans keep the vectors between their launches element-major
//!   (`digits::PassLayout`), where each element is whole sectors.
//!
//! The work-group is the table variant's (G blocks of DFT_R, G·k
//! work-items) with G / R superblocks, in its warp layout: level 1's block
//! gi = sb·R + a (column a) keeps input b in slot b; after its stages (the
//! table variant's warp code, `warp_stages::lane_code`) output t0 of column
//! a is in slot t0, multiplied there by the second pass's twiddle
//! w^((a·κ2) << tw_shift2), κ2 = t0·p + κ (in `first2`, κ2 = t0, taken in
//! the order of `skip_order`: those that need f_mul first); level 2's block sb·R + t0 reads
//! its input a from slot t0 of block sb·R + a, with the same warp code.

use super::banks::wavefronts_lazy;
use super::high_part::HighPart;
use super::sig;
use super::table;
use super::twiddle_put::{TwiddlePut, TwiddleTable};
use super::warp_stages::WarpLayout;
use super::{warp_stages, EmitError, KernelEntry, KernelOptions, Variant, LOCAL_MAX_BYTES};
use crate::plan::{Chain, Halves, Launch, PlanShape};
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

/// The two kernels of this module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TwoLevel {
    /// The first two passes, from the superblock order (`…_first2`).
    First2,
    /// A later pair (R, p), (R, pR), from the natural order (`…_pair`).
    Pair,
}

/// The first-two-passes kernel's name: the table kernel's with `_first2`.
pub fn name(program: &Program) -> String {
    format!("{}_first2", super::dft_name(program, Variant::Table))
}

/// The pair kernel's name built for `table`: the table kernel's with
/// `_pair`, and `_lt` for a launch table.
pub fn pair_name(program: &Program, table: TwiddleTable) -> String {
    format!("{}_pair{}", super::dft_name(program, Variant::Table), table.suffix())
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

/// The source of `which` kernel built for `table` (after the table kernels,
/// in their file) and its manifest entry.  The first two passes read the
/// plan's table only (p = K has no launch table,
/// `PlanShape::launch_table_log`).
pub(super) fn kernel(
    prime: &Prime,
    program: &Program,
    opts: &KernelOptions,
    which: TwoLevel,
    table: TwiddleTable,
) -> Result<(String, KernelEntry), EmitError> {
    let k = prime.k();
    let n = program.size;
    let sbn = superblocks_per_group(k, n)
        .filter(|_| applies(k, n, opts))
        .ok_or_else(|| EmitError::Unsupported(format!("no two-level table kernel of DFT_{n} for k = {k} with these options")))?;
    let pair = which == TwoLevel::Pair;
    if !pair && table != TwiddleTable::Plan {
        return Err(EmitError::Unsupported("the first two passes (p = 1, K) read the plan's table only".into()));
    }
    let name = if pair { pair_name(program, table) } else { name(program) };
    // its lazy digits keep a byte of high part (two cost it 3–4%, v43)
    let pass_sig = sig::pass(&name, Variant::Table, false);
    let mut ctx = super::context::dft(prime, program, &pass_sig, Variant::Table, opts.segments, (Some(table), HighPart::Byte))?;
    table::kernel_context(k, &name, program, (false, HighPart::Byte), false, opts, &mut ctx)
        .ok_or_else(|| EmitError::Unsupported(format!("the table stages of DFT_{n} do not run through the warp for k = {k}")))?;
    let (groups, tpd) = table::shape(k, n);
    ctx.insert("threads", &(groups * tpd));
    let scratch = table::shuffle_scratch_bytes(groups * tpd, opts);
    let layout = layout(k, n, groups, (LOCAL_MAX_BYTES - scratch) / 9)
        .ok_or_else(|| EmitError::Unsupported(format!("{sbn} superblocks of DFT_{n} do not fit local memory for k = {k}")))?;
    ctx.insert("lmem_words", &layout.words);
    ctx.insert("lmem_bytes", &(layout.words * 9 + scratch));
    let sig = if pair { sig::pair_pass(&name) } else { sig::first2_pass(&name) };
    ctx.insert("params", &sig.c_params_for(opts.segments));
    ctx.insert("prologue", &sig.prologue(opts.segments));
    ctx.insert("slot_stride", &layout.slot_stride);
    ctx.insert("block_stride", &layout.block_stride);
    ctx.insert("sbn", &sbn);
    ctx.insert("square", &(n * n));
    ctx.insert("log_square", &(2 * n.trailing_zeros()));
    ctx.insert("pair", &pair);
    let mul_lazy = super::context::has_mul_lazy(prime);
    // level 1's inputs: input b of column a in slot b (the pair's twiddled by w^((b κ) << tw_shift))
    let at_load = |digit: &str| format!("F2_SLOT(b, {digit}, sb * {n} + a)");
    if pair {
        let load_put = TwiddlePut {
            exponent: Some("SRGFN_TW_EXP(b, kappa, tw_shift)"),
            guard: Some("b > 0 && kappa > 0"),
            index_of_digit: &at_load,
            mul_lazy,
            high_part: HighPart::Byte,
            table,
        };
        ctx.insert("twiddle_put_1", &load_put.render(8));
    }
    let at = |digit: &str| format!("F2_SLOT(t0, {digit}, sbase + a)");
    let put = TwiddlePut {
        exponent: Some("SRGFN_TW_EXP(a, kappa2, tw_shift2)"),
        guard: Some("a > 0 && kappa2 > 0"),
        index_of_digit: &at,
        mul_lazy,
        high_part: HighPart::Byte,
        table,
    };
    ctx.insert("twiddle_put", &put.render(8));
    if !pair {
        // the first two passes' second twiddles are w^(a t0): those that are powers of r in whole warps
        ctx.insert("skip_order", &super::skip_order::SkipOrder::new(n).c_code(sbn, 8));
    }
    let src = super::render("dft_table_first2.cl.tera", &ctx)?;
    let formula = if pair {
        format!("two Stockham passes of radix {n}, (R, p) then (R, pR), in one launch: DFT_{n} = {}", program.formula)
    } else {
        format!(
            "the first two Stockham passes of radix {n}, (R, 1) then (R, R), in one launch, from the superblock order: DFT_{n} = {}",
            program.formula
        )
    };
    let capped = if pair { super::defaults::CappedKernel::Pair } else { super::defaults::CappedKernel::First2 };
    let entry = KernelEntry {
        name: name.clone(),
        file: super::dft_file_name(n, program.radix, Variant::Table, table),
        formula,
        args: sig.manifest_args_for(opts.segments),
        global_work_size: format!("ceil(count / {sbn}) * {}", groups * tpd),
        local_work_size: format!("{} (required)", groups * tpd),
        variant: Some(Variant::Table),
        descriptor: Some(program.descriptor()),
        ptx_max_registers: super::defaults::ptx_register_cap(k, Variant::Table, capped, opts),
    };
    Ok((src, entry))
}

/// R² where a plan of `shape` runs its first two passes as the
/// first-two-passes kernel when its input is in the superblock order: the
/// table variant with the kernel emitted, whole vectors (one segment), and a
/// plan whose first two passes are (K, 1) and (K, K) (every plan of N ≥ K²
/// has them: the smaller radix comes last), as two launches or, with
/// fusion, one.
pub fn plan_superblock(k: usize, variant: Variant, opts: &KernelOptions, shape: &PlanShape) -> Option<usize> {
    (variant == Variant::Table && opts.segments == 1 && applies(k, 2 * k, opts) && first2_launches(shape).is_some()).then_some(4 * k * k)
}

/// The launches of `shape` that its first two passes (K, 1) and (K, K) take:
/// 2 as two launches, 1 as a fused one; None where the plan starts otherwise.
pub fn first2_launches(shape: &PlanShape) -> Option<usize> {
    use crate::plan::Pass;
    let kk = 2 * shape.k;
    let (a, b) = (Pass { radix: kk, p: 1 }, Pass { radix: kk, p: kk });
    let launches = shape.launches();
    match launches.as_slice() {
        [Launch::Fused(x, y), ..] if (*x, *y) == (a, b) => Some(1),
        [Launch::Single(x), Launch::Single(y), ..] if (*x, *y) == (a, b) => Some(2),
        _ => None,
    }
}

/// By default a plan whose first launch runs the first two passes from the
/// superblock order splits into halves from that launch on
/// ([`PlanShape::chain`]) where it moves at least this many digits (N ·
/// batch · k).  v44, H200, k = 8 against the halves forked after the first
/// launch (three alternated processes, `docs/perf/h200-v44/final/`): 2^21
/// −2.8%, 2^22 −1.1%, 2^23 −1.0%, 2^24 −2.0%; 2^20 level, 2^19 +12 to +22%
/// (`proto2/`, `final/onoff.json`): the one wait for both halves moves from
/// the first launch's last wave to the switch launch's, and the halves by a
/// bit above p pay where the launches are large.  v45: from 2^23 (k = 8 at
/// 2^20), where the chain runs in quarters by default
/// ([`CHAIN_QUARTERS_MAX_DIGITS`]).
pub const CHAIN_MIN_DIGITS: usize = 1 << 23;

/// By default a chain runs its launches after the first in quarters
/// ([`Chain::in_quarters`]) up to this many digits (N · batch · k).  v45,
/// H200, k = 8, three alternated processes (`docs/perf/h200-v45/proto2/`):
/// 2^20 0.2968 ms in quarters against 0.3040 in halves and 0.3031 with the
/// halves forked after the first launch, 2^21 −0.4% against halves, 2^22
/// +0.2%, 2^19 +2.4% (a quarter launch of 2^16 elements).  The quarters take
/// the switch's wait for both halves away.  The kept kernels against v44's
/// binary (`final/`): 2^20 0.2953 against 0.3033 ms, 2^21 −1.0%.
pub const CHAIN_QUARTERS_MAX_DIGITS: usize = 1 << 24;

/// The chain of halves ([`PlanShape::chain`]) of a plan whose first `first`
/// launches (`first2_launches`) run the first two passes from the superblock
/// order, None where it does not: never with `choice` `Some(false)`, where
/// the device holds no third vector (`spare`: the chain rotates three), or
/// where the plan's halves write the last launch into that vector
/// ([`Halves::spare_last`]); with `Some(true)` wherever the plan allows it;
/// by default where the plan runs in halves (`halves`) and moves
/// [`CHAIN_MIN_DIGITS`].  The superblock bit is the lowest whose runs the
/// first-two-passes kernel's work-groups and memory sectors allow
/// (`half_min_p` of a fused launch), so that the bit stays above p through
/// as many launches as it can.  `quarters` (`Some(true)`: wherever the
/// kernels allow; None: up to [`CHAIN_QUARTERS_MAX_DIGITS`]) runs the chain
/// launches after the first in quarters ([`Chain::in_quarters`]).
pub fn plan_chain(
    prime: &Prime,
    radix: crate::rules::Radix,
    shape: &PlanShape,
    halves: Option<&Halves>,
    first: Option<usize>,
    (choice, quarters): (Option<bool>, Option<bool>),
    spare: bool,
) -> Option<Chain> {
    if choice == Some(false) || !spare || halves.is_some_and(|h| h.spare_last) {
        return None;
    }
    if choice.is_none() && (halves.is_none() || shape.n * shape.batch * shape.k < CHAIN_MIN_DIGITS) {
        return None;
    }
    let first = first?;
    let bit = half_min_superblocks(prime, radix)?.trailing_zeros().checked_sub(1)?;
    let min_p = |l: &Launch| super::half_min_p(prime, Variant::Table, radix, l);
    let chain = shape.chain(first, bit, min_p)?;
    let in_quarters = quarters.unwrap_or(shape.n * shape.batch * shape.k <= CHAIN_QUARTERS_MAX_DIGITS);
    Some(if in_quarters { chain.in_quarters(shape, min_p).unwrap_or(chain) } else { chain })
}

/// The least 2^(s+1) with which the first-two-passes kernel's superblocks
/// split into halves by bit s: `half_min_p` of its pair of passes of radix K
/// (runs of a work-group's superblocks and whole memory sectors).
pub fn half_min_superblocks(prime: &Prime, radix: crate::rules::Radix) -> Option<usize> {
    use crate::plan::Pass;
    let kk = 2 * prime.k();
    super::half_min_p(prime, Variant::Table, radix, &Launch::Fused(Pass { radix: kk, p: 1 }, Pass { radix: kk, p: kk }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// k = 8's table plans with PTX split from the first launch by default
    /// from 2^20 (2^23 digits), where the plan runs in halves and the device
    /// holds a third vector, in quarters up to 2^21 (2^24 digits); forced on
    /// from 2^16 (the first plan with a launch after the first two passes
    /// that keeps bit 3 + 8 above its p); never with `Some(false)`, without
    /// the third vector, or for fused plans.
    #[test]
    fn chains_by_default_from_2_23_digits() {
        use crate::rules::Radix;
        let k8 = crate::catalog_prime(8).unwrap();
        let opts = KernelOptions { ptx: true, ..KernelOptions::new(Radix::R2, super::super::MulForm::Wide64) };
        for log_n in 12..=24u32 {
            let shape = super::super::plan_shape(k8, Variant::Table, &opts, Some(false), log_n, 1).unwrap();
            let first = plan_superblock(8, Variant::Table, &opts, &shape).and(first2_launches(&shape));
            let halves = super::super::plan_halves(k8, Variant::Table, Radix::R2, &shape, None, true);
            let chain = |h: Option<&Halves>, choice, spare| plan_chain(k8, Radix::R2, &shape, h, first, (choice, None), spare);
            let by_default = chain(halves.as_ref(), None, true);
            assert_eq!(by_default.is_some(), log_n >= 20, "2^{log_n}");
            assert_eq!(by_default.map(|c| c.low.is_some()), (log_n >= 20).then_some(log_n <= 21), "2^{log_n}");
            assert_eq!(chain(None, Some(true), true).is_some(), log_n >= 16, "2^{log_n}");
            assert_eq!(chain(halves.as_ref(), Some(true), true).map(|c| c.bit), (log_n >= 16).then_some(3), "2^{log_n}");
            assert!(chain(halves.as_ref(), Some(false), true).is_none() && chain(halves.as_ref(), Some(true), false).is_none());
            // quarters as asked, wherever the chain runs
            for q in [false, true] {
                let asked = plan_chain(k8, Radix::R2, &shape, None, first, (Some(true), Some(q)), true);
                assert_eq!(asked.map(|c| c.low.is_some()), (log_n >= 16).then_some(q), "2^{log_n}");
            }
            let fused = shape.clone().with_fusion(true);
            let first = first2_launches(&fused);
            let forced = plan_chain(k8, Radix::R2, &fused, None, first, (Some(true), None), true);
            assert!(forced.is_none() || first == Some(2), "2^{log_n}");
        }
    }

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
