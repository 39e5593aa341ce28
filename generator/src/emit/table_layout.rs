//! Where the table variant's blocks live in local memory, and in which order
//! a stage's work-items take its butterflies: chosen in Rust with the bank
//! model of `banks.rs`.
//!
//! A work-group of the table variant holds G blocks; digit d of slot q of
//! block gi is word (row(q) + d)·G + gi of `SL` and byte of `SH`.  In a stage,
//! work-item b takes task b: butterfly `order[b / G]` of block b mod G.  So
//! a warp reads and writes the same digit of the slots of 32 / G butterflies
//! (a shifted input rotated by its run-time shift), and which slots and
//! shifts share a warp decides its bank conflicts.  The butterflies of a
//! stage touch disjoint slots, so any order computes the same; and each slot
//! has one spare row (`table::slot_stride`), so its rows may start one row
//! late (row(q) = q·(k + 1) + skew bit q).  [`TableLayout::of`] picks the
//! skew and the orders with the fewest modelled wavefronts: the loads into
//! local memory, every stage, and the stores.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use super::banks;
use super::table::slot_stride;
use crate::unroll::{Program, Stage};

/// Warp evaluations the search of one skew's stage orders may spend: DFT_32
/// at k = 16 reaches the same count as with no bound (all of `srgfn emit` in
/// 0.05 s); DFT_64 at k = 32, radix 2, ends its sweeps early (12504
/// wavefronts instead of 11794; emit 0.09 s instead of 0.44).  The table
/// variant is the default only for k = 16.
const SEARCH_BUDGET: usize = 1024;

/// A program's layouts are memoised by its geometry, formula and size.
type MemoKey = (Geometry, String, usize);

/// The table variant's layout of one program's blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableLayout {
    /// Bit q set: slot q's digit rows start one row later, in its padding row.
    pub skew: u64,
    /// Stage s gives its task i to butterfly `orders[s][i]` of the program's stage s.
    pub orders: Vec<Vec<usize>>,
    /// The modelled wavefronts of one work-group (loads, stages, stores) in this layout.
    pub wavefronts: usize,
    /// The same with no skew and the stages in the program's own order.
    pub wavefronts_unordered: usize,
}

/// The geometry the model needs: k digits, G blocks per work-group, the work-group's work-items.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Geometry {
    k: usize,
    groups: usize,
    threads: usize,
}

impl Geometry {
    /// Slot q's first row: what `SLOT` of lazy_block.cl.tera computes from
    /// `slot_stride` and the printed `table::slot_skew`.
    fn row(&self, skew: u64, q: usize) -> usize {
        q * slot_stride(self.k) + ((skew >> q) & 1) as usize
    }

    /// The lanes (as indices of a loop `for (b = lid; b < count; b += threads)`) of each warp.
    fn warps(&self, count: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        for base in (0..count).step_by(self.threads) {
            for w in (0..self.threads).step_by(32) {
                let lanes: Vec<usize> = (base + w..(base + w + 32).min(base + self.threads).min(count)).collect();
                if !lanes.is_empty() {
                    out.push(lanes);
                }
            }
        }
        out
    }

    /// Wavefronts of the loads into local memory and of the stores from it:
    /// element t of block b mod G at loop index b (slot t of the load, output
    /// slot t of the store), every digit.  (A twiddled load stores its digits
    /// rotated by a run-time amount: modelled without the rotation.)
    fn frame_cost(&self, program: &Program, skew: u64) -> usize {
        let mut total = 0;
        let mut lanes_of = Vec::with_capacity(32);
        for lanes in self.warps(program.size * self.groups) {
            for out in [false, true] {
                lanes_of.clear();
                lanes_of.extend(lanes.iter().map(|&b| {
                    let (gi, t) = (b % self.groups, b / self.groups);
                    (self.row(skew, if out { program.output_slots[t] } else { t }), 0, gi)
                }));
                total += self.run_cost(&lanes_of, 0, self.k, false);
            }
        }
        total
    }

