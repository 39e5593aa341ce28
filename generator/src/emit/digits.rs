//! The "digits" variant of a Stockham pass: one work-item per digit.
//!
//! A work-group holds G blocks (DFT_R of one pass) in local memory as lazy
//! elements (see `lazy.rs`): slot q, digit d of block b at (q·G + b)·E + d of
//! `SL` and `SH`, each element a row of E = k words (k + 1 with several
//! blocks, [`element_stride`]).  Every phase works on single
//! digits, so that no work-item holds a whole element of k digits (which at
//! k ≥ 32 lives in slow private memory):
//!
//! * **load**: one digit per task, a batch of loads in flight per work-item
//!   ([`LoadRounds`]);
//! * **twiddles**: one coefficient (two from k = 32) of one product per
//!   work-item, E = cols·threads/k elements at a time.  The (canonical) input
//!   x is staged as `X2[q]` = x_(q−k) for q ≥ k and r − x_q for q < k, and
//!   the twiddle's digits beside it, so that coefficient i of x·w is
//!   Σ_m w_m `X2[i − m + k]` − r·T_i with T_i = Σ_(m>i) w_m: one product
//!   chain of equal signs per work-item, and r·T_i leaves through the carry
//!   (⌊c_i / r⌋ = ⌊(c_i + r T_i) / r⌋ − T_i).  T_i depends on the twiddle
//!   alone, so the table holds it (`Variant::table_words`); v16 staged r − w
//!   and summed S_i = Σ_(j>i) x_j in the product loop instead, about a third
//!   of its instructions (H200, v17: k = 32 2^20 4.94 → 4.82 ms, k = 64 2^18
//!   2.54 → 2.33, k = 128 2^16 2.05 → 1.87).  A carry between neighbouring
//!   coefficients (the top one wraps negated, r^k = −1) leaves lazy digits
//!   |v| ≤ (k + 1 + 2D) r, stored rotated by the twiddle's r^s as they are
//!   where the high parts have two bytes (k ≤ 32, [`lazy_twiddle_outputs`]),
//!   else split and carried a second time into |d| ≤ r + k + 2 + 2D.  The
//!   first division by r is shifts and adds where r = 2^e ± 2^u
//!   (`quotient.rs`, its remainder within D·r of c_i mod r, D ≤ 16), else
//!   Möller–Granlund's; the second split and the store phase's first
//!   (`srgfn_split_digit`, `srgfn_split_first` in a kernel without twiddles)
//!   take the rounds of `digit_bounds.rs`.
//!   The carries go through local memory, or through the warp (PTX shuffles)
//!   where an element's work-items share one (k ≤ 64; v17b: k = 32 2^20
//!   4.82 → 4.62 ms, k = 64 2^18 2.33 → 2.26).  A round waits only for
//!   its elements' own work-items ([`TwiddleSync`]: the warp, or with PTX a
//!   named barrier per element of several warps).  The product loop (k steps
//!   of `cols` digit products) is unrolled whole for every k: NVIDIA's own
//!   unrolling (by 4) left the window of X2 words and the accumulators in
//!   other registers at the back edge, about two register moves on the
//!   multiplier's pipe per digit product (H100, v27, `perf/h100-v27/unroll`:
//!   k = 32 2^20 3.888 → 3.747 ms, k = 64 2^18 1.955 → 1.868; k = 128 level,
//!   so left to the compiler until v29, when a change in the stages gave
//!   its loop 24 moves per 8 digit products: 2^16 1.481 → 1.650 ms, unrolled
//!   by 16 1.479, unrolled whole 1.421–1.428, `perf/h100-v29/unroll`);
//! * **butterflies**: one task per butterfly and digit pair (d, d + k/2),
//!   the pair DFT_4's ω_4 = r^(k/2) exchanges; inputs read rotated by their
//!   shifts, outputs written after a barrier (the rotations cross tasks);
//! * **store**: by digit as well: two rounds of carries leave digits in
//!   [−1, r] (the second split, of a digit in [0, r) plus a small carry,
//!   one correction: `srgfn_split_carry`, `digit_bounds::carry_split_is_one_correction`), the two rounds' carries in separate arrays (two barriers per
//!   round of elements), or, for k = 32 and 64, an element per warp with
//!   the carries by shuffles and the second round only where a digit needs
//!   it ([`store_in_warp`]); an
//!   element with a digit outside [0, r) (carries through every digit, or
//!   p − 1) is normalised exactly by one work-item after the loop, from its
//!   lazy digits in SL (`srgfn_norm`), over the digits already stored.  The
//!   vectors between a plan's launches are element-major from k = 32
//!   (`PassLayout`).
//!
//! Every index map, shape and count is decided here and printed as a
//! constant; the template holds the arithmetic of one digit.

use serde::Serialize;

use super::digit_bounds::{high_part_bytes, high_part_type, lazy_twiddle_outputs};
use super::table::{require_no_output_shifts, StageCtx};
use super::{EmitError, KernelOptions, Variant, LOCAL_MAX_BYTES, WARP};
use crate::unroll::{Program, Stage};

/// Largest DFT_n of the variant: lazy digits grow by one bit per butterfly
/// level from |d| ≤ r + k + 2 + 2D < 2^64 + 2^8 (D ≤ 16, `quotient.rs`), and `SH` holds 8 bits above the
/// low word, so at most 6 levels.
pub const MAX_BLOCK: usize = 64;
/// Work-items of a work-group of the digits variant.
pub const DIGITS_THREADS: usize = 256;
/// Digits a work-group aims to hold (tasks per work-item ≈ this / threads).
const DIGITS_PER_GROUP: usize = 2048;
/// Coefficients of a twiddle product per work-item: 2 from k = 32 (each
/// w_m and X2 word loaded serves two products), else 1.  H200, v8: k = 64,
/// N = 2^18 6.14 → 5.40 ms with 2, k = 128, 2^17 8.67 → 8.02; k = 32 was
/// slower with 2 (2^18 1.84 → 2.17 ms) while the rare normalisation held
/// the kernels at 117–179 registers, and faster once v14 rolled it up
/// (2^20 6.39 → 5.70 ms, `perf/h200-v14/cols`).  Staging holds 2 columns at most.
fn twiddle_cols(k: usize) -> usize {
    if k >= 32 {
        2
    } else {
        1
    }
}
/// Loads a work-item issues before it stores them to local memory.
const LOAD_BATCH_MAX: usize = 8;

