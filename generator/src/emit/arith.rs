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
//! * `f_shift` (run-time s): a barrel rotation (log₂ k selects per digit),
//!   then one subtraction of the digits that stayed minus those that
//!   wrapped (r^k = −1), operands swapped when s mod 2k ≥ k; x = p − 1
//!   gives −r^s directly.  (Inside the passes shifts are renamings of lazy
//!   digits, `lazy.rs`.)
//!
//! Up to k = 32 every digit loop is unrolled here; above, the O(k)
//! operations are C loops ([`ArithSpec::unrolled_ops`]).
//! * `f_mul` (`mul.rs`): the k² digit products of the negacyclic product in
//!   one of the [`MulForm`]s, each coefficient a signed 192-bit value; the
//!   base-r carries run through the coefficients (floor division by r with two
//!   Möller–Granlund reciprocal steps), and the last carry folds back.

use super::mul_split::MulSplit;
use super::MulForm;
use crate::prime::Prime;

/// How a function's O(k) digit loops are emitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Loops {
    /// [`ArithSpec::unrolled_ops`] decides: straight-line code, or C loops
    /// that the OpenCL compiler may unroll.
    ByK,
    /// C loops kept rolled (`#pragma unroll 1`) for every k, with the
    /// element in memory: for rare paths inside kernels that are otherwise
    /// light.  NVIDIA's compiler unrolled srgfn_fold0's ripples and held all
    /// k digits in registers, and that rare path set the register count of
    /// the whole digits kernel (H200, k = 64: 178 registers, 40 without it).
    Rolled,
}

impl Loops {
    /// The suffix of the function names emitted in this form.
    pub(super) fn suffix(self) -> &'static str {
        match self {
            Loops::ByK => "",
            Loops::Rolled => "_rolled",
        }
    }
}

/// Everything the arithmetic of one prime depends on.
#[derive(Clone, Debug)]
pub struct ArithSpec {
    /// Digits per element.
    pub k: usize,
    /// The radix.
    pub r: u64,
    /// Leading zeros of r: the Möller–Granlund divisor is r << shift.
    pub shift: u32,
    /// How f_mul forms its digit products.
    pub mul: MulForm,
    /// Inline PTX carry chains (NVIDIA only).
    pub ptx: bool,
}

impl ArithSpec {
    /// The arithmetic of `prime` with f_mul in form `mul`, inline PTX when `ptx`.
    pub fn new(prime: &Prime, mul: MulForm, ptx: bool) -> ArithSpec {
        ArithSpec { k: prime.k(), r: prime.r(), shift: prime.r().leading_zeros(), mul, ptx }
    }

    /// f_mul's k² products as straight-line code (every index a constant);
    /// above k = 16 as loops, whose code stays small.
    pub fn unrolled_mul(&self) -> bool {
        self.k <= 16
    }

    /// Whether f_mul_lazy takes its products in one Karatsuba level
    /// (`karatsuba.rs`): straight-line wide64 products above
    /// [`MulSplit::SERIES_MAX_K`] (k = 16; its coefficients split by the
    /// chained series, in rounds or exactly, whose carries two chains can
    /// take), where r < 2^63 keeps
    /// the digit sums of canonical inputs below 2r ≤ 2^64.  H200, v48
    /// (docs/perf/h200-v48): 25% fewer
    /// wide multiply-adds, 196 registers instead of 157, so its passes are
    /// capped at 168 ([`super::defaults::PTX_REGISTER_CAPS`]).
    pub fn karatsuba_lazy(&self) -> bool {
        self.mul == MulForm::Wide64 && self.unrolled_mul() && self.k > MulSplit::SERIES_MAX_K && self.r < 1 << 63
    }

    /// The O(k) operations (add, sub, shifts, folds, normalisation) as
    /// straight-line code up to k = 32; above, as loops: the elements live in
    /// memory there anyway, and straight-line code of 64 or 128 digits per
    /// call site makes the OpenCL compilers slow.
    pub fn unrolled_ops(&self) -> bool {
        self.k <= 32
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
        self.ind = self.ind.checked_sub(1).expect("C::close without an open block");
        self.line(s);
    }
}