    /// Wavefronts of one warp's accesses to digits [from, to) of its lanes'
    /// slots, a lane being (first row, shift, block): digit d itself, or
    /// (`rotated`) digit (d − shift) mod k, where no lane's rotation wraps
    /// inside the run.  Moving every lane's index by one digit row (G words,
    /// G bytes) keeps the model's count of 64-bit accesses (their bank pairs
    /// move one to one) and, by whole words, of byte accesses: every
    /// 4/gcd(G, 4) rows.  So a run counts its first digit, and a few for bytes.
    fn run_cost(&self, lanes_of: &[(usize, usize, usize)], from: usize, to: usize, rotated: bool) -> usize {
        let (k, g) = (self.k, self.groups);
        let period = 4 / gcd(g, 4);
        let mut idx = Vec::with_capacity(lanes_of.len());
        let mut count = |d: usize, bytes: bool| {
            idx.clear();
            idx.extend(lanes_of.iter().map(|&(row, s, gi)| (row + if rotated { (d + k - s) % k } else { d }) * g + gi));
            if bytes {
                banks::wavefronts_u8(&idx)
            } else {
                banks::wavefronts_u64(&idx)
            }
        };
        let len = to - from;
        let mut sum = len * count(from, false);
        for i in 0..period.min(len) {
            sum += (len - i).div_ceil(period) * count(from + i, true);
        }
        sum
    }

    /// Wavefronts of one warp of `stage` in task order `order`: each input
    /// digit read (rotated by its shift; the first input unshifted, as `GET`
    /// reads it), counted per run of digits between the lanes' shifts, and
    /// each output digit written.
    fn warp_cost(&self, stage: &Stage, order: &[usize], skew: u64, lanes: &[usize]) -> usize {
        let (k, g) = (self.k, self.groups);
        let mut total = 0;
        let mut lanes_of = Vec::with_capacity(32);
        for t in 0..stage.radix() {
            lanes_of.clear();
            for &b in lanes {
                let bf = &stage.butterflies[order[b / g]];
                if let Some(&q) = bf.slots.get(t) {
                    let s = if t == 0 { 0 } else { bf.shifts[t] as usize % k };
                    lanes_of.push((self.row(skew, q), s, b % g));
                }
            }
            total += self.run_cost(&lanes_of, 0, k, false);
            let mut cuts: Vec<usize> = lanes_of.iter().map(|&(_, s, _)| s).chain([0, k]).collect();
            cuts.sort_unstable();
            cuts.dedup();
            for w in cuts.windows(2) {
                total += self.run_cost(&lanes_of, w[0], w[1], true);
            }
        }
        total
    }

    /// The fewest wavefronts a warp of `stage` can take: one per half-warp of
    /// each 64-bit access, one for each 8-bit access.
    fn warp_floor(&self, stage: &Stage, lanes: &[usize]) -> usize {
        2 * stage.radix() * self.k * (lanes.len().div_ceil(16) + 1)
    }

