//! Transform plans for any N = 2^m: Stockham autosort passes, pure data.
//!
//! N = R_0 · R_1 ⋯ with R_ℓ = K = 2k except possibly one R < K (sizes that
//! are not powers of K), last, first or second ([`SmallRadix`]).  Each pass is one
//! launch of a generated DFT_R kernel that applies its twiddles on load
//! (ω_n^e = r^q · `W[t]`, a shift and one general product) and stores in
//! autosort order, so the output comes out in natural order with no transpose
//! and no separate twiddle pass.  Twiddles use one table: `W[t]` = ω_N^t for
//! t < N/K, with ω_N^{N/K} = r.

use serde::Serialize;

use num_bigint::BigUint;

use crate::emit::digits::PassLayout;
use crate::error::SizeError;
use crate::maps;
use crate::prime::Prime;
use crate::reference::naive_dft_with_root;
use crate::spl::root;

mod chain;
pub use chain::Chain;

/// One Stockham autosort pass of radix R over vectors of length n, after
/// sub-transforms of length p are done (p = R_0 ⋯ R_{ℓ−1}).  Work-item i < n/R
/// of a vector, with κ = i mod p, reads x[i + t·n/R] (t < R), multiplies
/// input t by ω_{R·p}^{t·κ} = ω_n^{(n/(R·p))·t·κ}, runs DFT_R (root
/// ω_R = r^{K/R}) and writes output t to y[(i − κ)·R + κ + t·p].  After the
/// passes with p = 1, R_0, R_0R_1, … the output is in natural order: one read
/// and one write of the data per pass, twiddles fused, no transposes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Pass {
    /// R, the size of the DFT each work-item runs (a power of two dividing K).
    pub radix: usize,
    /// The length of the sub-transforms done before this pass.
    pub p: usize,
}

impl Pass {
    /// Input index of slot t for work-item i (within one vector of length n):
    /// [`maps::stockham_input`], as the kernels compute it.
    pub fn input(&self, n: usize, i: usize, t: usize) -> usize {
        maps::stockham_input().eval(&[0, n as u64, i as u64, t as u64, (n / self.radix) as u64]) as usize
    }
    /// Output index of DFT output t for work-item i: [`maps::stockham_output`].
    pub fn output(&self, i: usize, t: usize) -> usize {
        let kappa = i % self.p;
        maps::stockham_output().eval(&[0, 0, i as u64, kappa as u64, t as u64, self.radix as u64, self.p as u64]) as usize
    }
    /// Exponent e of ω_n in the twiddle of input t for work-item i:
    /// [`maps::twiddle_exponent`] with the shift log2(n/(R·p)).  Panics unless
    /// R·p divides n and n/(R·p) is a power of two (true of every plan's passes).
    pub fn twiddle_exponent(&self, n: usize, i: usize, t: usize) -> usize {
        let ratio = n / (self.radix * self.p);
        assert!(ratio.is_power_of_two() && ratio * self.radix * self.p == n, "no pass ({}, {}) on vectors of {n}", self.radix, self.p);
        let shift = ratio.trailing_zeros();
        maps::twiddle_exponent().eval(&[t as u64, (i % self.p) as u64, shift as u64]) as usize
    }
}

/// One kernel launch of a plan: one pass, or two consecutive passes of radix
/// K run by the fused kernel (`emit::fused`: (R, p) then (R, pR) through
/// local memory, the data read and written once for both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Launch {
    /// One Stockham pass.
    Single(Pass),
    /// Passes (R, p) and (R, pR) in one launch.
    Fused(Pass, Pass),
}

/// Launches `from` on of a plan, run as two halves (`PlanShape::halves`):
/// half h of a launch runs the blocks whose bit `shift` is h,
/// [`maps::half_block`] mapping its launch's block indices onto them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Halves {
    /// The first launch run in halves (every launch before it runs whole).
    pub from: usize,
    /// The bit of the block index that tells the halves apart.
    pub shift: u32,
    /// Whether the last launch writes into a buffer of the plan's own (a
    /// third, beside the vector and the scratch buffer) instead of the
    /// buffer the launch before read: where it writes in another layout
    /// than that launch read (`emit::plan_halves`), so that the queues need
    /// not wait for each other before it.
    pub spare_last: bool,
}

