//! The passes of the small-prime NTTs of size N = 2^e and their host model.
//!
//! A pass is one radix-R Stockham step with stride P (R = r_A·r_B,
//! T = N/R columns): column i (κ = i mod P) reads x[i + t·T] for t < R,
//! multiplies by ω_{RP}^{tκ}, takes the DFT_R and writes output m to
//! y[⌊i/P⌋·RP + κ + m·P].  Passes run with P = 1, R_1, R_1R_2, … and leave the
//! DFT in natural order.  A *fused* pass (r_B > 1) computes DFT_R as two
//! levels in local memory: with t = τ + r_B·t1 and m = i″ + r_A·m2,
//!
//! * level A, work-item τ of the column: v[τ·r_A + i″] =
//!   c_τ · Σ_{t1} ω_{r_A}^{t1·i″} · (d^{t1} · x_{τ + r_B t1}), where
//!   d = ω_{r_A P}^κ and c_τ = ω_{RP}^{τκ} (the part of the twiddle that is
//!   constant over t1 is applied after the DFT);
//! * level B: out[i″ + r_A·m2] = Σ_{t2} ω_{r_B}^{t2·m2} · ω_R^{t2·i″} · v[t2·r_A + i″].
//!
//! Each pass has 256 work-items per work-group (G columns of r_B work-items,
//! every work-item holding r_A values), so a fused radix-256 pass moves each
//! element through memory once for two radix-16 levels.  Loads are coalesced
//! over the G consecutive columns of a group; stores too when P ≥ G; the first
//! pass (P = 1 < G) stages its outputs in local memory and stores them in
//! address order.  The local layouts are padded so that no access of a warp
//! hits one bank twice (`worst_bank_conflict`).

use super::dft::{power_steps, DftProgram, MAX_DFT};
use super::{mont_mul, SmallPrimes, INNER_ROOTS};

/// Work-items of every pass's work-group (fewer only when N is tiny).
pub const GROUP_THREADS: usize = 256;
/// Banks of local memory (4-byte words) and work-items of a warp on NVIDIA GPUs.
pub const BANKS: usize = 32;
/// Bits of a pass: two levels of radix 16.
const PASS_BITS: u32 = 8;

/// One pass; see the module doc.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Pass {
    pub radix_a: usize,
    /// 1 for a single-level pass (no local memory).
    pub radix_b: usize,
    /// P, the product of the earlier passes' radices.
    pub stride: usize,
    /// T = N / R.
    pub columns: usize,
    /// G, the columns of one work-group.
    pub group_columns: usize,
}

