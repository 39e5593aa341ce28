//! In-place butterflies on lazy elements with constant shifts, as data, and
//! their schedule digit by digit (the "schedule" step of a genfft-style
//! generator).
//!
//! A butterfly of the local and fused kernels reads R slots of local memory
//! (R = 2 or 4), computes R lazy elements and writes them back to the same
//! slots.  Every operation is one 96-bit add or subtract of two lazy digits
//! (`SRGFN_LZ_ADD`, `SRGFN_LZ_SUB`); a shift by r^s only renames digits.
//! Written as "read all slots, compute, write all slots", a DFT_4 at k = 8
//! keeps about 4k lazy digits live at once, and NVIDIA's compiler gives the
//! kernel 128 registers where its twiddle products need 96.  [`schedule`]
//! orders the same operations output digit by output digit instead: each
//! input digit is read when an operation first needs it, each output digit is
//! written as soon as it is computed, and an input digit that is still needed
//! is read before its slot's digit is overwritten (the one hazard of working
//! in place).

use std::collections::{HashMap, HashSet};

/// Digit `digit` of the lazy element held in the C arrays `{var}l` / `{var}h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Dig {
    pub var: &'static str,
    pub digit: usize,
}

/// z = a + b (`add`) or z = a − b on lazy digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct LzOp {
    pub add: bool,
    pub z: Dig,
    pub a: Dig,
    pub b: Dig,
}

impl LzOp {
    /// The C statement.
    fn render(&self) -> String {
        let (z, a, b) = (self.z, self.a, self.b);
        format!(
            "SRGFN_LZ_{}({}l[{}], {}h[{}], {}l[{}], {}h[{}], {}l[{}], {}h[{}]);",
            if self.add { "ADD" } else { "SUB" },
            z.var,
            z.digit,
            z.var,
            z.digit,
            a.var,
            a.digit,
            a.var,
            a.digit,
            b.var,
            b.digit,
            b.var,
            b.digit
        )
    }
}

/// (x, y) ← (a + r^s b, a − r^s b) on lazy elements of k digits, s constant:
/// digit i of r^s b is ± b_{(i − s) mod k}, negated when it wrapped an odd
/// number of times.  Two operations per digit i, x's first.
pub(super) fn lazy_bf_ops(k: usize, s: u32, [a, b, x, y]: [&'static str; 4]) -> Vec<LzOp> {
    let s = s as usize % (2 * k);
    let (q, neg) = (s % k, s >= k);
    let dig = |var, digit| Dig { var, digit };
    (0..k)
        .flat_map(|i| {
            let (ai, bj) = (dig(a, i), dig(b, (i + k - q) % k));
            let minus = (i < q) ^ neg;
            [LzOp { add: !minus, z: dig(x, i), a: ai, b: bj }, LzOp { add: minus, z: dig(y, i), a: ai, b: bj }]
        })
        .collect()
}

/// [`lazy_bf_ops`] as C, one line per digit.
pub fn lazy_bf(k: usize, s: u32, a: &'static str, b: &'static str, x: &'static str, y: &'static str) -> Vec<String> {
    lazy_bf_ops(k, s, [a, b, x, y]).chunks(2).map(|pair| format!("{} {}", pair[0].render(), pair[1].render())).collect()
}

/// One in-place butterfly: the element of slot `slots[m]` is read into the
/// arrays `inputs[m]`, and `outputs[m]` is written back to the same slot.
pub(super) struct Butterfly {
    pub k: usize,
    pub slots: Vec<usize>,
    pub inputs: Vec<&'static str>,
    pub outputs: Vec<&'static str>,
    pub ops: Vec<LzOp>,
}

/// One radix-2 step of a butterfly on whole lazy elements:
/// (x, y) ← (a + r^s b, a − r^s b), 0 ≤ s < 2k.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Bf2 {
    pub s: u32,
    pub a: &'static str,
    pub b: &'static str,
    pub x: &'static str,
    pub y: &'static str,
}

/// A program butterfly with input shifts `shifts` (input 0 unshifted,
/// `Stage::input_unshifted`) as radix-2 steps: (inputs, outputs, steps).
/// Radix 2 is one step; radix 4 is four, r^s1 factored out of the second
/// column and ω_4 = r^(k/2) in the last step.  The local, fused and table
/// variants all run a butterfly as these steps.
pub(super) fn bf2_steps(k: usize, shifts: &[u32]) -> (Vec<&'static str>, Vec<&'static str>, Vec<Bf2>) {
    assert!((shifts[0] as usize).is_multiple_of(2 * k), "input 0 of a butterfly is unshifted");
    let m = |s: usize| (s % (2 * k)) as u32;
    let bf = |s, a, b, x, y| Bf2 { s, a, b, x, y };
    if shifts.len() == 2 {
        (vec!["a", "b"], vec!["x", "y"], vec![bf(m(shifts[1] as usize), "a", "b", "x", "y")])
    } else {
        let (s1, s2, s3) = (shifts[1] as usize, shifts[2] as usize, shifts[3] as usize);
        let steps = vec![
            bf(m(s2), "a", "c", "t0", "t1"),
            bf(m(s3 + 2 * k - s1), "b", "e", "u0", "u1"),
            bf(m(s1), "t0", "u0", "x0", "x2"),
            bf(m(s1 + k / 2), "t1", "u1", "x1", "x3"),
        ];
        (vec!["a", "b", "c", "e"], vec!["x0", "x1", "x2", "x3"], steps)
    }
}

