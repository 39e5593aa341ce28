//! Two Stockham levels per launch: the "local" variant's DFT_K run twice
//! through local memory, with the twiddles between the levels.
//!
//! Passes (R, p) and (R, pR) of a plan (`plan::Launch::Fused`) touch the same
//! R² elements x[i0 + s·n/R²] (s < R², i0 < n/R²): level 1 runs DFT_R on the
//! R columns a (inputs s = a + R·b, b < R) and leaves output t0 of column a
//! in row `out_slot[t0]`; level 2 runs DFT_R on the R rows.  Each level is
//! the local variant's straight-line butterfly code (`local::stage_cases`),
//! every slot and shift a constant, reading slot q at base + q·qs where base
//! and qs say which column or row the lane holds.  One launch reads and
//! writes the data once for two levels, which halves the memory trips of the
//! passes it replaces.
//!
//! Local memory: element (a, b), digit d of superblock sb at
//! d·digit_stride + sb·block_stride + b·row + a, with row ≥ R and
//! block_stride ≥ R·row padded so that a warp's columns and rows, and the
//! loads and stores, fall on as few wavefronts as the bank model
//! (`banks.rs`) finds (v20c; before, row = R + 1 and block_stride =
//! R·row + 1).

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use serde::Serialize;

use super::banks;
use super::local::{self, LocalShape, GROUPS};
use super::table::require_no_output_shifts;
use super::twiddle_put::TwiddleTable;
use super::{EmitError, EmittedFile, KernelEntry, Variant, LOCAL_MAX_BYTES};
use crate::prime::Prime;
use crate::unroll::Program;

/// Work-items a fused work-group aims for (H200, v9: 256 made k = 2 and 4
/// 4–10% faster than one warp's worth of superblocks, 64 and 128 work-items).
pub const FUSED_THREADS: usize = 256;

/// Work-items per stage work-item by k (see [`FusedShape::spread`]; 1 where
/// not listed).  H200, v21c (docs/perf/h200-v21/spread): k = 8's fused
/// kernel (two superblocks, 128 stage work-items) with 256 work-items ran
/// 2^16 in 0.0474 instead of 0.0545 ms (kernel time −13%), 2^17 and 2^18
/// level; with 512, 2^16 0.0462 but 2^17 and 2^18 25–33% slower.  k = 2 and
/// 4, whose work-groups already hold 256 stage work-items, lost up to 9% and
/// 21% from 2^20.
pub const FUSED_SPREAD: [(usize, usize); 1] = [(8, 2)];

/// Words of padding the layout search tries above R (row stride) and R·row
/// (superblock stride).
pub const PAD_RANGE: usize = 16;

/// Searched shapes by (k, R, radix, formula), for [`FusedShape::of`].
type Memo = Mutex<HashMap<(usize, usize, usize, String), Option<FusedShape>>>;

fn memo() -> &'static Memo {
    static MEMO: OnceLock<Memo> = OnceLock::new();
    MEMO.get_or_init(Memo::default)
}

/// The work-group shape of the fused kernel of a DFT_R program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FusedShape {
    /// R, the radix of both levels.
    pub radix: usize,
    /// Superblocks (R² elements each) per work-group, a multiple of 32 / R:
    /// a warp's lanes are the columns (rows) of 32 / R superblocks.
    pub blocks: usize,
    /// Butterfly positions, as in the local variant.
    pub positions: usize,
    /// Words between consecutive rows.
    pub row: usize,
    /// Words between consecutive superblocks.
    pub block_stride: usize,
    /// Words between consecutive digit planes.
    pub digit_stride: usize,
    /// Digits per element.
    pub k: usize,
    /// Work-items per stage work-item: the element loops (loads, level-2
    /// twiddles, stores) run on `spread` times the stages' work-items, which
    /// wait at the barriers while the stages run on the first
    /// [`FusedShape::stage_threads`].
    pub spread: usize,
}

