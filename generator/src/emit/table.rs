//! The "table" variant of a Stockham pass: slots and shifts read from tables.
//!
//! A work-group holds G blocks in local memory as lazy elements (see
//! `lazy.rs`): slot q, digit d of block b at index (q·(k + 1) + skew + d)·G + b of
//! `SL` and `SH` ([`slot_stride`]; the skew, 0 or 1 per slot, and the order of
//! each stage's butterflies from the bank model, `table_layout.rs`).  In each stage its work-items share the stage's butterflies (one
//! task per block and butterfly), each reading its slots and shift amounts
//! from constant tables: the shifted inputs are read rotated (digit i of
//! r^s·x is ±x_{(i − s) mod k}, an address computation and a conditional
//! negation), then DFT_2 or DFT_4 is one 96-bit add or subtract per digit.
//! One code path serves every task, so the instruction cache holds it.

use serde::Serialize;

use super::butterfly::lazy_bf;
use super::high_part::HighPart;
use super::skip_order::RowSkipOrder;
use super::table_layout::TableLayout;
use super::twiddle_put::{TwiddlePut, TwiddleTable};
use super::{warp_stages, EmitError, KernelOptions, LOCAL_MAX_BYTES, LOCAL_THREADS};
use crate::plan::SmallRadix;
use crate::prime::Prime;
use crate::unroll::{Program, Stage};

/// Blocks per work-group and work-items per block of the table variant of
/// DFT_n: a work-item per digit where the blocks' stages can run through the
/// warp (`warp_stages::lane_per_digit`), else one per butterfly of a stage.
pub fn shape(k: usize, n: usize) -> (usize, usize) {
    let tpd = if warp_stages::lane_per_digit(k, n) { k } else { (n / 2).max(1) };
    let by_threads = (LOCAL_THREADS / tpd).max(1);
    let by_memory = (LOCAL_MAX_BYTES / (n * slot_stride(k) * 9)).max(1);
    (by_threads.min(by_memory), tpd)
}

/// Digit rows per slot in local memory: k, plus one row of padding.  A warp
/// of a stage reads the same digit of several slots (one per butterfly, its
/// G blocks side by side); with k rows per slot those reads fall at
/// multiples of k·G words apart, on the same banks (for k = 16, G = 8: two
/// 64-bit reads per bank in each half-warp, four byte reads of `SH` per
/// bank).  The padding row moves slot q by q·G words, so consecutive slots
/// use other banks; the slots a warp shares are chosen with the bank model,
/// and a slot may start one row late (`table_layout`).
pub fn slot_stride(k: usize) -> usize {
    k + 1
}

/// The C term that `SLOT` adds to slot q's first row: its bit of the
/// layout's skew (`TableLayout`), nothing where no slot is skewed.
pub(super) fn slot_skew(skew: u64) -> String {
    if skew == 0 {
        String::new()
    } else {
        format!(" + (uint)(({skew:#x}UL >> (q)) & 1)")
    }
}

/// Statements reading lazy digits of slot `q` (a C expression) rotated by the
/// run-time shift `s` into arrays `x`l/`x`h: digit i is ±x_{(i − s) mod k}
/// (`ROT_GET` of lazy_block.cl.tera).
fn rotated_get(k: usize, x: &str, q: &str, s: &str) -> Vec<String> {
    (0..k).map(|i| format!("ROT_GET({x}l[{i}], {x}h[{i}], {q}, {i}, {s});")).collect()
}

/// Statements reading input `q` of a task of stage `si` into arrays
/// `x`l/`x`h: as it is where the stage shifts no input q
/// (`Stage::input_unshifted`), else rotated by the task's shift.
fn input_get(k: usize, name: &str, si: usize, stage: &Stage, q: usize, x: &str) -> Vec<String> {
    let slot = format!("{name}_slots[{si}][bi][{q}]");
    if stage.input_unshifted(q, k) {
        vec![format!("GET({x}l, {x}h, {slot});")]
    } else {
        rotated_get(k, x, &slot, &format!("{name}_shifts[{si}][bi][{q}]"))
    }
}

