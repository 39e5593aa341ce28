//! Orders of a work-group's twiddled inputs that put those whose twiddle
//! needs f_mul first, so that whole warps skip it: [`SkipOrder`] for the
//! first-two-passes kernel, [`RowSkipOrder`] for a table kernel's pass of
//! radix R at p = K.
//!
//! [`SkipOrder`] is the order in which the first-two-passes kernel (`emit::first2`) runs
//! the second pass's twiddles: w^(a·t0) for input a of row t0 of each
//! superblock, a power of r (no product, only a rotation) exactly where
//! R | a·t0.  In the natural order (e → a = e mod R, t0 = e / R mod R) those
//! elements share every warp with others that need f_mul, so no warp skips
//! it.  This order takes, superblock by superblock, the pairs that need a
//! product first, then the rest: the work-group's products fill
//! ⌈sbn·P / 32⌉ warp-rounds instead of sbn·R² / 32 (k = 8, R = 16, two
//! superblocks: 13 instead of 16), and the rest run without one.
//!
//! The pairs are counted by the 2-adic valuation v of a (a = 2^v·(2c + 1)):
//! a·t0 is a multiple of R = 2^L exactly where t0 is a multiple of
//! m_v = 2^(L − v), so class v holds R/2^(v+1) values of a, each with the
//! R − 2^v values of t0 in [1, R) that are not multiples of m_v (the i-th of
//! them is i + 1 + ⌊i / (m_v − 1)⌋) and the 2^v − 1 that are (m_v·(i + 1)).
//! The rest are a = 0 (any t0) and t0 = 0 (any a ≥ 1).

/// The i-th integer ≥ 1 that is not a multiple of m ≥ 2 (i from 0).
fn nth_non_multiple(i: usize, m: usize) -> usize {
    i + 1 + i / (m - 1)
}

/// [`nth_non_multiple`] as C, of the C expression `i`.
fn c_nth_non_multiple(i: &str, m: usize) -> String {
    format!("{i} + 1 + {i} / {}", m - 1)
}

/// One class of a's 2-adic valuation: its pairs are `base` + c·`per_a` + i.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Class {
    v: u32,
    base: usize,
    per_a: usize,
}

/// The order of one superblock's R² pairs (a, t0): [`SkipOrder::products`]
/// pairs that need a product, then the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkipOrder {
    size: usize,
    /// Pairs per superblock that need a product (R ∤ a·t0).
    pub products: usize,
    needing: Vec<Class>,
    /// The powers of r with a, t0 ≥ 1 (after a = 0 and t0 = 0).
    free: Vec<Class>,
}

impl SkipOrder {
    /// The order for DFT_R, R = `size` a power of two ≥ 2.
    pub fn new(size: usize) -> SkipOrder {
        assert!(size.is_power_of_two() && size >= 2, "DFT_{size}: R a power of two ≥ 2");
        let l = size.trailing_zeros();
        let (mut needing, mut free) = (Vec::new(), Vec::new());
        let (mut products, mut rest) = (0, 2 * size - 1);
        for v in 0..l {
            let values_of_a = size >> (v + 1);
            needing.push(Class { v, base: products, per_a: size - (1 << v) });
            products += values_of_a * (size - (1 << v));
            if v > 0 {
                free.push(Class { v, base: rest, per_a: (1 << v) - 1 });
                rest += values_of_a * ((1 << v) - 1);
            }
        }
        debug_assert_eq!(products + rest, size * size);
        SkipOrder { size, products, needing, free }
    }

