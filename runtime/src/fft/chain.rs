//! A forward transform from the superblock order in halves from its first
//! launch on ([`Chain`], `srgfn_gen::plan::chain`): the first two passes and
//! the chain launches after them as two halves, each on its queue, then the
//! launches from the switch on in halves by a bit below p.

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
    /// wait is on a launch's own event (`FieldKernels::keep_events`).
    pub(super) fn run_chain(&mut self, v: &mut DeviceVec, chain: Chain, r2: usize) -> Result<()> {
        let spare = self.spare.clone().ok_or_else(|| Error::internal("a chain of halves without a third vector"))?;
        let launches = self.shape.launches();
        let kernels = self.kernels.clone();
        let second = launches[chain.first - 1].last_pass();
        let mut bufs = [v.bufs.clone(), self.scratch.clone(), spare];
        v.valid = false;
        // the side queue starts after everything before on the session's queue
        kernels.fork()?;
        kernels.keep_events(true);
        let run = (|| -> Result<usize> {
            // events[c][h]: step c of half h
            let mut events: Vec<[ocl::Event; 2]> = Vec::new();
            let step = |events: &mut Vec<[ocl::Event; 2]>, launch: &dyn Fn(PassPart) -> Result<()>, shift: u32, wait: Option<usize>| {
                let mut kept = Vec::new();
                for half in 0..2u32 {
                    if let Some(c) = wait {
                        kernels.half_waits_on(half, &events[c][1 - half as usize])?;
                    }
                    launch(PassPart::Half { shift, half })?;
                    kept.push(kernels.take_event()?);
                }
                let [a, b]: [ocl::Event; 2] = kept.try_into().map_err(|_| Error::internal("two halves"))?;
                events.push([a, b]);
                Ok::<(), Error>(())
            };
            let (plane, n) = (self.seg as u64, self.shape.n as u64);
            let superblocks = self.total() as u64 / r2 as u64;
            let first2 = |part| {
                let (twiddle_log, twiddle_shift) = (self.shape.twiddle_log(), self.shape.twiddle_shift(&second));
                let layout = srgfn_gen::emit::digits::PassLayout::of_plan(self.variant, &self.shape)[chain.first - 1];
                kernels.first2_pass(&bufs[0], &bufs[1], &self.table, [plane, n], twiddle_log, twiddle_shift, superblocks, layout, part)
            };
            step(&mut events, &first2, chain.bit, None)?;
            for j in chain.first..chain.switch() {
                let c = j - chain.first + 1;
                let Launch::Single(pass) = launches[j] else { return Err(Error::internal("a chain launch of two passes")) };
                if j + 1 == launches.len() {
                    kernels.mark_last_launch();
                }
                let (x, y) = (&bufs[c % 3], &bufs[(c + 1) % 3]);
                step(&mut events, &|part| self.single(j, pass, x, y, part), chain.shift(&self.shape, j), c.checked_sub(2))?;
            }
            // from the switch on: two buffers alternate, the last chain launch's output first
            let steps = chain.len + 1;
            let (mut cur, mut other) = (steps % 3, (steps + 1) % 3);
            for j in chain.switch()..launches.len() {
                let Launch::Single(pass) = launches[j] else { return Err(Error::internal("a launch of two passes after a chain")) };
                if j + 1 == launches.len() {
                    kernels.mark_last_launch();
                }
                let (x, y) = (&bufs[cur], &bufs[other]);
                let wait = (j == chain.switch()).then_some(events.len() - 1);
                step(&mut events, &|part| self.single(j, pass, x, y, part), chain.after, wait)?;
                std::mem::swap(&mut cur, &mut other);
            }
            Ok(cur)
        })();
        kernels.keep_events(false);
        let out = run?;
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
