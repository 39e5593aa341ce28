//! f_mul_lazy's split of one coefficient.  By the quotient series
//! ([`SplitForm::Series`], k ≤ 8): V = ⌊v / 2^e⌋, Q = V + Σ (−σ)^m ⌊V / 2^(ms)⌋,
//! the lazy digit v − Q r (modulo 2^96) plus the previous coefficient's
//! quotient, and Q on to the next digit: portable C on 64-bit words, or with
//! PTX one carry chain on 32-bit words (v19d), where V fits 96 bits.  By the
//! chained series ([`SplitForm::ChainedSeries`], k = 16 since v52): the same
//! series on v with the previous quotient already in it (`mul::add_carry`), the
//! digit v − Q r alone.  By split rounds ([`SplitForm::Rounds`], where no
//! series fits): with PTX one carry chain whose rounds use the words their
//! bounds need (v19e); the C form is in mul.rs.

use super::arith::{ArithSpec, C};
use super::high_part::HighPart;
use super::lazy::{MulSplit, SplitForm};

/// One coefficient v2:v1:v0 → lazy digit `i`: v − Q r plus the previous
/// coefficient's quotient ch:cl (a lazy digit takes it whole, so the
/// coefficients do not wait on each other); Q goes to the next digit.
/// `hp`: the high part the product's digits are for (the PTX macro's name).
pub(super) fn split(c: &mut C, a: &ArithSpec, (sp, hp): (&MulSplit, HighPart), s: u32, terms: u32, i: &str) {
    if a.ptx && fits_words(a, sp) {
        c.line(format!("{}(zl[{i}], zh[{i}], cl, ch, v0, v1, v2);", hp.split_macro()));
    } else {
        split_c(c, sp, s, terms, i, false)
    }
}

/// One coefficient v2:v1:v0, the carry ch:cl already in it (`mul::add_carry`),
/// → lazy digit `i` = v − Q r, and Q (signed 128-bit) into ch:cl
/// ([`SplitForm::ChainedSeries`]).
pub(super) fn chained_split(c: &mut C, a: &ArithSpec, sp: &MulSplit, s: u32, terms: u32, i: &str) {
    if a.ptx && fits_words(a, sp) {
        c.line(format!("SRGFN_CHAINED_SPLIT(zl[{i}], zh[{i}], cl, ch, v0, v1, v2);"));
    } else {
        split_c(c, sp, s, terms, i, true)
    }
}

/// Whether the PTX chain's words hold V (3 words: |v| < (k + 3) r² below
/// 2^(e + 94)) and each term (2 words; `MulSplit::series` keeps them below 2^60).
fn fits_words(a: &ArithSpec, sp: &MulSplit) -> bool {
    let v_max = (a.k as f64 + 3.0) * (a.r as f64) * (a.r as f64);
    (33..=64).contains(&sp.e) && v_max < (2f64).powi(sp.e as i32 + 94)
}

/// The macro of the PTX chain the split `sp` takes, if any: printed before
/// the lazy product of high part `hp`, which calls it per coefficient
/// ([`split`], and mul.rs for the rounds).
pub(super) fn render_macros(c: &mut C, a: &ArithSpec, (sp, hp): (&MulSplit, HighPart)) {
    match sp.form {
        SplitForm::Series { s, terms } if a.ptx && fits_words(a, sp) => series_macro(c, (sp, hp), s, terms, false),
        SplitForm::ChainedSeries { s, terms } if a.ptx && fits_words(a, sp) => series_macro(c, (sp, hp), s, terms, true),
        SplitForm::Rounds(rounds) if a.ptx => {
            if let Some(plan) = rounds_plan(a, sp, rounds) {
                rounds_macro(c, sp, rounds, &plan)
            }
        }
        _ => {}
    }
}