/// How a work-group's `digits` loads spread over its `threads` work-items:
/// digit e = lid + j·threads in round j, `batch` rounds' loads issued before
/// their stores to SL, so that a work-item has that many loads in flight
/// (the loop stored each digit before it loaded the next: where the compiler
/// left it rolled, as for the 16 blocks a work-group of k = 32's radix-4
/// first pass, one load was in flight).  `batch` divides `rounds` and is at
/// most `LOAD_BATCH_MAX` = 8 (registers); `partial` where the last round has
/// fewer digits than work-items.  H100, v29 (`perf/h100-v29/loads`), in one
/// call: k = 32 2^20 3.268 → 3.182 ms (its first pass 0.324 → 0.286), 2^18
/// 0.662 → 0.655; k = 64 2^18 level (1.781, 1.782).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LoadRounds {
    /// Rounds of loads: ⌈digits / threads⌉.
    pub rounds: usize,
    /// Rounds whose loads are issued together.
    pub batch: usize,
    /// Whether the last round leaves work-items without a digit.
    pub partial: bool,
}

impl LoadRounds {
    /// The rounds of `digits` loads over `threads` work-items.
    pub fn of(digits: usize, threads: usize) -> Self {
        let rounds = digits.div_ceil(threads);
        let batch = (1..=LOAD_BATCH_MAX.min(rounds)).rev().find(|b| rounds.is_multiple_of(*b)).unwrap_or(1);
        LoadRounds { rounds, batch, partial: !digits.is_multiple_of(threads) }
    }
}

/// Words of the twiddle phase's staging per element: X2 (2k words, later the
/// carries) and the twiddle's k digits.
fn twiddle_stage_words(k: usize) -> usize {
    3 * k
}
/// Elements of a round of the store phase (one work-item per digit), and of
/// the twiddle phase per column of a work-item.
fn chunk(k: usize) -> usize {
    DIGITS_THREADS / k
}
/// Words the shapes reserve for a kernel's staging area: the most any
/// kernel declares ([`staging_words`]; 6·threads, the twiddle phase's at
/// k ≥ 32).
const STAGING_WORDS: usize = 6 * DIGITS_THREADS;

/// Words of the store phase's two carry arrays (a word per work-item each),
/// where its carries go through local memory; none where it runs an element
/// per warp ([`store_in_warp`]).  Its dirty flags follow them, then its votes.
fn store_carry_words(k: usize, store_warp: bool) -> usize {
    if store_warp {
        0
    } else {
        2 * chunk(k) * k
    }
}

/// Digits up to which the store phase's carries through local memory run
/// their second round only where a vote of the work-group asks for it
/// ([`store_vote`]).  H200, v31 (`perf/h200-v31/`), against a second round
/// for every round of elements in one call: k = 16 2^20 2.402 → 1.915 ms,
/// k = 8 0.893 → 0.790, k = 32 without PTX 2^19 2.768 → 2.679; but k = 64
/// without PTX 2^17 1.902 → 2.017 and k = 128 2^16 1.421 → 1.429 (their
/// twiddle phases dominate, and the vote's deferred stores cost more than the
/// barriers they save).
pub const STORE_VOTE_MAX_K: usize = 32;

/// Whether the store phase, where its carries go through local memory (not
/// [`store_in_warp`]), runs a round's second round of carries only where a
/// vote of the work-group asks for it: one barrier a round instead of two,
/// and that round's digits stored after the next round's barrier, when the
/// vote is known.  Otherwise every round runs both, two barriers each.
pub fn store_vote(k: usize, store_warp: bool) -> bool {
    !store_warp && k <= STORE_VOTE_MAX_K
}

/// The store phase's votes (ints after the dirty flags, [`store_vote`]): a
/// round's vote is set after the round's barrier, read after the next round's
/// and cleared after the one after that, so three rounds' votes are live at once.
fn store_votes(k: usize, store_warp: bool) -> usize {
    if store_vote(k, store_warp) {
        3
    } else {
        0
    }
}

/// Words of the staging area a kernel declares: the store phase's carry
/// arrays (`store_carry_words`), a dirty flag (int) per element and its votes ([`store_vote`]),
/// and in a kernel with twiddles the twiddle phase's 3k words per element
/// for E = cols·threads/k elements at a time.  A kernel declares no more than
/// it uses, so that more of its work-groups fit an SM (H200, v17: k = 64's
/// radix-64 first pass 0.29 → 0.36 ms with the twiddled kernels' area).
pub fn staging_words(k: usize, elements: usize, twiddled: bool, store_warp: bool) -> usize {
    let store = store_carry_words(k, store_warp) + (elements + store_votes(k, store_warp)).div_ceil(2);
    let twiddle = if twiddled { twiddle_stage_words(k) * chunk(k) * twiddle_cols(k) } else { 0 };
    store.max(twiddle)
}

/// How the twiddle phase's carries travel between an element's work-items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CarryPath {
    /// Through the warp by shuffles (PTX on NVIDIA; emulated for tests
    /// elsewhere), where an element's work-items share one (k ≤ 64): no local
    /// memory, four barriers a round fewer (H200, v17b: k = 32 2^20 4.82 →
    /// 4.62 ms, k = 64 2^18 2.33 → 2.26).
    Warp,
    /// Through local memory, a barrier before and after each exchange.
    LocalMemory,
}

/// The carry path of the twiddle phase for k digits, where the platform has
/// warp shuffles (PTX, or their emulation: `KernelOptions::warp_emulation`)
/// or not.
pub fn carry_path(k: usize, shuffles: bool) -> CarryPath {
    let lanes = k / twiddle_cols(k);
    if shuffles && lanes <= WARP && WARP.is_multiple_of(lanes) {
        CarryPath::Warp
    } else {
        CarryPath::LocalMemory
    }
}

