//! One Karatsuba level for the twiddle products of `f_mul_lazy`
//! ([`ArithSpec::karatsuba_lazy`]).
//!
//! With h = k/2, x = X0 + T^h X1 and y likewise (T = r, T^k = −1),
//! X0 Y1 + X1 Y0 = M − L − H for L = X0 Y0, H = X1 Y1 and
//! M = (X0 + X1)(Y0 + Y1), so
//!
//!   x y mod T^k + 1 = L − H + T^h (M − L − H):
//!
//! 3 h² digit products instead of 4 h².  A digit sum x_j + x_(j+h) of
//! canonical inputs stays below 2r ≤ 2^64 (r < 2^63), so M's products are
//! 64×64-bit products like the others.  Pair i < h gives coefficients i and
//! i + h.  With A = L_i, B = L_(i+h), C = H_i, D = H_(i+h), E = M_i and
//! F = M_(i+h) (zero beyond degree 2h − 2):
//!
//!   c_i     = (A + D + B) − (C + F)
//!   c_(i+h) = (B + E) − (A + D + C)
//!
//! so A and D share one accumulator, A + D + C is taken before F joins C,
//! and B seeds the sum that E joins.  Each coefficient is the exact signed
//! value the schoolbook form gives (|c| < k r², every partial sum below
//! 3k r² < 2^160), so the split that follows is unchanged.  The
//! coefficients come out in two carry chains, 0 … h − 1 and h … k − 1: the
//! second starts with no carry, and the first's last carry joins digit h at
//! the end, as the second's wraps around to digit 0.

use super::arith::{ArithSpec, C};

/// A factor of one digit product.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Operand {
    /// Digit j of x.
    X(usize),
    /// Digit j of y.
    Y(usize),
    /// x_j + x_(j+h).
    XSum(usize),
    /// y_j + y_(j+h).
    YSum(usize),
}

impl Operand {
    fn c(self) -> String {
        match self {
            Operand::X(j) => format!("x[{j}]"),
            Operand::Y(j) => format!("y[{j}]"),
            Operand::XSum(j) => format!("xs{j}"),
            Operand::YSum(j) => format!("ys{j}"),
        }
    }
}

type Products = Vec<(Operand, Operand)>;

/// The digit products of pair i of a product of 2h digits: A + D (sharing an
/// accumulator), B, C, E and F of the module's formula.
#[derive(Debug)]
struct Pair {
    ad: Products,
    b: Products,
    c: Products,
    e: Products,
    f: Products,
}

/// Pair i < h: A = L_i, D = H_(i+h), B = L_(i+h), C = H_i, E = M_i, F = M_(i+h)
/// (L, H, M: the half-products X0 Y0, X1 Y1, (X0 + X1)(Y0 + Y1)).
fn pair(h: usize, i: usize) -> Pair {
    use Operand::*;
    let low = |j: usize, l: usize| (X(j), Y(l));
    let high = |j: usize, l: usize| (X(j + h), Y(l + h));
    let sum = |j: usize, l: usize| (XSum(j), YSum(l));
    let upto_i = || 0..i + 1;
    let above_i = || i + 1..h;
    Pair {
        ad: upto_i().map(|j| low(j, i - j)).chain(above_i().map(|j| high(j, i + h - j))).collect(),
        b: above_i().map(|j| low(j, i + h - j)).collect(),
        c: upto_i().map(|j| high(j, i - j)).collect(),
        e: upto_i().map(|j| sum(j, i - j)).collect(),
        f: above_i().map(|j| sum(j, i + h - j)).collect(),
    }
}

/// Accumulates `ts` into `acc`: declared and set by the first product where
/// `declare`, else added to its value.
fn accumulate(c: &mut C, acc: &str, ts: &Products, declare: bool) {
    if declare {
        c.line(format!("srgfn_acc {acc};"));
    }
    for (n, (xo, yo)) in ts.iter().enumerate() {
        c.line(super::mul::accumulate_product(acc, &xo.c(), &yo.c(), declare && n == 0));
    }
}

/// The products of f_mul_lazy in Karatsuba form: v2:v1:v0 of every
/// coefficient, then `per_coefficient(i)`, which reads and writes the carry
/// cl, ch of its chain; `join_first_chain(h)` adds the first chain's last
/// carry (in cl, ch) to digit h, after which cl, ch hold the second chain's.
pub(super) fn products(c: &mut C, a: &ArithSpec, per_coefficient: &dyn Fn(&mut C, &str), join_first_chain: &dyn Fn(&mut C, usize)) {
    let h = a.k / 2;
    c.line("/* one Karatsuba level (emit/karatsuba.rs): digit sums of the halves, below 2r */");
    for j in 0..h {
        c.line(format!("const ulong xs{j} = x[{j}] + x[{}], ys{j} = y[{j}] + y[{}];", j + h, j + h));
    }
    c.line("ulong v0, v1, v2;");
    c.line("ulong cl2 = 0, ch2 = 0; /* the carry of the chain h … k − 1 */");
    let swap = "{ const ulong tl_ = cl, th_ = ch; cl = cl2; ch = ch2; cl2 = tl_; ch2 = th_; }";
    for i in 0..h {
        let p = pair(h, i);
        c.open(format!("{{ /* coefficients {i} and {}: (A + D + B) - (C + F) and (B + E) - (A + D + C) */", i + h));
        // A + D + C before F joins C; B after, so that at most four accumulators live
        accumulate(c, "kad", &p.ad, true);
        accumulate(c, "kc", &p.c, true);
        c.line("srgfn_acc n2 = kad; SRGFN_ACC_ADDTO(n2, kc);");
        accumulate(c, "kc", &p.f, false);
        if !p.b.is_empty() {
            accumulate(c, "kb", &p.b, true);
            c.line("SRGFN_ACC_ADDTO(kad, kb);");
        }
        c.line("SRGFN_ACC_DIFF(v0, v1, v2, kad, kc);");
        c.open("{");
        per_coefficient(c, &i.to_string());
        c.close("}");
        accumulate(c, "kb", &p.e, p.b.is_empty());
        c.line("SRGFN_ACC_DIFF(v0, v1, v2, kb, n2);");
        c.line(swap);
        c.open("{");
        per_coefficient(c, &(i + h).to_string());
        c.close("}");
        c.line(swap);
        c.close("}");
    }
    join_first_chain(c, h);
    c.line("cl = cl2; ch = ch2;");
}