impl Halves {
    /// The shift with which [`maps::half_block`] is the identity (with half 0):
    /// a launch over every block of its pass.
    pub const WHOLE: u32 = 63;

    /// Whether the queues wait for each other before launch `j` of a plan
    /// whose launches have `layouts`: after the fork (j > `from`), where the
    /// launch writes into the buffer launch j − 1 read in another layout
    /// ([`PassLayout::halves_join_before`]), unless it is the last and
    /// writes a buffer of its own ([`Self::spare_last`]).
    pub fn joins_before(&self, layouts: &[PassLayout], j: usize) -> bool {
        j > self.from && !(self.spare_last && j + 1 == layouts.len()) && PassLayout::halves_join_before(layouts, j)
    }

    /// Block of index `h` of half `half`'s launch: [`maps::half_block`].
    pub fn block(&self, h: u64, half: u64) -> u64 {
        maps::half_block().eval(&[h, self.shift as u64, half])
    }
}

impl Launch {
    /// The launch's pass, or the first of its two.
    pub fn first_pass(&self) -> Pass {
        match *self {
            Launch::Single(pass) | Launch::Fused(pass, _) => pass,
        }
    }

    /// The launch's pass, or the second of its two.
    pub fn last_pass(&self) -> Pass {
        match *self {
            Launch::Single(pass) | Launch::Fused(_, pass) => pass,
        }
    }

    /// The product of its passes' radices: by how much its outputs' p exceeds its inputs'.
    pub fn radix_product(&self) -> usize {
        match *self {
            Launch::Single(pass) => pass.radix,
            Launch::Fused(a, b) => a.radix * b.radix,
        }
    }
}

/// Where a plan puts its one pass of radix R below the largest (N not a power
/// of the largest radix: K = 2k, or 64 and 32 for k = 64 and 128).
///
/// Its place decides which twiddles are powers of r: the pass after the
/// first, with p = R_0, multiplies by ω_(R·p)^(t·κ), a power of r wherever
/// t·κ·K is a multiple of R·p (all of them when R·p ≤ K).  Kernels skip those
/// products, so a small first pass leaves the second with few general
/// products, and the first (twiddle-free) pass is the small one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmallRadix {
    /// The last pass: (K, 1), (K, K), …, (R, N/R).
    Last,
    /// The first pass: (R, 1), (K, R), (K, R·K), ….
    First,
    /// The second pass: (K, 1), (R, K), (K, R·K), … (a fraction of (R, K)'s
    /// twiddles are powers of r: those with R | t·κ).
    Second,
}

/// The launches of a transform of size N on `batch` vectors, decided on
/// the host: its Stockham passes and the twiddle table they share.
#[derive(Clone, Debug, Serialize)]
pub struct PlanShape {
    /// The prime's expression.
    pub prime: String,
    /// log2 N.
    pub log_n: u32,
    /// The transform size N.
    pub n: usize,
    /// Vectors of size N transformed together.
    pub batch: usize,
    /// Digits per element.
    pub k: usize,
    /// The passes, in execution order.
    pub passes: Vec<Pass>,
    /// Elements in the twiddle table `W[t]` = ω_N^t, t < N/K (0 when N ≤ K).
    pub table_len: usize,
    /// Words of the twiddle table on the device: the entries, and their suffix
    /// sums for a variant that reads them ([`PlanShape::with_table_for`]).
    pub table_words: usize,
    /// Whether consecutive passes of radix K run two per launch
    /// ([`PlanShape::with_fusion`]).
    pub fused: bool,
}

/// The passes of radices R_0, R_1, … in this order: p = R_0 ⋯ R_(ℓ−1).
fn stockham_passes(radices: Vec<usize>) -> Vec<Pass> {
    let mut p = 1;
    radices
        .into_iter()
        .map(|radix| {
            let pass = Pass { radix, p };
            p *= radix;
            pass
        })
        .collect()
}