    /// (superblock, a, t0) of element e of a work-group of `sbn` superblocks
    /// (what [`Self::c_code`] computes).
    pub fn pair(&self, e: usize, sbn: usize) -> (usize, usize, usize) {
        let r = self.size;
        let rest = r * r - self.products;
        if e < sbn * self.products {
            let j = e % self.products;
            let c = self.needing.iter().rev().find(|c| j >= c.base).expect("class 0 starts at 0");
            let (q, i) = ((j - c.base) / c.per_a, (j - c.base) % c.per_a);
            let m = r >> c.v;
            (e / self.products, (1 << c.v) * (2 * q + 1), nth_non_multiple(i, m))
        } else {
            let f = e - sbn * self.products;
            let (sb, j) = (f / rest, f % rest);
            let (a, t0) = if j < r {
                (0, j)
            } else if j < 2 * r - 1 {
                (j - r + 1, 0)
            } else {
                let c = self.free.iter().rev().find(|c| j >= c.base).expect("a class of powers of r");
                let (q, i) = ((j - c.base) / c.per_a, (j - c.base) % c.per_a);
                ((1 << c.v) * (2 * q + 1), (r >> c.v) * (i + 1))
            };
            (sb, a, t0)
        }
    }

    /// C statements that declare `sb`, `a` and `t0` of the work-group's
    /// element `e` (a `uint` below `sbn`·R²), each line indented by `indent`.
    pub fn c_code(&self, sbn: usize, indent: usize) -> String {
        let r = self.size;
        let (p, rest) = (self.products, r * r - self.products);
        let branch = |classes: &[Class], pair: &dyn Fn(&Class) -> String| -> Vec<String> {
            let mut out = Vec::new();
            for (n, c) in classes.iter().enumerate().rev() {
                out.push(match (n + 1 == classes.len(), c.base) {
                    (true, base) => format!("    if (j >= {base}) {{"),
                    (false, 0) => "    } else {".to_string(),
                    (false, base) => format!("    }} else if (j >= {base}) {{"),
                });
                out.push(format!("        const uint c = (j - {0}) / {1}, i = (j - {0}) % {1};", c.base, c.per_a));
                out.push(format!("        {}", pair(c)));
            }
            out
        };
        let mut lines = vec![
            format!("/* (sb, a, t0) of element e (emit::skip_order): per superblock first the {p} pairs whose twiddle"),
            format!(" * needs f_mul (R ∤ a t0), then the {rest} powers of r, so that whole warps skip the product */"),
            "uint sb, a, t0;".to_string(),
            format!("if (e < {}) {{", sbn * p),
            format!("    sb = e / {p};"),
            format!("    const uint j = e % {p};"),
        ];
        lines.extend(branch(&self.needing, &|c| format!("a = {} * (2 * c + 1); t0 = {};", 1 << c.v, c_nth_non_multiple("i", r >> c.v))));
        lines.push("    }".into());
        lines.push("} else {".into());
        lines.push(format!("    sb = (e - {}) / {rest};", sbn * p));
        lines.push(format!("    const uint j = (e - {}) % {rest};", sbn * p));
        lines.push(format!("    if (j < {r}) {{ a = 0; t0 = j; }}"));
        lines.push(format!("    else if (j < {}) {{ a = j - {}; t0 = 0; }}", 2 * r - 1, r - 1));
        if !self.free.is_empty() {
            let mut free = branch(&self.free, &|c| format!("a = {} * (2 * c + 1); t0 = {} * (i + 1);", 1 << c.v, r >> c.v));
            free[0] = free[0].replacen("    if", "    else if", 1);
            lines.extend(free);
            lines.push("    }".into());
        }
        lines.push("}".into());
        super::indented(&lines, indent)
    }
}

/// One row t of [`RowSkipOrder`]: input t of block gi needs a product
/// exactly where `m` ∤ gi (m = R / gcd(R, t), 1 for t = 0: none), the i-th
/// such gi from `products` + i, the i-th multiple of m from `free` + i.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Row {
    t: usize,
    m: usize,
    products: usize,
    free: usize,
}

