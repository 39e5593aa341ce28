//! A forward transform from the superblock order in halves from its first
//! launch on ([`Chain`], `srgfn_gen::plan::chain`): the first two passes and
//! the chain launches after them as two halves, each on its queue, then the
//! launches from the switch on in halves by a bit below p.

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
    /// for the other's last chain launch, whose outputs they read.  Every
    /// wait is on a launch's own event (`FieldKernels::keep_events`, kept
    /// through the chain only: a launch with an event takes NVIDIA's driver
    /// longer to enqueue, v42).
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
        kernels.keep_events(true);
        // the chain (it ends before the last launch, plan::Chain), each launch's events kept:
        // events[c][h] is step c of half h
        let chained = (|| -> Result<Vec<[ocl::Event; 2]>> {
            let mut events: Vec<[ocl::Event; 2]> = Vec::new();
            let (plane, n) = (self.seg as u64, self.shape.n as u64);
            let superblocks = self.total() as u64 / r2 as u64;
            let (twiddle_log, twiddle_shift) = (self.shape.twiddle_log(), self.shape.twiddle_shift(&second));
            for c in 0..=chain.len {
                let j = chain.first + c - 1;
                let mut kept = Vec::with_capacity(2);
                for half in 0..2u32 {
                    if c >= 2 {
                        kernels.half_waits_on(half, &events[c - 2][1 - half as usize])?;
                    }
                    let (x, y) = (&bufs[c % 3], &bufs[(c + 1) % 3]);
                    match (c, launches[j]) {
                        (0, _) => {
                            let part = PassPart::Half { shift: chain.bit, half };
                            kernels.first2_pass(x, y, &self.table, [plane, n], twiddle_log, twiddle_shift, superblocks, layouts[j], part)?
                        }
                        (_, Launch::Single(pass)) => {
                            let part = PassPart::Half { shift: chain.shift(&self.shape, j), half };
                            self.single(j, pass, x, y, part, layouts[j])?
                        }
                        (_, Launch::Fused(..)) => return Err(Error::internal("a chain launch of two passes")),
                    }
                    kept.push(kernels.take_event()?);
                }
                events.push(kept.try_into().map_err(|_| Error::internal("two halves of a launch"))?);
            }
            Ok(events)
        })();
        kernels.keep_events(false);
        let events = chained?;
        // from the switch on: halves by bit `after`, each half first waiting for the other's last
        // chain launch; two buffers alternate, the last chain launch's output first
        let (mut cur, mut other) = ((chain.len + 1) % 3, (chain.len + 2) % 3);
        for j in chain.switch()..launches.len() {
            let Launch::Single(pass) = launches[j] else { return Err(Error::internal("a launch of two passes after a chain")) };
            if j + 1 == launches.len() {
                kernels.mark_last_launch();
            }
            for half in 0..2u32 {
                if j == chain.switch() {
                    kernels.half_waits_on(half, &events[chain.len][1 - half as usize])?;
                }
                self.single(j, pass, &bufs[cur], &bufs[other], PassPart::Half { shift: chain.after, half }, layouts[j])?;
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