/// How a round of the twiddle phase waits for the work-items of its
/// elements.  Within a round no work-item reads another element's staging or
/// row of `SL`, so the round needs only the element's own work-items; the
/// butterfly stages after the phase wait for the whole work-group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TwiddleSync {
    /// `bar.warp.sync` ([`CarryPath::Warp`]: an element's work-items in one
    /// warp), so the warps of a work-group run their rounds out of step.
    /// H200, v27 (`perf/h200-v27/sync`), against `barrier()` in one call:
    /// k = 32 2^20 3.901 → 3.882 ms, 2^18 0.788 → 0.778; k = 64 2^18 1.998
    /// → 1.948.
    Warp,
    /// A named barrier per element of a round (PTX `bar.sync u + 1, lanes`),
    /// where an element's work-items are whole warps, several of them.
    /// H200, v27: k = 128 2^16 1.540 → 1.509 ms, 2^15 0.689 → 0.674.
    Element,
    /// `barrier()`: the whole work-group (without PTX, emulations included).
    WorkGroup,
}

/// Named barriers of an SM's work-group (PTX): id 0 is `barrier()`'s.
const NAMED_BARRIERS: usize = 16;

/// The twiddle phase's sync for k digits, given its carry path
/// ([`carry_path`]) and whether the platform has PTX.
pub fn twiddle_sync(k: usize, path: CarryPath, ptx: bool) -> TwiddleSync {
    let lanes = k / twiddle_cols(k);
    if path == CarryPath::Warp {
        TwiddleSync::Warp
    } else if ptx && lanes.is_multiple_of(WARP) && chunk(k) * twiddle_cols(k) < NAMED_BARRIERS {
        TwiddleSync::Element
    } else {
        TwiddleSync::WorkGroup
    }
}

/// Words between the rows of consecutive elements in `SL` (bytes in `SH`):
/// element (slot q, block gi) holds its k digits in a row at (q·G + gi)·stride
/// (`SLOT` of lazy_block.cl.tera), so that the lanes of a warp that hold
/// consecutive digits of an element read consecutive words (the twiddle
/// phase, the store phase an element per warp).  With several blocks the
/// rows are k + 1 words apart: the lanes of consecutive blocks (loads,
/// stages) then fall on distinct banks too (an odd stride); one block keeps
/// k, and the largest blocks fit 48 KiB (k = 64: 64 slots).
pub fn element_stride(k: usize, groups: usize) -> usize {
    if groups == 1 {
        k
    } else {
        k + 1
    }
}

/// Bytes of local memory the blocks may take: what the staging area the
/// shapes reserve leaves.
pub(super) const BLOCKS_MAX_BYTES: usize = LOCAL_MAX_BYTES - STAGING_WORDS * 8;

/// Words of `SL` (one high part each in `SH`) for `groups` blocks: n slots
/// of k lazy digits each, rows [`element_stride`] apart.
pub(super) fn blocks_words(k: usize, n: usize, groups: usize) -> usize {
    groups * n * element_stride(k, groups)
}

/// Bytes of `groups` blocks in local memory: a low word in `SL` and a high
/// part of [`high_part_bytes`] in `SH` per digit.
fn blocks_bytes(k: usize, n: usize, groups: usize) -> usize {
    blocks_words(k, n, groups) * (8 + high_part_bytes(k))
}

/// The work-group shape of the digits variant of DFT_n for k digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DigitsShape {
    /// Blocks per work-group (a power of two).
    pub groups: usize,
    /// Work-items per work-group.
    pub threads: usize,
}

impl DigitsShape {
    /// The shape for DFT_n, or None when one block and the staging area do
    /// not fit in [`LOCAL_MAX_BYTES`] or n > [`MAX_BLOCK`].
    pub fn of(k: usize, n: usize) -> Option<DigitsShape> {
        if n > MAX_BLOCK {
            return None;
        }
        if blocks_bytes(k, n, 1) > BLOCKS_MAX_BYTES || k > DIGITS_THREADS {
            return None;
        }
        let mut groups = (DIGITS_PER_GROUP / (n * k)).max(1);
        while blocks_bytes(k, n, groups) > BLOCKS_MAX_BYTES {
            groups /= 2;
        }
        Some(DigitsShape { groups, threads: DIGITS_THREADS })
    }
    /// Local memory of one work-group (bytes): the blocks and the staging
    /// area the shapes reserve (kernels declare at most that, [`staging_words`]).
    pub fn bytes(&self, k: usize, n: usize) -> usize {
        blocks_bytes(k, n, self.groups) + STAGING_WORDS * 8
    }
}

/// [`DigitsShape::of`], or why DFT_n has no digits kernel for k digits.
pub fn shape_for(k: usize, n: usize) -> Result<DigitsShape, EmitError> {
    DigitsShape::of(k, n).ok_or_else(|| {
        EmitError::Unsupported(format!(
            "the digits variant of DFT_{n} for k = {k} needs more than {LOCAL_MAX_BYTES} bytes of local memory or {MAX_BLOCK} slots (largest radix: {})",
            max_radix(k)
        ))
    })
}

/// Digits per lane up to which the store phase runs an element per warp
/// ([`store_in_warp`]).  H200, v26 (`perf/h200-v26/store`), against the
/// store phase by local memory in one call: k = 32 (one digit per lane) 2^20
/// 4.23 → 3.95 ms, 2^18 0.893 → 0.785; k = 64 (two) 2^18 2.034 → 1.995;
/// k = 128 (four) 2^16 1.531 → 1.637, 2^14 0.356 → 0.382.
pub const STORE_WARP_MAX_COLS: usize = 2;