impl Pass {
    pub fn radix(&self) -> usize {
        self.radix_a * self.radix_b
    }
    /// U = r_B work-items per column.
    pub fn threads_per_column(&self) -> usize {
        self.radix_b
    }
    pub fn group_size(&self) -> usize {
        self.group_columns * self.radix_b
    }
    pub fn groups(&self) -> usize {
        self.columns / self.group_columns
    }
    pub fn fused(&self) -> bool {
        self.radix_b > 1
    }
    pub fn twiddled(&self) -> bool {
        self.stride > 1
    }
    /// The r_A powers d^{t1} of a column are computed once, by its U work-items, into local memory.
    pub fn shared_twiddles(&self) -> bool {
        self.twiddled() && self.fused()
    }
    /// Outputs go through local memory first (fused, and a group's columns are not all of one κ run).
    pub fn staged(&self) -> bool {
        self.fused() && self.stride < self.group_columns
    }
    /// Padding after each r_A elements of the exchange: the level-A stores of a
    /// warp (G < 32 columns × 32/G work-items) then fall on distinct banks.
    pub fn exchange_pad(&self) -> usize {
        if self.group_columns < BANKS {
            self.group_columns
        } else {
            0
        }
    }
    /// Local word of element p < R of the group's column g between the levels.
    pub fn exchange_index(&self, p: usize, g: usize) -> usize {
        p * self.group_columns + g + p / self.radix_a * self.exchange_pad()
    }
    /// Words of a staged group's output block that share one stride-P run.
    pub fn stage_block(&self) -> usize {
        self.radix() * self.stride
    }
    /// Padding after each stage block, so that the level-B stores of a warp fall on distinct banks.
    pub fn stage_pad(&self) -> usize {
        BANKS * self.stride / self.group_columns.min(BANKS)
    }
    /// Offset of output m of the group's column g within the group's (contiguous) output block.
    pub fn stage_offset(&self, g: usize, m: usize) -> usize {
        g / self.stride * self.stage_block() + g % self.stride + m * self.stride
    }
    /// Local word of output offset o of a staged group.
    pub fn stage_index(&self, o: usize) -> usize {
        o + o / self.stage_block() * self.stage_pad()
    }
    /// 32-bit words of local memory for the exchange (and staging).
    pub fn local_words(&self) -> usize {
        if !self.fused() {
            return 0;
        }
        let exchange = self.exchange_index(self.radix() - 1, self.group_columns - 1) + 1;
        let stage = if self.staged() { self.stage_index(self.radix() * self.group_columns - 1) + 1 } else { 0 };
        exchange.max(stage)
    }
    /// Words of local memory for the shared twiddle powers.
    pub fn twiddle_words(&self) -> usize {
        if self.shared_twiddles() {
            self.radix_a * self.group_columns
        } else {
            0
        }
    }

    /// Words of one prime's table the pass reads (its table traffic at most):
    /// a lookup of exponent x reads low entry x mod 2^L and high entry
    /// ⌊x/2^L⌋ (L = lo_bits).  A chained pass looks up the multiples of
    /// 2^E/(r_A·P) below 2^E/r_A; a shared one multiples of δ = 2^E/(R·P) below
    /// 2^E; a fused pass also reads the 2·256 words of inner roots.
    pub fn table_words_read(&self, sp: &SmallPrimes) -> usize {
        let lo = 1usize << sp.lo_bits();
        // entries of the exponents m·delta, m < count
        let entries = |delta: usize, count: usize| count.min((lo / delta).max(1)) + count.min((count * delta / lo).max(1));
        let inner = if self.fused() { 2 * INNER_ROOTS } else { 0 };
        let full = 1usize << sp.two_adicity;
        inner
            + match (self.twiddled(), self.shared_twiddles()) {
                (false, _) => 0,
                (true, false) => entries(full / (self.radix_a * self.stride), self.stride),
                (true, true) => entries(full / (self.radix() * self.stride), self.radix() * self.stride),
            }
    }

