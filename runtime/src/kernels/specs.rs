//! The launch facts of the pass kernels: file, signature and the shape of
//! their work-groups, worked out once per kernel and kept, so that a launch
//! only sets its arguments and enqueues.  (v45, H200 host: working them out
//! at every launch took 4–6 µs, an unrolled program cloned and names, a
//! signature and a formula formatted, half of what NVIDIA's driver takes to
//! enqueue a kernel; a plan in halves from its first launch then enqueued
//! about as fast as the GPU ran it at 2^19 and 2^20.)

use std::sync::Arc;

use srgfn_gen::emit::{self, fused, FusedShape, KernelSig, TwiddleTable, Variant};
use srgfn_gen::unroll::Program as Unrolled;

use super::FieldKernels;
use crate::error::{Error, Result};

/// Which kernel a [`LaunchSpec`] is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SpecKey {
    /// The single-pass kernel of DFT_`radix` of `variant`: the first pass's
    /// (p = 1, `first`) or a twiddled pass's, built for `table`; `quarters`:
    /// the twiddled pass's over a quarter of the blocks (`emit::quarter_kernel_name`).
    Pass { variant: Variant, radix: usize, first: bool, table: TwiddleTable, quarters: bool },
    /// The local variant's kernel of two levels (`emit::fused`) built for `table`.
    Fused { table: TwiddleTable },
    /// The table variant's kernel of a later pair of passes (`emit::first2`) built for `table`.
    Pair { table: TwiddleTable },
    /// The table variant's kernel of the first two passes (`emit::first2`).
    First2,
}

/// What every launch of one kernel shares.
pub(super) struct LaunchSpec {
    /// The kernel's file.
    pub file: String,
    /// Its signature, against which each launch's arguments are checked.
    pub sig: KernelSig,
    /// The unrolled DFT its work-group shape comes from.
    pub program: Unrolled,
    /// The fused kernel's work-group shape ([`SpecKey::Fused`] only).
    pub fused: Option<FusedShape>,
}

impl FieldKernels {
    /// The launch facts of `key`'s kernel, worked out on its first launch
    /// (`p`: the pass's, for the kernel's name; errors as the launchers
    /// report them where the kernel does not exist).
    pub(super) fn spec(&self, key: SpecKey, p: u64) -> Result<Arc<LaunchSpec>> {
        if let Some((_, s)) = self.specs.lock().expect("launch specs").iter().find(|(k, _)| *k == key) {
            return Ok(s.clone());
        }
        let spec = Arc::new(self.work_out(key, p)?);
        self.specs.lock().expect("launch specs").push((key, spec.clone()));
        Ok(spec)
    }

    fn work_out(&self, key: SpecKey, p: u64) -> Result<LaunchSpec> {
        let base = &self.set.program;
        let k = self.prime.k();
        Ok(match key {
            SpecKey::Pass { variant, radix, table, quarters, .. } => {
                let (file, _) = self.dft_file(variant, radix, table)?;
                let program = self.dft_program(radix)?;
                let name = match quarters {
                    true if p > 1 && emit::has_quarter_kernels(k, variant, program.size, &self.opts) => {
                        emit::quarter_kernel_name(&program, variant, table)
                    }
                    true => return Err(Error::internal(format!("no quarter kernel of the {} variant for p = {p}", variant.name()))),
                    false => emit::pass_kernel_name(&program, variant, p, table),
                };
                LaunchSpec { file, sig: emit::sig::pass(&name, variant, quarters), program, fused: None }
            }
            SpecKey::Fused { table } => {
                let shape = FusedShape::of(k, base)
                    .ok_or_else(|| Error::internal(format!("no fused kernel of radix {} for k = {k}", base.size)))?;
                let name = fused::name(base, table);
                LaunchSpec { file: format!("{name}.cl"), sig: emit::sig::fused_pass(&name), program: base.clone(), fused: Some(shape) }
            }
            SpecKey::Pair { table } => {
                let (file, _) = self.dft_file(Variant::Table, base.size, table)?;
                LaunchSpec { file, sig: emit::sig::pair_pass(&emit::first2::pair_name(base, table)), program: base.clone(), fused: None }
            }
            SpecKey::First2 => {
                let (file, _) = self.dft_file(Variant::Table, base.size, TwiddleTable::Plan)?;
                LaunchSpec { file, sig: emit::sig::first2_pass(&emit::first2::name(base)), program: base.clone(), fused: None }
            }
        })
    }
}
