//! The Stockham index maps as data: each map is an expression over named
//! values, evaluated on the host ([`Pass`](crate::plan::Pass)) and printed as
//! the C macro every pass kernel calls ([`render_macros`]), so the map a
//! kernel runs is the map the host's plans and references use.
//!
//! A pass (R, p) on vectors of length n: block g = vec·(n/R) + i, T = n/R,
//! κ = i mod p.  Input t of block i is element i + t·T of its vector, it is
//! multiplied by w^((t·κ) << shift), and output t is element
//! (i − κ)·R + κ + t·p.  With ω_n = w^(2^shift'), shift' = log2(n/(R·p)) gives
//! the exponent of ω_n ([`Pass::twiddle_exponent`](crate::plan::Pass::twiddle_exponent));
//! the kernels' table root w also covers n ≤ K, so they take the shift of
//! `PlanShape::twiddle_shift`, which adds log2(2k/n) there.  n, R and p are
//! powers of two with R·p dividing n (every plan's passes; the runtime refuses
//! other shapes).

use std::sync::OnceLock;

/// An index expression in 64-bit unsigned arithmetic (OpenCL's `ulong`).
#[derive(Clone, Debug)]
pub enum Ix {
    /// A parameter of the map, by name.
    Var(&'static str),
    /// a + b.
    Add(Box<Ix>, Box<Ix>),
    /// a − b (a ≥ b wherever the maps use it).
    Sub(Box<Ix>, Box<Ix>),
    /// a · b.
    Mul(Box<Ix>, Box<Ix>),
    /// a · 2^b.
    Shl(Box<Ix>, Box<Ix>),
    /// ⌊a / 2^b⌋.
    Shr(Box<Ix>, Box<Ix>),
    /// The value widened to 64 bits before the operation above it
    /// (`(ulong)` in C: the kernels hold slot numbers as `uint`).
    Wide(Box<Ix>),
}

fn var(name: &'static str) -> Ix {
    Ix::Var(name)
}
fn add(a: Ix, b: Ix) -> Ix {
    Ix::Add(Box::new(a), Box::new(b))
}
fn sub(a: Ix, b: Ix) -> Ix {
    Ix::Sub(Box::new(a), Box::new(b))
}
fn mul(a: Ix, b: Ix) -> Ix {
    Ix::Mul(Box::new(a), Box::new(b))
}
fn shl(a: Ix, b: Ix) -> Ix {
    Ix::Shl(Box::new(a), Box::new(b))
}
fn shr(a: Ix, b: Ix) -> Ix {
    Ix::Shr(Box::new(a), Box::new(b))
}
fn wide(a: Ix) -> Ix {
    Ix::Wide(Box::new(a))
}

impl Ix {
    /// C's precedence of the expression's top operator (higher binds tighter).
    fn precedence(&self) -> u8 {
        match self {
            Ix::Var(_) => 10,
            Ix::Wide(_) => 9,
            Ix::Mul(..) => 5,
            Ix::Add(..) | Ix::Sub(..) => 4,
            Ix::Shl(..) | Ix::Shr(..) => 3,
        }
    }

    /// The value with `args` bound to the parameters named in `params`.
    /// Panics on a name missing from `params` and on a shift by 64 or more
    /// (undefined in C): the maps below name only their parameters, and
    /// their shifts stay below 64 for every pass shape.
    pub fn eval(&self, params: &[&str], args: &[u64]) -> u64 {
        let go = |x: &Ix| x.eval(params, args);
        match self {
            Ix::Var(v) => args[params.iter().position(|p| p == v).unwrap_or_else(|| panic!("no parameter {v}"))],
            Ix::Add(a, b) => go(a).wrapping_add(go(b)),
            Ix::Sub(a, b) => go(a).wrapping_sub(go(b)),
            Ix::Mul(a, b) => go(a).wrapping_mul(go(b)),
            Ix::Shl(a, b) => {
                let s = go(b);
                go(a).checked_shl(u32::try_from(s).unwrap_or(u32::MAX)).unwrap_or_else(|| panic!("a shift by {s} >= 64 in {self:?}"))
            }
            Ix::Shr(a, b) => {
                let s = go(b);
                go(a).checked_shr(u32::try_from(s).unwrap_or(u32::MAX)).unwrap_or_else(|| panic!("a shift by {s} >= 64 in {self:?}"))
            }
            Ix::Wide(a) => go(a),
        }
    }

