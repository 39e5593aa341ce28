//! A plan's twiddle tables on the device: W[t] = ω_N^t for t < N/K, which
//! every launch may read (its exponents past N/K are rotations by r^s), and
//! the launch tables of `emit::launch_tables`, W'[j] = ω_M^j for every
//! exponent j of one launch, which spare its products the rotation.

use ocl::Buffer;
use srgfn_gen::emit::{self, TwiddleTable, Variant};
use srgfn_gen::plan::{Pass, PlanShape};

use super::powers;
use crate::error::{Error, Result};
use crate::kernels::FieldKernels;
use crate::memory::{self, Need};
use srgfn_gen::Field;

/// The table ω^t, t < 2^log_len, for the root ω of 2^log_root (element-major,
/// the passes' layout, `load_tw`), followed by the suffix sums of each entry
/// where the variant reads them (`Variant::table_words`): the host computes
/// the C = 2^⌈log_len/2⌉ powers B[j] = ω^j and the 2^log_len/C powers
/// A[i] = ω^(iC), and the device forms every W[iC + j] = A[i]·B[j]
/// (`outer_product`).
fn powers_table(kernels: &FieldKernels, field: &Field, log_root: u32, log_len: u32, variant: Variant) -> Result<Buffer<u64>> {
    let k = field.prime().k();
    let len = 1usize << log_len;
    let w = field.prime().root_of_unity(log_root)?;
    let log_c = log_len.div_ceil(2);
    let c = 1usize << log_c;
    let (a, b) = rayon::join(|| powers(field, &w, 0, c, len / c), || powers(field, &w, 0, 1, c));
    let (a, b) = (kernels.upload(&crate::layout::to_digit_major(&a?, k))?, kernels.upload(&crate::layout::to_digit_major(&b?, k))?);
    let table = kernels.alloc(variant.table_words(k, len))?;
    kernels.outer_product(&a, &b, &table, log_c, len as u64, variant)?;
    Ok(table)
}

/// The plan's table W[t] = ω_N^t, t < N/K, in the variant's layout (one
/// zero entry when N ≤ K: every twiddle is then a power of r and no entry is
/// read).
pub(super) fn plan_table(kernels: &FieldKernels, field: &Field, shape: &PlanShape, variant: Variant) -> Result<Buffer<u64>> {
    let k = field.prime().k();
    if shape.table_len == 0 {
        return kernels.upload(&vec![0; variant.table_words(k, 1)]);
    }
    if shape.table_words != variant.table_words(k, shape.table_len) {
        return Err(Error::internal(format!(
            "the plan's table of {} words is not the {} variant's layout",
            shape.table_words,
            variant.name()
        )));
    }
    powers_table(kernels, field, shape.log_n, shape.twiddle_log(), variant)
}

/// The tables of a plan's launches: for each launch, its own table
/// (`emit::launch_tables`) and that table's log2 length, or None where it
/// reads the plan's table.
pub(super) struct LaunchTables(Vec<Option<(Buffer<u64>, u32)>>);

impl LaunchTables {
    /// The log2 length of each launch's own table as [`Self::build`] builds
    /// them: those of `emit::launch_tables` where the device holds them
    /// beside the plan's `need`, else None for every launch (each reads the
    /// plan's table, as fast as before them).
    pub(super) fn planned(
        shape: &PlanShape,
        variant: Variant,
        k: usize,
        need: Need,
        limits: &crate::device::DeviceEntry,
    ) -> Vec<Option<u32>> {
        let logs = emit::launch_tables(variant, shape);
        let bytes: u128 = logs.iter().flatten().map(|&l| 8 * variant.table_words(k, 1 << l) as u128).sum();
        let with = Need { device: need.device.saturating_add(bytes), ..need };
        if bytes == 0 || memory::check("", with, Some(limits), "").is_err() {
            return vec![None; logs.len()];
        }
        logs
    }

    /// The launch tables `planned` names (from [`Self::planned`]).
    pub(super) fn build(kernels: &FieldKernels, field: &Field, variant: Variant, planned: &[Option<u32>]) -> Result<LaunchTables> {
        let tables = planned
            .iter()
            .map(|log| log.map(|l| powers_table(kernels, field, l, l, variant).map(|t| (t, l))).transpose())
            .collect::<Result<Vec<_>>>()?;
        Ok(LaunchTables(tables))
    }

    /// What launch `j`, whose passes are `passes` (one, or a fused launch's
    /// two), reads: the table, which kind it is, its log2 length (the
    /// kernels' log_t) and each pass's twiddle shift in units of its root.
    pub(super) fn of<'a, const P: usize>(
        &'a self,
        j: usize,
        passes: [&Pass; P],
        plan_table: &'a Buffer<u64>,
        shape: &PlanShape,
    ) -> (&'a Buffer<u64>, TwiddleTable, u32, [u32; P]) {
        match self.0.get(j).and_then(Option::as_ref) {
            Some((table, log_m)) => (table, TwiddleTable::Launch, *log_m, passes.map(|p| shape.launch_twiddle_shift(p, *log_m))),
            None => (plan_table, TwiddleTable::Plan, shape.twiddle_log(), passes.map(|p| shape.twiddle_shift(p))),
        }
    }
}