    /// Runs the pass for prime j as the kernel does, work-group by work-group,
    /// phase by phase (a phase ends at a barrier).  Panics if a local word is
    /// written twice or read before it is written.
    pub fn run_host(&self, sp: &SmallPrimes, j: usize, x: &[u32], y: &mut [u32]) {
        let (q, qi) = (sp.q[j], sp.qinv[j]);
        let mont = |a, b| mont_mul(a, b, q, qi);
        let add = |a: u32, b: u32| ((a as u64 + b as u64) % q as u64) as u32;
        let sub = |a: u32, b: u32| ((a as u64 + q as u64 - b as u64) % q as u64) as u32;
        let w16 = |a, h: usize| mont(a, sp.w16[j][h]);
        let (ra, rb, p, t) = (self.radix_a, self.radix_b, self.stride, self.columns);
        let (g_cols, u, r) = (self.group_columns, self.threads_per_column(), self.radix());
        let (dft_a, dft_b) = (DftProgram::new(ra), DftProgram::new(rb));
        let e = sp.two_adicity;
        let scale_a = e - (ra * p).trailing_zeros();
        let put = |mem: &mut Vec<Option<u32>>, at: usize, v: u32| assert!(mem[at].replace(v).is_none(), "local word {at} written twice");
        let get = |mem: &Vec<Option<u32>>, at: usize| mem[at].unwrap_or_else(|| panic!("local word {at} read before written"));
        for group in 0..self.groups() {
            let i0 = group * g_cols;
            let threads: Vec<(usize, usize)> = (0..self.group_size()).map(|l| (l % g_cols, l / g_cols)).collect();
            let mut ltw = vec![None; self.twiddle_words()];
            let mut regs = Vec::new();
            for &(g, tau) in &threads {
                let (i, kappa) = (i0 + g, (i0 + g) % p);
                regs.push((0..ra).map(|t1| x[i + (tau + rb * t1) * t]).collect::<Vec<u32>>());
                if self.shared_twiddles() {
                    for t1 in (tau..ra).step_by(u) {
                        put(&mut ltw, t1 * g_cols + g, sp.table_pow(j, (t1 * kappa) << scale_a));
                    }
                }
            }
            let mut lds = vec![None; self.local_words()];
            for (&(g, tau), v) in threads.iter().zip(&mut regs) {
                let (i, kappa) = (i0 + g, (i0 + g) % p);
                if self.shared_twiddles() {
                    for (t1, vt) in v.iter_mut().enumerate().skip(1) {
                        *vt = mont(*vt, get(&ltw, t1 * g_cols + g));
                    }
                } else if self.twiddled() {
                    let mut pw = vec![0, sp.table_pow(j, kappa << scale_a)];
                    for st in power_steps(ra) {
                        pw.push(mont(pw[st.a], pw[st.b]));
                    }
                    for (t1, vt) in v.iter_mut().enumerate().skip(1) {
                        *vt = mont(*vt, pw[t1]);
                    }
                }
                let out = dft_a.run(v, w16, add, sub);
                if !self.fused() {
                    for (m1, &o) in out.iter().enumerate() {
                        y[i / p * r * p + kappa + m1 * p] = o;
                    }
                    continue;
                }
                let c = if self.twiddled() { sp.table_pow(j, (tau * kappa) << (e - (r * p).trailing_zeros())) } else { 0 };
                for (m1, &o) in out.iter().enumerate() {
                    put(&mut lds, self.exchange_index(tau * ra + m1, g), if self.twiddled() { mont(o, c) } else { o });
                }
            }
            if !self.fused() {
                continue;
            }
            let mut stage = vec![None; self.local_words()];
            for &(g, tau) in &threads {
                let (i, kappa) = (i0 + g, (i0 + g) % p);
                for i2 in (tau..ra).step_by(u) {
                    let mut v: Vec<u32> = (0..rb).map(|t2| get(&lds, self.exchange_index(i2 + ra * t2, g))).collect();
                    for (t2, vt) in v.iter_mut().enumerate().skip(1) {
                        *vt = mont(*vt, sp.inner_root(j, t2 * i2 * INNER_ROOTS / r));
                    }
                    for (m2, &o) in dft_b.run(&mut v, w16, add, sub).iter().enumerate() {
                        let m = i2 + ra * m2;
                        if self.staged() {
                            put(&mut stage, self.stage_index(self.stage_offset(g, m)), o);
                        } else {
                            y[i / p * r * p + kappa + m * p] = o;
                        }
                    }
                }
            }
            if self.staged() {
                for l in 0..self.group_size() {
                    for z in 0..ra {
                        let o = l + self.group_size() * z;
                        y[i0 * r + o] = get(&stage, self.stage_index(o));
                    }
                }
            }
        }
    }

