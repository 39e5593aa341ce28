//! The field arithmetic of one prime as straight-line OpenCL C.
//!
//! Every digit index is a constant and every loop over digits is unrolled
//! here, in Rust, so the emitted code keeps elements in registers on any
//! compiler.  The functions, for canonical inputs (digits < r, p − 1 =
//! (0,…,0,r)), return canonical outputs:
//!
//! * `f_add`, `f_sub`: one carry chain (65-bit digit sums, one conditional
//!   correction per digit, two at the top), then `srgfn_fold` adds the small
//!   end-around carry (r^k ≡ −1) at digit 0: digit 0 absorbs it except in
//!   rare cases, which take a straight-line ripple (no data-dependent loop).
//! * `f_shift_S` (x · r^S for a constant S): the digit routing of the
//!   negacyclic shift is fixed, so it is one `f_sub` of two routed vectors;
//!   x = p − 1 gives the constant −r^S.
//! * `f_shift` (run-time s): a barrel rotation (log₂ k selects per digit),
//!   then the same subtraction with its operands selected.
//! * `f_mul` (`mul.rs`): the k² digit products of the negacyclic product in
//!   one of the [`MulForm`]s, each coefficient a signed 192-bit value; the
//!   base-r carries run through the coefficients (floor division by r with two
//!   Möller–Granlund reciprocal steps), and the last carry folds back.


use super::MulForm;
use crate::prime::Prime;

/// How a fold's rare case is emitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldStyle {
    /// Digit 0 absorbs the carry; otherwise a branch to a straight-line ripple.
    Branchy,
}

/// Everything the arithmetic of one prime depends on.
#[derive(Clone, Debug)]
pub struct ArithSpec {
    pub k: usize,
    pub r: u64,
    /// Leading zeros of r: the Möller–Granlund divisor is r << shift.
    pub shift: u32,
    pub mul: MulForm,
    /// Inline PTX carry chains (NVIDIA only).
    pub ptx: bool,
}

impl ArithSpec {
    pub fn new(prime: &Prime, mul: MulForm, ptx: bool) -> ArithSpec {
        ArithSpec { k: prime.k(), r: prime.r(), shift: prime.r().leading_zeros(), mul, ptx }
    }

    /// f_mul's k² products as straight-line code (every index a constant);
    /// above k = 16 as loops, whose code stays small.
    pub fn unrolled_mul(&self) -> bool {
        self.k <= 16
    }

    /// Digits of −r^s mod p (s < 2k) as constants: x · r^s for x = p − 1.
    fn neg_r_pow(&self, s: usize) -> Vec<u64> {
        let (k, r) = (self.k, self.r);
        let (q, wraps) = (s % k, s >= k);
        let mut d = vec![0u64; k];
        if wraps {
            // −r^s = r^q (s = k + q)
            d[q] = 1;
        } else if q == 0 {
            // −1 = p − 1
            d[k - 1] = r;
        } else {
            // −r^q = p − r^q = r^k + 1 − r^q: digits q…k−1 are r − 1, digit 0 is 1
            d[0] = 1;
            for x in d.iter_mut().take(k).skip(q) {
                *x = r - 1;
            }
        }
        d
    }
}

/// A small buffer of C lines with indentation.
pub(super) struct C {
    pub(super) out: String,
    ind: usize,
}

impl C {
    pub(super) fn new() -> C {
        C { out: String::new(), ind: 0 }
    }
    pub(super) fn line(&mut self, s: impl AsRef<str>) {
        for _ in 0..self.ind {
            self.out.push_str("    ");
        }
        self.out.push_str(s.as_ref());
        self.out.push('\n');
    }
    pub(super) fn open(&mut self, s: impl AsRef<str>) {
        self.line(s);
        self.ind += 1;
    }
    pub(super) fn close(&mut self, s: &str) {
        self.ind -= 1;
        self.line(s);
    }
}

/// The whole arithmetic section of the field header.
pub fn render(a: &ArithSpec) -> String {
    let mut c = C::new();
    fold(&mut c, a);
    add(&mut c, a);
    sub(&mut c, a);
    copy(&mut c, a);
    shift_runtime(&mut c, a);
    divmod(&mut c, a);
    super::mul::render(&mut c, a);
    c.out
}