impl FusedShape {
    /// The shape for elements of k digits and the DFT_R program: the most
    /// superblocks for [`FUSED_THREADS`] work-items that fit
    /// [`LOCAL_MAX_BYTES`], at least a warp's worth (32 / R), padded with the
    /// row and superblock strides ([`PAD_RANGE`] words above R and R·row)
    /// that give the fewest modelled wavefronts ([`FusedShape::wavefronts`];
    /// then the least memory); `None` when R columns do not fit a warp or that
    /// many superblocks do not fit.
    ///
    /// Remembered per program (k, R, radix and formula) for the process: the
    /// search models a few hundred layouts (8–20 ms), and the runtime asks
    /// for the shape at every fused launch.
    pub fn of(k: usize, program: &Program) -> Option<FusedShape> {
        let key = (k, program.size, program.radix.number(), program.formula.to_string());
        if let Some(&shape) = memo().lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return shape;
        }
        let shape = Self::search(k, program);
        memo().lock().unwrap_or_else(|e| e.into_inner()).insert(key, shape);
        shape
    }

    /// [`FusedShape::of`] without the memo.
    fn search(k: usize, program: &Program) -> Option<FusedShape> {
        let radix = program.size;
        if !(2..=GROUPS).contains(&radix) {
            return None;
        }
        let positions = LocalShape::of(k, program).positions;
        let least = GROUPS / radix;
        let spread = FUSED_SPREAD.iter().find(|&&(kk, _)| kk == k).map_or(1, |&(_, s)| s);
        let mut blocks = (FUSED_THREADS / (radix * positions)).max(least);
        loop {
            let padded = (radix..=radix + PAD_RANGE).flat_map(|row| (radix * row..=radix * row + PAD_RANGE).map(move |bs| (row, bs)));
            let best = padded
                .map(|(row, block_stride)| FusedShape {
                    radix,
                    blocks,
                    positions,
                    row,
                    block_stride,
                    digit_stride: blocks * block_stride + 1,
                    k,
                    spread,
                })
                .filter(|shape| shape.bytes() <= LOCAL_MAX_BYTES)
                .map(|shape| (shape.wavefronts(program), shape))
                .min_by(|(wa, a), (wb, b)| wa.total_cmp(wb).then(a.words().cmp(&b.words())));
            if let Some((_, shape)) = best {
                return Some(shape);
            }
            if blocks == least {
                return None;
            }
            blocks /= 2;
        }
    }

    /// Modelled local-memory wavefronts of one launch per warp's worth of
    /// elements (32) and digit (`banks.rs`), the lanes of a warp mapped as
    /// the template maps them:
    /// both levels' stages (each stage reads and writes every element once;
    /// a warp's lanes are the columns, then the rows, of 32 / R superblocks),
    /// the loads (one write), the level-2 twiddles (a read and a write) and
    /// the stores (one read; superblocks fastest, as for p ≥ blocks).
    pub fn wavefronts(&self, program: &Program) -> f64 {
        let (r, blocks, row, bs) = (self.radix, self.blocks, self.row, self.block_stride);
        let out = &program.output_slots;
        let per_slot = 2.0 * program.stages.len() as f64 / r as f64;
        let mut total = 0.0;
        for q in 0..r {
            let level1: Vec<usize> = (0..GROUPS).map(|l| (l / r) * bs + l % r + q * row).collect();
            let level2: Vec<usize> = (0..GROUPS).map(|l| (l / r) * bs + out[l % r] * row + q).collect();
            total += per_slot * (banks::wavefronts_lazy(&level1) + banks::wavefronts_lazy(&level2)) as f64;
        }
        // element j of the work-group: superblock j mod blocks, then (s mod R, s / R) for s = j / blocks
        let elements = blocks * r * r;
        let warps = (elements / GROUPS) as f64;
        for j0 in (0..elements).step_by(GROUPS) {
            let lanes = |f: &dyn Fn(usize, usize, usize) -> usize| -> usize {
                let idx: Vec<usize> = (j0..j0 + GROUPS).map(|j| f(j % blocks, (j / blocks) % r, j / blocks / r)).collect();
                banks::wavefronts_lazy(&idx)
            };
            let load = lanes(&|sb, a, b| sb * bs + b * row + a);
            let twiddle = lanes(&|sb, a, t0| sb * bs + out[t0] * row + a);
            let store = lanes(&|sb, t0, t2| sb * bs + out[t0] * row + out[t2]);
            total += (load + 2 * twiddle + store) as f64 / warps;
        }
        total
    }

    /// Work-items of the stages: one per column of the work-group's
    /// superblocks and butterfly position.
    pub fn stage_threads(&self) -> usize {
        self.blocks * self.radix * self.positions
    }
    /// Work-items of a work-group: [`FusedShape::spread`] per stage work-item.
    pub fn threads(&self) -> usize {
        self.stage_threads() * self.spread
    }
    /// Words of SL (and bytes of SH).
    pub fn words(&self) -> usize {
        self.k * self.digit_stride
    }
    /// Local memory of one work-group: 9 bytes per word.
    pub fn bytes(&self) -> usize {
        self.words() * 9
    }
}