    /// C text, every parameter in parentheses (a macro body): operands in
    /// parentheses where C's precedence needs them, and the operands of a
    /// shift always, for the reader.
    pub fn c(&self) -> String {
        let operand = |x: &Ix, min: u8| {
            let s = x.c();
            if x.precedence() < min {
                format!("({s})")
            } else {
                s
            }
        };
        match self {
            Ix::Var(v) => format!("({v})"),
            Ix::Wide(a) => format!("(ulong){}", operand(a, 10)),
            // left-associative: a left operand of the same precedence needs none
            Ix::Add(a, b) => format!("{} + {}", operand(a, 4), operand(b, 5)),
            Ix::Sub(a, b) => format!("{} - {}", operand(a, 4), operand(b, 5)),
            Ix::Mul(a, b) => format!("{} * {}", operand(a, 5), operand(b, 6)),
            Ix::Shl(a, b) => format!("{} << {}", operand(a, 10), operand(b, 10)),
            Ix::Shr(a, b) => format!("{} >> {}", operand(a, 10), operand(b, 10)),
        }
    }
}

/// A named map: a C macro of its parameters, and its host evaluation.
#[derive(Debug)]
pub struct IndexMap {
    /// The C macro's name.
    pub name: &'static str,
    /// The parameters, in the macro's order.
    pub params: &'static [&'static str],
    /// What the map computes.
    pub expr: Ix,
    /// One line for the generated source.
    pub doc: &'static str,
}

impl IndexMap {
    /// The map's value for these arguments (in the order of `params`);
    /// panics on a wrong number of arguments.
    pub fn eval(&self, args: &[u64]) -> u64 {
        assert_eq!(args.len(), self.params.len(), "{} takes {} arguments", self.name, self.params.len());
        self.expr.eval(self.params, args)
    }

    /// `#define NAME(params) (expression)`, after a comment line.
    pub fn c_macro(&self) -> String {
        format!("/* {} */\n#define {}({}) ({})\n", self.doc, self.name, self.params.join(", "), self.expr.c())
    }
}

/// Element of input t of block i of vector vec: vec·n + i + t·T (T = n/R).
pub fn stockham_input() -> &'static IndexMap {
    static MAP: OnceLock<IndexMap> = OnceLock::new();
    MAP.get_or_init(|| IndexMap {
        name: "SRGFN_IN",
        params: &["vec", "n", "i", "t", "T"],
        expr: add(add(mul(var("vec"), var("n")), var("i")), mul(wide(var("t")), var("T"))),
        doc: "input t of block i of vector vec (length n, T = n/R blocks): element vec n + i + t T",
    })
}

/// Element of output t of block i (κ = i mod p): vec·n + (i − κ)·R + κ + t·p.
pub fn stockham_output() -> &'static IndexMap {
    static MAP: OnceLock<IndexMap> = OnceLock::new();
    MAP.get_or_init(|| IndexMap {
        name: "SRGFN_OUT",
        params: &["vec", "n", "i", "kappa", "t", "R", "p"],
        expr: add(
            add(add(mul(var("vec"), var("n")), mul(sub(var("i"), var("kappa")), var("R"))), var("kappa")),
            mul(wide(var("t")), var("p")),
        ),
        doc: "output t of block i (kappa = i mod p) of a pass (R, p): element vec n + (i - kappa) R + kappa + t p",
    })
}

/// Exponent of w in the twiddle of input t of block i: (t·κ) << shift.
pub fn twiddle_exponent() -> &'static IndexMap {
    static MAP: OnceLock<IndexMap> = OnceLock::new();
    MAP.get_or_init(|| IndexMap {
        name: "SRGFN_TW_EXP",
        params: &["t", "kappa", "shift"],
        expr: shl(mul(wide(var("t")), var("kappa")), var("shift")),
        doc: "input t of block i (kappa = i mod p) is multiplied by w^((t kappa) << shift), shift = log2(n / (R p))",
    })
}

/// h with `x` (0 or 1) inserted as bit s: h + ((⌊h/2^s⌋ + x)·2^s).
fn insert_bit(h: Ix, s: Ix, x: Ix) -> Ix {
    add(h.clone(), shl(add(shr(h, s.clone()), x), s))
}