/// Whether the store phase of a kernel for k digits runs an element per
/// warp, its carries by shuffles (where the platform has them): lane l holds
/// digits c·32 + l, so a warp reads consecutive words of SL (an element's row,
/// [`element_stride`]) and writes whole sectors of an element-major vector,
/// with no barrier per round.  Its second round of carries runs only for an
/// element with a digit outside [0, r) after the first (a vote of the warp;
/// otherwise that round's quotients are all 0): for random digits about
/// k·|q|/r of them, |q| < 2^12 the first round's carries.  v30a, H100,
/// against every element's second round in one call: k = 32 2^20 3.093 →
/// 2.942 ms, 2^18 0.639 → 0.616; k = 64 2^18 1.747 → 1.711
/// (`perf/h100-v30/store`).  The other store phase gives a warp's
/// lanes a few digits of several elements, with one or two barriers a round
/// ([`store_vote`]).  An
/// element per warp needs k ≥ 32 and pays up to [`STORE_WARP_MAX_COLS`]
/// digits per lane.
pub fn store_in_warp(k: usize, shuffles: bool) -> bool {
    shuffles && k >= WARP && k / WARP <= STORE_WARP_MAX_COLS
}

/// Words of a 32-byte sector, the unit in which the GPU moves global memory.
const SECTOR_WORDS: usize = 4;

/// How a pass kernel of the digits variant lays out its input X and output
/// Y in global memory: digit-major (digit d of element e at word d·plane + e
/// of its segment: the layout of every vector the user sees) or
/// element-major (at word e·k + d).  A work-group of this variant holds one
/// block where the radix is large (k ≥ 32): a warp's loads read one element's
/// digits and its stores a few digits of a few elements, each word of a
/// digit-major vector in a sector of its own, so a quarter of every sector
/// moved is used.  Element-major, the same lanes read and write whole
/// sectors (H100, v26's ablation `perf/h100-v26/`: k = 32 2^20 4.58 → 4.26
/// ms, k = 64 2^18 2.19 → 1.91, k = 128 2^16 1.79 → 1.52 with every pass so).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PassLayout {
    /// X element-major.
    pub input_element_major: bool,
    /// Y element-major.
    pub output_element_major: bool,
}

impl PassLayout {
    /// Both vectors digit-major (every variant but this one, and a plan's
    /// first input and last output).
    pub const DIGIT_MAJOR: PassLayout = PassLayout { input_element_major: false, output_element_major: false };

    /// The layout of launch `j` of a plan of `variant` of `shape`: the
    /// vectors between launches are element-major for the digits variant
    /// where [`element_major_between_launches`] holds, and for the table
    /// variant where the plan fuses passes in pairs (`first2::pair`: a
    /// pair's superblock is R² elements n/R² apart, whole sectors only
    /// element-major); the plan's input and output stay digit-major.
    pub fn of_launch(variant: Variant, shape: &crate::plan::PlanShape, j: usize) -> PassLayout {
        let between = match variant {
            Variant::Digits => element_major_between_launches(shape.k),
            Variant::Table => shape.fused,
            _ => false,
        };
        let launches = shape.launches().len();
        PassLayout { input_element_major: between && j > 0, output_element_major: between && j + 1 < launches }
    }

    /// Whether the queues of a plan in halves must wait for each other before
    /// launch `j` of a plan whose launches have `layouts`: where it writes
    /// its output into the buffer that launch j − 1 read in another layout
    /// (element-major against digit-major, as the last launch of an
    /// element-major plan does).  Half h of a launch reads and writes only
    /// elements of half h (`plan::Halves`), so the halves of consecutive
    /// launches touch disjoint words only where they map elements to words
    /// alike; otherwise half 0 of launch j, on the session's queue, could
    /// overwrite words that half 1 of launch j − 1, still running on the
    /// side queue, has yet to read (PoCL showed it: a fused table plan of
    /// k = 4 at 8^5 lost up to a quarter of half 1's outputs).
    pub fn halves_join_before(layouts: &[PassLayout], j: usize) -> bool {
        j > 0 && layouts[j].output_element_major != layouts[j - 1].input_element_major
    }

    /// The layouts of every launch of a plan ([`Self::of_launch`]).
    pub fn of_plan(variant: Variant, shape: &crate::plan::PlanShape) -> Vec<PassLayout> {
        (0..shape.launches().len()).map(|j| Self::of_launch(variant, shape, j)).collect()
    }

    /// The kernel's `layout` argument: bit 0 X element-major, bit 1 Y.
    pub fn bits(self) -> u32 {
        u32::from(self.input_element_major) | u32::from(self.output_element_major) << 1
    }
}

/// Whether a digits plan for k digits keeps the vectors between its launches
/// element-major: where a warp of the store phase writes at least a sector of
/// each element it holds (WARP / chunk(k) consecutive digits, so k ≥ 32).
/// Its loads then read whole sectors too wherever a work-group holds at most
/// WARP / SECTOR_WORDS blocks, which every pass after a plan's first does for
/// such k (its small radix comes first, `emit::small_radix_at`).  For smaller
/// k the store phase's warps span several blocks, whose outputs are
/// consecutive words digit-major.
pub fn element_major_between_launches(k: usize) -> bool {
    WARP / chunk(k) >= SECTOR_WORDS
}

/// The largest pass radix R ≤ K = 2k whose block fits the digits variant:
/// K up to k = 32, 64 for k = 64 and 32 for k = 128.  Plans use no larger
/// radix, so that every pass has a digits kernel.
pub fn max_radix(k: usize) -> usize {
    let mut r = 2 * k;
    while r > 2 && DigitsShape::of(k, r).is_none() {
        r /= 2;
    }
    r
}

/// The order in which the twiddle phase takes a block's inputs t < n: bit
/// reversal, so that for every a the multiples of 2^a come first.  Input t of
/// a block with κ has a twiddle that is a power of r (no product) exactly
/// when t·κ·2^shift is a multiple of 2^log_t, i.e. when t is a multiple of
/// some 2^a.  Where a work-group holds one block (k ≥ 32 at the largest
/// radix), those inputs fill whole rounds of the twiddle phase, whose warps
/// skip the product loop together.
pub fn twiddle_order(n: usize) -> Vec<usize> {
    let bits = n.trailing_zeros();
    (0..n).map(|t| if bits == 0 { 0 } else { t.reverse_bits() >> (usize::BITS - bits) }).collect()
}

