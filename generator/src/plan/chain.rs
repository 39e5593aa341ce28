//! Halves from the first launch on ([`Chain`]): the table plans' first two
//! passes in one launch (`emit::first2`) and the launches after them, split
//! by a bit that each of them keeps above its p.
//!
//! [`PlanShape::halves`] splits by a bit s below p (κ keeps it), so its first
//! half-launch follows a whole launch: the first two passes write every value
//! of bits below R² from every superblock, and the halves fork after them,
//! where that launch's last wave leaves SMs idle.  A bit above p can split
//! earlier.  Superblock g of the first two passes holds the blocks
//! g + b·n/R² of the pass (R, 1), whose output (R, R) writes elements
//! g·R² + (0 … R² − 1): bit `bit` of g is element bit `bit` + log2 R².  A pass
//! (R, p) reads x\[i + t·n/R\] and writes output t of block i at
//! (i − κ)·R + κ + t·p, so a bit s of i with log2 p ≤ s < log2(n/R) is bit s
//! of every input and bit s + log2 R of every output.  So half h of the first
//! launch (the superblocks whose bit `bit` is h) writes exactly the elements
//! that half h of the next launch (the blocks whose bit `bit` + log2 R² is h)
//! reads, and so on while the moved bit stays between log2 p and log2(n/R):
//! two chains of launches, one per queue, with no wait between them for the
//! data.  At the switch ([`Chain::switch`]) the bit becomes a DFT input, and
//! each half waits for the other's last chain launch; from there the usual
//! halves by bit log2 p − 1 of the switch launch, which every later pass keeps.
//!
//! Buffers: the moved bit changes place from launch to launch, so a half's
//! writes into the buffer the launch before read would overwrite what the
//! other half may still read there.  The chain rotates three buffers: step c
//! (the first launch is step 0) reads buffer c mod 3 and writes (c + 1) mod 3,
//! which step c − 2 read, so step c of each half waits for step c − 2 of the
//! other (long done in practice: that is two launches back).
//!
//! Quarters ([`Chain::low`], v45): the switch is still a wait for both
//! halves, where one half's last chain launch runs alone.  A bit below the p
//! of every launch after the first two passes (bit log2 p − 1 of the first of
//! them, the usual halves' bit) keeps its place from launch to launch, so the
//! chain launches after the first can also split by it: quarter (h, b) holds
//! the blocks of chain half h whose bit `low` is b, and reads exactly what
//! quarter (h, b) of the launch before wrote (the first launch after the two
//! passes: part of what half h of theirs wrote).  From the switch on the
//! halves go by bit `low` instead of `after`: half b reads what quarters
//! (0, b) and (1, b) of the last chain launch wrote, so it waits for those
//! two only, and half 0 can start while the other chain half still runs its
//! quarter (1, 1).  Each chain half runs its quarter b = 0 first.

use serde::Serialize;

use super::{Launch, PlanShape};

/// The halves of a plan whose first launch runs the first two passes in the
/// superblock order: the first launch by bit `bit` of its superblock index,
/// each of the next `len` launches by the bit that bit has moved to, each
/// half on its queue (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Chain {
    /// Launches the first two passes take in the plan's list (1: a fused
    /// launch; 2: two single launches run as one).
    pub first: usize,
    /// The bit of the superblock index that tells the first launch's halves apart.
    pub bit: u32,
    /// The launches after the first two passes that run in halves by a bit above their p.
    pub len: usize,
    /// The bit that tells the halves apart from the switch on: log2 p − 1 of
    /// the switch launch, which every later pass keeps below its p.
    pub after: u32,
    /// Where the chain launches after the first run in quarters: the bit
    /// that splits each chain half of them, below the p of every launch after
    /// the first two passes, and which splits the halves from the switch on
    /// instead of `after` (module doc; [`Chain::in_quarters`]).
    pub low: Option<u32>,
}

