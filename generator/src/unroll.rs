//! Unroller: DFT_K (K = 2k, root r) → a straight-line program over K slots.
//!
//! The expanded formula is executed symbolically on *handles* (slot, pending
//! shift): permutations only reorder handles, twiddles D_{m,n} only add to the
//! pending r-exponent, and each DFT_2 / DFT_4 leaf emits a butterfly that
//! reads and writes its slots in place with the input shifts fused in.
//! Butterflies are scheduled as soon as their slots are ready (ASAP), which
//! groups them into stages of disjoint slots.  Invariants of the result:
//! * inside a stage no slot is touched twice;
//! * every shift is a constant s ∈ \[0, 2K), `shifts[0]` of a butterfly is 0;
//! * output j is slot `output_slots[j]` times r^`output_shifts[j]`.

use serde::Serialize;

use crate::field::{Digits, Field};
use crate::rules::{expand, Radix};
use crate::spl::Spl;

/// One DFT_2 or DFT_4 on `slots`, input i multiplied by r^`shifts[i]` first.
/// Outputs X_0 … X_{m−1} are written back to `slots` in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Butterfly {
    /// The slots read and written (2 or 4).
    pub slots: Vec<usize>,
    /// The shift s of each input (multiplied by r^s; s < 2k).
    pub shifts: Vec<u32>,
}

impl Butterfly {
    /// 2 or 4.
    pub fn radix(&self) -> usize {
        self.slots.len()
    }
}

/// Butterflies on distinct slots, which may run in any order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stage {
    /// The butterflies.
    pub butterflies: Vec<Butterfly>,
}

impl Stage {
    /// The largest radix of its butterflies.
    pub fn radix(&self) -> usize {
        self.butterflies.iter().map(Butterfly::radix).max().unwrap_or(0)
    }

    /// Whether no butterfly of the stage shifts its input `q` (s ≡ 0 mod 2k,
    /// r^(2k) = 1): a kernel reads that input's digits as they are, without a
    /// run-time rotation and sign.  True for every input of the first stage
    /// and for input 0 of the later ones (Cooley–Tukey twiddles r^(0·j)).
    pub fn input_unshifted(&self, q: usize, k: usize) -> bool {
        self.butterflies.iter().all(|bf| bf.shifts.get(q).is_none_or(|&s| (s as usize).is_multiple_of(2 * k)))
    }
}

/// The straight-line program of DFT_K.
#[derive(Clone, Debug, Serialize)]
pub struct Program {
    /// Digits per element (K = 2k).
    pub k: usize,
    /// K, the transform size.
    pub size: usize,
    /// The radix of the expansion.
    pub radix: Radix,
    /// The expanded formula the stages were read from.
    #[serde(serialize_with = "display")]
    pub formula: Spl,
    /// The stages, in execution order.
    pub stages: Vec<Stage>,
    /// Output j is in slot `output_slots[j]` …
    pub output_slots: Vec<usize>,
    /// … times r^`output_shifts[j]`.
    pub output_shifts: Vec<u32>,
}

fn display<S: serde::Serializer>(f: &Spl, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&f.to_string())
}

/// Op counts of a program (its codelet descriptor).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Descriptor {
    /// K.
    pub size: usize,
    /// Digits per element.
    pub k: usize,
    /// 2 or 4.
    pub radix: usize,
    /// Stages.
    pub stages: usize,
    /// Butterflies in all.
    pub butterflies: usize,
    /// DFT_2 butterflies.
    pub dft2: usize,
    /// DFT_4 butterflies.
    pub dft4: usize,
    /// Shifted butterfly inputs (s ≠ 0), general shifts plus negations.
    pub shifts: usize,
    /// Inputs with s = 0: no operation.
    pub trivial_shifts: usize,
    /// Inputs with s = k: r^k = −1, a negation.
    pub negations: usize,
    /// The r^{k/2} shift inside each DFT_4.
    pub internal_shifts: usize,
    /// Distinct shift amounts used (besides 0).
    pub shift_amounts: Vec<u32>,
}