/// `srgfn_fold0`/`srgfn_fold1`: z ← z + c·r^j for j = 0, 1 and a small signed c
/// (|c| ≤ k + 4), z canonical with its top digit below r.
fn fold(c: &mut C, a: &ArithSpec) {
    let k = a.k;
    for j in 0..2.min(k) {
        c.line(format!(
            "/* z <- z + c r^{j} (|c| small, z canonical with top digit < r): digit {j} absorbs c unless it leaves [0, r);"
        ));
        c.line(" * then the carry ripples up and around (r^k = -1), straight-line: rare. */");
        c.open(format!("static inline void srgfn_fold{j}(digit_t *z, long c) {{"));
        c.line(format!("const ulong t = z[{j}] + (ulong)c;"));
        c.line(format!("const int ok = c >= 0 ? (t >= z[{j}] && t < SRGFN_R) : (t <= z[{j}]);"));
        c.line(format!("if (ok) {{ z[{j}] = t; return; }}"));
        c.line("long b = c;");
        for i in j..k {
            c.line(format!(
                "if (b > 0) {{ const ulong u = z[{i}] + (ulong)b; if (u < z[{i}] || u >= SRGFN_R) {{ z[{i}] = u - SRGFN_R; b = 1; }} else {{ z[{i}] = u; b = 0; }} }}"
            ));
            c.line(format!(
                "else if (b < 0) {{ const ulong m = (ulong)(-b); if (z[{i}] >= m) {{ z[{i}] -= m; b = 0; }} else {{ z[{i}] += SRGFN_R - m; b = -1; }} }}"
            ));
        }
        c.line("/* carried out of the top: value D + b r^k = D - b; go around once more */");
        c.line("b = -b;");
        for i in 0..k {
            c.line(format!(
                "if (b > 0) {{ const ulong u = z[{i}] + 1; if (u >= SRGFN_R) {{ z[{i}] = 0; b = 1; }} else {{ z[{i}] = u; b = 0; }} }}"
            ));
            c.line(format!("else if (b < 0) {{ if (z[{i}] >= 1) {{ z[{i}] -= 1; b = 0; }} else {{ z[{i}] = SRGFN_R - 1; b = -1; }} }}"));
        }
        c.line("/* a second carry out means the value is r^k = p - 1: (0, ..., 0, r) */");
        c.open("if (b != 0) {");
        for i in 0..k - 1 {
            c.line(format!("z[{i}] = 0;"));
        }
        c.line(format!("z[{}] = SRGFN_R;", k - 1));
        c.close("}");
        c.close("}");
        c.line("");
    }
}

fn add(c: &mut C, a: &ArithSpec) {
    let k = a.k;
    c.line("/* z = x + y mod p: digit sums (o:s) < 2r + 2 with one carry chain; the top sum may need");
    c.line(" * two corrections (digits up to r there); the top carry C folds back as -C. */");
    c.open("static inline void f_add(digit_t *z, const digit_t *x, const digit_t *y) {");
    c.line("ulong s, o, g, cy = 0;");
    for i in 0..k {
        if i == 0 {
            c.line("s = x[0] + y[0]; o = s < y[0];");
        } else {
            c.line(format!("s = x[{i}] + y[{i}]; o = s < y[{i}]; s += cy; o |= s < cy;"));
        }
        if i + 1 < k {
            c.line(format!("cy = o | (s >= SRGFN_R); z[{i}] = cy ? s - SRGFN_R : s;"));
        } else {
            c.line("g = o | (s >= SRGFN_R); s = g ? s - SRGFN_R : s;");
            c.line("cy = s >= SRGFN_R; s = cy ? s - SRGFN_R : s;");
            c.line(format!("z[{i}] = s;"));
            c.line("srgfn_fold0(z, -(long)(g + cy));");
        }
    }
    c.close("}");
    c.line("");
}

fn sub(c: &mut C, a: &ArithSpec) {
    let k = a.k;
    c.line("/* z = x - y mod p: digit differences with one borrow chain; the top difference lies in");
    c.line(" * [-r-1, r] (digits up to r there): borrow B in {-1, 0, 1, 2}, folded back as +B. */");
    c.open("static inline void f_sub(digit_t *z, const digit_t *x, const digit_t *y) {");
    c.line("ulong d, n, bw = 0;");
    for i in 0..k {
        if i == 0 {
            c.line("d = x[0] - y[0]; n = x[0] < y[0];");
        } else {
            c.line(format!("d = x[{i}] - y[{i}]; n = (x[{i}] < y[{i}]) | (d < bw); d -= bw;"));
        }
        if i + 1 < k {
            c.line(format!("z[{i}] = n ? d + SRGFN_R : d; bw = n;"));
        } else {
            c.line("/* n: negative; then d + r wraps iff the difference + r >= 0 */");
            c.line("const ulong w = d + SRGFN_R, n2 = n & (w >= d);");
            c.line("d = n ? w : d; d = n2 ? d + SRGFN_R : d;");
            c.line("const ulong up = (!n) & (d >= SRGFN_R); d = up ? d - SRGFN_R : d;");
            c.line(format!("z[{i}] = d;"));
            c.line("srgfn_fold0(z, (long)(n + n2) - (long)up);");
        }
    }
    c.close("}");
    c.line("");
}