impl PlanShape {
    /// The plan of a forward DFT of size 2^log_n on `batch` vectors:
    /// passes of radix R = K = 2k (R = 64 for k = 64 and 32 for k = 128, the
    /// largest blocks that fit local memory: `emit::digits::max_radix`), and
    /// one of radix N/R^e < R when N is not a power of R.
    pub fn new(prime: &Prime, log_n: u32, batch: usize) -> Result<PlanShape, SizeError> {
        prime.check_log_size(log_n)?;
        if log_n >= usize::BITS - 1 {
            return Err(SizeError::OutOfRange { log_n, min: 1, max: usize::BITS - 2, prime: prime.to_string() });
        }
        let n = 1usize << log_n;
        let kk = crate::emit::digits::max_radix(prime.k());
        let mut radices = Vec::new();
        let mut rest = n;
        while rest >= kk {
            radices.push(kk);
            rest /= kk;
        }
        if rest > 1 {
            radices.push(rest);
        }
        let passes = stockham_passes(radices);
        let table_len = if n > prime.base_size() { n / prime.base_size() } else { 0 };
        let table_words = table_len * prime.k();
        Ok(PlanShape { prime: prime.to_string(), log_n, n, batch, k: prime.k(), passes, table_len, table_words, fused: false })
    }

    /// The same plan with its pass of radix below the largest at `at` (the
    /// passes' p follow); unchanged when N is a power of the largest radix.
    pub fn with_small_radix(mut self, at: SmallRadix) -> PlanShape {
        let kk = crate::emit::digits::max_radix(self.k);
        let mut radices: Vec<usize> = self.passes.iter().map(|p| p.radix).filter(|&r| r == kk).collect();
        if let Some(small) = self.small_radix() {
            match at {
                SmallRadix::Last => radices.push(small),
                SmallRadix::First => radices.insert(0, small),
                SmallRadix::Second => radices.insert(radices.len().min(1), small),
            }
        }
        self.passes = stockham_passes(radices);
        self
    }

    /// General twiddle products (f_mul calls) of `pass` on the plan's
    /// vectors: the inputs whose twiddle w^((t·κ) << shift) is not a power of
    /// r, i.e. whose exponent is not a multiple of 2^log_t (the kernels skip
    /// the others, t = 0 and κ = 0 included).
    pub fn general_twiddles(&self, pass: &Pass) -> u64 {
        if pass.p == 1 {
            return 0;
        }
        let (log_t, shift) = (self.twiddle_log(), self.twiddle_shift(pass));
        let (lr, lp) = (pass.radix.trailing_zeros(), pass.p.trailing_zeros());
        // t < R with 2-adic valuation a: R / 2^(a + 1) of them; κ < p likewise
        let mut pairs = 0u64;
        for a in 0..lr {
            for b in 0..lp {
                if a + b + shift < log_t {
                    pairs += ((pass.radix >> (a + 1)) * (pass.p >> (b + 1))) as u64;
                }
            }
        }
        pairs * (self.n / (pass.radix * pass.p)) as u64 * self.batch as u64
    }

    /// General twiddle products of one forward transform
    /// ([`PlanShape::general_twiddles`] of every pass): below (e − 1)·N for
    /// N = K^e, and fewer when a pass is short.
    pub fn general_twiddle_products(&self) -> u64 {
        self.passes.iter().map(|p| self.general_twiddles(p)).sum()
    }

    /// The same plan with consecutive passes of radix K fused in pairs
    /// (`on`), or one pass per launch.
    pub fn with_fusion(mut self, on: bool) -> PlanShape {
        self.fused = on;
        self
    }

    /// The same plan with its twiddle table laid out for `variant`
    /// ([`Variant::table_words`](crate::emit::Variant::table_words)).
    pub fn with_table_for(mut self, variant: crate::emit::Variant) -> PlanShape {
        self.table_words = variant.table_words(self.k, self.table_len);
        self
    }