/// One stage: `tasks` (butterfly, digit pair, block) tasks, `per_thread` of
/// them per work-item, results held in registers across the barrier.
fn stage_code(name: &str, si: usize, stage: &Stage, k: usize, groups: usize) -> (usize, String) {
    let (radix, butterflies) = (stage.radix(), stage.butterflies.len());
    let half = (k / 2).max(1);
    let tasks = butterflies * half * groups;
    let per_thread = tasks.div_ceil(DIGITS_THREADS);
    let vals = 2 * radix;
    let mut v = Vec::new();
    v.push(format!("ulong ol[{per_thread}][{vals}]; int oh[{per_thread}][{vals}];"));
    v.push("#pragma unroll".into());
    v.push(format!("for (uint m = 0; m < {per_thread}; m++) {{"));
    v.push(format!("    const uint b = lid + m * {DIGITS_THREADS};"));
    v.push(format!("    if (b < {tasks}) {{"));
    v.push(format!("        const uint gi = b % G, d = (b / G) % {half}, bi = b / (G * {half});"));
    let slot = |q: usize| format!("{name}_slots[{si}][bi][{q}]");
    let shift = |q: usize| format!("{name}_shifts[{si}][bi][{q}]");
    let vars = ["a", "b", "c", "e"];
    // digit dd of r^s·(slot q) is ±x_((dd − s) mod k): ROT_GET of lazy_block.cl.tera, or the digit
    // itself where no butterfly of the stage shifts input q
    for (q, x) in vars[..radix].iter().enumerate() {
        v.push(format!("        ulong {x}l0, {x}l1; int {x}h0, {x}h1;"));
        let unshifted = stage.input_unshifted(q, k);
        for (hf, dd) in [(0, "d".to_string()), (1, format!("d + {half}"))] {
            if unshifted {
                let at = format!("SLOT({}, {dd}, gi)", slot(q));
                v.push(format!("        {x}l{hf} = SL[{at}]; {x}h{hf} = SH[{at}];"));
            } else {
                v.push(format!("        ROT_GET({x}l{hf}, {x}h{hf}, {}, {dd}, {});", slot(q), shift(q)));
            }
        }
    }
    // outputs: ol/oh[m][2 q + half] for slot q, half 0 (digit d) and 1 (digit d + k/2)
    let out = |q: usize, hf: usize| format!("ol[m][{i}], oh[m][{i}]", i = 2 * q + hf);
    let lz = |op: &str, z: String, x: &str, y: &str| format!("        SRGFN_LZ_{op}({z}, {x}, {y});");
    let val = |x: &str, hf: usize| format!("{x}l{hf}, {x}h{hf}");
    if radix == 2 {
        for hf in 0..2 {
            v.push(lz("ADD", out(0, hf), &val("a", hf), &val("b", hf)));
            v.push(lz("SUB", out(1, hf), &val("a", hf), &val("b", hf)));
        }
    } else {
        // t0 = a + c, t1 = a − c, u0 = b + e, u1 = b − e; X0 = t0 + u0, X2 = t0 − u0,
        // X1 = t1 + ω u1, X3 = t1 − ω u1 with (ω u1)_d = −u1_(d+k/2), (ω u1)_(d+k/2) = u1_d
        for hf in 0..2 {
            v.push(format!("        ulong t0l{hf}, t1l{hf}, u0l{hf}, u1l{hf}; int t0h{hf}, t1h{hf}, u0h{hf}, u1h{hf};"));
            v.push(lz("ADD", val("t0", hf), &val("a", hf), &val("c", hf)));
            v.push(lz("SUB", val("t1", hf), &val("a", hf), &val("c", hf)));
            v.push(lz("ADD", val("u0", hf), &val("b", hf), &val("e", hf)));
            v.push(lz("SUB", val("u1", hf), &val("b", hf), &val("e", hf)));
        }
        for hf in 0..2 {
            v.push(lz("ADD", out(0, hf), &val("t0", hf), &val("u0", hf)));
            v.push(lz("SUB", out(2, hf), &val("t0", hf), &val("u0", hf)));
        }
        v.push(lz("SUB", out(1, 0), &val("t1", 0), &val("u1", 1)));
        v.push(lz("ADD", out(3, 0), &val("t1", 0), &val("u1", 1)));
        v.push(lz("ADD", out(1, 1), &val("t1", 1), &val("u1", 0)));
        v.push(lz("SUB", out(3, 1), &val("t1", 1), &val("u1", 0)));
    }
    v.push("    }".into());
    v.push("}".into());
    v.push("barrier(CLK_LOCAL_MEM_FENCE);".into());
    v.push("#pragma unroll".into());
    v.push(format!("for (uint m = 0; m < {per_thread}; m++) {{"));
    v.push(format!("    const uint b = lid + m * {DIGITS_THREADS};"));
    v.push(format!("    if (b < {tasks}) {{"));
    v.push(format!("        const uint gi = b % G, d = (b / G) % {half}, bi = b / (G * {half});"));
    for q in 0..radix {
        for hf in 0..2 {
            let dd = if hf == 0 { "d".to_string() } else { format!("d + {half}") };
            let i = 2 * q + hf;
            let (s, t) = (slot(q), high_part_type(k));
            v.push(format!("        SL[SLOT({s}, {dd}, gi)] = ol[m][{i}]; SH[SLOT({s}, {dd}, gi)] = ({t})oh[m][{i}];"));
        }
    }
    v.push("    }".into());
    v.push("}".into());
    v.push("barrier(CLK_LOCAL_MEM_FENCE);".into());
    (tasks, v.iter().map(|l| format!("        {l}")).collect::<Vec<_>>().join("\n"))
}