impl PlanShape {
    /// The chain of halves from the first launch (module doc), with the first
    /// two passes taking `first` launches and split by superblock bit `bit`:
    /// None unless at least one launch after them keeps the bit above its p,
    /// every launch after them is single, and each launch's bit from there on
    /// gives runs of 2^s blocks with 2^(s+1) ≥ `min_p` of that launch (as
    /// [`PlanShape::halves`] asks).  The last launch (p = n/R) keeps no bit
    /// above p, so a chain always ends before it.
    pub fn chain(&self, first: usize, bit: u32, min_p: impl Fn(&Launch) -> Option<usize>) -> Option<Chain> {
        let launches = self.launches();
        let rest = launches.get(first..).filter(|r| !r.is_empty())?;
        let r2 = launches[..first].iter().map(|l| l.radix_product()).product::<usize>();
        if r2 == 0 || rest.iter().any(|l| !matches!(l, Launch::Single(_))) || !self.n.is_multiple_of(r2 << bit << 1) {
            return None;
        }
        let mut s = bit + r2.trailing_zeros();
        let mut len = 0;
        for launch in rest {
            let pass = launch.first_pass();
            let keeps = (pass.p.trailing_zeros()..(self.n / pass.radix).trailing_zeros()).contains(&s);
            if !keeps || min_p(launch).is_none_or(|m| 2usize << s < m.max(2)) {
                break;
            }
            len += 1;
            s += pass.radix.trailing_zeros();
        }
        // from the switch on: halves by bit log2 p − 1 of the switch launch
        let after = rest.get(len)?.first_pass().p.trailing_zeros().checked_sub(1)?;
        let allowed = rest[len..].iter().all(|l| min_p(l).is_some_and(|m| 2usize << after >= m.max(2)));
        (len > 0 && allowed).then_some(Chain { first, bit, len, after, low: None })
    }
}

impl Chain {
    /// The chain with its launches after the first in quarters (module doc),
    /// None where bit log2 p − 1 of the first launch after the first two
    /// passes gives runs some launch from there on cannot take (`min_p`, as
    /// [`PlanShape::chain`]).
    pub fn in_quarters(self, shape: &PlanShape, min_p: impl Fn(&Launch) -> Option<usize>) -> Option<Chain> {
        let launches = shape.launches();
        let rest = launches.get(self.first..)?;
        let low = rest.first()?.first_pass().p.trailing_zeros().checked_sub(1)?;
        let allowed = rest.iter().all(|l| min_p(l).is_some_and(|m| 2usize << low >= m.max(2)));
        allowed.then_some(Chain { low: Some(low), ..self })
    }

    /// The bit that tells the halves apart from the switch on: `low` where
    /// the chain runs in quarters, else `after`.
    pub fn halves_bit(&self) -> u32 {
        self.low.unwrap_or(self.after)
    }

    /// The first launch after the chain: each half waits for the other's last
    /// chain launch before it (module doc).
    pub fn switch(&self) -> usize {
        self.first + self.len
    }