/// The order in which a table kernel's work-group loads the R inputs of its
/// G blocks in a twiddled pass of radix R at p = K (the small radix second,
/// `defaults::SMALL_RADIX_SECOND`): input t of block gi takes w^(t·κ), with
/// w an (R·K)-th root, a power of r exactly where R | t·κ, and κ ≡ gi
/// (mod R) (G a multiple of R, the halves' bit at least log₂ R).  In the
/// natural order (gi = e mod G, t = e / G) a warp holds one row t, and
/// every row but t = 0 mixes products with powers of r, so no warp skips
/// f_mul.  This order takes first, row by row, the inputs that need a
/// product (gi ascending: near-consecutive blocks), then the powers of r:
/// 2, 4 and 5.5 warps of products for R = 2, 4, 8 at G = 128, 64, 32,
/// instead of 4, 6 and 7.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowSkipOrder {
    groups: usize,
    /// Inputs of the work-group that need a product (R ∤ t·gi).
    pub products: usize,
    rows: Vec<Row>,
}

impl RowSkipOrder {
    /// The order for radix R = `radix` (a power of two ≥ 2) and G =
    /// `groups` blocks per work-group (a multiple of R).
    pub fn new(radix: usize, groups: usize) -> RowSkipOrder {
        assert!(radix.is_power_of_two() && radix >= 2, "R = {radix}: a power of two ≥ 2");
        assert!(groups.is_multiple_of(radix), "G = {groups}: a multiple of R = {radix}");
        let modulus = |t: usize| if t == 0 { 1 } else { radix >> t.trailing_zeros().min(radix.trailing_zeros()) };
        let products: usize = (0..radix).map(|t| groups - groups / modulus(t)).sum();
        let (mut p, mut f) = (0, products);
        let rows = (0..radix)
            .map(|t| {
                let m = modulus(t);
                let row = Row { t, m, products: p, free: f };
                p += groups - groups / m;
                f += groups / m;
                row
            })
            .collect();
        RowSkipOrder { groups, products, rows }
    }

    /// (gi, t) of element e < R·G (what [`Self::c_code`] computes).
    pub fn element(&self, e: usize) -> (usize, usize) {
        if e < self.products {
            let row = self.rows.iter().rev().find(|r| r.m > 1 && e >= r.products).expect("row 1 needs products");
            (nth_non_multiple(e - row.products, row.m), row.t)
        } else {
            let row = self.rows.iter().rev().find(|r| e >= r.free).expect("row 0 is free");
            (row.m * (e - row.free), row.t)
        }
    }