fn copy(c: &mut C, a: &ArithSpec) {
    c.open("static inline void f_copy(digit_t *z, const digit_t *x) {");
    let parts: Vec<String> = (0..a.k).map(|i| format!("z[{i}] = x[{i}];")).collect();
    for chunk in parts.chunks(8) {
        c.line(chunk.join(" "));
    }
    c.close("}");
    c.line("");
}

/// The constant shifts x · r^s, `f_shift_S`, for the given amounts (1 ≤ s < 2k):
/// printed with the kernels that call them.
pub fn render_shifts(a: &ArithSpec, amounts: &[u32]) -> String {
    let mut c = C::new();
    let k = a.k;
    for s in amounts.iter().map(|&s| s as usize) {
        assert!((1..2 * k).contains(&s), "shift amount {s} out of range for k = {k}");
        let (q, wraps) = (s % k, s >= k);
        c.line(format!(
            "/* z = x r^{s}: digits move up {q} places, the top {q} wrap around negated{} (x = p - 1 gives -r^{s}) */",
            if wraps { "; r^k = -1 negates all" } else { "" }
        ));
        c.open(format!("static inline void f_shift_{s}(digit_t *z, const digit_t *x) {{"));
        c.open(format!("if (x[{}] == SRGFN_R) {{", k - 1));
        for (i, v) in a.neg_r_pow(s).iter().enumerate() {
            c.line(format!("z[{i}] = {v}UL;"));
        }
        c.line("return;");
        c.close("}");
        c.line("digit_t up[SRGFN_K], wr[SRGFN_K];");
        for h in 0..k {
            if h >= q {
                c.line(format!("up[{h}] = x[{}]; wr[{h}] = 0;", h - q));
            } else {
                c.line(format!("up[{h}] = 0; wr[{h}] = x[{}];", h + k - q));
            }
        }
        c.line(if wraps { "f_sub(z, wr, up);" } else { "f_sub(z, up, wr);" });
        c.close("}");
        c.line("");
    }
    c.out
}

fn shift_runtime(c: &mut C, a: &ArithSpec) {
    let k = a.k;
    c.line("/* z = x r^s for a run-time s: rotation by q = s mod k as a barrel shifter (every index a");
    c.line(" * constant), then one subtraction: digits that stayed minus digits that wrapped,");
    c.line(" * operands swapped when s mod 2k >= k.  x = p - 1 gives -r^s: r^q when s >= k, else");
    c.line(" * p - 1 for q = 0 and (1, 0, ..., 0, r - 1, ..., r - 1) (r - 1 from digit q on) otherwise. */");
    c.open("static inline void f_shift(digit_t *z, const digit_t *x, uint s) {");
    c.line("s &= 2 * SRGFN_K - 1;");
    c.line("const uint q = s & (SRGFN_K - 1);");
    c.open(format!("if (x[{}] == SRGFN_R) {{", k - 1));
    for h in 0..k {
        let minus = if h == 0 {
            "q == 0 ? 0 : 1".to_string()
        } else if h == k - 1 {
            "q == 0 ? SRGFN_R : SRGFN_R - 1".to_string()
        } else {
            format!("(q != 0 && {h} >= q) ? SRGFN_R - 1 : 0")
        };
        c.line(format!("z[{h}] = s >= SRGFN_K ? (ulong)({h} == q) : ({minus});"));
    }
    c.line("return;");
    c.close("}");
    c.line("const ulong flip = (ulong)0 - (ulong)(s >= SRGFN_K);");
    c.line("digit_t rot[SRGFN_K], up[SRGFN_K], wr[SRGFN_K];");
    for h in 0..k {
        c.line(format!("rot[{h}] = x[{h}];"));
    }
    let mut b = 1;
    while b < k {
        c.open(format!("if (q & {b}) {{"));
        c.line("digit_t t[SRGFN_K];");
        for h in 0..k {
            c.line(format!("t[{h}] = rot[{}];", (h + k - b) % k));
        }
        for h in 0..k {
            c.line(format!("rot[{h}] = t[{h}];"));
        }
        c.close("}");
        b <<= 1;
    }
    c.line("/* rot[h] = x[(h - q) mod k]: positions h >= q stayed, h < q wrapped */");
    for h in 0..k {
        c.line(format!(
            "{{ const ulong m = (ulong)0 - (ulong)({h} >= q), sel = m ^ flip; up[{h}] = rot[{h}] & sel; wr[{h}] = rot[{h}] & ~sel; }}"
        ));
    }
    c.line("f_sub(z, up, wr);");
    c.close("}");
    c.line("");
}

