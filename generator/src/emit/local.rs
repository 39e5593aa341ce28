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

use super::twiddle_put::TwiddlePut;
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

/// Lazy digit i of the element held in arrays `name`l / `name`h.
fn d(name: &str, i: usize) -> (String, String) {
    (format!("{name}l[{i}]"), format!("{name}h[{i}]"))
}

/// (x, y) ← (a + r^s b, a − r^s b) on lazy elements, s constant: digit i of
/// r^s b is ± b_{(i − s) mod k}, negated when it wrapped an odd number of times.
pub fn lazy_bf(k: usize, s: u32, a: &str, b: &str, x: &str, y: &str) -> Vec<String> {
    let s = s as usize % (2 * k);
    let (q, neg) = (s % k, s >= k);
    (0..k)
        .map(|i| {
            let j = (i + k - q) % k;
            let minus = (i < q) ^ neg;
            let (al, ah) = d(a, i);
            let (bl, bh) = d(b, j);
            let (xl, xh) = d(x, i);
            let (yl, yh) = d(y, i);
            let (first, second) = if minus { ("SUB", "ADD") } else { ("ADD", "SUB") };
            format!("SRGFN_LZ_{first}({xl}, {xh}, {al}, {ah}, {bl}, {bh}); SRGFN_LZ_{second}({yl}, {yh}, {al}, {ah}, {bl}, {bh});")
        })
        .collect()
}

/// The straight-line code of one butterfly of the program: read its slots,
/// compute, write them back (radix 2 or 4; DFT_4 as four radix-2 butterflies).
fn butterfly_code(k: usize, name: &str, slots: &[usize], shifts: &[u32]) -> Vec<String> {
    let mut v = vec!["{".to_string()];
    let vars = ["a", "b", "c", "e"];
    let decl: Vec<String> = vars[..slots.len()].iter().map(|x| format!("{x}l[SRGFN_K]")).collect();
    let declh: Vec<String> = vars[..slots.len()].iter().map(|x| format!("{x}h[SRGFN_K]")).collect();
    v.push(format!("    ulong {}; int {};", decl.join(", "), declh.join(", ")));
    for (x, &q) in vars.iter().zip(slots) {
        v.push(format!("    {name}_GET({x}l, {x}h, {q});"));
    }
    let mut body = Vec::new();
    let out: Vec<&str> = if slots.len() == 2 {
        body.push("ulong xl[SRGFN_K], yl[SRGFN_K]; int xh[SRGFN_K], yh[SRGFN_K];".to_string());
        body.extend(lazy_bf(k, shifts[1], "a", "b", "x", "y"));
        vec!["x", "y"]
    } else {
        // inputs (a, b, c, e) times r^(0, s1, s2, s3); ω_4 = r^(k/2)
        let (s1, s2, s3) = (shifts[1] as usize, shifts[2] as usize, shifts[3] as usize);
        let m = |s: usize| (s % (2 * k)) as u32;
        body.push(
            "ulong t0l[SRGFN_K], t1l[SRGFN_K], u0l[SRGFN_K], u1l[SRGFN_K], x0l[SRGFN_K], x1l[SRGFN_K], x2l[SRGFN_K], x3l[SRGFN_K];"
                .to_string(),
        );
        body.push(
            "int t0h[SRGFN_K], t1h[SRGFN_K], u0h[SRGFN_K], u1h[SRGFN_K], x0h[SRGFN_K], x1h[SRGFN_K], x2h[SRGFN_K], x3h[SRGFN_K];"
                .to_string(),
        );
        body.extend(lazy_bf(k, m(s2), "a", "c", "t0", "t1"));
        body.extend(lazy_bf(k, m(s3 + 2 * k - s1), "b", "e", "u0", "u1"));
        body.extend(lazy_bf(k, m(s1), "t0", "u0", "x0", "x2"));
        body.extend(lazy_bf(k, m(s1 + k / 2), "t1", "u1", "x1", "x3"));
        vec!["x0", "x1", "x2", "x3"]
    };
    v.extend(body.into_iter().map(|l| format!("    {l}")));
    for (x, &q) in out.iter().zip(slots) {
        v.push(format!("    {name}_PUT({q}, {x}l, {x}h);"));
    }
    v.push("}".to_string());
    v
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
/// stage in case b mod `positions`, through the macros `{name}_GET`/`_PUT`.
pub(super) fn stage_cases(k: usize, name: &str, program: &Program, positions: usize) -> Vec<StageCtx> {
    program
        .stages
        .iter()
        .map(|st| {
            let mut code: Vec<Vec<String>> = vec![Vec::new(); positions];
            for (b, bf) in st.butterflies.iter().enumerate() {
                code[b % positions].extend(butterfly_code(k, name, &bf.slots, &bf.shifts));
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

/// The local variant needs programs whose outputs need no final shift.
pub(super) fn check_program(program: &Program) -> Result<(), EmitError> {
    if program.output_shifts.iter().any(|&s| s != 0) {
        return Err(EmitError::Unsupported(format!("the local variant needs a program without output shifts ({})", program.formula)));
    }
    Ok(())
}

/// Everything the local template prints for one DFT_R program.
/// `(twiddled, mul_lazy)`: whether the kernel has twiddles (not the first
/// pass) and whether f_mul_lazy exists, for its twiddled store
/// (`TwiddlePut::pass_input`).
pub(super) fn context(
    k: usize,
    name: &str,
    program: &Program,
    (twiddled, mul_lazy): (bool, bool),
    ctx: &mut tera::Context,
) -> Result<(), EmitError> {
    check_program(program)?;
    let shape = LocalShape::of(k, program);
    // slot t, digit D of block `lane`
    let (stride, groups) = (shape.slot_stride, shape.groups);
    ctx.insert(
        "twiddle_put",
        &TwiddlePut::pass_input(twiddled, mul_lazy, &|digit: &str| format!("t * {stride} + {digit} * {groups} + lane")).render(12),
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