    /// The largest number of distinct words one warp's local access touches in
    /// one bank, over every local access of the pass (1: no bank conflicts).
    /// The shared twiddles are (value, companion) pairs, accessed 64 bits at a
    /// time, which the hardware serves half a warp at a time.
    pub fn worst_bank_conflict(&self) -> usize {
        let (ra, rb, g_cols, u, gs) = (self.radix_a, self.radix_b, self.group_columns, self.threads_per_column(), self.group_size());
        let lanes = |w: usize| (w * BANKS..gs.min((w + 1) * BANKS)).map(move |l| (l, l % g_cols, l / g_cols));
        let per_column = ra / u.min(ra);
        let mut worst = 1;
        for w in 0..gs.div_ceil(BANKS) {
            // (slots of the warp's lanes, words per slot)
            let mut accesses: Vec<(Vec<usize>, usize)> = Vec::new();
            if self.shared_twiddles() {
                accesses.extend((0..per_column).map(|z| (lanes(w).map(|(_, g, tau)| (tau + u * z) * g_cols + g).collect(), 2)));
                accesses.extend((1..ra).map(|t1| (lanes(w).map(|(_, g, _)| t1 * g_cols + g).collect(), 2)));
            }
            if self.fused() {
                accesses.extend((0..ra).map(|m1| (lanes(w).map(|(_, g, tau)| self.exchange_index(tau * ra + m1, g)).collect(), 1)));
                for rho in 0..per_column {
                    accesses.extend((0..rb).map(|t2| (lanes(w).map(|(_, g, tau)| self.exchange_index(tau + u * rho + ra * t2, g)).collect(), 1)));
                    if self.staged() {
                        let store = |m2| lanes(w).map(|(_, g, tau)| self.stage_index(self.stage_offset(g, tau + u * rho + ra * m2))).collect();
                        accesses.extend((0..rb).map(|m2| (store(m2), 1)));
                    }
                }
                if self.staged() {
                    accesses.extend((0..ra).map(|z| (lanes(w).map(|(l, _, _)| self.stage_index(l + gs * z)).collect(), 1)));
                }
            }
            for (slots, width) in accesses {
                for part in slots.chunks(BANKS / width) {
                    let mut per_bank = vec![Vec::new(); BANKS];
                    for word in part.iter().flat_map(|&x| (0..width).map(move |k| x * width + k)) {
                        if !per_bank[word % BANKS].contains(&word) {
                            per_bank[word % BANKS].push(word);
                        }
                    }
                    worst = worst.max(per_bank.iter().map(Vec::len).max().unwrap_or(1));
                }
            }
        }
        worst
    }
}

/// The passes of a transform of size 2^log_n.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct NttPlan {
    pub log_n: u32,
    pub passes: Vec<Pass>,
}

impl NttPlan {
    /// Fused radix-256 passes, the remaining bits (1 … 8) in the last pass:
    /// 16 × 2^{b−4} for b ≥ 5, a single level of radix 2^b for b ≤ 4.
    pub fn new(log_n: u32) -> NttPlan {
        assert!((1..=31).contains(&log_n), "log2 N = {log_n} out of range");
        let n = 1usize << log_n;
        let count = log_n.div_ceil(PASS_BITS);
        let mut passes = Vec::new();
        let mut stride = 1;
        for k in 0..count {
            let bits = if k + 1 < count { PASS_BITS } else { log_n - PASS_BITS * (count - 1) };
            let (radix_a, radix_b) = if bits > 4 { (MAX_DFT, 1 << (bits - 4)) } else { (1 << bits, 1) };
            let columns = n / (radix_a * radix_b);
            passes.push(Pass { radix_a, radix_b, stride, columns, group_columns: (GROUP_THREADS / radix_b).min(columns) });
            stride *= radix_a * radix_b;
        }
        NttPlan { log_n, passes }
    }

    pub fn n(&self) -> usize {
        1 << self.log_n
    }