impl Butterfly {
    /// The butterfly of a program stage: radix 2, or radix 4 as four radix-2
    /// butterflies (ω_4 = r^(k/2)); input m is multiplied by r^shifts[m].
    pub fn of(k: usize, slots: &[usize], shifts: &[u32]) -> Butterfly {
        let (inputs, outputs, steps) = bf2_steps(k, shifts);
        let ops = steps.iter().flat_map(|st| lazy_bf_ops(k, st.s, [st.a, st.b, st.x, st.y])).collect();
        Butterfly { k, slots: slots.to_vec(), inputs, outputs, ops }
    }

    /// Every array the operations name, inputs first.
    fn arrays(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = self.inputs.clone();
        for op in &self.ops {
            if !v.contains(&op.z.var) {
                v.push(op.z.var);
            }
        }
        v
    }
}

/// One step of a scheduled butterfly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// Read digit `dig.digit` of slot `slot` into the input digit `dig`.
    Get { slot: usize, dig: Dig },
    /// Run operation `ops[i]`.
    Op(usize),
    /// Write the output digit `dig` to the same digit of slot `slot`.
    Put { slot: usize, dig: Dig },
}

/// The butterfly's steps, output digit by output digit (see the module
/// comment).  Invariants: every operation runs once, after the steps that
/// define its operands; every input digit is read before any write to its
/// slot and digit; every output digit is written once.
pub(super) fn schedule(bf: &Butterfly) -> Vec<Step> {
    let producer: HashMap<Dig, usize> = bf.ops.iter().enumerate().map(|(i, op)| (op.z, i)).collect();
    let slot_of: HashMap<&str, usize> = bf.inputs.iter().zip(&bf.slots).map(|(&v, &q)| (v, q)).collect();
    struct State {
        steps: Vec<Step>,
        read: HashSet<Dig>,
        done: Vec<bool>,
    }
    fn ensure(d: Dig, bf: &Butterfly, producer: &HashMap<Dig, usize>, slot_of: &HashMap<&str, usize>, st: &mut State) {
        if let Some(&slot) = slot_of.get(d.var) {
            if st.read.insert(d) {
                st.steps.push(Step::Get { slot, dig: d });
            }
            return;
        }
        let i = producer[&d];
        if !st.done[i] {
            ensure(bf.ops[i].a, bf, producer, slot_of, st);
            ensure(bf.ops[i].b, bf, producer, slot_of, st);
            st.done[i] = true;
            st.steps.push(Step::Op(i));
        }
    }
    let mut st = State { steps: Vec::new(), read: HashSet::new(), done: vec![false; bf.ops.len()] };
    for digit in 0..bf.k {
        for (m, &out) in bf.outputs.iter().enumerate() {
            let dig = Dig { var: out, digit };
            ensure(dig, bf, &producer, &slot_of, &mut st);
            // the input digit this write overwrites, if an operation not yet run still reads it
            let slot = bf.slots[m];
            let victim = Dig { var: bf.inputs[m], digit };
            let needed = bf.ops.iter().zip(&st.done).any(|(op, &done)| !done && (op.a == victim || op.b == victim));
            if needed && st.read.insert(victim) {
                st.steps.push(Step::Get { slot, dig: victim });
            }
            st.steps.push(Step::Put { slot, dig });
        }
    }
    st.steps
}