    /// The kernel launches in execution order: with fusion, passes of radix K
    /// in pairs from the first, the rest one per launch.
    pub fn launches(&self) -> Vec<Launch> {
        let kk = 2 * self.k;
        let mut out = Vec::new();
        let mut i = 0;
        while i < self.passes.len() {
            let a = self.passes[i];
            match self.passes.get(i + 1) {
                Some(&b) if self.fused && a.radix == kk && b.radix == kk => {
                    out.push(Launch::Fused(a, b));
                    i += 2;
                }
                _ => {
                    out.push(Launch::Single(a));
                    i += 1;
                }
            }
        }
        out
    }

    /// Where this plan's launches may run as two independent halves, side by
    /// side (on two queues, so that each launch's last wave overlaps the
    /// other half's work): from the first launch j ≥ 1 whose (first) pass
    /// has p ≥ `min_p` of every launch from j on, with s = log2(that p) − 1.
    /// `min_p` says what a launch's kernel needs (None: it runs only whole):
    /// runs of 2^s consecutive blocks long enough for whole memory sectors,
    /// and for the fused kernel a work-group's superblocks inside one run
    /// (`emit::half_min_p`).  None where no such launch follows the first.
    ///
    /// Why the halves are independent: a pass with p ≥ 2^(s+1) keeps bits
    /// 0 … s of the element index from block to output (output t of block i
    /// is (i − κ)·R + κ + t·p with κ = i mod p) and from input to block (input
    /// t is i + t·n/R, and n/R ≥ p), and the block index g = vec·n/R + i has
    /// the bits of i below n/R; a fused launch's superblock i0 < n/R² holds
    /// the blocks i0 + b·n/R² (n/R² ≥ p) of its first pass, whose outputs are
    /// its second pass's inputs.  So half h (the blocks whose bit s is h)
    /// reads only elements the same half of the launch before wrote, or that
    /// the whole launch before the first half-launch wrote; and the p of the
    /// launches after j is larger than j's.
    pub fn halves(&self, min_p: impl Fn(&Launch) -> Option<usize>) -> Option<Halves> {
        let launches = self.launches();
        let need: Vec<Option<usize>> = launches.iter().map(&min_p).collect();
        let from = (1..launches.len()).find(|&j| {
            let p = launches[j].first_pass().p;
            need[j..].iter().all(|m| m.is_some_and(|m| p >= m.max(2)))
        })?;
        Some(Halves { from, shift: launches[from].first_pass().p.trailing_zeros() - 1, spare_last: false })
    }

    /// log2 of the twiddle table's length 2^log_t (1 when there is none):
    /// the kernels' table root w has w^(2^log_t) = r.
    pub fn twiddle_log(&self) -> u32 {
        self.table_len.max(1).trailing_zeros()
    }

    /// The twiddle exponents of `pass` in units of the table root w are
    /// (t·κ) << `twiddle_shift`: ω_N = w for N > K, and ω_N = r^(K/N) = w^(K/N)
    /// when N ≤ K (no table, w = r; several passes only where the largest
    /// radix is below K).
    pub fn twiddle_shift(&self, pass: &Pass) -> u32 {
        let unit = (2 * self.k / self.n).max(1);
        (self.n / (pass.radix * pass.p) * unit).trailing_zeros()
    }

    /// log2 M of the twiddle table of its own that `launch` reads, where it
    /// has one: W'\[j\] = ω_M^j for every j < M, M = R·p of its last pass, so
    /// that each of its exponents (t·κ) << s, which stay below M in units of
    /// ω_M ([`PlanShape::launch_twiddle_shift`]), is an entry and no product
    /// is rotated by r^s (a kernel built for such a table stores its products
    /// unrotated, `emit::TwiddleTable::Launch`).  Only
    /// launches with M ≤ N/K, the length of the plan's table: each such M is
    /// at least twice the one before (p grows by the radix from pass to
    /// pass), so all of them together hold fewer than 2·N/K entries.  The
    /// last launches, whose M exceeds N/K, read the plan's table and rotate.
    ///
    /// And only launches whose last pass has p ≥ `min_p` (≥ 2: twiddles),
    /// which the caller chooses (`emit::launch_tables`): an exponent that is
    /// a multiple of M/K makes the twiddle a power of r, whose product the
    /// plan's kernels skip (W\[0\] = 1 and a rotation), while a launch
    /// table's kernel multiplies by its entry.  At p = K that is 5–10% of the
    /// twiddles (t·κ ≡ 0 mod K for t, κ < K); from p = K² on it is under 3%
    /// (the test below bounds it).
    pub fn launch_table_log(&self, launch: &Launch, min_p: usize) -> Option<u32> {
        let last = launch.last_pass();
        let m = last.radix * last.p;
        (self.table_len > 0 && last.p >= min_p.max(2) && m <= self.table_len).then(|| m.trailing_zeros())
    }