/// The code of one task of a stage of radix 2 or 4 (slots `bi` of table row `si`).
fn task_code(k: usize, name: &str, si: usize, stage: &Stage) -> String {
    let radix = stage.radix();
    let mut v = Vec::new();
    let slot = |t: usize| format!("{name}_slots[{si}][bi][{t}]");
    if radix == 2 {
        v.push(
            "ulong al[SRGFN_K], bl[SRGFN_K], xl[SRGFN_K], yl[SRGFN_K]; int ah[SRGFN_K], bh[SRGFN_K], xh[SRGFN_K], yh[SRGFN_K];".to_string(),
        );
        v.extend(input_get(k, name, si, stage, 0, "a"));
        v.extend(input_get(k, name, si, stage, 1, "b"));
        v.extend(lazy_bf(k, 0, "a", "b", "x", "y"));
        v.push(format!("PUT({}, xl, xh); PUT({}, yl, yh);", slot(0), slot(1)));
    } else {
        v.push(
            "ulong al[SRGFN_K], bl[SRGFN_K], cl[SRGFN_K], el[SRGFN_K], t0l[SRGFN_K], t1l[SRGFN_K], u0l[SRGFN_K], u1l[SRGFN_K];".to_string(),
        );
        v.push(
            "int ah[SRGFN_K], bh[SRGFN_K], ch[SRGFN_K], eh[SRGFN_K], t0h[SRGFN_K], t1h[SRGFN_K], u0h[SRGFN_K], u1h[SRGFN_K];".to_string(),
        );
        for (q, x) in ["a", "b", "c", "e"].iter().enumerate() {
            v.extend(input_get(k, name, si, stage, q, x));
        }
        // DFT_4 on (a, r^s1 b, r^s2 c, r^s3 e) with ω_4 = r^(k/2); outputs into a, b, c, e
        v.extend(lazy_bf(k, 0, "a", "c", "t0", "t1"));
        v.extend(lazy_bf(k, 0, "b", "e", "u0", "u1"));
        v.extend(lazy_bf(k, 0, "t0", "u0", "a", "c"));
        v.extend(lazy_bf(k, (k / 2) as u32, "t1", "u1", "b", "e"));
        v.push(format!("PUT({}, al, ah); PUT({}, bl, bh); PUT({}, cl, ch); PUT({}, el, eh);", slot(0), slot(1), slot(2), slot(3)));
    }
    v.iter().map(|l| format!("        {l}")).collect::<Vec<_>>().join("\n")
}

/// One stage of a local-memory variant as its template prints it.
#[derive(Serialize)]
pub(super) struct StageCtx {
    pub(super) radix: usize,
    pub(super) tasks: usize,
    pub(super) code: String,
}

/// The local-memory variants keep lazy elements in slots: their programs end
/// without output shifts.
pub(super) fn require_no_output_shifts(variant: &str, program: &Program) -> Result<(), EmitError> {
    if program.output_shifts.iter().any(|&s| s != 0) {
        return Err(EmitError::Unsupported(format!("the {variant} variant needs a program without output shifts ({})", program.formula)));
    }
    Ok(())
}

/// Everything the table template prints for one DFT_R program.
/// `(twiddles, (mul_lazy, high_part))`: the table the kernel's twiddles come
/// from (None: the first pass, no twiddles), whether f_mul_lazy exists, and
/// the high parts of the lazy digits in local memory, for its twiddled store
/// (`TwiddlePut::pass_input`).
pub(super) fn context(
    k: usize,
    name: &str,
    program: &Program,
    layout: &TableLayout,
    (twiddles, (mul_lazy, high_part)): (Option<TwiddleTable>, (bool, HighPart)),
    ctx: &mut tera::Context,
) -> Result<(), EmitError> {
    require_no_output_shifts("table", program)?;
    let put = TwiddlePut::pass_input(twiddles, (mul_lazy, high_part), &|digit: &str| format!("SLOT(t, {digit}, gi)"));
    ctx.insert("twiddle_put", &put.render(8));
    let (groups, tpd) = shape(k, program.size);
    let stages: Vec<StageCtx> = program
        .stages
        .iter()
        .enumerate()
        .map(|(si, st)| StageCtx { radix: st.radix(), tasks: st.butterflies.len(), code: task_code(k, name, si, st) })
        .collect();
    ctx.insert("groups", &groups);
    ctx.insert("tpd", &tpd);
    ctx.insert("threads", &(groups * tpd));
    // SL holds a word and SH a high part per digit slot (9 or 10 bytes each)
    let words = groups * program.size * slot_stride(k);
    ctx.insert("slot_stride", &slot_stride(k));
    ctx.insert("slot_skew", &slot_skew(layout.skew));
    ctx.insert(
        "bank_model",
        &format!(
            "{} wavefronts per work-group ({} with the stages in the program's order and no skew)",
            layout.wavefronts, layout.wavefronts_unordered
        ),
    );
    ctx.insert("lmem_words", &words);
    ctx.insert("lmem_bytes", &(words * high_part.digit_bytes()));
    // lazy_block.cl.tera's high parts (|d| < 2^71 or 2^79)
    ctx.insert("sh_type", high_part.c_type());
    ctx.insert("table_stages", &stages);
    Ok(())
}

/// The order in which a table kernel's load loop takes element e of its
/// work-group: input t of block gi.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadOrder {
    /// gi = e mod G, t = e / G: a warp reads consecutive blocks of one row.
    Natural,
    /// The inputs whose twiddle needs a product first ([`RowSkipOrder`]).
    SkipRows(RowSkipOrder),
}

