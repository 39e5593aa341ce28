//! The "local" variant of a Stockham pass: every slot index and shift a constant.
//!
//! A work-group holds G = 32 blocks (DFT_R of one pass) in local memory as
//! lazy elements (signed 96-bit digits, see `lazy.rs`).  Its work-item
//! (b, w) — lane b of warp w — loads and twiddles slots w, w + W, … of block b
//! (the twiddle's r^q as a rotated, sign-flipped store), runs butterfly
//! position w of every stage for block b, and finally normalises and stores
//! outputs.  A warp's 32 lanes are 32 blocks at the same position, so
//! `switch (w)` is uniform over the warp, and each case is straight-line code
//! in which every slot and every shift is a constant: a shift is a renaming
//! of digits, a butterfly one 96-bit add or subtract per digit.
//!
//! Local memory: slot q, digit d of block b at index q·stride + d·G + b of
//! `SL` (low words) and `SH` (high parts, one byte: |h| < 2^7 for the ≤ 5
//! levels of K ≤ 32), stride = k·G + 1.

use serde::Serialize;

use super::butterfly::{self, Butterfly};
use super::high_part::HighPart;
use super::table::require_no_output_shifts;
use super::twiddle_put::{TwiddlePut, TwiddleTable};
use super::EmitError;
use crate::unroll::Program;

/// Blocks per work-group: one per lane of a 32-wide warp.
pub const GROUPS: usize = 32;

/// The work-group shape of the local variant of a DFT_R program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LocalShape {
    /// Blocks per work-group (lanes).
    pub groups: usize,
    /// Butterfly positions (warps): the fewest butterflies of any stage.
    pub positions: usize,
    /// Elements between consecutive slots in local memory.
    pub slot_stride: usize,
}

impl LocalShape {
    /// The shape for elements of k digits and the DFT program `program`.
    pub fn of(k: usize, program: &Program) -> LocalShape {
        let positions = program.stages.iter().map(|s| s.butterflies.len()).min().unwrap_or(1).max(1);
        LocalShape { groups: GROUPS, positions, slot_stride: k * GROUPS + 1 }
    }
    /// Work-items of a work-group: groups × positions.
    pub fn threads(&self) -> usize {
        self.groups * self.positions
    }
    /// Local memory of one work-group for DFT_size: 9 bytes per digit.
    pub fn bytes(&self, size: usize) -> usize {
        size * self.slot_stride * 9
    }
}

#[derive(Serialize)]
pub(super) struct Case {
    pos: usize,
    code: String,
}

#[derive(Serialize)]
pub(super) struct StageCtx {
    cases: Vec<Case>,
}

/// The `switch (position)` cases of every stage of `program`: butterfly b of a
/// stage in case b mod `positions`, scheduled digit by digit through the
/// macros `{name}_GETD`/`_PUTD` (`butterfly.rs`).
pub(super) fn stage_cases(k: usize, name: &str, program: &Program, positions: usize) -> Vec<StageCtx> {
    program
        .stages
        .iter()
        .map(|st| {
            let mut code: Vec<Vec<String>> = vec![Vec::new(); positions];
            for (b, bf) in st.butterflies.iter().enumerate() {
                code[b % positions].extend(butterfly::code(&Butterfly::of(k, &bf.slots, &bf.shifts), name));
            }
            let cases = code
                .into_iter()
                .enumerate()
                .map(|(pos, lines)| Case { pos, code: lines.iter().map(|l| format!("        {l}")).collect::<Vec<_>>().join("\n") })
                .collect();
            StageCtx { cases }
        })
        .collect()
}

/// Everything the local template prints for one DFT_R program.
/// `(twiddles, mul_lazy)`: the table the kernel's twiddles come from (None:
/// the first pass, no twiddles) and whether f_mul_lazy exists, for its
/// twiddled store (`TwiddlePut::pass_input`).
pub(super) fn context(
    k: usize,
    name: &str,
    program: &Program,
    (twiddles, mul_lazy): (Option<TwiddleTable>, bool),
    ctx: &mut tera::Context,
) -> Result<(), EmitError> {
    require_no_output_shifts("local", program)?;
    let shape = LocalShape::of(k, program);
    // slot t, digit D of block `lane`
    let (stride, groups) = (shape.slot_stride, shape.groups);
    ctx.insert(
        "twiddle_put",
        &TwiddlePut::pass_input(twiddles, (mul_lazy, HighPart::Byte), &|digit: &str| format!("t * {stride} + {digit} * {groups} + lane"))
            .render(12),
    );
    let w = shape.positions;
    ctx.insert("groups", &shape.groups);
    ctx.insert("positions", &w);
    ctx.insert("threads", &shape.threads());
    ctx.insert("per_item", &(program.size / w));
    ctx.insert("stride", &shape.slot_stride);
    ctx.insert("lmem_words", &(program.size * shape.slot_stride));
    ctx.insert("lmem_bytes", &shape.bytes(program.size));
    ctx.insert("stages", &stage_cases(k, name, program, w));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Radix;

    /// Every program the generator emits ends without output shifts (the
    /// local variant relies on it), and its lazy digits stay within one byte
    /// of high part.
    #[test]
    fn programs_have_no_output_shifts() {
        for k in [2usize, 4, 8, 16, 32, 64, 128] {
            for radix in [Radix::R2, Radix::R4] {
                let mut n = 2;
                while n <= 2 * k {
                    let p = Program::unroll_size(k, n, radix).unwrap();
                    assert!(p.output_shifts.iter().all(|&s| s == 0), "k = {k} DFT_{n} radix {}", radix.number());
                    n *= 2;
                }
            }
        }
    }
}