    /// The order of `stage`'s butterflies with the fewest modelled wavefronts
    /// that a few sweeps of pairwise swaps find, from the program's order,
    /// within `budget` warp evaluations; its cost.
    fn best_order(&self, stage: &Stage, skew: u64, budget: &mut usize) -> (Vec<usize>, usize) {
        let n = stage.butterflies.len();
        let warps = self.warps(n * self.groups);
        // the warps each task position touches
        let mut touches: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (w, lanes) in warps.iter().enumerate() {
            for &b in lanes {
                let pos = b / self.groups;
                if touches[pos].last() != Some(&w) {
                    touches[pos].push(w);
                }
            }
        }
        let mut order: Vec<usize> = (0..n).collect();
        let mut cost: Vec<usize> = warps.iter().map(|l| self.warp_cost(stage, &order, skew, l)).collect();
        // a warp spanning one butterfly's blocks only: the order changes nothing
        if warps.iter().all(|l| l.iter().all(|&b| b / self.groups == l[0] / self.groups)) {
            return (order, cost.iter().sum());
        }
        let floor: usize = warps.iter().map(|l| self.warp_floor(stage, l)).sum();
        for _sweep in 0..3 {
            if cost.iter().sum::<usize>() == floor {
                break;
            }
            let mut improved = false;
            for i in 0..n {
                for j in i + 1..n {
                    if *budget == 0 {
                        return (order, cost.iter().sum());
                    }
                    let mut affected: Vec<usize> = touches[i].iter().chain(&touches[j]).copied().collect();
                    affected.sort_unstable();
                    affected.dedup();
                    let before: usize = affected.iter().map(|&w| cost[w]).sum();
                    order.swap(i, j);
                    let after: Vec<usize> = affected.iter().map(|&w| self.warp_cost(stage, &order, skew, &warps[w])).collect();
                    *budget = budget.saturating_sub(affected.len());
                    if after.iter().sum::<usize>() < before {
                        for (&w, c) in affected.iter().zip(after) {
                            cost[w] = c;
                        }
                        improved = true;
                    } else {
                        order.swap(i, j);
                    }
                }
            }
            if !improved {
                break;
            }
        }
        (order, cost.iter().sum())
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl TableLayout {
    /// The layout of `program`'s blocks for a work-group of `groups` blocks
    /// and `threads` work-items (`table::shape`): of the skews tried (none,
    /// and the parity of the bits of q under a few masks), the one whose best
    /// stage orders need the fewest wavefronts; ties keep the earlier.
    /// Memoised per program.
    pub fn of(k: usize, program: &Program, groups: usize, threads: usize) -> TableLayout {
        static MEMO: OnceLock<Mutex<HashMap<MemoKey, TableLayout>>> = OnceLock::new();
        let geo = Geometry { k, groups, threads };
        let key = (geo, program.formula.to_string(), program.size);
        if let Some(found) = MEMO.get_or_init(Default::default).lock().unwrap().get(&key) {
            return found.clone();
        }
        let found = Self::search(geo, program);
        MEMO.get_or_init(Default::default).lock().unwrap().insert(key, found.clone());
        found
    }

    fn search(geo: Geometry, program: &Program) -> TableLayout {
        let n = program.size;
        let all = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        let parity = |mask: u64| (0..n).filter(|&q| (q as u64 & mask).count_ones() % 2 == 1).fold(0u64, |s, q| s | 1 << q);
        let mut skews = vec![0u64];
        for mask in [all, all & !1] {
            let s = parity(mask);
            if !skews.contains(&s) {
                skews.push(s);
            }
        }
        let identity = |st: &Stage| (0..st.butterflies.len()).collect::<Vec<_>>();
        let unordered = geo.frame_cost(program, 0)
            + program
                .stages
                .iter()
                .map(|st| {
                    geo.warps(st.butterflies.len() * geo.groups).iter().map(|l| geo.warp_cost(st, &identity(st), 0, l)).sum::<usize>()
                })
                .sum::<usize>();
        let mut best: Option<TableLayout> = None;
        for skew in skews {
            let mut total = geo.frame_cost(program, skew);
            let mut orders = Vec::new();
            let mut budget = SEARCH_BUDGET;
            for st in &program.stages {
                let (order, cost) = geo.best_order(st, skew, &mut budget);
                total += cost;
                orders.push(order);
            }
            if best.as_ref().is_none_or(|b| total < b.wavefronts) {
                best = Some(TableLayout { skew, orders, wavefronts: total, wavefronts_unordered: unordered });
            }
        }
        best.expect("at least one skew")
    }

    /// `program` with each stage's butterflies in this layout's order.
    pub fn reorder(&self, program: &Program) -> Program {
        let mut out = program.clone();
        for ((st, order), own) in out.stages.iter_mut().zip(&self.orders).zip(&program.stages) {
            st.butterflies = order.iter().map(|&i| own.butterflies[i].clone()).collect();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::table::shape;
    use super::*;
    use crate::rules::Radix;

    fn layout(k: usize, radix: Radix) -> (Program, TableLayout, Geometry) {
        let program = Program::unroll(k, radix).unwrap();
        let (groups, tpd) = shape(k, program.size);
        let geo = Geometry { k, groups, threads: groups * tpd };
        let found = TableLayout::of(k, &program, groups, groups * tpd);
        (program, found, geo)
    }

    /// Each stage's order is a permutation of its butterflies, so the
    /// reordered program computes the same; the skew keeps every slot inside
    /// its own k + 1 rows; the chosen layout never costs more than the
    /// program's own order without a skew, and its count is the model's.
    #[test]
    fn layouts_reorder_and_never_cost_more() {
        for k in [2, 4, 8, 16, 32] {
            for radix in [Radix::R2, Radix::R4] {
                let (program, found, geo) = layout(k, radix);
                let reordered = found.reorder(&program);
                for (st, (own, order)) in reordered.stages.iter().zip(program.stages.iter().zip(&found.orders)) {
                    let mut sorted = order.clone();
                    sorted.sort_unstable();
                    assert_eq!(sorted, (0..own.butterflies.len()).collect::<Vec<_>>(), "k = {k}");
                    let mut slots: Vec<Vec<usize>> = st.butterflies.iter().map(|b| b.slots.clone()).collect();
                    let mut want: Vec<Vec<usize>> = own.butterflies.iter().map(|b| b.slots.clone()).collect();
                    slots.sort();
                    want.sort();
                    assert_eq!(slots, want, "k = {k}");
                }
                for q in 0..program.size {
                    assert!(geo.row(found.skew, q) + k <= (q + 1) * slot_stride(k), "k = {k}: slot {q} overruns");
                }
                assert!(found.wavefronts <= found.wavefronts_unordered, "k = {k} {radix:?}");
                let stages: usize = program
                    .stages
                    .iter()
                    .zip(&found.orders)
                    .map(|(st, o)| {
                        geo.warps(st.butterflies.len() * geo.groups).iter().map(|l| geo.warp_cost(st, o, found.skew, l)).sum::<usize>()
                    })
                    .sum();
                assert_eq!(found.wavefronts, geo.frame_cost(&program, found.skew) + stages, "k = {k} {radix:?}");
            }
        }
    }

    /// The model's count digit by digit, for `warp_cost` to match.
    fn warp_cost_per_digit(geo: &Geometry, stage: &Stage, order: &[usize], skew: u64, lanes: &[usize]) -> usize {
        let mut total = 0;
        for t in 0..stage.radix() {
            for d in 0..geo.k {
                let (mut rd, mut wr) = (Vec::new(), Vec::new());
                for &b in lanes {
                    let bf = &stage.butterflies[order[b / geo.groups]];
                    let Some(&q) = bf.slots.get(t) else { continue };
                    let s = if t == 0 { 0 } else { bf.shifts[t] as usize % geo.k };
                    let row = geo.row(skew, q);
                    rd.push((row + (d + geo.k - s) % geo.k) * geo.groups + b % geo.groups);
                    wr.push((row + d) * geo.groups + b % geo.groups);
                }
                total += banks::wavefronts_lazy(&rd) + banks::wavefronts_lazy(&wr);
            }
        }
        total
    }

    /// `warp_cost` counts each run of digits once; digit by digit gives the
    /// same, for every k, radix, skew tried and G (4 dividing it or not).
    #[test]
    fn runs_of_digits_count_as_digit_by_digit() {
        for k in [2, 4, 8, 16, 32] {
            for radix in [Radix::R2, Radix::R4] {
                let (program, found, geo) = layout(k, radix);
                for groups in [geo.groups, 2, 5] {
                    let g = Geometry { groups, threads: groups * (program.size / 2).max(1), ..geo };
                    for skew in [0, found.skew, 0x5a5a_5a5a_5a5a_5a5a] {
                        for (st, order) in program.stages.iter().zip(&found.orders) {
                            for lanes in g.warps(st.butterflies.len() * groups) {
                                let fast = g.warp_cost(st, order, skew, &lanes);
                                assert_eq!(fast, warp_cost_per_digit(&g, st, order, skew, &lanes), "k = {k} {radix:?} G = {groups}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// At k = 16 (the table variant's default, G = 8: a half-warp holds two
    /// butterflies, a warp four), every stage access of the chosen layout is
    /// free of bank conflicts, where the program's own order had about two
    /// wavefronts for one.
    #[test]
    fn k16_stages_are_free_of_conflicts() {
        let (program, found, geo) = layout(16, Radix::R2);
        assert_eq!(geo.groups, 8);
        for (st, order) in program.stages.iter().zip(&found.orders) {
            for lanes in geo.warps(st.butterflies.len() * geo.groups) {
                assert_eq!(geo.warp_cost(st, order, found.skew, &lanes), geo.warp_floor(st, &lanes));
            }
        }
        assert!(2 * found.wavefronts < found.wavefronts_unordered + geo.frame_cost(&program, 0), "{found:?}");
    }

    /// The model itself: two butterflies of slots whose rows have the same
    /// parity share bank pairs in a half-warp (G = 8); one row of skew on
    /// the second butterfly's slots separates them (its shift has the first's
    /// parity, so its rotated reads move with it).
    #[test]
    fn a_skewed_slot_moves_to_the_other_banks() {
        let geo = Geometry { k: 16, groups: 8, threads: 16 };
        let program = Program::unroll(16, Radix::R2).unwrap();
        // the last stage pairs slots (q, q + 1): butterflies (0, 1) with shift 0 and (8, 9) with shift 2
        let st = program.stages.last().unwrap();
        let two = Stage { butterflies: vec![st.butterflies[0].clone(), st.butterflies[2].clone()] };
        assert_eq!((two.butterflies[0].slots[0], two.butterflies[1].slots[0], two.butterflies[1].shifts[1]), (0, 8, 2));
        let lanes: Vec<usize> = (0..16).collect();
        let plain = geo.warp_cost(&two, &[0, 1], 0, &lanes);
        let skew = 1u64 << two.butterflies[1].slots[0] | 1u64 << two.butterflies[1].slots[1];
        assert_eq!(geo.warp_cost(&two, &[0, 1], skew, &lanes), geo.warp_floor(&two, &lanes));
        assert!(plain > geo.warp_floor(&two, &lanes), "{plain}");
    }
}