    /// The twiddle exponents of `pass` in units of ω_M, the root of a launch
    /// table of 2^log_m entries: ω_(R·p) = ω_M^(M/(R·p)).
    pub fn launch_twiddle_shift(&self, pass: &Pass, log_m: u32) -> u32 {
        log_m - (pass.radix * pass.p).trailing_zeros()
    }

    /// The radix of each pass, in execution order.
    pub fn radices(&self) -> Vec<usize> {
        self.passes.iter().map(|p| p.radix).collect()
    }

    /// The plan's one radix below the largest (`emit::digits::max_radix`),
    /// None where N is a power of the largest.
    pub fn small_radix(&self) -> Option<usize> {
        let kk = crate::emit::digits::max_radix(self.k);
        self.passes.iter().map(|p| p.radix).find(|&r| r < kk)
    }

    /// Device bytes the plan needs: data, one scratch buffer of the same size,
    /// the twiddle table and the 1/N constant.
    pub fn device_bytes(&self) -> u64 {
        let words = 2 * (self.n * self.batch * self.k) as u64 + self.table_words as u64 + self.k as u64;
        words * 8
    }

    /// The twiddle-table entries `pass` reads: W\[tt\] for tt = e mod 2^log_t
    /// nonzero, e = (t·κ) << s for t < R, κ < p, s = [`PlanShape::twiddle_shift`]
    /// (tt = 0 is no load).  Every tt is a multiple of 2^s below the table,
    /// which has span = table_len >> s of them, and t = 1 alone gives the
    /// first p; as R·p·2^s = N and the table is N/K long, span = R·p/K ≤ p for
    /// every pass (R ≤ K), so the pass reads exactly span − 1 entries.
    /// (Were p < span, p − 1 would be a lower bound.)
    pub fn twiddle_entries(&self, pass: &Pass) -> usize {
        if self.table_len <= 1 {
            return 0;
        }
        let span = self.table_len >> self.twiddle_shift(pass);
        pass.p.min(span).saturating_sub(1)
    }

    /// Bytes one forward transform must move through device memory: each
    /// launch reads and writes the data once, and each twiddled pass reads
    /// each table entry it uses ([`PlanShape::twiddle_entries`]) once, in the
    /// layout of [`PlanShape::with_table_for`] (k words, 3k with suffix sums).
    /// Entries that several blocks share come from the L2 cache at best, so
    /// this is a floor on the traffic, not an estimate of it.
    pub fn bytes_moved(&self) -> u64 {
        let data = (self.n * self.batch * self.k * 8) as u64;
        let entry_words = self.table_words.checked_div(self.table_len).unwrap_or(self.k);
        let entries: usize = self.passes.iter().map(|p| self.twiddle_entries(p)).sum();
        2 * data * self.launches().len() as u64 + (entries * entry_words * 8) as u64
    }