/// Block of index h of a launch over one half of a pass's blocks: the blocks
/// whose bit `s` is `half`, i.e. h with `half` inserted as bit s:
/// h + ((⌊h/2^s⌋ + half)·2^s).  s = 63 with half = 0 is the whole pass (the
/// identity for h < 2^63).  `plan::Halves` says when a pass may run in halves.
pub fn half_block() -> &'static IndexMap {
    static MAP: OnceLock<IndexMap> = OnceLock::new();
    MAP.get_or_init(|| IndexMap {
        name: "SRGFN_HALF_BLOCK",
        params: &["h", "s", "half_index"],
        expr: insert_bit(var("h"), var("s"), var("half_index")),
        doc: "block of index h of a launch over the blocks whose bit s is half_index (s = 63, half_index = 0: every block)",
    })
}

/// Block of index h of a launch over one quarter of a pass's blocks: those
/// whose bit `s` is `half_index` and bit `s2` (> s) is `index2`, i.e.
/// [`half_block`] of h at s, then at s2.  s2 = 63 with index2 = 0 is the half
/// by bit s alone.  `plan::Chain` says when a pass may run in quarters.
pub fn quarter_block() -> &'static IndexMap {
    static MAP: OnceLock<IndexMap> = OnceLock::new();
    MAP.get_or_init(|| IndexMap {
        name: "SRGFN_QUARTER_BLOCK",
        params: &["h", "s", "half_index", "s2", "index2"],
        expr: insert_bit(insert_bit(var("h"), var("s"), var("half_index")), var("s2"), var("index2")),
        doc: "block of index h of a launch over the blocks whose bit s is half_index and bit s2 > s is index2 (s2 = 63, index2 = 0: the half by bit s)",
    })
}

/// The superblock order of a vector that the first launch of a plan reads
/// fastest (`emit::first2`): with T = n/R², natural element vec·n + j + m·T
/// (j < T, m < R²) sits at vec·n + j·R² + m = g·R² + m, g = vec·T + j, so
/// that the R² inputs of superblock g are consecutive.  Per vector and digit
/// plane it is the transpose of the R² × T matrix of the natural order.
pub fn superblock_element() -> &'static IndexMap {
    static MAP: OnceLock<IndexMap> = OnceLock::new();
    MAP.get_or_init(|| IndexMap {
        name: "SRGFN_SB_ELEM",
        params: &["g", "m", "lr2"],
        expr: add(shl(var("g"), var("lr2")), wide(var("m"))),
        doc: "element m (< R^2 = 2^lr2) of superblock g in the superblock order: natural element vec n + j + m n/R^2 at g R^2 + m, g = vec n/R^2 + j",
    })
}

/// Where natural element `i` of vectors of length `n` sits in the superblock
/// order of superblocks of `r2` = R² elements ([`superblock_element`]).
pub fn superblock_position(i: u64, n: u64, r2: u64) -> u64 {
    let t = n / r2;
    let (vec, rest) = (i / n, i % n);
    let (j, m) = (rest % t, rest / t);
    superblock_element().eval(&[vec * t + j, m, r2.trailing_zeros() as u64])
}

/// e mod 2^b, as a − ⌊a / 2^b⌋·2^b.
fn low_bits(a: Ix, b: Ix) -> Ix {
    sub(a.clone(), shl(shr(a, b.clone()), b))
}

/// Where p < G blocks i0, …, i0 + G − 1 of a work-group (i0 a multiple of G,
/// both powers of two) write their outputs, G·R consecutive elements from
/// vec·n + i0·R: element e of that run is output t = (e mod pR) / p of the
/// work-group's block (e / pR)·p + e mod p ([`output_run_block`]).  Written
/// with lp = log2 p and lr = log2 R, so that a warp's consecutive e are
/// consecutive words of each digit plane.
pub fn output_run_slot() -> &'static IndexMap {
    static MAP: OnceLock<IndexMap> = OnceLock::new();
    MAP.get_or_init(|| IndexMap {
        name: "SRGFN_RUN_T",
        params: &["e", "lp", "lr"],
        expr: shr(low_bits(var("e"), add(var("lp"), var("lr"))), var("lp")),
        doc: "element e of a work-group's output run (p < its blocks, p = 2^lp, R = 2^lr) is output (e mod pR) / p ...",
    })
}