    /// The bit that tells the halves of chain launch `j` (first ≤ j <
    /// switch) apart: `bit` + log2 R² moved up by log2 R by each launch before.
    pub fn shift(&self, shape: &PlanShape, j: usize) -> u32 {
        let launches = shape.launches();
        let moved: u32 = launches[..j].iter().map(|l| l.radix_product().trailing_zeros()).sum();
        self.bit + moved
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::super::{Halves, Pass};
    use super::*;
    use crate::maps;

    /// Every element half h of `pass`'s blocks `blocks` reads, and writes.
    fn touched(pass: Pass, n: u64, batch: u64, blocks: &[u64]) -> (BTreeSet<u64>, BTreeSet<u64>) {
        let (r, p) = (pass.radix as u64, pass.p as u64);
        let per = n / r;
        let (mut read, mut written) = (BTreeSet::new(), BTreeSet::new());
        for &g in blocks {
            let (vec, i) = (g / per, g % per);
            assert!(vec < batch);
            for t in 0..r {
                read.insert(maps::stockham_input().eval(&[vec, n, i, t, per]));
                written.insert(maps::stockham_output().eval(&[vec, n, i, i % p, t, r, p]));
            }
        }
        (read, written)
    }

    /// What each half of a chain's first launch writes: the first two passes
    /// (K, 1), (K, K) of the superblocks whose bit `bit` is h (superblock g
    /// holds blocks g' + b·n/R² of (K, 1), mapped by [`maps::half_block`]).
    fn first_launch_halves(shape: &PlanShape, chain: &Chain, batch: u64) -> Vec<BTreeSet<u64>> {
        let launches = shape.launches();
        let (n, kk) = (shape.n as u64, launches[0].first_pass().radix as u64);
        let (t, per) = (n / (kk * kk), n / kk);
        let sb_count = n * batch / (kk * kk);
        let mut wrote = Vec::new();
        for half in 0..2 {
            let sbs: Vec<u64> = (0..sb_count / 2).map(|h| maps::half_block().eval(&[h, chain.bit as u64, half])).collect();
            let first: Vec<u64> = sbs.iter().flat_map(|&g| (0..kk).map(move |b| (g / t) * per + g % t + b * t)).collect();
            let (_, mid) = touched(launches[0].first_pass(), n, batch, &first);
            let second: Vec<u64> = mid.iter().map(|e| (e / n) * per + (e % n) % per).collect::<BTreeSet<_>>().into_iter().collect();
            wrote.push(touched(launches[1].first_pass(), n, batch, &second).1);
        }
        wrote
    }

    /// Every plan of k = 2, 4, 8, 2^6–2^16, batches 1 and 3, whose first two
    /// passes (K, 1), (K, K) run as one launch, with its chain by superblock
    /// bit 3 (runs of 16 blocks allowed): (k, log2 n, batch, shape, chain).
    fn chained_plans() -> Vec<(usize, u32, u64, PlanShape, Chain)> {
        let mut out = Vec::new();
        for k in [2usize, 4, 8] {
            let prime = crate::catalog_prime(k).unwrap();
            for log_n in 6..=16u32 {
                for batch in [1u64, 3] {
                    let Ok(shape) = PlanShape::new(prime, log_n, batch as usize) else { continue };
                    let launches = shape.launches();
                    if launches.len() < 3 || launches[..2].iter().any(|l| l.first_pass().radix != 2 * k) {
                        continue;
                    }
                    if let Some(chain) = shape.chain(2, 3, |_| Some(16)) {
                        out.push((k, log_n, batch, shape, chain));
                    }
                }
            }
        }
        out
    }

    /// The chain checked element by element on the maps the kernels print:
    /// half h of the first launch (superblocks whose bit `bit` is h, mapped by
    /// [`maps::half_block`]) writes exactly the elements half h of the next
    /// launch reads, and so on through the chain; the halves partition each
    /// launch; the switch launch reads what both halves wrote.  Both radices'
    /// plans (a small radix first or last), batches of 1 and 3.
    #[test]
    fn each_chain_half_reads_exactly_what_its_half_wrote() {
        let mut chains = 0;
        for (k, log_n, batch, shape, chain) in chained_plans() {
            let launches = shape.launches();
            chains += 1;
            let n = shape.n as u64;
            let mut wrote = first_launch_halves(&shape, &chain, batch);
            assert_eq!(wrote[0].len() + wrote[1].len(), (n * batch) as usize, "k = {k} 2^{log_n}: the first launch's halves");
            for (j, launch) in launches.iter().enumerate().take(chain.switch()).skip(chain.first) {
                let pass = launch.first_pass();
                let s = chain.shift(&shape, j);
                let count = n * batch / pass.radix as u64;
                let mut next = Vec::new();
                for half in 0..2u64 {
                    let h = Halves { from: j, shift: s, spare_last: false };
                    let blocks: Vec<u64> = (0..count / 2).map(|g| h.block(g, half)).collect();
                    let (read, written) = touched(pass, n, batch, &blocks);
                    assert_eq!(read, wrote[half as usize], "k = {k} 2^{log_n} batch {batch}: launch {j} half {half}");
                    next.push(written);
                }
                wrote = next;
            }
            // after the chain the halves' elements interleave (the switch waits), and
            // the halves split by bit `after`, below the switch launch's p
            let switch = launches[chain.switch()].first_pass();
            let (read, _) = touched(switch, n, batch, &[0]);
            assert!(read.iter().any(|e| wrote[0].contains(e)) && read.iter().any(|e| wrote[1].contains(e)), "k = {k} 2^{log_n}");
            assert_eq!(1usize << (chain.after + 1), switch.p, "k = {k} 2^{log_n}");
        }
        assert!(chains > 10, "only {chains} chains");
    }

    /// The chain in quarters checked element by element on the maps the
    /// kernels print ([`maps::quarter_block`]): the quarters (h, b) of the
    /// first launch after the two passes read what half h of theirs wrote,
    /// all of it between them; each later chain launch's quarter (h, b) reads
    /// exactly what quarter (h, b) of the launch before wrote; and each half b
    /// of the switch launch (by bit `low`) reads exactly what quarters (0, b)
    /// and (1, b) of the last chain launch wrote, the only two it waits for.
    #[test]
    fn each_chain_quarter_reads_exactly_what_its_quarter_wrote() {
        let mut chains = 0;
        for (k, log_n, batch, shape, chain) in chained_plans() {
            let launches = shape.launches();
            let Some(chain) = chain.in_quarters(&shape, |_| Some(16)) else { continue };
            chains += 1;
            let (n, low) = (shape.n as u64, chain.low.unwrap() as u64);
            let what = format!("k = {k} 2^{log_n} batch {batch}");
            let halves = first_launch_halves(&shape, &chain, batch);
            // wrote[h][b]: quarter (h, b) of the launch before
            let mut wrote: Option<Vec<Vec<BTreeSet<u64>>>> = None;
            for (j, launch) in launches.iter().enumerate().take(chain.switch()).skip(chain.first) {
                let pass = launch.first_pass();
                let (s, count) = (chain.shift(&shape, j) as u64, n * batch / pass.radix as u64);
                let mut next = vec![Vec::new(), Vec::new()];
                for h in 0..2u64 {
                    for b in 0..2u64 {
                        let blocks: Vec<u64> = (0..count / 4).map(|g| maps::quarter_block().eval(&[g, low, b, s, h])).collect();
                        let (read, written) = touched(pass, n, batch, &blocks);
                        match &wrote {
                            Some(w) => assert_eq!(read, w[h as usize][b as usize], "{what}: launch {j} quarter ({h}, {b})"),
                            None => assert!(read.is_subset(&halves[h as usize]), "{what}: launch {j} quarter ({h}, {b})"),
                        }
                        next[h as usize].push(written);
                    }
                }
                if wrote.is_none() {
                    for h in 0..2 {
                        let both: BTreeSet<u64> = next[h].iter().flatten().copied().collect();
                        assert_eq!(both.len(), halves[h].len(), "{what}: the quarters of half {h}");
                    }
                }
                wrote = Some(next);
            }
            let wrote = wrote.unwrap();
            let switch = launches[chain.switch()].first_pass();
            let count = n * batch / switch.radix as u64;
            for b in 0..2u64 {
                let h = Halves { from: chain.switch(), shift: chain.halves_bit(), spare_last: false };
                let blocks: Vec<u64> = (0..count / 2).map(|g| h.block(g, b)).collect();
                let (read, _) = touched(switch, n, batch, &blocks);
                let want: BTreeSet<u64> = wrote[0][b as usize].union(&wrote[1][b as usize]).copied().collect();
                assert_eq!(read, want, "{what}: the switch's half {b}");
            }
        }
        assert!(chains > 10, "only {chains} chains in quarters");
    }

    /// Where the chain runs at k = 8 (radix 16 throughout at 16^5): the first
    /// two passes by superblock bit 3, the passes (16, 256) and (16, 4096) by
    /// bits 11 and 15, the switch before (16, 65536), then halves by its bit 15.
    #[test]
    fn k8_at_2_20_chains_two_launches() {
        let shape = PlanShape::new(crate::catalog_prime(8).unwrap(), 20, 1).unwrap();
        let chain = shape.chain(2, 3, |_| Some(16)).unwrap();
        assert_eq!((chain.first, chain.len, chain.switch()), (2, 2, 4));
        assert_eq!([chain.shift(&shape, 2), chain.shift(&shape, 3)], [11, 15]);
        assert_eq!(chain.after, 15);
        // in quarters: bit 7, below (16, 256)'s p, splits the chain halves and then the halves
        let quarters = chain.in_quarters(&shape, |_| Some(16)).unwrap();
        assert_eq!((quarters.low, quarters.halves_bit()), (Some(7), 7));
        assert_eq!(chain.in_quarters(&shape, |_| Some(512)), None);
        // bit 4 + 8 = 12 reaches (16, 4096)'s p: one launch only
        assert_eq!(shape.chain(2, 4, |_| Some(16)).map(|c| c.len), Some(1));
        // runs too short for the kernel: none
        assert_eq!(shape.chain(2, 3, |_| Some(1 << 13)), None);
        // the last launch keeps no bit above its p: no chain reaches it
        let small = PlanShape::new(crate::catalog_prime(8).unwrap(), 16, 1).unwrap();
        assert_eq!(small.chain(2, 3, |_| Some(16)).map(|c| (c.len, c.switch())), Some((1, 3)));
    }
}