    /// Runs the plan on the host with BigUint arithmetic (a naive DFT_R per
    /// work-item): the specification of the kernels' index and twiddle maps.
    pub fn run_host(&self, prime: &Prime, x: &[BigUint]) -> Vec<BigUint> {
        assert_eq!(x.len(), self.n);
        let pm = prime.modulus();
        let w = prime.root_of_unity(self.log_n).expect("size checked");
        let mut cur = x.to_vec();
        for pass in &self.passes {
            let r = pass.radix;
            let w_r = root(prime, r);
            let mut next = vec![BigUint::default(); self.n];
            for i in 0..self.n / r {
                let ins: Vec<BigUint> = (0..r)
                    .map(|t| {
                        let e = pass.twiddle_exponent(self.n, i, t) as u64;
                        &cur[pass.input(self.n, i, t)] * w.modpow(&BigUint::from(e), pm) % pm
                    })
                    .collect();
                for (t, y) in naive_dft_with_root(prime, &ins, &w_r).into_iter().enumerate() {
                    next[pass.output(i, t)] = y;
                }
            }
            cur = next;
        }
        cur
    }

    /// One line per launch, for `srgfn plan`.
    pub fn describe(&self) -> String {
        let launches = self.launches();
        let mut s = format!(
            "forward DFT of N = 2^{} = {} over {} (batch {}): {} Stockham passes in {} launches, twiddle table {} elements\n",
            self.log_n,
            self.n,
            self.prime,
            self.batch,
            self.passes.len(),
            launches.len(),
            self.table_len
        );
        // the second pass of each fused launch
        let fused: Vec<Pass> = launches.iter().filter_map(|l| if let Launch::Fused(_, b) = l { Some(*b) } else { None }).collect();
        for (i, pass) in self.passes.iter().enumerate() {
            let (r, p) = (pass.radix, pass.p);
            let t = self.n / r;
            s.push_str(&format!(
                "{:>3}. pass radix {r}, p = {p}: {} × DFT_{r}; item i reads x[i + {t}·t]{}, writes y[(i − i mod {p})·{r} + i mod {p} + {p}·t]{}\n",
                i + 1,
                t * self.batch,
                if p > 1 { format!(" × ω_{}^{{t·(i mod {p})}}", r * p) } else { String::new() },
                if fused.contains(pass) { " (same launch as the previous pass, through local memory)" } else { "" },
            ));
        }
        s.push_str(&format!(
            "device memory: {:.1} MiB (data, one scratch buffer, table); {:.1} MiB moved per transform\n",
            self.device_bytes() as f64 / (1 << 20) as f64,
            self.bytes_moved() as f64 / (1 << 20) as f64
        ));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::Variant;

    /// Each twiddled pass reads each table entry it uses once, in the
    /// variant's layout: the digits variant's entries carry 2k words of
    /// suffix sums more.
    #[test]
    fn bytes_moved_counts_the_table_entries_of_the_variant() {
        let prime = crate::catalog_prime(32).unwrap();
        for log_n in [6, 12, 20] {
            let shape = PlanShape::new(prime, log_n, 2).unwrap();
            let entries: usize = shape.passes.iter().map(|p| shape.twiddle_entries(p)).sum();
            assert_eq!(entries == 0, log_n == 6, "N = K has no twiddled pass");
            let (elements, launches) = ((shape.n * 2) as u64, shape.launches().len() as u64);
            let local = shape.clone().with_table_for(Variant::Local).bytes_moved();
            let digits = shape.with_table_for(Variant::Digits).bytes_moved();
            assert_eq!(local, (2 * launches * elements + entries as u64) * 32 * 8, "log_n = {log_n}");
            assert_eq!(digits - local, entries as u64 * 2 * 32 * 8, "log_n = {log_n}");
        }
    }

    /// The entries a pass reads, against the host's own exponents (every
    /// block i and input t through `Pass::twiddle_exponent`, in units of the
    /// table root w, ω_N = w^(table_len·K/N)), for every catalog prime up to
    /// k = 32 and sizes with several passes: the last pass reads every
    /// nonzero entry of the table.
    #[test]
    fn twiddle_entries_are_the_distinct_nonzero_table_indices() {
        for (k, log_n) in [(2usize, 9u32), (2, 12), (4, 12), (4, 13), (8, 13), (8, 9), (16, 14), (32, 13)] {
            let prime = crate::catalog_prime(k).unwrap();
            let shape = PlanShape::new(prime, log_n, 1).unwrap();
            let w_per_omega = shape.table_len * shape.k * 2 / shape.n;
            for pass in &shape.passes {
                let mut set = std::collections::BTreeSet::new();
                for i in 0..shape.n / pass.radix {
                    for t in 0..pass.radix {
                        let tt = (pass.twiddle_exponent(shape.n, i, t) * w_per_omega) % shape.table_len;
                        if tt != 0 {
                            set.insert(tt);
                        }
                    }
                }
                assert_eq!(shape.twiddle_entries(pass), set.len(), "k = {k}, 2^{log_n}, pass {pass:?}");
            }
            let last = shape.passes.last().unwrap();
            assert_eq!(shape.twiddle_entries(last), shape.table_len - 1, "k = {k}, 2^{log_n}");
        }
    }

    /// Launch tables, against the host's exponents: every exponent of a launch
    /// with a table of its own, (t·κ) << `launch_twiddle_shift` in units of
    /// ω_M, is an entry (below M) and the same power of ω_N; with p ≥ K²
    /// fewer than 3% of a launch's nonzero exponents are multiples of M/K
    /// (powers of r, whose products only the plan's table lets the kernels
    /// skip); the tables of a plan hold fewer than 2·N/K entries, and the last
    /// launch has none.
    #[test]
    fn launch_tables_hold_every_exponent_of_their_launch() {
        let mut tables = 0;
        for (k, log_n) in [(2usize, 9u32), (2, 12), (4, 12), (4, 13), (4, 16), (8, 13), (8, 9), (8, 16), (16, 14), (32, 13)] {
            let prime = crate::catalog_prime(k).unwrap();
            for (fused, min_p) in [(false, 2), (true, 2), (false, 4 * k * k), (true, 4 * k * k)] {
                let shape = PlanShape::new(prime, log_n, 1).unwrap().with_fusion(fused);
                let launches = shape.launches();
                let mut total = 0;
                for (j, launch) in launches.iter().enumerate() {
                    let Some(log_m) = shape.launch_table_log(launch, min_p) else { continue };
                    assert!(j + 1 < launches.len(), "k = {k}, 2^{log_n}: the last launch has a table of its own");
                    let m = 1usize << log_m;
                    total += m;
                    tables += 1;
                    let passes = match *launch {
                        Launch::Single(a) => vec![a],
                        Launch::Fused(a, b) => vec![a, b],
                    };
                    let (mut nonzero, mut powers_of_r) = (0usize, 0usize);
                    for pass in passes {
                        let s = shape.launch_twiddle_shift(&pass, log_m);
                        for i in 0..shape.n / pass.radix {
                            for t in 0..pass.radix {
                                let e = (t * (i % pass.p)) << s;
                                assert!(e < m, "k = {k}, 2^{log_n}, {pass:?}: exponent {e} of a table of {m}");
                                assert_eq!(e * (shape.n / m), pass.twiddle_exponent(shape.n, i, t), "k = {k}, 2^{log_n}, {pass:?}");
                                nonzero += usize::from(e > 0);
                                powers_of_r += usize::from(e > 0 && e.is_multiple_of(m / (2 * k)));
                            }
                        }
                    }
                    if min_p == 4 * k * k {
                        let what = format!("k = {k}, 2^{log_n}, {launch:?}: {powers_of_r} of {nonzero} twiddles powers of r");
                        assert!(33 * powers_of_r < nonzero, "{what}");
                    }
                }
                assert!(total < 2 * shape.table_len.max(1), "k = {k}, 2^{log_n}: {total} entries in launch tables");
            }
        }
        assert!(tables > 10, "only {tables} launch tables");
    }

    /// The halves of `PlanShape::halves`, checked element by element on the
    /// index maps the kernels print: each half-launch's block indices map onto
    /// exactly the blocks whose bit s is its half, in runs of 2^s consecutive
    /// blocks at least as long as the kernel asks (a fused work-group's
    /// superblocks inside one run), and every element a half reads or writes
    /// has bit s equal to its half, so a half reads only what the same half (or the whole
    /// launch before the first half-launch) wrote.  Sizes that are not powers
    /// of K (the small radix first and last), batches of 1 and 3, fused plans.
    #[test]
    fn halves_read_only_what_their_own_half_wrote() {
        let mut split = 0;
        for k in [2usize, 4, 8, 16, 32] {
            let prime = crate::catalog_prime(k).unwrap();
            for log_n in 2..=14u32 {
                // (min p of single launches, of fused ones, blocks of a work-group)
                for (batch, fused, (single, pair, groups)) in [
                    (1, false, (16, 0, 32)),
                    (3, false, (64, 0, 32)),
                    (1, true, (16, 16, 8)),
                    (1, false, (8, 0, 4)),
                    (2, false, (2, 0, 1)),
                    (3, false, (16, 0, 5)),
                ] {
                    let Ok(shape) = PlanShape::new(prime, log_n, batch) else { continue };
                    let shape = shape.with_fusion(fused);
                    let min_p = |l: &Launch| Some(if matches!(l, Launch::Fused(..)) { pair } else { single });
                    let Some(h) = shape.halves(min_p) else { continue };
                    split += 1;
                    let launches = shape.launches();
                    assert!(h.from >= 1 && h.from < launches.len(), "k = {k}, 2^{log_n}: {h:?}");
                    let (n, bit) = (shape.n as u64, 1u64 << h.shift);
                    // every element block i of `pass` reads and writes, with the blocks of the
                    // next pass that read what it writes
                    let touch = |pass: Pass, vec: u64, i: u64, half: u64| -> Vec<u64> {
                        let (r, p) = (pass.radix as u64, pass.p as u64);
                        let mut next = Vec::new();
                        for t in 0..r {
                            let read = maps::stockham_input().eval(&[vec, n, i, t, n / r]);
                            let write = maps::stockham_output().eval(&[vec, n, i, i % p, t, r, p]);
                            assert_eq!((read & bit != 0) as u64, half, "k = {k}, 2^{log_n}, {pass:?}: read {read}");
                            assert_eq!((write & bit != 0) as u64, half, "k = {k}, 2^{log_n}, {pass:?}: write {write}");
                            next.push(write - vec * n);
                        }
                        next
                    };
                    for launch in &launches[h.from..] {
                        let (first, second) = match *launch {
                            Launch::Single(pass) => (pass, None),
                            Launch::Fused(a, b) => (a, Some(b)),
                        };
                        // blocks, or superblocks of R² elements: i0 + s·n/R²
                        let span = first.radix as u64 * second.map_or(1, |b| b.radix as u64);
                        let (tt, count) = (n / span, n * batch as u64 / span);
                        for half in 0..2u64 {
                            let blocks: Vec<u64> = (0..count / 2).map(|g| h.block(g, half)).collect();
                            let expect: Vec<u64> = (0..count).filter(|g| (g & bit != 0) as u64 == half).collect();
                            assert_eq!(blocks, expect, "k = {k}, 2^{log_n}, {launch:?}, half {half}");
                            // runs of 2^s consecutive blocks, at least min p / 2 long
                            let run = bit as usize;
                            assert!(2 * run >= min_p(launch).unwrap().max(2), "k = {k}, 2^{log_n}: runs of {run}");
                            for w in blocks.chunks(run) {
                                assert!(w.windows(2).all(|b| b[1] == b[0] + 1), "k = {k}, 2^{log_n}: a run split");
                            }
                            if second.is_some() {
                                assert!(run.is_multiple_of(groups), "k = {k}, 2^{log_n}: a fused work-group split");
                            }
                            for g in blocks {
                                let (vec, i0) = (g / tt, g % tt);
                                for b in 0..span / first.radix as u64 {
                                    let written = touch(first, vec, i0 + b * tt, half);
                                    if let Some(second) = second {
                                        let t2 = n / second.radix as u64;
                                        for o in written {
                                            touch(second, vec, o % t2, half);
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(split > 40, "only {split} plans run in halves");
        // the identity: s = 63, half 0
        let whole = Halves { from: 0, shift: Halves::WHOLE, spare_last: false };
        assert!([0u64, 1, 31, 1 << 40].iter().all(|&g| whole.block(g, 0) == g));
    }
}
