//! A plan's launches: the regular loop (one pass or two per launch, whole
//! or in halves on two queues), the launcher of a single pass it and
//! `chain.rs` share.

use ocl::Buffer;
use srgfn_gen::emit::{self, digits::PassLayout};
use srgfn_gen::plan::{Launch, Pass};

use super::Plan;
use crate::device_vec::{DeviceVec, Order};
use crate::error::{Error, Result};
use crate::kernels::PassPart;

impl Plan {
    /// Runs the plan's passes; the result is in `v` (buffers are swapped, not copied).
    pub(super) fn run(&mut self, v: &mut DeviceVec) -> Result<()> {
        self.check_vec(v)?;
        if let (Some(chain), Order::Superblocks { r2 }) = (self.chain, v.order) {
            if Some(r2) == self.superblocks {
                return self.run_chain(v, chain, r2);
            }
        }
        v.valid = false;
        let kernels = self.kernels.clone();
        let (n, total) = (self.shape.n as u64, self.total() as u64);
        // plane: the digit plane stride of each segment (of the whole vector when it is one)
        let launches = self.shape.launches();
        // the digits variant, and the table variant's fused plans, keep the vectors between
        // launches element-major (emit::digits::PassLayout)
        let layouts = PassLayout::of_plan(self.variant, &self.shape);
        // the launch the halves fork after keeps its event for the fork (FieldKernels::arm_fork):
        // the one before launch max(from, first), the first launch the loop below runs
        let fork_after = |first: usize| self.halves.map(|h| h.from.max(first) - 1);
        // a vector in the superblock order: the first two launches as one (emit::first2)
        let start = match v.order {
            Order::Natural => 0,
            Order::Superblocks { r2 } if Some(r2) == self.superblocks => {
                // the first two passes as one launch: launch 0 of a fused plan, else launches 0 and 1
                let taken = emit::first2::first2_launches(&self.shape)
                    .ok_or_else(|| Error::internal("a superblock plan that does not start with the passes (K, 1), (K, K)"))?;
                let second = launches[taken - 1].last_pass();
                if fork_after(taken) == Some(taken - 1) {
                    kernels.arm_fork();
                }
                if taken == launches.len() {
                    kernels.mark_last_launch();
                }
                kernels.first2_pass(
                    &v.bufs,
                    &self.scratch,
                    &self.table,
                    [self.seg as u64, n],
                    self.shape.twiddle_log(),
                    self.shape.twiddle_shift(&second),
                    total / r2 as u64,
                    layouts[taken - 1],
                    PassPart::Whole,
                )?;
                std::mem::swap(&mut v.bufs, &mut self.scratch);
                taken
            }
            Order::Superblocks { .. } => return Err(Error::internal("a vector in another plan's superblock order")),
        };
        let mut forked = false;
        for (j, launch) in launches.iter().copied().enumerate().skip(start) {
            let (layout, last) = (layouts[j], j + 1 == launches.len());
            if last {
                kernels.mark_last_launch();
            }
            // the last launch writes the plan's third vector where its halves ask for it
            // (Halves::spare_last; a plan may hold one for its chain alone, plan::Chain)
            let to_spare = last && self.halves.is_some_and(|h| h.spare_last);
            let out = match &self.spare {
                Some(spare) if to_spare => spare,
                _ => &self.scratch,
            };
            // from h.from on, both halves of each launch: half 1 on the side queue (plan::Halves)
            let parts = match self.halves {
                Some(h) if j >= h.from => {
                    if !forked {
                        kernels.fork()?;
                        forked = true;
                    } else if h.joins_before(&layouts, j) {
                        // each queue waits for the other, so that this launch's writes start after
                        // both halves of the launch before have read the buffer
                        kernels.join()?;
                        kernels.fork()?;
                    }
                    vec![PassPart::Half { shift: h.shift, half: 0 }, PassPart::Half { shift: h.shift, half: 1 }]
                }
                _ => {
                    if fork_after(start) == Some(j) {
                        kernels.arm_fork();
                    }
                    vec![PassPart::Whole]
                }
            };
            match launch {
                Launch::Single(pass) => {
                    for part in parts {
                        self.single(j, pass, &v.bufs, out, part, layout)?;
                    }
                }
                Launch::Fused(a, b) => {
                    let (table, kind, log_t, shifts) = self.launch_tables.of(j, [&a, &b], &self.table, &self.shape);
                    for part in parts {
                        kernels.fused_pass(
                            self.variant,
                            a.radix,
                            &v.bufs,
                            out,
                            (table, kind),
                            [self.seg as u64, n, a.p as u64],
                            log_t,
                            shifts,
                            total / (a.radix * b.radix) as u64,
                            part,
                            layout,
                        )?;
                    }
                }
            }
            match self.spare.as_mut() {
                Some(spare) if to_spare => std::mem::swap(&mut v.bufs, spare),
                _ => std::mem::swap(&mut v.bufs, &mut self.scratch),
            }
        }
        if forked {
            kernels.join()?;
        }
        v.order = Order::Natural;
        v.valid = true;
        Ok(())
    }

    /// Launch `j` of the plan, a single pass, X → Y in `layout`: every block,
    /// or a half ([`PassPart`]).
    pub(super) fn single(
        &self,
        j: usize,
        pass: Pass,
        x: &[Buffer<u64>],
        y: &[Buffer<u64>],
        part: PassPart,
        layout: PassLayout,
    ) -> Result<()> {
        let (table, kind, log_t, [shift]) = self.launch_tables.of(j, [&pass], &self.table, &self.shape);
        let n = self.shape.n as u64;
        self.kernels.pass(
            self.variant,
            pass.radix,
            x,
            y,
            (table, kind),
            [self.seg as u64, n, pass.p as u64],
            log_t,
            shift,
            self.total() as u64 / pass.radix as u64,
            part,
            layout,
        )
    }
}
