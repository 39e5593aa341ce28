//! A forward transform from the superblock order in halves from its first
//! launch on ([`Chain`], `srgfn_gen::plan::chain`): the first two passes and
//! the chain launches after them as two halves, each on its queue (the later
//! ones in quarters where [`Chain::low`] says), then the launches from the
//! switch on in halves by a bit below p.

use srgfn_gen::emit::digits::PassLayout;
use srgfn_gen::plan::{Chain, Launch};

use super::Plan;
use crate::device_vec::{DeviceVec, Order};
use crate::error::{Error, Result};
use crate::kernels::PassPart;

impl Plan {
    /// Runs the plan's launches on `v`, in the superblock order of R² = `r2`,
    /// with `chain`'s halves.  The three buffers rotate through the chain
    /// (step c reads buffer c mod 3, writes (c + 1) mod 3; the first launch
    /// is step 0); step c ≥ 2 of each half waits for step c − 2 of the other,
    /// whose input it overwrites, and the switch launch's halves each wait
    /// for the other's last chain launch, whose outputs they read.  In
    /// quarters, each chain half runs its quarter b = 0 of a launch, then
    /// b = 1, and the switch's half b waits for quarter (1 − b, b) of the
    /// other queue: half 0 for that queue's first quarter of the last chain
    /// launch, half 1 for its last.  Every wait is on a launch's own event
    /// (`FieldKernels::keep_events`), kept only by the launches a later one
    /// waits for: NVIDIA's driver takes 13–17 µs to enqueue a launch with an
    /// event, 6–9 without (v42, v45).
    pub(super) fn run_chain(&mut self, v: &mut DeviceVec, chain: Chain, r2: usize) -> Result<()> {
        let spare = self.spare.clone().ok_or_else(|| Error::internal("a chain of halves without a third vector"))?;
        let launches = self.shape.launches();
        let layouts = PassLayout::of_plan(self.variant, &self.shape);
        let kernels = self.kernels.clone();
        let second = launches[chain.first - 1].last_pass();
        let mut bufs = [v.bufs.clone(), self.scratch.clone(), spare];
        v.valid = false;
        // the side queue starts after everything before on the session's queue
        kernels.fork()?;
        // the chain (it ends before the last launch, plan::Chain); events[c][h] is step c of half
        // h, kept where a later step waits for it: step c + 2, or the switch after step len
        let waited_for = |c: usize| c + 2 <= chain.len || c == chain.len;
        // in quarters: the side queue's first quarter of the last chain launch (the switch's half 0
        // waits for it)
        let mut switch_first = None;
        let chained = (|| -> Result<Vec<Option<[ocl::Event; 2]>>> {
            let mut events: Vec<Option<[ocl::Event; 2]>> = Vec::new();
            let (plane, n) = (self.seg as u64, self.shape.n as u64);
            let superblocks = self.total() as u64 / r2 as u64;
            let (twiddle_log, twiddle_shift) = (self.shape.twiddle_log(), self.shape.twiddle_shift(&second));
            for c in 0..=chain.len {
                let j = chain.first + c - 1;
                let mut kept = Vec::with_capacity(2);
                kernels.keep_events(waited_for(c));
                for half in 0..2u32 {
                    if c >= 2 {
                        kernels.half_waits_on(half, &step_event(&events, c - 2, 1 - half)?)?;
                    }
                    let (x, y) = (&bufs[c % 3], &bufs[(c + 1) % 3]);
                    match (c, launches[j]) {
                        (0, _) => {
                            let part = PassPart::Half { shift: chain.bit, half };
                            kernels.first2_pass(x, y, &self.table, [plane, n], twiddle_log, twiddle_shift, superblocks, layouts[j], part)?
                        }
                        (_, Launch::Single(pass)) => match chain.low {
                            Some(low) => {
                                let shift2 = chain.shift(&self.shape, j);
                                for b in 0..2u32 {
                                    // the queue's last quarter where a later step waits for it; the
                                    // side queue's first of the last chain launch for the switch
                                    let first_for_switch = c == chain.len && half == 1 && b == 0;
                                    kernels.keep_events(waited_for(c) && (b == 1 || first_for_switch));
                                    let part = PassPart::Quarter { shift: low, half: b, shift2, index2: half };
                                    self.single(j, pass, x, y, part, layouts[j])?;
                                    if first_for_switch {
                                        switch_first = Some(kernels.take_event()?);
                                    }
                                }
                            }
                            None => {
                                let part = PassPart::Half { shift: chain.shift(&self.shape, j), half };
                                self.single(j, pass, x, y, part, layouts[j])?
                            }
                        },
                        (_, Launch::Fused(..)) => return Err(Error::internal("a chain launch of two passes")),
                    }
                    if waited_for(c) {
                        kept.push(kernels.take_event()?);
                    }
                }
                events.push(kept.try_into().ok());
            }
            Ok(events)
        })();
        kernels.keep_events(false);
        let events = chained?;
        // from the switch on: halves by `Chain::halves_bit`, each half of the switch launch first
        // waiting for the other queue's last chain launch (in quarters: for its quarter with the
        // half's bit); two buffers alternate, the last chain launch's output first
        let (mut cur, mut other) = ((chain.len + 1) % 3, (chain.len + 2) % 3);
        for j in chain.switch()..launches.len() {
            let Launch::Single(pass) = launches[j] else { return Err(Error::internal("a launch of two passes after a chain")) };
            if j + 1 == launches.len() {
                kernels.mark_last_launch();
            }
            for half in 0..2u32 {
                if j == chain.switch() {
                    let wait = match (chain.low, half) {
                        (Some(_), 0) => switch_first.clone().ok_or_else(|| Error::internal("no quarter kept its event for the switch"))?,
                        _ => step_event(&events, chain.len, 1 - half)?,
                    };
                    kernels.half_waits_on(half, &wait)?;
                }
                let part = PassPart::Half { shift: chain.halves_bit(), half };
                self.single(j, pass, &bufs[cur], &bufs[other], part, layouts[j])?;
            }
            std::mem::swap(&mut cur, &mut other);
        }
        let out = cur;
        kernels.join()?;
        // the result is in bufs[out]; the plan keeps the other two
        bufs.rotate_left(out);
        let [result, scratch, spare] = bufs;
        v.bufs = result;
        self.scratch = scratch;
        self.spare = Some(spare);
        v.order = Order::Natural;
        v.valid = true;
        Ok(())
    }
}

/// The kept event of step `c`'s half `half` of a chain.
fn step_event(events: &[Option<[ocl::Event; 2]>], c: usize, half: u32) -> Result<ocl::Event> {
    let kept = events.get(c).and_then(Option::as_ref);
    kept.map(|e| e[half as usize].clone()).ok_or_else(|| Error::internal(format!("no event kept of chain step {c}")))
}