    /// C statements that declare `gi` and `t` of the work-group's element
    /// `e` (a `uint` below R·G), each line indented by `indent`.
    pub fn c_code(&self, indent: usize) -> String {
        let (p, rest) = (self.products, self.rows.len() * self.groups - self.products);
        let mut lines = vec![
            format!("/* (gi, t) of element e (emit::skip_order::RowSkipOrder): first the {p} inputs whose twiddle needs"),
            format!(" * f_mul (R ∤ t kappa, kappa ≡ gi mod R), row by row, then the {rest} powers of r, so that whole warps skip it */"),
            "uint gi, t;".to_string(),
        ];
        let mut branches: Vec<(usize, String)> = self.rows.iter().map(|r| (r.free, format!("t = {}; gi = {} * j;", r.t, r.m))).collect();
        branches.extend(
            self.rows.iter().filter(|r| r.m > 1).map(|r| (r.products, format!("t = {}; gi = {};", r.t, c_nth_non_multiple("j", r.m)))),
        );
        branches.sort_by_key(|b| std::cmp::Reverse(b.0));
        for (n, (base, body)) in branches.iter().enumerate() {
            let test = if n == 0 {
                format!("if (e >= {base}) ")
            } else if *base == 0 {
                "else ".to_string()
            } else {
                format!("else if (e >= {base}) ")
            };
            lines.push(format!("{test}{{ const uint j = e - {base}; {body} }}"));
        }
        super::indented(&lines, indent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// For R = 2 … 64 and 1 to 4 superblocks: a bijection onto (sb, a, t0),
    /// the pairs that need a product first, the powers of r after them.
    #[test]
    fn pairs_needing_a_product_come_first_and_every_pair_once() {
        for r in [2usize, 4, 8, 16, 32, 64] {
            let order = SkipOrder::new(r);
            for sbn in 1..=4 {
                let mut seen = vec![false; sbn * r * r];
                for e in 0..sbn * r * r {
                    let (sb, a, t0) = order.pair(e, sbn);
                    assert!(sb < sbn && a < r && t0 < r, "R = {r} e = {e}: ({sb}, {a}, {t0})");
                    let at = sb * r * r + t0 * r + a;
                    assert!(!seen[at], "R = {r} sbn = {sbn}: ({sb}, {a}, {t0}) twice");
                    seen[at] = true;
                    assert_eq!((a * t0) % r != 0, e < sbn * order.products, "R = {r} e = {e}: ({a}, {t0})");
                }
            }
        }
        // k = 8: 208 of 256, so two superblocks' products fill 13 warps
        assert_eq!(SkipOrder::new(16).products, 208);
    }

    /// The C code names each class's bounds and strides, as `pair` computes them.
    #[test]
    fn the_c_code_prints_the_classes() {
        let code = SkipOrder::new(16).c_code(2, 0);
        for want in [
            "if (e < 416) {",
            "    sb = e / 208;",
            "    if (j >= 200) {",
            "        a = 8 * (2 * c + 1); t0 = i + 1 + i / 1;",
            "    } else {",
            "        a = 1 * (2 * c + 1); t0 = i + 1 + i / 15;",
            "    sb = (e - 416) / 48;",
            "    else if (j < 31) { a = j - 15; t0 = 0; }",
            "    else if (j >= 41) {",
            "        a = 8 * (2 * c + 1); t0 = 2 * (i + 1);",
        ] {
            assert!(code.lines().any(|l| l == want), "{want:?} not in\n{code}");
        }
    }

    /// For R = 2 … 32 and G = R … 4·R: a bijection onto (gi, t), the inputs
    /// that need a product first (R ∤ t·gi), each row's in order of gi.
    #[test]
    fn row_order_takes_the_products_first_and_every_input_once() {
        for r in [2usize, 4, 8, 16, 32] {
            for g in [r, 2 * r, 4 * r, 128.max(r)] {
                let order = RowSkipOrder::new(r, g);
                let mut seen = vec![false; r * g];
                let mut last = None;
                for e in 0..r * g {
                    let (gi, t) = order.element(e);
                    assert!(gi < g && t < r, "R = {r} G = {g} e = {e}: ({gi}, {t})");
                    assert!(!seen[t * g + gi], "R = {r} G = {g}: ({gi}, {t}) twice");
                    seen[t * g + gi] = true;
                    assert_eq!((t * gi) % r != 0, e < order.products, "R = {r} G = {g} e = {e}: ({gi}, {t})");
                    if e != order.products {
                        assert!(last.is_none_or(|(lg, lt)| (lt, lg) < (t, gi)), "R = {r} G = {g} e = {e}: rows in order");
                    }
                    last = Some((gi, t));
                }
            }
        }
        // warps of products at k = 16's shapes: 2, 4 and 5.5 of 8
        for (r, g, p) in [(2, 128, 64), (4, 64, 128), (8, 32, 176)] {
            assert_eq!(RowSkipOrder::new(r, g).products, p, "R = {r}");
        }
    }

    /// The C code tests each row's start, largest first, and maps as `element`.
    #[test]
    fn the_row_order_c_code_prints_the_rows() {
        let code = RowSkipOrder::new(4, 64).c_code(0);
        for want in [
            "if (e >= 240) { const uint j = e - 240; t = 3; gi = 4 * j; }",
            "else if (e >= 128) { const uint j = e - 128; t = 0; gi = 1 * j; }",
            "else if (e >= 80) { const uint j = e - 80; t = 3; gi = j + 1 + j / 3; }",
            "else if (e >= 48) { const uint j = e - 48; t = 2; gi = j + 1 + j / 1; }",
            "else { const uint j = e - 0; t = 1; gi = j + 1 + j / 3; }",
        ] {
            assert!(code.lines().any(|l| l == want), "{want:?} not in\n{code}");
        }
    }
}