/// The kernel (and, with `.cl`, file) name of the fused DFT_R kernel built
/// for `table`: `…_fused` for the plan's table, `…_fused_lt` for a launch table.
pub fn name(program: &Program, table: TwiddleTable) -> String {
    format!("{}_fused{}", super::dft_name(program, super::Variant::Local), table.suffix())
}

/// Everything the fused template prints for one DFT_R program.
/// `mul_lazy`: whether f_mul_lazy exists (straight-line f_mul); `table`: the
/// twiddle table the kernel is built for.
pub fn context(
    k: usize,
    name: &str,
    program: &Program,
    (mul_lazy, table): (bool, TwiddleTable),
    ctx: &mut tera::Context,
) -> Result<FusedShape, EmitError> {
    require_no_output_shifts("local", program)?;
    let shape = FusedShape::of(k, program).ok_or_else(|| {
        EmitError::Unsupported(format!("two levels of DFT_{} do not fit {LOCAL_MAX_BYTES} bytes of local memory for k = {k}", program.size))
    })?;
    ctx.insert("blocks", &shape.blocks);
    ctx.insert("square", &(shape.radix * shape.radix));
    ctx.insert("threads", &shape.threads());
    ctx.insert("stage_threads", &shape.stage_threads());
    ctx.insert("positions", &shape.positions);
    ctx.insert("row", &shape.row);
    ctx.insert("block_stride", &shape.block_stride);
    ctx.insert("digit_stride", &shape.digit_stride);
    ctx.insert("lmem_words", &shape.words());
    ctx.insert("lmem_bytes", &shape.bytes());
    ctx.insert("stages", &local::stage_cases(k, name, program, shape.positions));
    // the loaded input (a, b) of a superblock, digit D at `at` + D·digit_stride: level 1 twiddles
    // input b of column a by w^((b κ) << tw_shift), level 2 input a of row t0 by
    // w^((a (t0 p + κ)) << tw_shift2); every element computes its exponent
    let digit_stride = shape.digit_stride;
    let at = |digit: &str| format!("at + {digit} * {digit_stride}");
    for (key, e) in [("twiddle_put_1", "SRGFN_TW_EXP(b, kappa, tw_shift)"), ("twiddle_put_2", "SRGFN_TW_EXP(a, t0 * p + kappa, tw_shift2)")]
    {
        let high_part = super::high_part::HighPart::Byte;
        let put = super::twiddle_put::TwiddlePut { exponent: Some(e), guard: None, index_of_digit: &at, mul_lazy, high_part, table };
        ctx.insert(key, &put.render(12));
    }
    Ok(shape)
}