/// `SRGFN_ACC_ADDTO(d, b)`: d += b for two `srgfn_acc` (one carry chain per
/// part in PTX, the three words with their carries in C).
pub(super) fn accumulator_add(c: &mut C, a: &ArithSpec) {
    if a.ptx {
        c.line("#define SRGFN_ACC_ADDTO(d, b) asm(\"add.cc.u32 %0, %0, %8; addc.cc.u32 %1, %1, %9; addc.cc.u32 %2, %2, %10; addc.cc.u32 %3, %3, %11; addc.u32 %4, %4, %12;\\n\\t\" \\");
        c.line("    \"add.cc.u32 %5, %5, %13; addc.cc.u32 %6, %6, %14; addc.u32 %7, %7, %15;\" \\");
        c.line("    : \"+r\"((d).e0), \"+r\"((d).e1), \"+r\"((d).e2), \"+r\"((d).e3), \"+r\"((d).e4), \"+r\"((d).o1), \"+r\"((d).o2), \"+r\"((d).o3) \\");
        c.line(
            "    : \"r\"((b).e0), \"r\"((b).e1), \"r\"((b).e2), \"r\"((b).e3), \"r\"((b).e4), \"r\"((b).o1), \"r\"((b).o2), \"r\"((b).o3))",
        );
    } else {
        c.line("#define SRGFN_ACC_ADDTO(d, b) do { const ulong s0_ = (d).a0 + (b).a0, c0_ = s0_ < (b).a0; const ulong t1_ = (d).a1 + (b).a1, c1_ = t1_ < (b).a1; \\");
        c.line("    const ulong s1_ = t1_ + c0_; (d).a2 += (b).a2 + c1_ + (s1_ < c0_); (d).a0 = s0_; (d).a1 = s1_; } while (0)");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::{BigInt, BigUint};
    use rand::{Rng, SeedableRng};

    fn value(o: Operand, x: &[u64], y: &[u64], h: usize) -> BigUint {
        match o {
            Operand::X(j) => x[j].into(),
            Operand::Y(j) => y[j].into(),
            Operand::XSum(j) => BigUint::from(x[j]) + x[j + h],
            Operand::YSum(j) => BigUint::from(y[j]) + y[j + h],
        }
    }

    fn sum(ts: &Products, x: &[u64], y: &[u64], h: usize) -> BigInt {
        ts.iter().map(|&(a, b)| BigInt::from(value(a, x, y, h) * value(b, x, y, h))).sum()
    }

    /// The schoolbook coefficient i of x y mod T^k + 1.
    fn negacyclic(x: &[u64], y: &[u64], i: usize) -> BigInt {
        let k = x.len();
        (0..k)
            .map(|j| {
                let p = BigInt::from(x[j]) * y[(i + k - j) % k];
                if j <= i {
                    p
                } else {
                    -p
                }
            })
            .sum()
    }

    /// Every pair's formula gives the schoolbook coefficients, for random
    /// canonical digits and the largest ones (p − 1 = (0, …, 0, r)
    /// included), with 3 h² products; every partial sum stays below 2^160.
    #[test]
    fn pairs_give_the_negacyclic_coefficients() {
        let r = (1u64 << 62) + (1u64 << 36);
        let mut rng = rand::rngs::StdRng::seed_from_u64(48);
        for k in [4usize, 8, 16] {
            let h = k / 2;
            let mut inputs: Vec<(Vec<u64>, Vec<u64>)> =
                (0..20).map(|_| ((0..k).map(|_| rng.gen_range(0..r)).collect(), (0..k).map(|_| rng.gen_range(0..r)).collect())).collect();
            let mut top = vec![0u64; k];
            top[k - 1] = r;
            inputs.push((vec![r - 1; k], vec![r - 1; k]));
            inputs.push((top.clone(), vec![r - 1; k]));
            inputs.push((top.clone(), top));
            for (x, y) in &inputs {
                let mut products = 0;
                for i in 0..h {
                    let p = pair(h, i);
                    let [ad, b, c, e, f] = [&p.ad, &p.b, &p.c, &p.e, &p.f].map(|t| sum(t, x, y, h));
                    assert_eq!(&ad + &b - &c - &f, negacyclic(x, y, i), "k = {k}, coefficient {i}");
                    assert_eq!(&b + &e - &ad - &c, negacyclic(x, y, i + h), "k = {k}, coefficient {}", i + h);
                    for s in [&ad + &b, &c + &f, &b + &e, &ad + &c] {
                        assert!(s < BigInt::from(1) << 160u32);
                    }
                    products += p.ad.len() + p.b.len() + p.c.len() + p.e.len() + p.f.len();
                }
                assert_eq!(products, 3 * h * h);
            }
        }
    }
}