/// `SRGFN_SERIES_SPLIT(zl, zh, cl, ch, v0, v1, v2)`: the words of v are
/// w0..w4, of V V0..V2, of Q Q0..Q2; cl:ch carry Q0, Q1 and Q2 (ch's low
/// half) between coefficients.
fn series_macro(c: &mut C, (sp, hp): (&MulSplit, HighPart), s: u32, terms: u32, chained: bool) {
    let (e, u) = (sp.e, sp.delta.unsigned_abs().trailing_zeros());
    let mut p: Vec<String> = vec![
        ".reg .u32 zr, w0, w1, w2, w3, w4, w5, V0, V1, V2, T0, T1, S0, S1, S2, Q0, Q1, Q2, X1, X2, Y0, Y1, Y2, P0, P1, P2, P3".into(),
        "mov.u32 zr, 0".into(),
        "mov.b64 {w0, w1}, %4".into(),
        "mov.b64 {w2, w3}, %5".into(),
        "mov.b64 {w4, w5}, %6".into(),
    ];
    // V = floor(v / 2^e): three words
    if e == 64 {
        p.extend(["mov.u32 V0, w2".into(), "mov.u32 V1, w3".into(), "mov.u32 V2, w4".into()]);
    } else {
        let n = e - 32;
        p.extend([
            format!("shf.r.clamp.b32 V0, w1, w2, {n}"),
            format!("shf.r.clamp.b32 V1, w2, w3, {n}"),
            format!("shf.r.clamp.b32 V2, w3, w4, {n}"),
        ]);
    }
    // S = sum (-sigma)^m floor(V / 2^(ms)) in two words, then Q = V + S
    for m in 1..=terms {
        let h = m * s;
        let (t0, t1) = match h {
            0..=31 => (format!("shf.r.clamp.b32 T0, V0, V1, {h}"), format!("shf.r.clamp.b32 T1, V1, V2, {h}")),
            32..=63 => (format!("shf.r.clamp.b32 T0, V1, V2, {}", h - 32), format!("shr.s32 T1, V2, {}", h - 32)),
            64..=95 => (format!("shr.s32 T0, V2, {}", h - 64), "shr.s32 T1, V2, 31".into()),
            _ => ("shr.s32 T0, V2, 31".into(), "shr.s32 T1, V2, 31".into()),
        };
        p.extend([t0, t1]);
        let neg = sp.delta > 0 && m % 2 == 1;
        let (op, src) = if m == 1 { (if neg { "sub" } else { "add" }, "zr") } else { (if neg { "sub" } else { "add" }, "S") };
        if src == "zr" {
            p.extend([format!("{op}.cc.u32 S0, zr, T0"), format!("{op}c.u32 S1, zr, T1")]);
        } else {
            p.extend([format!("{op}.cc.u32 S0, S0, T0"), format!("{op}c.u32 S1, S1, T1")]);
        }
    }
    if terms == 0 {
        p.extend(["mov.u32 Q0, V0".into(), "mov.u32 Q1, V1".into(), "mov.u32 Q2, V2".into()]);
    } else {
        p.extend([
            "shr.s32 S2, S1, 31".into(),
            "add.cc.u32 Q0, V0, S0".into(),
            "addc.cc.u32 Q1, V1, S1".into(),
            "addc.u32 Q2, V2, S2".into(),
        ]);
    }
    // the digit modulo 2^96, in w0..w2: v - Q 2^e
    if e == 64 {
        p.push("sub.u32 w2, w2, Q0".into());
    } else {
        let g = e - 32;
        p.extend([
            format!("shl.b32 X1, Q0, {g}"),
            format!("shf.l.clamp.b32 X2, Q0, Q1, {g}"),
            "sub.cc.u32 w1, w1, X1".into(),
            "subc.u32 w2, w2, X2".into(),
        ]);
    }
    // -/+ Q 2^u (delta = +/-2^u)
    let op = if sp.delta > 0 { "sub" } else { "add" };
    match u {
        64.. => p.extend([format!("shl.b32 Y2, Q0, {}", u - 64), format!("{op}.u32 w2, w2, Y2")]),
        32..=63 => p.extend([
            format!("shl.b32 Y1, Q0, {}", u - 32),
            format!("shf.l.clamp.b32 Y2, Q0, Q1, {}", u - 32),
            format!("{op}.cc.u32 w1, w1, Y1"),
            format!("{op}c.u32 w2, w2, Y2"),
        ]),
        _ => p.extend([
            format!("shl.b32 Y0, Q0, {u}"),
            format!("shf.l.clamp.b32 Y1, Q0, Q1, {u}"),
            format!("shf.l.clamp.b32 Y2, Q1, Q2, {u}"),
            format!("{op}.cc.u32 w0, w0, Y0"),
            format!("{op}c.cc.u32 w1, w1, Y1"),
            format!("{op}c.u32 w2, w2, Y2"),
        ]),
    }
    if chained {
        // the carry was in v: the digit as it is, and Q (sign-extended) on to the next coefficient;
        // one macro name, since only f_mul_lazy takes this form (f_mul_lazy_wide's is `MulSplit::wide`'s series)
        p.extend([
            "mov.b64 %0, {w0, w1}".into(),
            "mov.u32 %1, w2".into(),
            "shr.s32 P3, Q2, 31".into(),
            "mov.b64 %2, {Q0, Q1}".into(),
            "mov.b64 %3, {Q2, P3}".into(),
        ]);
        c.line(format!(
            "/* {}'s chained split of one coefficient (emit/series.rs): V = floor(v / 2^{e}) of v with the carry in, Q = V + sum (-sigma)^m floor(V / 2^({s} m)), m <= {terms},",
            hp.mul_lazy()
        ));
        c.line(" * zh:zl = v - Q r (modulo 2^96), qh:ql = Q (signed 128-bit) */");
        c.line(format!(
            "#define SRGFN_CHAINED_SPLIT(zl, zh, ql, qh, v0, v1, v2) asm(\"{{ {}; }}\" : \"=l\"(zl), \"=r\"(zh), \"=l\"(ql), \"=l\"(qh) : \"l\"(v0), \"l\"(v1), \"l\"(v2))",
            p.join(";\\n\\t")
        ));
        return;
    }
    // + the previous quotient, then Q on to the next coefficient
    p.extend([
        "mov.b64 {P0, P1}, %2".into(),
        "mov.b64 {P2, P3}, %3".into(),
        "add.cc.u32 w0, w0, P0".into(),
        "addc.cc.u32 w1, w1, P1".into(),
        "addc.u32 w2, w2, P2".into(),
        "mov.b64 %0, {w0, w1}".into(),
        "mov.u32 %1, w2".into(),
        "mov.b64 %2, {Q0, Q1}".into(),
        "mov.b64 %3, {Q2, zr}".into(),
    ]);
    c.line(format!(
        "/* {}'s split of one coefficient (emit/series.rs): V = floor(v / 2^{e}), Q = V + sum (-sigma)^m floor(V / 2^({s} m)), m <= {terms},",
        hp.mul_lazy()
    ));
    c.line(" * zh:zl = v - Q r + the previous quotient (modulo 2^96), cl:ch = Q (its third word in ch's low half) */");
    c.line(format!(
        "#define {}(zl, zh, cl, ch, v0, v1, v2) asm(\"{{ {}; }}\" : \"=l\"(zl), \"=r\"(zh), \"+l\"(cl), \"+l\"(ch) : \"l\"(v0), \"l\"(v1), \"l\"(v2))",
        hp.split_macro(),
        p.join(";\\n\\t")
    ));
}