/// Everything the digits template prints for one DFT_R program.
pub fn context(k: usize, name: &str, program: &Program, ctx: &mut tera::Context) -> Result<(), EmitError> {
    require_no_output_shifts("digits", program)?;
    let n = program.size;
    let shape = shape_for(k, n)?;
    let g = shape.groups;
    let tw_chunk = chunk(k) * twiddle_cols(k);
    assert!((n * g).is_multiple_of(tw_chunk) || tw_chunk > n * g, "twiddle chunks tile the elements");
    let stages: Vec<StageCtx> = program
        .stages
        .iter()
        .enumerate()
        .map(|(si, st)| {
            let (tasks, code) = stage_code(name, si, st, k, g);
            StageCtx { radix: st.radix(), tasks, code }
        })
        .collect();
    ctx.insert("groups", &g);
    ctx.insert("threads", &shape.threads);
    ctx.insert("chunk", &chunk(k));
    let cols = twiddle_cols(k);
    ctx.insert("tw_stage", &twiddle_stage_words(k));
    // an element's work-items in the twiddle phase (within one warp where the carries take it)
    ctx.insert("tw_lanes", &(k / cols));
    ctx.insert("cols", &cols);
    ctx.insert("tw_chunk", &tw_chunk);
    ctx.insert("elements", &(n * g));
    ctx.insert("digits", &(n * g * k));
    ctx.insert("loads", &LoadRounds::of(n * g * k, shape.threads));
    // elements in rows (SLOT of lazy_block.cl.tera)
    ctx.insert("element_stride", &element_stride(k, g));
    ctx.insert("lmem_words", &blocks_words(k, n, g));
    // the second of the store phase's carry arrays (where it has them: kernel_context), and its rounds
    ctx.insert("store_cq1", &(chunk(k) * k));
    ctx.insert("store_rounds", &(n * g).div_ceil(chunk(k)));
    ctx.insert("digit_stages", &stages);
    ctx.insert("tw_order", &twiddle_order(n));
    ctx.insert("sh_type", high_part_type(k));
    ctx.insert("lazy_twiddle", &lazy_twiddle_outputs(k));
    Ok(())
}