/// The statements `body(i)` for digits i in lo..hi: one line per digit with
/// a constant index (straight-line), or one C loop over `i_`.
pub(super) fn each(c: &mut C, a: &ArithSpec, lo: usize, hi: usize, body: &dyn Fn(&str) -> String) {
    each_in(c, a, Loops::ByK, lo, hi, body)
}

/// [`each`] in the form `loops`.
pub(super) fn each_in(c: &mut C, a: &ArithSpec, loops: Loops, lo: usize, hi: usize, body: &dyn Fn(&str) -> String) {
    if lo >= hi {
        return;
    }
    if loops == Loops::ByK && a.unrolled_ops() {
        for i in lo..hi {
            c.line(body(&i.to_string()));
        }
    } else {
        if loops == Loops::Rolled {
            c.line("#pragma unroll 1");
        }
        c.open(format!("for (int i_ = {lo}; i_ < {hi}; i_++) {{"));
        c.line(body("i_"));
        c.close("}");
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
    super::quotient::render(&mut c, a);
    super::mul::render(&mut c, a);
    warp_shuffle(&mut c, a);
    c.out
}

/// With PTX: `SRGFN_SHFL` (the marker that a kernel emitted for the warp
/// path checks, `emit::digits::CarryPath`) and `SRGFN_SHFL_U64(out, v, src)`,
/// out = v of lane src of the warp (`shfl.sync.idx`, every lane of the warp
/// taking part), `SRGFN_SHFL_LAZY(ol, oh, l, h, src)`, the same for a lazy
/// digit's low word and high part (`emit::warp_stages`), and `SRGFN_WARP_SYNC()` (`bar.warp.sync`: the warp's
/// shared-memory accesses before it are done before those after it), and
/// `SRGFN_BAR_SYNC(id, threads)` (`bar.sync`: a named barrier of `threads`
/// work-items, whole warps, with the same ordering among them; id 0 is
/// `barrier()`'s), and `SRGFN_WARP_ANY(out, p)` (`vote.sync.any`: out = 1
/// where p is nonzero on some lane of the warp, the same on every lane).
/// Without PTX the generator emits the local-memory path and work-group
/// barriers instead.
fn warp_shuffle(c: &mut C, a: &ArithSpec) {
    if !a.ptx {
        return;
    }
    c.line("#define SRGFN_SHFL 1");
    c.line("#define SRGFN_SHFL_U64(out, v, src) asm volatile(\"{ .reg .b32 lo, hi; mov.b64 {lo, hi}, %1; shfl.sync.idx.b32 lo, lo, %2, 0x1f, 0xffffffff; shfl.sync.idx.b32 hi, hi, %2, 0x1f, 0xffffffff; mov.b64 %0, {lo, hi}; }\" : \"=l\"(out) : \"l\"(v), \"r\"(src))");
    c.line("#define SRGFN_SHFL_LAZY(ol, oh, l, h, src) asm volatile(\"{ .reg .b32 lo, hi; mov.b64 {lo, hi}, %2; shfl.sync.idx.b32 lo, lo, %4, 0x1f, 0xffffffff; shfl.sync.idx.b32 hi, hi, %4, 0x1f, 0xffffffff; shfl.sync.idx.b32 %1, %3, %4, 0x1f, 0xffffffff; mov.b64 %0, {lo, hi}; }\" : \"=l\"(ol), \"=r\"(oh) : \"l\"(l), \"r\"(h), \"r\"(src))");
    c.line("#define SRGFN_WARP_SYNC() asm volatile(\"bar.warp.sync 0xffffffff;\" ::: \"memory\")");
    c.line("#define SRGFN_BAR_SYNC(id, threads) asm volatile(\"bar.sync %0, %1;\" :: \"r\"(id), \"r\"(threads) : \"memory\")");
    c.line("#define SRGFN_WARP_ANY(out, p) asm volatile(\"{ .reg .pred a; setp.ne.s32 a, %1, 0; vote.sync.any.pred a, a, 0xffffffff; selp.s32 %0, 1, 0, a; }\" : \"=r\"(out) : \"r\"(p))");
}

/// `srgfn_fold0`/`srgfn_fold1`, and `srgfn_fold0_rolled` for
/// `srgfn_norm_rolled`.
fn fold(c: &mut C, a: &ArithSpec) {
    for j in 0..2.min(a.k) {
        fold_j(c, a, j, Loops::ByK);
    }
    fold_j(c, a, 0, Loops::Rolled);
}

/// `srgfn_fold{j}` in the form `loops`: z ← z + c·r^j for a small signed c
/// (|c| ≤ k + 4), z canonical with its top digit below r.
fn fold_j(c: &mut C, a: &ArithSpec, j: usize, loops: Loops) {
    let k = a.k;
    let each = |c: &mut C, lo: usize, hi: usize, body: &dyn Fn(&str) -> String| each_in(c, a, loops, lo, hi, body);
    c.line(format!("/* z <- z + c r^{j} (|c| small, z canonical with top digit < r): digit {j} absorbs c unless it leaves [0, r);"));
    c.line(" * then the carry ripples up and around (r^k = -1): rare. */");
    c.open(format!("static inline void srgfn_fold{j}{}(digit_t *z, long c) {{", loops.suffix()));
    c.line(format!("const ulong t = z[{j}] + (ulong)c;"));
    c.line(format!("const int ok = c >= 0 ? (t >= z[{j}] && t < SRGFN_R) : (t <= z[{j}]);"));
    c.line(format!("if (ok) {{ z[{j}] = t; return; }}"));
    c.line("long b = c;");
    each(c, j, k, &|i| {
        format!(
            "if (b > 0) {{ const ulong u = z[{i}] + (ulong)b; if (u < z[{i}] || u >= SRGFN_R) {{ z[{i}] = u - SRGFN_R; b = 1; }} else {{ z[{i}] = u; b = 0; }} }} else if (b < 0) {{ const ulong m = (ulong)(-b); if (z[{i}] >= m) {{ z[{i}] -= m; b = 0; }} else {{ z[{i}] += SRGFN_R - m; b = -1; }} }}"
        )
    });
    c.line("/* carried out of the top: value D + b r^k = D - b; go around once more */");
    c.line("b = -b;");
    each(c, 0, k, &|i| {
        format!(
            "if (b > 0) {{ const ulong u = z[{i}] + 1; if (u >= SRGFN_R) {{ z[{i}] = 0; b = 1; }} else {{ z[{i}] = u; b = 0; }} }} else if (b < 0) {{ if (z[{i}] >= 1) {{ z[{i}] -= 1; b = 0; }} else {{ z[{i}] = SRGFN_R - 1; b = -1; }} }}"
        )
    });
    c.line("/* a second carry out means the value is r^k = p - 1: (0, ..., 0, r) */");
    c.open("if (b != 0) {");
    each(c, 0, k - 1, &|i| format!("z[{i}] = 0;"));
    c.line(format!("z[{}] = SRGFN_R;", k - 1));
    c.close("}");
    c.close("}");
    c.line("");
}

fn add(c: &mut C, a: &ArithSpec) {
    let k = a.k;
    c.line("/* z = x + y mod p: digit sums (o:s) < 2r + 2 with one carry chain; the top sum may need");
    c.line(" * two corrections (digits up to r there); the top carry C folds back as -C. */");
    c.open("static inline void f_add(digit_t *z, const digit_t *x, const digit_t *y) {");
    c.line("ulong s, o, g, cy = 0;");
    c.line("s = x[0] + y[0]; o = s < y[0]; cy = o | (s >= SRGFN_R); z[0] = cy ? s - SRGFN_R : s;");
    each(c, a, 1, k - 1, &|i| {
        format!("s = x[{i}] + y[{i}]; o = s < y[{i}]; s += cy; o |= s < cy; cy = o | (s >= SRGFN_R); z[{i}] = cy ? s - SRGFN_R : s;")
    });
    let t = k - 1;
    c.line(format!("s = x[{t}] + y[{t}]; o = s < y[{t}]; s += cy; o |= s < cy;"));
    c.line("g = o | (s >= SRGFN_R); s = g ? s - SRGFN_R : s;");
    c.line("cy = s >= SRGFN_R; s = cy ? s - SRGFN_R : s;");
    c.line(format!("z[{t}] = s;"));
    c.line("srgfn_fold0(z, -(long)(g + cy));");
    c.close("}");
    c.line("");
}

fn sub(c: &mut C, a: &ArithSpec) {
    let k = a.k;
    c.line("/* z = x - y mod p: digit differences with one borrow chain; the top difference lies in");
    c.line(" * [-r-1, r] (digits up to r there): borrow B in {-1, 0, 1, 2}, folded back as +B. */");
    c.open("static inline void f_sub(digit_t *z, const digit_t *x, const digit_t *y) {");
    c.line("ulong d, n, bw = 0;");
    c.line("d = x[0] - y[0]; n = x[0] < y[0]; z[0] = n ? d + SRGFN_R : d; bw = n;");
    each(c, a, 1, k - 1, &|i| {
        format!("d = x[{i}] - y[{i}]; n = (x[{i}] < y[{i}]) | (d < bw); d -= bw; z[{i}] = n ? d + SRGFN_R : d; bw = n;")
    });
    let t = k - 1;
    c.line(format!("d = x[{t}] - y[{t}]; n = (x[{t}] < y[{t}]) | (d < bw); d -= bw;"));
    c.line("/* n: negative; then d + r wraps iff the difference + r >= 0 */");
    c.line("const ulong w = d + SRGFN_R, n2 = n & (w >= d);");
    c.line("d = n ? w : d; d = n2 ? d + SRGFN_R : d;");
    c.line("const ulong up = (!n) & (d >= SRGFN_R); d = up ? d - SRGFN_R : d;");
    c.line(format!("z[{t}] = d;"));
    c.line("srgfn_fold0(z, (long)(n + n2) - (long)up);");
    c.close("}");
    c.line("");
}

fn copy(c: &mut C, a: &ArithSpec) {
    c.open("static inline void f_copy(digit_t *z, const digit_t *x) {");
    each(c, a, 0, a.k, &|i| format!("z[{i}] = x[{i}];"));
    c.close("}");
    c.line("");
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
    // digit h of -r^s: r^q when s >= k; else 1 at 0 and r - 1 from q on (q > 0), or p - 1 (q = 0)
    each(c, a, 0, k, &|h| {
        format!(
            "z[{h}] = s >= SRGFN_K ? (ulong)({h} == q) : (q == 0 ? ({h} == SRGFN_K - 1 ? SRGFN_R : 0) : ({h} == 0 ? 1 : ({h} >= q ? SRGFN_R - 1 : 0)));"
        )
    });
    c.line("return;");
    c.close("}");
    c.line("const ulong flip = (ulong)0 - (ulong)(s >= SRGFN_K);");
    c.line("digit_t rot[SRGFN_K], up[SRGFN_K], wr[SRGFN_K];");
    if a.unrolled_ops() {
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
    } else {
        // the digits live in memory: one gather with a run-time index
        each(c, a, 0, k, &|h| format!("rot[{h}] = x[({h} + SRGFN_K - q) & (SRGFN_K - 1)];"));
    }
    c.line("/* rot[h] = x[(h - q) mod k]: positions h >= q stayed, h < q wrapped */");
    each(c, a, 0, k, &|h| {
        format!("{{ const ulong m = (ulong)0 - (ulong)({h} >= q), sel = m ^ flip; up[{h}] = rot[{h}] & sel; wr[{h}] = rot[{h}] & ~sel; }}")
    });
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