/// `⌊V / 2^sh⌋` (sh ≥ 1) for the signed 128-bit V = Vh:Vl, where it fits a long.
fn floored_v(sh: u32) -> String {
    match sh {
        h @ 1..=63 => format!("(long)((Vl >> {h}) | (Vh << {}))", 64 - h),
        h @ 64..=127 => format!("((long)Vh >> {})", h - 64),
        _ => "((long)Vh >> 63)".into(),
    }
}

/// Bits 0..63 and 64..95 of Q 2^sh for the 128-bit Q = Qh:Ql, as C expressions.
fn q_shifted(sh: u32) -> (String, String) {
    match sh {
        0 => ("Ql".into(), "(int)Ql".into()),
        64 => ("(ulong)0".into(), "(int)Ql".into()),
        _ => (format!("(Ql << {sh})"), format!("(int)((Ql >> {}) | (Qh << {sh}))", 64 - sh)),
    }
}

/// [`split`] in portable C on 64-bit words.
fn split_c(c: &mut C, sp: &MulSplit, s: u32, terms: u32, i: &str, chained: bool) {
    let e = sp.e;
    if e == 64 {
        c.line("{ const ulong Vl = v1, Vh = v2; /* V = floor(v / 2^64) */");
    } else {
        c.line(format!(
            "{{ const ulong Vl = (v1 << {s}) | (v0 >> {e}), Vh = (v2 << {s}) | (v1 >> {e}); /* V = floor(v / 2^{e}) */",
            s = 64 - e
        ));
    }
    if terms == 0 {
        c.line("  const ulong Ql = Vl, Qh = Vh;");
    } else {
        // (−σ)^m: σ = +1 alternates from −, σ = −1 adds every term
        let terms: Vec<String> = (1..=terms)
            .map(|m| {
                let neg = sp.delta > 0 && m % 2 == 1;
                format!("{}{}", if neg { "- " } else { "+ " }, floored_v(m * s))
            })
            .collect();
        c.line(format!("  const long S = 0 {}; /* the series' terms after V */", terms.join(" ")));
        c.line("  const ulong Ql = Vl + (ulong)S, Qh = Vh + (ulong)(S >> 63) + (Ql < (ulong)S);");
    }
    c.line("  ulong rl; int rh; /* v - Q r modulo 2^96 (|v - Q r| is far below 2^95) */");
    let (al, ah) = q_shifted(e);
    c.line(format!("  SRGFN_LZ_SUB(rl, rh, v0, (int)v1, {al}, {ah});"));
    if sp.delta != 0 {
        let (bl, bh) = q_shifted(sp.delta.unsigned_abs().trailing_zeros());
        let op = if sp.delta > 0 { "SUB" } else { "ADD" };
        c.line(format!("  SRGFN_LZ_{op}(rl, rh, rl, rh, {bl}, {bh});"));
    }
    if !chained {
        c.line("  SRGFN_LZ_ADD(rl, rh, rl, rh, cl, (int)ch); /* + the previous coefficient's quotient */");
    }
    c.line(format!("  zl[{i}] = rl; zh[{i}] = rh; cl = Ql; ch = Qh; }}"));
}