    /// The s transforms' passes on the host (planes of N words, plane j mod q_j).
    pub fn run_host(&self, sp: &SmallPrimes, j: usize, x: &[u32]) -> Vec<u32> {
        let mut x = x.to_vec();
        let mut y = vec![0; x.len()];
        for pass in &self.passes {
            pass.run_host(sp, j, &x, &mut y);
            std::mem::swap(&mut x, &mut y);
        }
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn plans_cover_every_size_with_few_passes() {
        for log_n in 1..=24 {
            let plan = NttPlan::new(log_n);
            assert_eq!(plan.passes.iter().map(Pass::radix).product::<usize>(), plan.n());
            assert_eq!(plan.passes.len() as u32, log_n.div_ceil(PASS_BITS));
            for pass in &plan.passes {
                assert!(pass.radix_b <= pass.radix_a && pass.group_size() <= GROUP_THREADS);
                assert_eq!(pass.columns % pass.group_columns, 0);
                assert!(pass.local_words() * 4 <= 20 * 1024, "local memory of {pass:?}");
                assert!(!pass.staged() || !pass.twiddled(), "only the first pass is staged");
                assert_eq!(pass.worst_bank_conflict(), 1, "bank conflicts in {pass:?}");
            }
        }
        let radices = |log_n| NttPlan::new(log_n).passes.iter().map(|p| (p.radix_a, p.radix_b)).collect::<Vec<_>>();
        assert_eq!(radices(20), [(16, 16), (16, 16), (16, 1)]);
        assert_eq!(radices(23), [(16, 16), (16, 16), (16, 8)]);
        assert_eq!(radices(17), [(16, 16), (16, 16), (2, 1)]);
    }

    #[test]
    fn table_words_read_bounds_the_words_the_twiddles_use() {
        let sp = SmallPrimes::new(8).unwrap();
        let (e, lo) = (sp.two_adicity, sp.lo_bits());
        for log_n in [4, 9, 12, 16, 18] {
            for pass in &NttPlan::new(log_n).passes {
                let (ra, u, p, r) = (pass.radix_a, pass.threads_per_column(), pass.stride, pass.radix());
                let mut words = std::collections::BTreeSet::new();
                if pass.twiddled() {
                    // the looked-up exponents: d^t1 (shared) or d (chained), and c
                    let (shift_a, shift_c) = (e - (ra * p).trailing_zeros(), e - (r * p).trailing_zeros());
                    let powers = if pass.shared_twiddles() { ra } else { 2 };
                    let d = (0..powers).flat_map(|t1| (0..p).map(move |k| (t1 * k) << shift_a));
                    let c = (0..u).flat_map(|tau| (0..p).map(move |k| (tau * k) << shift_c)).filter(|_| pass.fused());
                    for x in d.chain(c) {
                        words.insert(x & ((1 << lo) - 1));
                        words.insert((1 << lo) + (x >> lo));
                    }
                }
                let inner = if pass.fused() { 2 * INNER_ROOTS } else { 0 };
                assert!(words.len() + inner <= pass.table_words_read(&sp), "{pass:?}");
                assert!(words.len() + inner >= pass.table_words_read(&sp) / 2, "a loose bound for {pass:?}");
            }
        }
    }

    #[test]
    fn host_model_of_the_passes_is_the_dft() {
        let sp = SmallPrimes::new(32).unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for log_n in 1..=13 {
            for j in [0, 17, 31] {
                let q = sp.q[j];
                let mut x: Vec<u32> = (0..1 << log_n).map(|_| rng.gen_range(0..q)).collect();
                x[0] = q - 1;
                let plan = NttPlan::new(log_n);
                let want = if log_n <= 8 { sp.naive_ntt(j, &x) } else { sp.reference_ntt(j, &x) };
                assert_eq!(plan.run_host(&sp, j, &x), want, "N = 2^{log_n}, prime {j}");
            }
        }
        // the largest strides: fused 16 × 2 and 16 × 16 passes with P = 2^16 (k = 4 and 8 reach 2^24)
        for log_n in [21, 24] {
            let sp = SmallPrimes::new(16).unwrap();
            let x: Vec<u32> = (0..1u64 << log_n).map(|i| (i * 0x9e37_79b9 % sp.q[5] as u64) as u32).collect();
            assert_eq!(NttPlan::new(log_n).run_host(&sp, 5, &x), sp.reference_ntt(5, &x), "N = 2^{log_n}");
        }
    }
}