/// The block of a work-group that element e of its output run comes from
/// ([`output_run_slot`]): (e / pR)·p + e mod p.
pub fn output_run_block() -> &'static IndexMap {
    static MAP: OnceLock<IndexMap> = OnceLock::new();
    MAP.get_or_init(|| IndexMap {
        name: "SRGFN_RUN_BLOCK",
        params: &["e", "lp", "lr"],
        expr: add(shl(shr(var("e"), add(var("lp"), var("lr"))), var("lp")), low_bits(var("e"), var("lp"))),
        doc: "... of the work-group's block (e / pR) p + e mod p",
    })
}

/// The maps as C macros, for the kernels' shared header.
pub fn render_macros() -> String {
    let mut out = String::from("/* The Stockham index maps of a pass (R, p) (generator/src/maps.rs; block g = vec (n/R) + i) */\n");
    for m in [
        stockham_input(),
        stockham_output(),
        twiddle_exponent(),
        half_block(),
        quarter_block(),
        output_run_slot(),
        output_run_block(),
        superblock_element(),
    ] {
        out.push_str(&m.c_macro());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_macros_print_what_the_kernels_wrote_before() {
        // the expressions of the kernels before the maps were data, parameters in parentheses
        assert_eq!(stockham_input().expr.c(), "(vec) * (n) + (i) + (ulong)(t) * (T)");
        assert_eq!(stockham_output().expr.c(), "(vec) * (n) + ((i) - (kappa)) * (R) + (kappa) + (ulong)(t) * (p)");
        assert_eq!(twiddle_exponent().expr.c(), "((ulong)(t) * (kappa)) << (shift)");
        assert_eq!(half_block().expr.c(), "(h) + ((((h) >> (s)) + (half_index)) << (s))");
        let text = render_macros();
        assert!(text.contains("#define SRGFN_IN(vec, n, i, t, T) ((vec) * (n) + (i) + (ulong)(t) * (T))\n"), "{text}");
    }

    /// A quarter is the half by its lower bit, then by its higher bit; with
    /// the second bit 63 and index 0 it is the half alone.  The quarters of
    /// a launch partition its blocks.
    #[test]
    fn quarters_are_halves_of_halves() {
        let (half, quarter) = (half_block(), quarter_block());
        for (s, s2) in [(0u64, 1u64), (2, 5), (7, 11), (7, 15), (3, 4)] {
            let count = 1u64 << (s2 + 2);
            let mut seen = std::collections::BTreeSet::new();
            for (x, y) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                for h in 0..count / 4 {
                    let g = quarter.eval(&[h, s, x, s2, y]);
                    assert_eq!(g, half.eval(&[half.eval(&[h, s, x]), s2, y]));
                    assert_eq!(((g >> s) & 1, (g >> s2) & 1), (x, y));
                    assert!(g < count && seen.insert(g));
                }
            }
            for h in 0..64 {
                assert_eq!(quarter.eval(&[h, s, 1, 63, 0]), half.eval(&[h, s, 1]));
            }
        }
    }

    #[test]
    fn precedence_decides_the_parentheses() {
        let e = mul(add(var("a"), var("b")), sub(var("c"), sub(var("d"), var("e"))));
        assert_eq!(e.c(), "((a) + (b)) * ((c) - ((d) - (e)))");
        assert_eq!(e.eval(&["a", "b", "c", "d", "e"], &[1, 2, 10, 4, 3]), 27);
        let e = sub(sub(var("a"), var("b")), var("c"));
        assert_eq!(e.c(), "(a) - (b) - (c)");
        assert_eq!(e.eval(&["a", "b", "c"], &[10, 3, 2]), 5);
    }

    /// Every pass kernel reads, twiddles and writes through the macros (the
    /// fused kernel's two-level output is written out beside `SRGFN_OUT`), and
    /// the header that defines them is the one each kernel file carries.
    #[test]
    fn every_pass_kernel_calls_the_maps() {
        use crate::emit::{emit, MulForm};
        use crate::rules::Radix;
        // the code alone: the maps' definitions and every comment dropped
        fn code(src: &str) -> String {
            let src = src.replace(&render_macros(), "");
            let mut out = String::new();
            let mut rest = src.as_str();
            while let Some(a) = rest.find("/*") {
                out.push_str(&rest[..a]);
                rest = rest[a..].find("*/").map_or("", |b| &rest[a + b + 2..]);
            }
            out.push_str(rest);
            out
        }
        for (expr, radix) in [("(2^64-2^50)^4+1", Radix::R2), ("(2^62+2^36)^16+1", Radix::R4), ("(2^63-2^40)^64+1", Radix::R4)] {
            let prime = crate::Prime::parse(expr).unwrap();
            let set = emit(&prime, radix, MulForm::Wide64).unwrap();
            let dft: Vec<_> = set.files.iter().filter(|f| f.name.starts_with("dft")).collect();
            assert!(dft.len() >= 2, "{expr}: {:?}", set.files.iter().map(|f| &f.name).collect::<Vec<_>>());
            for f in dft {
                assert!(f.source.contains(&render_macros()), "{expr} {}: no map definitions", f.name);
                let calls = code(&f.source);
                let maps: &[&str] =
                    if f.name.contains("fused") { &["SRGFN_IN(", "SRGFN_TW_EXP("] } else { &["SRGFN_IN(", "SRGFN_OUT(", "SRGFN_TW_EXP("] };
                for m in maps {
                    assert!(calls.contains(m), "{expr} {}: {m} defined but not called", f.name);
                }
            }
        }
    }

    /// The output run of a work-group of G blocks with p < G is G·R
    /// consecutive elements: element e is, by `SRGFN_OUT`, output t of block
    /// b of the run maps (so every output of the G blocks once).
    #[test]
    fn the_output_run_covers_the_work_groups_outputs_once() {
        let (n, vec) = (1u64 << 12, 2u64);
        for (g, lr) in [(8u64, 5u32), (16, 4), (32, 3), (64, 2)] {
            let r = 1u64 << lr;
            for lp in 0..g.trailing_zeros() {
                let p = 1u64 << lp;
                let i0 = 3 * g;
                for e in 0..g * r {
                    let t = output_run_slot().eval(&[e, lp as u64, lr as u64]);
                    let b = output_run_block().eval(&[e, lp as u64, lr as u64]);
                    assert!(t < r && b < g, "G = {g} R = {r} p = {p} e = {e}");
                    let i = i0 + b;
                    let out = stockham_output().eval(&[vec, n, i, i % p, t, r, p]);
                    assert_eq!(out, vec * n + i0 * r + e, "G = {g} R = {r} p = {p} e = {e}");
                }
            }
        }
    }

    /// The superblock order is a permutation, and per vector and digit plane
    /// the transpose of the R² × T matrix (what the runtime's `transpose`
    /// kernel does to reorder a vector): row m, column j to row j, column m.
    #[test]
    fn the_superblock_order_is_the_transpose_of_each_vector() {
        for (n, r2) in [(16u64, 16u64), (64, 16), (1 << 10, 256), (1 << 9, 64)] {
            let t = n / r2;
            let mut seen = vec![false; 2 * n as usize];
            for i in 0..2 * n {
                let pos = superblock_position(i, n, r2);
                let (vec, m, j) = (i / n, (i % n) / t, (i % n) % t);
                assert_eq!(pos, vec * n + j * r2 + m, "n = {n} R² = {r2} i = {i}");
                assert!(!std::mem::replace(&mut seen[pos as usize], true));
            }
        }
    }

    #[test]
    fn the_maps_evaluate_the_stockham_pass() {
        // a pass (R, p) = (8, 4) on vectors of n = 256: T = 32
        let (n, r, p, vec) = (256u64, 8u64, 4u64, 3u64);
        for i in 0..n / r {
            let kappa = i % p;
            for t in 0..r {
                assert_eq!(stockham_input().eval(&[vec, n, i, t, n / r]), vec * n + i + t * (n / r));
                assert_eq!(stockham_output().eval(&[vec, n, i, kappa, t, r, p]), vec * n + (i - kappa) * r + kappa + t * p);
                assert_eq!(twiddle_exponent().eval(&[t, kappa, 3]), t * kappa * 8);
            }
        }
    }
}