/// Words of a signed value of magnitude below `bound` (its sign bit and one of margin).
fn words_for(bound: f64) -> usize {
    ((bound.max(1.0).log2() + 2.0) / 32.0).ceil() as usize
}

/// The words of v and Q in each of f_mul_lazy's split rounds
/// ([`SplitForm::Rounds`]) for the PTX chain, from the bounds `MulSplit::of`
/// walks; None where a value would not fit (the C form then).
fn rounds_plan(a: &ArithSpec, sp: &MulSplit, rounds: u32) -> Option<Vec<(usize, usize)>> {
    let (two_e, d) = ((2f64).powi(sp.e as i32), sp.delta.unsigned_abs() as f64);
    let mut b = (a.k as f64 + 3.0) * (a.r as f64) * (a.r as f64);
    let mut plan = Vec::new();
    for _ in 0..rounds {
        plan.push((words_for(b), words_for(b / two_e + 1.0)));
        b = two_e + (b / two_e + 2.0) * d;
    }
    // the input is three 64-bit words; the digit left is three 32-bit words; Q's sum three words
    let q_sum = words_for((a.k as f64 + 3.0) * (a.r as f64) * (a.r as f64) / two_e * 2.0 + 8.0);
    let fits = plan.first()?.0 <= 6 && words_for(b) <= 3 && q_sum <= 3 && (33..=64).contains(&sp.e) && sp.delta != 0;
    fits.then_some(plan)
}

/// Whether f_mul_lazy's split rounds take the PTX chain for this prime.
pub(super) fn rounds_in_ptx(a: &ArithSpec, sp: &MulSplit) -> bool {
    matches!(sp.form, SplitForm::Rounds(n) if a.ptx && rounds_plan(a, sp, n).is_some())
}