#[derive(Clone, Copy, Debug)]
struct Handle {
    slot: usize,
    shift: i64,
}

struct Unroller {
    /// K = 2k: ω_K = r, so every exponent lives mod K.
    root_size: usize,
    ready: Vec<usize>,
    stages: Vec<Stage>,
}

impl Unroller {
    fn emit(&mut self, ins: &[Handle]) -> Vec<Handle> {
        let two_k = self.root_size as i64;
        let base = ins[0].shift;
        let slots: Vec<usize> = ins.iter().map(|h| h.slot).collect();
        let shifts = ins.iter().map(|h| (h.shift - base).rem_euclid(two_k) as u32).collect();
        let stage = slots.iter().map(|&s| self.ready[s]).max().unwrap_or(0);
        for &s in &slots {
            self.ready[s] = stage + 1;
        }
        if self.stages.len() <= stage {
            self.stages.resize(stage + 1, Stage { butterflies: Vec::new() });
        }
        self.stages[stage].butterflies.push(Butterfly { slots: slots.clone(), shifts });
        // the common factor r^{base} stays pending on every output
        slots.into_iter().map(|slot| Handle { slot, shift: base }).collect()
    }

    fn run(&mut self, f: &Spl, v: Vec<Handle>) -> Result<Vec<Handle>, String> {
        Ok(match f {
            Spl::Identity(_) => v,
            Spl::StridePerm { n, m } => {
                let q = n / m;
                let mut y = v.clone();
                for i in 0..*m {
                    for j in 0..q {
                        y[i * q + j] = v[j * m + i];
                    }
                }
                y
            }
            Spl::TwiddleDiag { m, n } => {
                // ω_{mn} = r^{K/(mn)}
                let step = (self.root_size / (m * n)) as i64;
                let mut y = v;
                for i in 0..*m {
                    for j in 0..*n {
                        y[i * n + j].shift += step * (i * j) as i64;
                    }
                }
                y
            }
            Spl::Dft(2) | Spl::Dft(4) => self.emit(&v),
            Spl::Dft(n) => return Err(format!("the unroller has no leaf for DFT_{n}; expand it first")),
            Spl::Tensor(a, b) => {
                let (ma, nb) = (a.size(), b.size());
                let mut y = Vec::with_capacity(v.len());
                for blk in v.chunks(nb) {
                    y.extend(self.run(b, blk.to_vec())?);
                }
                if matches!(**a, Spl::Identity(_)) {
                    return Ok(y);
                }
                let mut z = y.clone();
                for j in 0..nb {
                    let col: Vec<Handle> = (0..ma).map(|i| y[i * nb + j]).collect();
                    for (i, h) in self.run(a, col)?.into_iter().enumerate() {
                        z[i * nb + j] = h;
                    }
                }
                z
            }
            Spl::Compose(fs) => {
                let mut v = v;
                for g in fs.iter().rev() {
                    v = self.run(g, v)?;
                }
                v
            }
        })
    }
}

impl Program {
    /// Unrolls DFT_K (K = 2k) with root r by the radix's breakdown rule.
    pub fn unroll(k: usize, radix: Radix) -> Result<Program, String> {
        Self::unroll_size(k, 2 * k, radix)
    }

    /// Unrolls DFT_n for n | 2k with root ω_n = r^{2k/n} (the small last
    /// level of sizes that are not powers of K).
    pub fn unroll_size(k: usize, n: usize, radix: Radix) -> Result<Program, String> {
        if !k.is_power_of_two() || !(2..=128).contains(&k) {
            return Err(format!("k = {k} is not supported by the generator: k must be a power of two from 2 to 128"));
        }
        if !n.is_power_of_two() || n < 2 || n > 2 * k {
            return Err(format!("DFT_{n} is not a base case for k = {k}: need a power of two 2 ≤ n ≤ 2k"));
        }
        Self::from_formula(k, radix, expand(n, radix))
    }