/// The butterfly as C for a kernel whose template defines
/// `{name}_GETD(l, h, q, d)` and `{name}_PUTD(q, d, l, h)` (digit d of slot q).
pub(super) fn code(bf: &Butterfly, name: &str) -> Vec<String> {
    let arrays = bf.arrays();
    let mut v = vec!["{".to_string()];
    v.push(format!(
        "    ulong {}; int {};",
        arrays.iter().map(|a| format!("{a}l[SRGFN_K]")).collect::<Vec<_>>().join(", "),
        arrays.iter().map(|a| format!("{a}h[SRGFN_K]")).collect::<Vec<_>>().join(", ")
    ));
    for step in schedule(bf) {
        v.push(match step {
            Step::Get { slot, dig } => format!("    {name}_GETD({v}l[{d}], {v}h[{d}], {slot}, {d});", v = dig.var, d = dig.digit),
            Step::Op(i) => format!("    {}", bf.ops[i].render()),
            Step::Put { slot, dig } => format!("    {name}_PUTD({slot}, {d}, {v}l[{d}], {v}h[{d}]);", v = dig.var, d = dig.digit),
        });
    }
    v.push("}".to_string());
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Radix;
    use crate::unroll::Program;

    /// Runs steps on a model of local memory (slot, digit) → lazy value,
    /// with registers per digit.
    fn run(bf: &Butterfly, steps: &[Step], mem: &mut HashMap<(usize, usize), i128>) {
        let mut reg: HashMap<Dig, i128> = HashMap::new();
        for step in steps {
            match *step {
                Step::Get { slot, dig } => {
                    reg.insert(dig, mem[&(slot, dig.digit)]);
                }
                Step::Op(i) => {
                    let op = bf.ops[i];
                    let (a, b) = (reg[&op.a], reg[&op.b]);
                    reg.insert(op.z, if op.add { a + b } else { a - b });
                }
                Step::Put { slot, dig } => {
                    mem.insert((slot, dig.digit), reg[&dig]);
                }
            }
        }
    }

    /// The unscheduled order: read everything, run every operation, write
    /// every output.
    fn reference(bf: &Butterfly) -> Vec<Step> {
        let mut s = Vec::new();
        for (m, &v) in bf.inputs.iter().enumerate() {
            s.extend((0..bf.k).map(|digit| Step::Get { slot: bf.slots[m], dig: Dig { var: v, digit } }));
        }
        s.extend((0..bf.ops.len()).map(Step::Op));
        for (m, &v) in bf.outputs.iter().enumerate() {
            s.extend((0..bf.k).map(|digit| Step::Put { slot: bf.slots[m], dig: Dig { var: v, digit } }));
        }
        s
    }

    /// For every k, radix and butterfly of every program stage: the
    /// schedule runs each operation once and writes the memory the
    /// unscheduled order writes, from distinct random digits (so a digit
    /// read after it was overwritten, or from the wrong place, shows).
    #[test]
    fn schedules_compute_what_the_formula_computes() {
        let mut seed = 0x9e3779b97f4a7c15u64;
        let mut rand = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 20) as i128
        };
        let mut checked = 0;
        for k in [2usize, 4, 8, 16, 32] {
            // every DFT_n the kernels emit: n = 2k, and the smaller passes of sizes that are not powers of 2k
            for (radix, n) in [Radix::R2, Radix::R4].into_iter().flat_map(|r| (1..=(2 * k).trailing_zeros()).map(move |e| (r, 1usize << e)))
            {
                let p = Program::unroll_size(k, n, radix).unwrap();
                for st in &p.stages {
                    for b in &st.butterflies {
                        let bf = Butterfly::of(k, &b.slots, &b.shifts);
                        let steps = schedule(&bf);
                        let ops: Vec<usize> = steps.iter().filter_map(|s| if let Step::Op(i) = s { Some(*i) } else { None }).collect();
                        let mut sorted = ops.clone();
                        sorted.sort();
                        assert_eq!(sorted, (0..bf.ops.len()).collect::<Vec<_>>(), "each operation once");
                        let puts = steps.iter().filter(|s| matches!(s, Step::Put { .. })).count();
                        assert_eq!(puts, bf.outputs.len() * k, "each output digit once");
                        let mut mem: HashMap<(usize, usize), i128> = HashMap::new();
                        for &q in &b.slots {
                            for d in 0..k {
                                mem.insert((q, d), rand());
                            }
                        }
                        let mut want = mem.clone();
                        run(&bf, &reference(&bf), &mut want);
                        run(&bf, &steps, &mut mem);
                        assert_eq!(mem, want, "k = {k} DFT_{n} radix {} slots {:?} shifts {:?}", radix.number(), b.slots, b.shifts);
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100);
    }

    /// The point of the schedule: at k = 8, radix 4, fewer lazy digits are
    /// live at once than the 4k inputs of the unscheduled order.
    #[test]
    fn schedules_keep_fewer_digits_live() {
        let k = 8;
        let p = Program::unroll_size(k, 2 * k, Radix::R4).unwrap();
        for st in &p.stages {
            for b in &st.butterflies {
                let bf = Butterfly::of(k, &b.slots, &b.shifts);
                let steps = schedule(&bf);
                // a digit is live from its definition to its last use
                let mut last: HashMap<Dig, usize> = HashMap::new();
                let mut first: HashMap<Dig, usize> = HashMap::new();
                for (t, s) in steps.iter().enumerate() {
                    let (defs, used): (Vec<Dig>, Vec<Dig>) = match *s {
                        Step::Get { dig, .. } => (vec![dig], vec![]),
                        Step::Op(i) => (vec![bf.ops[i].z], vec![bf.ops[i].a, bf.ops[i].b]),
                        Step::Put { dig, .. } => (vec![], vec![dig]),
                    };
                    for d in defs {
                        first.insert(d, t);
                    }
                    for d in used {
                        last.insert(d, t);
                    }
                }
                let peak = (0..steps.len())
                    .map(|t| first.iter().filter(|(d, &f)| f <= t && last.get(d).is_some_and(|&l| l > t)).count())
                    .max()
                    .unwrap();
                assert!(peak < 4 * k, "peak {peak} live digits (slots {:?}, shifts {:?})", b.slots, b.shifts);
            }
        }
    }
}
