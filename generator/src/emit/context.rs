//! Template contexts: every value a template prints is computed here.

use std::collections::BTreeSet;

use serde::Serialize;
use tera::Context;

use super::Variant;
use crate::prime::Prime;
use crate::unroll::Program;

/// Möller–Granlund reciprocal of a normalised divisor d ≥ 2^63:
/// v = ⌊(2^128 − 1) / d⌋ − 2^64.
pub fn mg_reciprocal(d: u64) -> u64 {
    assert!(d >> 63 == 1, "divisor must be normalised");
    (u128::MAX / d as u128 - (1u128 << 64)) as u64
}

pub fn field(prime: &Prime, mul: super::MulForm) -> Context {
    let r = prime.r();
    let shift = r.leading_zeros();
    let norm = r << shift;
    let mut c = Context::new();
    c.insert("expr", &prime.to_string());
    c.insert("k", &prime.k());
    c.insert("r_dec", &r.to_string());
    c.insert("bits", &prime.bits());
    c.insert("radix_terms", &prime.radix().to_string());
    c.insert("r_hex", &format!("0x{r:016x}"));
    c.insert("r_shift", &shift);
    c.insert("r_norm_hex", &format!("0x{norm:016x}"));
    c.insert("r_recip_hex", &format!("0x{:016x}", mg_reciprocal(norm)));
    c.insert("digits", &(0..prime.k()).collect::<Vec<_>>());
    c.insert("top", &(prime.k() - 1));
    c.insert("mul_limb22", &(mul == super::MulForm::Limb22));
    // f_mul's loops fully unrolled (every array index a constant, so the
    // accumulators stay in registers) up to k = 16; above, the k^2 products
    // would be too much straight-line code
    c.insert("mul_unroll", if prime.k() <= 16 { "    #pragma unroll" } else { "" });
    // rotation amounts of the barrel shifter in f_shift: 1, 2, 4, …, k/2
    c.insert("shift_bits", &(0..prime.k().trailing_zeros()).map(|b| 1usize << b).collect::<Vec<_>>());
    c
}

/// A straight-line x · r^s for a constant s: z = A − B (or B − A when s ≥ k).
#[derive(Clone, Debug, Serialize)]
pub struct ShiftFn {
    pub s: u32,
    pub comment: String,
    /// Digit h of A and of B, as C expressions over xx[].
    pub a: Vec<String>,
    pub b: Vec<String>,
    /// 1 when the result is B − A (r^s = −r^{s−k}).
    pub neg: u32,
}

impl ShiftFn {
    pub fn new(k: usize, s: u32) -> ShiftFn {
        let neg = (s as usize >= k) as u32;
        let q = s as usize % k;
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for h in 0..k {
            if h >= q {
                a.push(format!("xx[{}]", h - q));
                b.push("0".into());
            } else {
                a.push("0".into());
                b.push(format!("xx[{}]", h + k - q));
            }
        }
        let comment = if neg == 1 {
            format!("r^{s} = -r^{q}: digits move up {q} places, the top {q} wrap with a sign flip, all negated")
        } else {
            format!("digits move up {q} places, the top {q} wrap around with a sign flip")
        };
        ShiftFn { s, comment, a, b, neg }
    }
}

#[derive(Serialize)]
struct ShiftedInput {
    slot: usize,
    s: u32,
}

#[derive(Serialize)]
struct BfCtx {
    slots: Vec<usize>,
    shifts: Vec<u32>,
    shifted: Vec<ShiftedInput>,
}

#[derive(Serialize)]
struct StageCtx {
    radix: usize,
    butterflies: Vec<BfCtx>,
}

#[derive(Serialize)]
struct OutCtx {
    slot: usize,
    shift: u32,
}

pub fn dft(prime: &Prime, prog: &Program, name: &str, variant: Variant) -> Context {
    let k = prime.k();
    let w4 = (k / 2) as u32;
    let mut used = BTreeSet::new();
    let stages: Vec<StageCtx> = prog
        .stages
        .iter()
        .map(|st| StageCtx {
            radix: st.radix(),
            butterflies: st
                .butterflies
                .iter()
                .map(|bf| {
                    let shifted: Vec<ShiftedInput> = bf
                        .slots
                        .iter()
                        .zip(&bf.shifts)
                        .filter(|(_, &s)| s != 0)
                        .map(|(&slot, &s)| ShiftedInput { slot, s })
                        .collect();
                    used.extend(shifted.iter().map(|x| x.s));
                    BfCtx { slots: bf.slots.clone(), shifts: bf.shifts.clone(), shifted }
                })
                .collect(),
        })
        .collect();
    used.extend(prog.output_shifts.iter().copied().filter(|&s| s != 0));
    let has_dft4 = prog.stages.iter().any(|s| s.radix() == 4);
    if has_dft4 {
        used.insert(w4);
    }
    let mut c = Context::new();
    c.insert("name", name);
    c.insert("size", &prog.size);
    c.insert("radix", &prog.radix.number());
    c.insert("formula", &prog.formula.to_string());
    c.insert("desc", &prog.descriptor());
    c.insert("w4", &w4);
    c.insert("has_dft4", &has_dft4);
    c.insert("max_bf", &stages.iter().map(|s| s.butterflies.len()).max().unwrap_or(1));
    c.insert("max_radix", &stages.iter().map(|s| s.radix).max().unwrap_or(2));
    c.insert("stages", &stages);
    let outputs: Vec<OutCtx> =
        prog.output_slots.iter().zip(&prog.output_shifts).map(|(&slot, &shift)| OutCtx { slot, shift }).collect();
    c.insert("outputs", &outputs);
    c.insert("out_slots", &prog.output_slots);
    c.insert("out_shifts", &prog.output_shifts);
    let shift_fns: Vec<ShiftFn> = match variant {
        Variant::Private => used.iter().map(|&s| ShiftFn::new(k, s)).collect(),
        Variant::Workgroup | Variant::Local => Vec::new(),
    };
    let (groups, tpd) = super::local_shape(k, prog.size);
    c.insert("groups", &groups);
    c.insert("tpd", &tpd);
    c.insert("lmem_bytes", &(groups * prog.size * k * 8));
    c.insert("shift_fns", &shift_fns);
    c
}