impl LoadOrder {
    /// The order of DFT_n's kernel (twiddled or not) of the table variant:
    /// the rows of products first where the plans put radix n second
    /// (`defaults::small_radix_at`: p = K, so that κ ≡ gi mod n), the
    /// natural order elsewhere.  H200, v51 (docs/perf/h200-v51, k = 16, the
    /// medians of eight processes each, alternated with the landed binary's
    /// in four calls): 2^16 −1% (s = 2, within the calls' spread), 2^17
    /// 0.1107 → 0.1045 ms (−5.6%, s = 4), 2^18 level (s = 8: 5.5 warps of
    /// products instead of 7, the pass's kernels 8–15% shorter, but two of
    /// the four warps still run two, so the work-groups' lives and the
    /// transform are not shorter); `rows/` alone: 2^21 −1.3% (s = 2), 2^22
    /// 3.628 → 3.419 ms (−5.8%, s = 4).
    pub fn of(prime: &Prime, n: usize, twiddled: bool, opts: &KernelOptions) -> LoadOrder {
        let second = super::defaults::small_radix_at(prime, super::Variant::Table, opts, Some(n)) == SmallRadix::Second;
        // whole cycles of κ mod n in every work-group (G a multiple of n), as the order assumes
        let groups = shape(prime.k(), n).0;
        if twiddled && second && n < 2 * prime.k() && groups.is_multiple_of(n) {
            LoadOrder::SkipRows(RowSkipOrder::new(n, groups))
        } else {
            LoadOrder::Natural
        }
    }

    /// What the kernel's comment says of the order.
    pub fn rule(&self) -> &'static str {
        match self {
            LoadOrder::Natural => "block index fastest: a warp reads consecutive blocks of one row, coalesced",
            LoadOrder::SkipRows(_) => "the inputs that need a product first, row by row, then the powers of r",
        }
    }

    /// C statements that declare `gi` and `t` of element `e`.
    pub fn c_code(&self, indent: usize) -> String {
        match self {
            LoadOrder::Natural => format!("{:indent$}const uint gi = e % G, t = e / G;", ""),
            LoadOrder::SkipRows(order) => order.c_code(indent),
        }
    }
}

/// Local memory the emulated shuffles of a work-group of `threads` take (a
/// word and a high part a work-item, `SHFL_L` and `SHFL_H`): none with PTX.
pub(super) fn shuffle_scratch_bytes(threads: usize, opts: &KernelOptions) -> usize {
    if opts.ptx {
        0
    } else {
        threads * 12
    }
}

/// What a table kernel prints beyond [`context`] for the kernel options:
/// whether its stages run in registers through the warp
/// ([`warp_stages::applies`]; then its blocks take the layout the bank
/// model chose for the loads, the stages and both stores,
/// [`warp_stages::WarpLayout`], the stages leave output t in slot t, and a
/// store of p < G writes the work-group's output run), and with emulated
/// shuffles the local memory they take.  Returns the warp layout, if any.
#[allow(clippy::too_many_arguments)]
pub(super) fn kernel_context(
    k: usize,
    name: &str,
    program: &Program,
    (twiddled, high_part): (bool, HighPart),
    quarters: bool,
    opts: &KernelOptions,
    ctx: &mut tera::Context,
) -> Option<warp_stages::WarpLayout> {
    let (groups, tpd) = shape(k, program.size);
    // the block of launch index h: in a half (plan::Halves), or in a quarter (the `_q` kernel of the
    // chain's launches in quarters, plan::Chain::low; its map costs every other launch ~1%, v45)
    let (part, rule, map) = match quarters {
        false => ("half", "plan::Halves", format!("{}(h, half_shift, half_index)", crate::maps::half_block().name)),
        true => (
            "quarter",
            "plan::Chain::low",
            format!("{}(h, half_shift, half_index, quarter_shift, quarter_index)", crate::maps::quarter_block().name),
        ),
    };
    ctx.insert("block_part", part);
    ctx.insert("block_rule", rule);
    ctx.insert("block_map", &map);
    let threads = groups * tpd;
    let warp = warp_stages::applies(k, program.size, opts);
    let emulated = warp && !opts.ptx;
    ctx.insert("warp_stages", &warp);
    ctx.insert("warp_emulated", &emulated);
    // the store phases read output t from slot out_slot[t], or from slot t after the warp stages
    ctx.insert("out_slot", &if warp { "t".to_string() } else { format!("{name}_out_slot[t]") });
    // the store of p < G by output runs (maps.rs, output_run_slot): G a power of two, in the first pass
    // (p = 1) and in twiddled ones where a plan's p can be below G (p >= K = 2k there: k <= 4).  H200,
    // v32c: the path in every twiddled kernel took k = 8's from 80 to 99 registers and its passes 7% longer
    ctx.insert("run_store", &(warp && groups.is_power_of_two() && (!twiddled || 2 * k < groups)));
    ctx.insert("log_groups", &groups.trailing_zeros());
    if warp {
        // SL and SH (9 or 10 bytes a digit), and the emulated shuffles' scratch
        let scratch = shuffle_scratch_bytes(threads, opts);
        let digit_bytes = high_part.digit_bytes();
        let layout = warp_stages::WarpLayout::of(k, program.size, groups, (LOCAL_MAX_BYTES - scratch) / digit_bytes, twiddled)
            .expect("the shape's rows fit");
        ctx.insert("warp_layout", &layout);
        ctx.insert("warp_code", &warp_stages::lane_code(k, program, high_part));
        ctx.insert("shuffles", &warp_stages::shuffles(k, program));
        ctx.insert("lmem_words", &layout.words);
        ctx.insert("lmem_bytes", &(layout.words * digit_bytes + scratch));
        return Some(layout);
    }
    None
}