/// What differs between the two kernels of a digits file: the staging area
/// (the kernel of p = 1 has no twiddle phase) and the carry paths of the
/// twiddle and store phases ([`carry_path`], [`store_in_warp`]), with the
/// shuffles of the field header (PTX) or emulated in the kernel
/// (`KernelOptions::warp_emulation`, a local-memory array of a word per
/// work-item).
pub fn kernel_context(k: usize, n: usize, twiddled: bool, opts: &KernelOptions, ctx: &mut tera::Context) -> Result<(), EmitError> {
    let shape = shape_for(k, n)?;
    let shuffles = opts.ptx || opts.warp_emulation;
    let path = carry_path(k, shuffles);
    let warp = twiddled && path == CarryPath::Warp;
    let store_warp = store_in_warp(k, shuffles);
    let words = staging_words(k, n * shape.groups, twiddled, store_warp);
    assert!(words <= STAGING_WORDS, "a kernel's staging fits the area its shape reserves");
    // the store phase's staging: its carry arrays (chunk·k = threads words each, if any), then the dirty flags
    ctx.insert("store_flags", &store_carry_words(k, store_warp));
    let emulated = (warp || store_warp) && !opts.ptx;
    ctx.insert("staging_words", &words);
    let scratch = if emulated { DIGITS_THREADS * 8 } else { 0 };
    ctx.insert("lmem_bytes", &(blocks_bytes(k, n, shape.groups) + words * 8 + scratch));
    ctx.insert("warp_carries", &warp);
    ctx.insert("tw_sync", &twiddle_sync(k, path, opts.ptx));
    ctx.insert("store_in_warp", &store_warp);
    ctx.insert("store_vote", &store_vote(k, store_warp));
    ctx.insert("every_second_round", &opts.every_second_round);
    // the store phase's first split, for the kernel's own bound (split_digit_bound, split_first_bound)
    ctx.insert("store_split", if twiddled { "srgfn_split_digit" } else { "srgfn_split_first" });
    // an element per warp: DIGITS_THREADS / WARP elements a round, k / WARP digits per lane
    ctx.insert("store_elements", &(DIGITS_THREADS / WARP));
    ctx.insert("store_cols", &(k / WARP).max(1));
    ctx.insert("warp_emulated", &emulated);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::{MulForm, Variant};

    /// The twiddle phase's carries go through the warp (PTX shuffles) exactly
    /// where an element's work-items fit one warp (k ≤ 64 with two columns
    /// each) and the field header has PTX; elsewhere through local memory.
    /// Each kernel declares the staging area it uses, the twiddled one's the
    /// larger, both within what the shape reserves.
    #[test]
    fn carries_go_through_the_warp_where_an_elements_work_items_share_one() {
        use crate::emit::{emit_dft, KernelOptions};
        use crate::rules::Radix;
        for k in [2usize, 4, 8, 16, 32, 64, 128] {
            let prime = crate::catalog_prime(k).unwrap();
            for ptx in [false, true] {
                let warp = ptx && k <= 64;
                assert_eq!(carry_path(k, ptx) == CarryPath::Warp, warp, "k = {k}, ptx {ptx}");
                let opts = KernelOptions { ptx, ..KernelOptions::new(Radix::R4, MulForm::Wide64) };
                let src = emit_dft(prime, max_radix(k), Variant::Digits, &opts).unwrap().source;
                assert_eq!(src.matches("SRGFN_SHFL_U64(cl[0]").count(), warp as usize, "k = {k}, ptx {ptx}");
                // a warp-path kernel refuses to build under a header without the shuffles
                // the store phase runs an element per warp where the largest radix holds one block
                // (k ≥ 32), up to two digits per lane
                let store = "SRGFN_SHFL_U64(x, (ulong)q1[c], from)";
                let store_warp = k == 32 || k == 64;
                assert_eq!(DigitsShape::of(k, max_radix(k)).unwrap().groups == 1, k >= 32, "k = {k}");
                assert_eq!(src.contains(store), ptx && store_warp, "k = {k}, ptx {ptx}");
                // that store phase runs its second round of carries only where the warp's vote asks for it
                assert_eq!(src.contains("SRGFN_WARP_ANY(again, out);"), ptx && store_warp, "k = {k}, ptx {ptx}");
                // through local memory, the second round where a vote asks for it (k <= 32) or every round
                let (in_warp, vote) = (ptx && store_warp, store_vote(k, ptx && store_warp));
                assert_eq!(vote, !in_warp && k <= 32, "k = {k}, ptx {ptx}");
                assert_eq!(src.contains("vote[j % 3] = 1;"), vote, "k = {k}, ptx {ptx}");
                let both_rounds = !in_warp && k > 32;
                assert_eq!(src.contains("STORE_CARRY(v, h, CQ1, d, q1);"), both_rounds, "k = {k}, ptx {ptx}");
                // each of the file's two kernels splits for its own bound: without twiddles, and with them
                for split in ["srgfn_split_first(&q1", "srgfn_split_digit(&q1"] {
                    assert_eq!(src.matches(split).count(), 1, "k = {k}, ptx {ptx}: {split}");
                }
                // the twiddle phase splits its outputs a second time only with one-byte high parts
                assert_eq!(src.contains("long q2["), !lazy_twiddle_outputs(k), "k = {k}, ptx {ptx}");
                assert!(src.contains(&format!("__local {} SH[", high_part_type(k))), "k = {k}");
                // a kernel with shuffles refuses to build under a header without them
                let guard = src.find("#ifndef SRGFN_SHFL\n#error");
                assert_eq!(guard.is_some(), warp || (ptx && store_warp), "k = {k}, ptx {ptx}");
                let first_use = [src.find("SRGFN_SHFL_U64(cl[0]"), src.find(store)].into_iter().flatten().min();
                assert!(guard.is_none_or(|g| g < first_use.unwrap()), "k = {k}: the guard comes first");
                assert_eq!(src.matches("X2[to] = l;").count(), !warp as usize, "k = {k}, ptx {ptx}");
                // on the warp path a round of the twiddle phase syncs the warp only; with PTX, an element
                // of several warps (k = 128) syncs by a named barrier
                let sync = twiddle_sync(k, carry_path(k, ptx), ptx);
                assert_eq!(sync == TwiddleSync::Warp, warp, "k = {k}, ptx {ptx}");
                assert_eq!(sync == TwiddleSync::Element, ptx && k == 128, "k = {k}, ptx {ptx}");
                assert_eq!(src.contains("#define TW_SYNC() SRGFN_WARP_SYNC()"), warp, "k = {k}, ptx {ptx}");
                // the product loop unrolled whole
                assert!(src.contains("#pragma unroll\n                for (uint m = 0; m < SRGFN_TW_STEPS"), "k = {k}");
                assert_eq!(src.contains("#define TW_SYNC() SRGFN_BAR_SYNC(1 + u, 64)"), ptx && k == 128, "k = {k}, ptx {ptx}");
                assert_eq!(src.contains("#define SRGFN_SHFL_U64"), ptx, "k = {k}");
                // without PTX the warp paths can be emitted with their shuffles emulated (tests on PoCL)
                let emulated = KernelOptions { warp_emulation: true, ..opts };
                let esrc = emit_dft(prime, max_radix(k), Variant::Digits, &emulated).unwrap().source;
                assert_eq!(esrc.matches("SRGFN_SHFL_U64(cl[0]").count(), (k <= 64) as usize, "k = {k}, ptx {ptx}, emulated");
                assert_eq!(esrc.contains(store), store_warp, "k = {k}, ptx {ptx}, emulated");
                assert_eq!(esrc.contains("SRGFN_WARP_ANY(again, out);"), store_warp, "k = {k}, ptx {ptx}, emulated");
                assert_eq!(esrc.contains("#define SRGFN_WARP_ANY"), k <= 64 || ptx, "k = {k}, ptx {ptx}, emulated");
                assert_eq!(esrc.contains("__local ulong SHFL_X["), k <= 64 && !ptx, "k = {k}, ptx {ptx}, emulated");
                assert_eq!(esrc.contains("#define SRGFN_SHFL_U64"), k <= 64 || ptx, "k = {k}, ptx {ptx}, emulated");
            }
            for n in [2, max_radix(k)] {
                let s = DigitsShape::of(k, n).unwrap();
                for store_warp in [false, true] {
                    let (tw, first) = (staging_words(k, n * s.groups, true, store_warp), staging_words(k, n * s.groups, false, store_warp));
                    assert!(first <= tw && tw <= STAGING_WORDS, "k = {k}, n = {n}: {first}, {tw}");
                }
                // the first pass of a kernel whose store phase runs an element per warp declares its flags only
                let flags = (n * s.groups).div_ceil(2);
                assert_eq!(staging_words(k, n * s.groups, false, true), flags, "k = {k}, n = {n}");
            }
        }
    }

    /// A digits plan keeps the vectors between its launches element-major
    /// from k = 32 (a warp of the store phase writes at least a sector of each
    /// element), and reads and writes digit-major vectors at its ends.
    #[test]
    fn vectors_between_launches_are_element_major_from_k32() {
        use crate::plan::PlanShape;
        let at = |variant, shape: &PlanShape, j| {
            let l = PassLayout::of_launch(variant, shape, j);
            (l.input_element_major, l.output_element_major, l.bits())
        };
        for k in [2usize, 4, 8, 16, 32, 64, 128] {
            let em = k >= 32;
            assert_eq!(element_major_between_launches(k), em, "k = {k}");
            let prime = crate::prime::catalog_prime(k).unwrap();
            let kk = (2 * k) as u32;
            let one = PlanShape::new(prime, kk.trailing_zeros().min(5), 1).unwrap();
            assert_eq!(at(Variant::Digits, &one, 0), (false, false, 0), "k = {k}: one launch");
            let many = PlanShape::new(prime, 15, 1).unwrap();
            let n = many.launches().len();
            assert!(n >= 3, "k = {k}");
            assert_eq!(at(Variant::Digits, &many, 0), (false, em, 2 * em as u32), "k = {k}: the first launch");
            assert_eq!(at(Variant::Digits, &many, 1), (em, em, 3 * em as u32), "k = {k}: a middle launch");
            assert_eq!(at(Variant::Digits, &many, n - 1), (em, false, em as u32), "k = {k}: the last launch");
            // the table variant (k ≤ 8 fuses): element-major between launches exactly where the plan fuses pairs
            for fused in [false, true].into_iter().filter(|_| k <= 8) {
                let shape = PlanShape::new(prime, 5 * kk.trailing_zeros(), 1).unwrap().with_fusion(fused);
                let n = shape.launches().len();
                assert_eq!(n, if fused { 3 } else { 5 });
                assert_eq!(at(Variant::Table, &shape, 0), (false, fused, 2 * fused as u32), "k = {k}");
                assert_eq!(at(Variant::Table, &shape, 1), (fused, fused, 3 * fused as u32), "k = {k}");
                assert_eq!(at(Variant::Table, &shape, n - 1), (fused, false, fused as u32), "k = {k}");
            }
        }
        assert_eq!(PassLayout::default(), PassLayout::DIGIT_MAJOR);
        let k32 = crate::prime::Prime::parse("(2^62+2^56)^32+1").unwrap();
        let three = PlanShape::new(&k32, 18, 1).unwrap().with_fusion(true);
        for variant in [Variant::Local, Variant::Workgroup] {
            assert_eq!(PassLayout::of_launch(variant, &three, 1), PassLayout::DIGIT_MAJOR, "{variant:?}");
        }
    }

    /// The table of the digits variant holds each entry's suffix sums
    /// T_i = Σ_(m>i) w_m after the entries (checked here as total − prefix,
    /// with digits near 2^64 so that the high words count); the other
    /// variants' tables are the entries alone.
    #[test]
    fn digits_tables_hold_each_entrys_suffix_sums() {
        for k in [2usize, 8, 32, 128] {
            let entries: Vec<u64> = (0..3 * k as u64).map(|i| u64::MAX - i.wrapping_mul(0x9e37_79b9_7f4a_7c15) % (1 << 40)).collect();
            let t = Variant::Digits.table_layout(k, &entries);
            assert_eq!(t.len(), Variant::Digits.table_words(k, 3));
            assert_eq!(&t[..3 * k], &entries[..]);
            for (e, w) in entries.chunks(k).enumerate() {
                let total: u128 = w.iter().map(|&x| x as u128).sum();
                let mut prefix = 0u128;
                for (i, &x) in w.iter().enumerate() {
                    prefix += x as u128;
                    let at = 3 * k + 2 * (e * k + i);
                    assert_eq!(t[at] as u128 | (t[at + 1] as u128) << 64, total - prefix, "k = {k}, entry {e}, digit {i}");
                }
            }
            for v in [Variant::Local, Variant::Table, Variant::Workgroup] {
                assert_eq!(v.table_layout(k, &entries), entries);
                assert_eq!(v.table_words(k, 3), 3 * k);
            }
        }
    }

    #[test]
    fn twiddle_order_is_a_permutation_with_multiples_of_each_power_of_two_first() {
        for n in [2usize, 4, 32, 64] {
            let order = twiddle_order(n);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..n).collect::<Vec<_>>(), "n = {n}");
            let mut a = 1;
            while a <= n {
                // the first n / a entries are exactly the multiples of a
                assert!(order[..n / a].iter().all(|t| t % a == 0), "n = {n}, a = {a}: {order:?}");
                a *= 2;
            }
        }
    }

    #[test]
    fn largest_radix_and_shapes_fit_local_memory() {
        for (k, want) in [(2, 4), (4, 8), (8, 16), (16, 32), (32, 64), (64, 64), (128, 32)] {
            assert_eq!(max_radix(k), want, "k = {k}");
            let mut n = 2;
            while n <= want {
                let s = DigitsShape::of(k, n).unwrap();
                assert!(s.bytes(k, n) <= LOCAL_MAX_BYTES && s.groups.is_power_of_two(), "k = {k}, n = {n}: {s:?}");
                // the twiddle chunks tile the block's elements
                let chunk = DIGITS_THREADS / k * twiddle_cols(k);
                assert!((n * s.groups).is_multiple_of(chunk) || chunk > n * s.groups);
                n *= 2;
            }
            assert!(DigitsShape::of(k, 2 * want).is_none() || 2 * want > 2 * k, "k = {k}");
        }
        assert!(DigitsShape::of(64, 128).is_none(), "7 butterfly levels overflow the lazy digits' 8 high bits");
    }

    /// Every digit of a work-group is loaded once, in batches that divide the
    /// rounds, at most LOAD_BATCH_MAX loads in flight a work-item.
    #[test]
    fn load_rounds_cover_every_digit_once() {
        for threads in [32usize, 64, 256] {
            for digits in [1usize, 8, 24, 600, 768, 2048, 4096, 8192, 2 * 256 + 5] {
                let l = LoadRounds::of(digits, threads);
                assert!(l.batch >= 1 && l.batch <= LOAD_BATCH_MAX && l.rounds.is_multiple_of(l.batch), "{digits}/{threads}: {l:?}");
                assert_eq!(l.partial, !digits.is_multiple_of(threads), "{digits}/{threads}");
                let mut seen = vec![0u8; digits];
                for lid in 0..threads {
                    for j in 0..l.rounds {
                        let e = lid + j * threads;
                        if e < digits {
                            seen[e] += 1;
                        } else {
                            assert!(l.partial, "{digits}/{threads}: e = {e} out of range without a guard");
                        }
                    }
                }
                assert!(seen.iter().all(|&c| c == 1), "{digits}/{threads}");
            }
        }
        assert_eq!(LoadRounds::of(2048, 256), LoadRounds { rounds: 8, batch: 8, partial: false });
        assert_eq!(LoadRounds::of(8192, 256), LoadRounds { rounds: 32, batch: 8, partial: false });
        assert_eq!(LoadRounds::of(768, 256), LoadRounds { rounds: 3, batch: 3, partial: false });
    }
}