/// `SRGFN_ROUNDS_SPLIT(zl, zh, ql, qh, v0, v1, v2)` (v19e), the words per round in `plan`: f_mul_lazy's split rounds of one
/// coefficient v2:v1:v0 (the carry added) as one PTX chain on 32-bit words: per round
/// Q = ⌊v / 2^e⌋, v ← (v mod 2^e) − Q δ, each value in the words its bound needs; the
/// digit left (below 2^65) in zh:zl and the quotients' sum, sign-extended, in qh:ql.
fn rounds_macro(c: &mut C, sp: &MulSplit, rounds: u32, plan: &[(usize, usize)]) {
    let (e, u) = (sp.e, sp.delta.unsigned_abs().trailing_zeros());
    let (big_e, f, big_u, g) = ((e / 32) as usize, e % 32, (u / 32) as usize, u % 32);
    let op = if sp.delta > 0 { "sub" } else { "add" };
    let mut regs: Vec<String> = vec!["zr".into(), "A0".into(), "A1".into(), "A2".into()];
    let mut p: Vec<String> = vec!["mov.u32 zr, 0".into(), "mov.u32 A0, 0".into(), "mov.u32 A1, 0".into(), "mov.u32 A2, 0".into()];
    // the input: six words
    let mut cur: Vec<String> = (0..6).map(|i| format!("w{i}")).collect();
    regs.extend(cur.iter().cloned());
    p.extend(["mov.b64 {w0, w1}, %4".into(), "mov.b64 {w2, w3}, %5".into(), "mov.b64 {w4, w5}, %6".into()]);
    for (j, &(wv, wq)) in plan.iter().enumerate() {
        let next_wv = plan.get(j + 1).map_or(3, |n| n.0).max(3);
        cur.truncate(wv);
        let sg = format!("sg{j}");
        p.push(format!("shr.s32 {sg}, {}, 31", cur[wv - 1]));
        regs.push(sg.clone());
        let get = |i: usize| if i < wv { cur[i].clone() } else { sg.clone() };
        // Q = floor(v / 2^e)
        let q: Vec<String> = (0..wq).map(|i| format!("q{j}_{i}")).collect();
        for (i, qi) in q.iter().enumerate() {
            p.push(if f == 0 {
                format!("mov.u32 {qi}, {}", get(big_e + i))
            } else {
                format!("shf.r.clamp.b32 {qi}, {}, {}, {f}", get(big_e + i), get(big_e + i + 1))
            });
        }
        let sq = format!("sq{j}");
        p.push(format!("shr.s32 {sq}, {}, 31", q[wq - 1]));
        regs.extend(q.iter().cloned());
        regs.push(sq.clone());
        let qx = |n: isize| -> String {
            if n < 0 {
                "zr".into()
            } else if (n as usize) < wq {
                q[n as usize].clone()
            } else {
                sq.clone()
            }
        };
        // the quotients' sum (three words)
        p.extend([
            format!("add.cc.u32 A0, A0, {}", qx(0)),
            format!("addc.cc.u32 A1, A1, {}", qx(1)),
            format!("addc.u32 A2, A2, {}", qx(2)),
        ]);
        // v <- (v mod 2^e) -/+ Q 2^u over next_wv words
        let rho = |i: usize| -> Option<String> {
            if i < big_e {
                Some(cur[i].clone())
            } else {
                None
            }
        };
        let word_e = cur[big_e].clone();
        let mut out: Vec<String> = Vec::new();
        let mut first = true;
        for i in 0..next_wv {
            let n = format!("v{j}_{i}");
            regs.push(n.clone());
            // word i of rho: below word E whole, word E masked, above zero
            let r_i = match rho(i) {
                Some(w) => w,
                None if i == big_e && f > 0 => {
                    p.push(format!("and.b32 {n}, {word_e}, {}", (1u64 << f) - 1));
                    n.clone()
                }
                None => "zr".into(),
            };
            if i < big_u {
                if r_i != n {
                    p.push(format!("mov.u32 {n}, {r_i}"));
                }
            } else {
                let m = i as isize - big_u as isize;
                let t = format!("t{j}_{i}");
                regs.push(t.clone());
                p.push(if g == 0 {
                    format!("mov.u32 {t}, {}", qx(m))
                } else {
                    format!("shf.l.clamp.b32 {t}, {}, {}, {g}", qx(m - 1), qx(m))
                });
                let last = i + 1 == next_wv;
                let ins = match (first, last) {
                    (true, true) => op.to_string(),
                    (true, false) => format!("{op}.cc"),
                    (false, false) => format!("{op}c.cc"),
                    (false, true) => format!("{op}c"),
                };
                p.push(format!("{ins}.u32 {n}, {r_i}, {t}"));
                first = false;
            }
            out.push(n);
        }
        cur = out;
    }
    p.extend([
        format!("mov.b64 %0, {{{}, {}}}", cur[0], cur[1]),
        format!("mov.u32 %1, {}", cur[2]),
        "shr.s32 A3, A2, 31".into(),
        "mov.b64 %2, {A0, A1}".into(),
        "mov.b64 %3, {A2, A3}".into(),
    ]);
    regs.push("A3".into());
    regs.sort();
    regs.dedup();
    let mut body = vec![format!(".reg .u32 {}", regs.join(", "))];
    body.extend(p);
    c.line(format!("/* f_mul_lazy's {rounds} split round(s) of one coefficient as one PTX chain (emit/series.rs): Q = floor(v / 2^{e}), v <- (v mod 2^{e}) - Q delta */"));
    c.line(format!(
        "#define SRGFN_ROUNDS_SPLIT(zl, zh, ql, qh, v0, v1, v2) asm(\"{{ {}; }}\" : \"=l\"(zl), \"=r\"(zh), \"=l\"(ql), \"=l\"(qh) : \"l\"(v0), \"l\"(v1), \"l\"(v2))",
        body.join(";\\n\\t")
    ));
}