    /// Unrolls any formula of size n | 2k built from DFT_2/DFT_4 leaves, permutations and twiddles.
    pub fn from_formula(k: usize, radix: Radix, formula: Spl) -> Result<Program, String> {
        let size = formula.check()?;
        if !size.is_power_of_two() || size < 2 || !(2 * k).is_multiple_of(size) {
            return Err(format!("formula {formula} has size {size}, which does not divide 2k = {}", 2 * k));
        }
        let mut u = Unroller { root_size: 2 * k, ready: vec![0; size], stages: Vec::new() };
        let input = (0..size).map(|slot| Handle { slot, shift: 0 }).collect();
        let out = u.run(&formula, input)?;
        Ok(Program {
            k,
            size,
            radix,
            formula,
            stages: u.stages,
            output_slots: out.iter().map(|h| h.slot).collect(),
            output_shifts: out.iter().map(|h| h.shift.rem_euclid(2 * k as i64) as u32).collect(),
        })
    }

    /// Runs the program on K elements with exact host arithmetic.
    pub fn run(&self, field: &Field, x: &[Digits]) -> Vec<Digits> {
        assert_eq!(field.k(), self.k);
        assert_eq!(x.len(), self.size);
        let mut s = x.to_vec();
        for stage in &self.stages {
            for bf in &stage.butterflies {
                let ins: Vec<Digits> = bf.slots.iter().zip(&bf.shifts).map(|(&i, &sh)| field.negacyclic_shift(&s[i], sh as i64)).collect();
                let outs = match bf.radix() {
                    2 => vec![field.add(&ins[0], &ins[1]), field.sub(&ins[0], &ins[1])],
                    _ => dft4(field, &ins, self.k as i64 / 2),
                };
                for (&i, o) in bf.slots.iter().zip(outs) {
                    s[i] = o;
                }
            }
        }
        self.output_slots.iter().zip(&self.output_shifts).map(|(&slot, &sh)| field.negacyclic_shift(&s[slot], sh as i64)).collect()
    }

    /// The op counts of the program.
    pub fn descriptor(&self) -> Descriptor {
        let all: Vec<&Butterfly> = self.stages.iter().flat_map(|s| &s.butterflies).collect();
        let count = |r: usize| all.iter().filter(|b| b.radix() == r).count();
        let inputs: Vec<u32> = all.iter().flat_map(|b| b.shifts[1..].iter().copied()).collect();
        let mut amounts: Vec<u32> = inputs.iter().copied().filter(|&s| s != 0).collect();
        amounts.extend(self.output_shifts.iter().copied().filter(|&s| s != 0));
        amounts.sort_unstable();
        amounts.dedup();
        Descriptor {
            size: self.size,
            k: self.k,
            radix: self.radix.number(),
            stages: self.stages.len(),
            butterflies: all.len(),
            dft2: count(2),
            dft4: count(4),
            shifts: inputs.iter().filter(|&&s| s != 0).count(),
            trivial_shifts: inputs.iter().filter(|&&s| s == 0).count(),
            negations: inputs.iter().filter(|&&s| s as usize == self.k).count(),
            internal_shifts: count(4),
            shift_amounts: amounts,
        }
    }
}

/// DFT_4 with ω_4 = r^{k/2}: X0 = (a+c)+(b+d), X1 = (a−c)+ω(b−d),
/// X2 = (a+c)−(b+d), X3 = (a−c)−ω(b−d).
pub fn dft4(field: &Field, x: &[Digits], w4_shift: i64) -> Vec<Digits> {
    let t0 = field.add(&x[0], &x[2]);
    let t1 = field.sub(&x[0], &x[2]);
    let t2 = field.add(&x[1], &x[3]);
    let t3 = field.negacyclic_shift(&field.sub(&x[1], &x[3]), w4_shift);
    vec![field.add(&t0, &t2), field.add(&t1, &t3), field.sub(&t0, &t2), field.sub(&t1, &t3)]
}