/// The self-contained file of the fused DFT_R kernel built for `table` and
/// its manifest entry.
pub fn kernel(
    prime: &Prime,
    program: &Program,
    header: &str,
    segments: u32,
    table: TwiddleTable,
) -> Result<(EmittedFile, KernelEntry), EmitError> {
    let name = name(program, table);
    let pass_sig = super::sig::pass(&name, Variant::Local, false);
    let mut ctx =
        super::context::dft(prime, program, &pass_sig, Variant::Local, segments, (Some(table), super::high_part::HighPart::Byte))?;
    let shape = context(prime.k(), &name, program, (super::context::has_mul_lazy(prime), table), &mut ctx)?;
    let sig = super::sig::fused_pass(&name);
    ctx.insert("params", &sig.c_params_for(segments));
    ctx.insert("prologue", &sig.prologue(segments));
    let src = super::render("dft_fused.cl.tera", &ctx)?;
    let r = program.size;
    let entry = KernelEntry {
        name: name.clone(),
        file: format!("{name}.cl"),
        formula: format!(
            "two Stockham passes of radix {r}, (R, p) then (R, pR), in one launch{}: DFT_{r} = {}",
            match table {
                TwiddleTable::Plan => "",
                TwiddleTable::Launch => ", reading a launch table (every twiddle an entry, no rotation by r^s)",
            },
            program.formula
        ),
        args: sig.manifest_args_for(segments),
        global_work_size: format!("ceil(count / {}) * {}", shape.blocks, shape.threads()),
        local_work_size: format!("{} (required)", shape.threads()),
        variant: Some(Variant::Local),
        descriptor: Some(program.descriptor()),
        ptx_max_registers: None,
    };
    Ok((EmittedFile::new(format!("{name}.cl"), format!("{header}\n{src}")), entry))
}

/// (global, local) work sizes of the fused kernel for `count` superblocks.
pub fn work_size(shape: &FusedShape, count: usize) -> (usize, usize) {
    (count.div_ceil(shape.blocks).max(1) * shape.threads(), shape.threads())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Radix;

    /// Two levels of DFT_K fit for every k of the local variant, both radices.
    #[test]
    fn every_local_prime_fits() {
        for k in [2usize, 4, 8] {
            for radix in [Radix::R2, Radix::R4] {
                let p = Program::unroll(k, radix).unwrap();
                let s = FusedShape::of(k, &p).unwrap_or_else(|| panic!("k = {k}"));
                assert_eq!(s.blocks * s.radix % GROUPS, 0, "k = {k}: whole warps of columns");
                assert!(s.bytes() <= LOCAL_MAX_BYTES && s.stage_threads() <= FUSED_THREADS, "k = {k}: {s:?}");
            }
        }
        assert!(FusedShape::of(16, &Program::unroll(16, Radix::R2).unwrap()).is_none());
    }

    /// The remembered shape is the searched one, and the first question
    /// leaves it in the memo, so later ones (the runtime asks at every fused
    /// launch) do not search again.
    #[test]
    fn shapes_are_remembered() {
        for (k, radix) in [(4, Radix::R2), (8, Radix::R4)] {
            let p = Program::unroll(k, radix).unwrap();
            let first = FusedShape::of(k, &p);
            assert_eq!(first, FusedShape::search(k, &p));
            assert_eq!(memo().lock().unwrap().get(&(k, p.size, radix.number(), p.formula.to_string())), Some(&first));
            assert_eq!(FusedShape::of(k, &p), first);
        }
    }

    /// The padding search never models more wavefronts than the padding of
    /// v9 (row = R + 1, block_stride = R·row + 1), keeps the layout's
    /// invariants (a column fits a row, a superblock its stride), and finds
    /// fewer for k = 4 and 8, whose v9 layout puts two superblocks of a
    /// half-warp on the same banks.
    #[test]
    fn padding_has_the_fewest_modelled_wavefronts() {
        for k in [2usize, 4, 8] {
            for radix in [Radix::R2, Radix::R4] {
                let p = Program::unroll(k, radix).unwrap();
                let s = FusedShape::of(k, &p).unwrap();
                let row = s.radix + 1;
                let v9 = FusedShape { row, block_stride: s.radix * row + 1, digit_stride: s.blocks * (s.radix * row + 1) + 1, ..s };
                let (new, old) = (s.wavefronts(&p), v9.wavefronts(&p));
                assert!(s.row >= s.radix && s.block_stride >= s.radix * s.row && s.digit_stride > s.blocks * s.block_stride, "{s:?}");
                assert!(new <= old, "k = {k} radix {}: {new} > {old}", radix.number());
                if k >= 4 {
                    assert!(new < 0.9 * old, "k = {k} radix {}: {new} against {old}", radix.number());
                }
            }
        }
    }
}