/// Floor division by r: the Möller–Granlund step, the signed 192-bit and
/// 128-bit divisions that f_mul's carries use.
fn divmod(c: &mut C, a: &ArithSpec) {
    let sh = a.shift;
    c.line("/* One Moller-Granlund step (their Algorithm 4): floor((u1 2^64 + u0) / d) for the normalised");
    c.line(" * d = r << SRGFN_R_SHIFT and its reciprocal; *rem gets the remainder.  Needs u1 < d. */");
    c.open("static inline ulong srgfn_udiv(ulong *rem, ulong u1, ulong u0) {");
    c.line("const ulong d = SRGFN_R_NORM, v = SRGFN_R_RECIP;");
    c.line("ulong q0 = v * u1, q1 = mul_hi(v, u1);");
    c.line("const ulong s0 = q0 + u0;");
    c.line("q1 += u1 + 1 + (s0 < q0); q0 = s0;");
    c.line("ulong r = u0 - q1 * d;");
    c.line("const ulong m = r > q0; q1 -= m; r += m ? d : 0;");
    c.line("const ulong m2 = r >= d; q1 += m2; r -= m2 ? d : 0;");
    c.line("*rem = r;");
    c.line("return q1;");
    c.close("}");
    c.line("");
    c.line("/* Signed v = v2:v1:v0 (|v| < 2^190 r): floor division by r.  Returns v mod r in [0, r);");
    c.line(" * *qh:*ql = floor(v / r) (signed 128-bit).  Negative v goes through its one's complement:");
    c.line(" * ~v = Q r + R gives v = (~Q) r + (r - 1 - R). */");
    c.open("static inline ulong srgfn_sdivmod3(ulong *qh, ulong *ql, ulong v0, ulong v1, ulong v2) {");
    c.line("const ulong s = (ulong)((long)v2 >> 63);");
    c.line("v0 ^= s; v1 ^= s; v2 ^= s;");
    if sh > 0 {
        c.line(format!("v2 = (v2 << {sh}) | (v1 >> {}); v1 = (v1 << {sh}) | (v0 >> {}); v0 <<= {sh};", 64 - sh, 64 - sh));
    }
    c.line("ulong rem;");
    c.line("const ulong h = srgfn_udiv(&rem, v2, v1);");
    c.line("const ulong l = srgfn_udiv(&rem, rem, v0);");
    if sh > 0 {
        c.line(format!("rem >>= {sh};"));
    }
    c.line("*qh = h ^ s; *ql = l ^ s;");
    c.line("return (rem ^ s) + (s & SRGFN_R);");
    c.close("}");
    c.line("");
    c.line("/* Signed v = v1:v0 (|v| < 2^63 r): floor division by r; returns v mod r, *q = floor(v / r). */");
    c.open("static inline ulong srgfn_sdivmod2(long *q, ulong v0, ulong v1) {");
    c.line("const ulong s = (ulong)((long)v1 >> 63);");
    c.line("v0 ^= s; v1 ^= s;");
    if sh > 0 {
        c.line(format!("v1 = (v1 << {sh}) | (v0 >> {}); v0 <<= {sh};", 64 - sh));
    }
    c.line("ulong rem;");
    c.line("const ulong l = srgfn_udiv(&rem, v1, v0);");
    if sh > 0 {
        c.line(format!("rem >>= {sh};"));
    }
    c.line("*q = (long)(l ^ s);");
    c.line("return (rem ^ s) + (s & SRGFN_R);");
    c.close("}");
    c.line("");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    #[test]
    fn neg_r_pow_matches_the_host() {
        for prime in catalog().iter().filter(|p| p.k() <= 16) {
            let f = crate::Field::new(prime);
            let spec = ArithSpec::new(prime, MulForm::Wide64, false);
            for s in 0..2 * prime.k() {
                assert_eq!(spec.neg_r_pow(s), f.neg(&f.r_pow(s as i64)), "{prime} s = {s}");
            }
        }
    }
}
