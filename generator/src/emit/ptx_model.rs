//! A host model of the inline PTX that `mul::accumulator` emits: the macro
//! text is parsed and its instructions run on 32-bit registers with PTX's
//! carry flag, so that CI (which has no NVIDIA device) checks the emitted
//! carry chains of `SRGFN_ACC_INIT`, `SRGFN_ACC_MAC`, `SRGFN_ACC_GET` and `SRGFN_ACC_DIFF`
//! against BigUint sums, the lazy digits' `SRGFN_LZ_ADD`/`SRGFN_LZ_SUB`,
//! and the carry into a coefficient (`mul::add_carry`).  Only the instructions those macros use are known;
//! any other instruction fails the test.

use std::collections::HashMap;

use num_bigint::{BigInt, BigUint};
use rand::{Rng, SeedableRng};

use super::arith::{ArithSpec, C};
use super::fastnorm::FastNorm;
use super::high_part::HighPart;
use super::lazy::{render_ops, LazySpec, MulSplit, SplitForm};
use super::mul::{accumulator, add_carry};
use super::MulForm;
use crate::prime::Prime;

/// One `#define NAME(...)` of the emitted text, continuation lines joined.
fn macro_text(src: &str, name: &str) -> String {
    let start = src.find(&format!("#define {name}(")).unwrap_or_else(|| panic!("{name} not emitted"));
    let mut text = String::new();
    for line in src[start..].lines() {
        let cont = line.trim_end().ends_with('\\');
        text.push_str(line.trim_end().trim_end_matches('\\'));
        text.push(' ');
        if !cont {
            break;
        }
    }
    text
}

/// The C string literals of `s`, in order.
fn literals(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '"' {
            let mut lit = String::new();
            for d in chars.by_ref() {
                if d == '"' {
                    break;
                }
                lit.push(d);
            }
            out.push(lit);
        }
    }
    out
}

/// A parsed `asm(...)`: the instructions, and the C expression of each operand %i.
struct Asm {
    stmts: Vec<String>,
    operands: Vec<String>,
}

fn parse_asm(text: &str) -> Asm {
    let at = text.find("asm(").expect("an asm statement");
    let body = &text[at + 4..];
    let lits = literals(body);
    let is_constraint = |l: &str| matches!(l, "+r" | "=r" | "r" | "+l" | "=l" | "l");
    let template: String = lits.iter().take_while(|l| !is_constraint(l)).cloned().collect();
    // operands: each constraint literal is followed by (expression)
    let mut operands = Vec::new();
    let mut rest = body;
    while let Some(i) = rest.find("\"(") {
        let open = i + 1;
        let (mut depth, mut end) = (0, open);
        for (j, ch) in rest[open..].char_indices() {
            match ch {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + j;
                        break;
                    }
                }
                _ => {}
            }
        }
        operands.push(rest[open + 1..end].trim().to_string());
        rest = &rest[end..];
    }
    let flat = template.replace("\\n", " ").replace("\\t", " ");
    let stmts =
        flat.split(';').map(|s| s.trim().trim_start_matches('{').trim().to_string()).filter(|s| !s.is_empty() && s != "}").collect();
    Asm { stmts, operands }
}

/// Runs `asm` on `env` (C expressions → values; 64-bit operands as u64,
/// 32-bit ones as u32 in a u64), writing its outputs back into `env`.
fn run(asm: &Asm, env: &mut HashMap<String, u64>) {
    let mut regs: HashMap<String, u64> = HashMap::new();
    let mut cf = 0u64;
    let key = |s: &str| -> String {
        match s.strip_prefix('%') {
            Some(n) => asm.operands[n.parse::<usize>().unwrap()].clone(),
            None => s.to_string(),
        }
    };
    let get = |s: &str, regs: &HashMap<String, u64>, env: &HashMap<String, u64>| -> u64 {
        if let Ok(v) = s.parse::<u64>() {
            return v;
        }
        let k = key(s);
        *regs.get(&k).or_else(|| env.get(&k)).unwrap_or_else(|| panic!("no value for {s} ({k})"))
    };
    for stmt in &asm.stmts {
        if stmt.starts_with(".reg") {
            continue;
        }
        let (op, args) = stmt.split_once(' ').unwrap();
        let args = args.trim();
        if op == "mov.b64" {
            if let Some(parts) = args.strip_prefix('{') {
                // {lo, hi}, src: split a 64-bit value
                let (inner, src) = parts.split_once('}').unwrap();
                let (lo, hi) = inner.split_once(',').unwrap();
                let v = get(src.trim().trim_start_matches(',').trim(), &regs, env);
                regs.insert(key(lo.trim()), v & 0xffff_ffff);
                regs.insert(key(hi.trim()), v >> 32);
            } else {
                // dst, {lo, hi}: join two 32-bit values
                let dst = args.split_once(',').unwrap().0.trim();
                let inner = args[args.find('{').unwrap() + 1..args.find('}').unwrap()].to_string();
                let (lo, hi) = inner.split_once(',').unwrap();
                let v = get(lo.trim(), &regs, env) | (get(hi.trim(), &regs, env) << 32);
                regs.insert(key(dst), v);
            }
            continue;
        }
        let a: Vec<&str> = args.split(',').map(str::trim).collect();
        let v = |i: usize| get(a[i], &regs, env);
        let (val, carry) = match op {
            "mov.u32" => (v(1), None),
            "mul.lo.u32" => ((v(1) * v(2)) & 0xffff_ffff, None),
            "mul.hi.u32" => ((v(1) * v(2)) >> 32, None),
            "mad.lo.cc.u32" | "madc.lo.cc.u32" | "mad.hi.cc.u32" | "madc.hi.cc.u32" => {
                let p = v(1) * v(2);
                let part = if op.contains(".lo.") { p & 0xffff_ffff } else { p >> 32 };
                let s = part + v(3) + if op.starts_with("madc") { cf } else { 0 };
                (s & 0xffff_ffff, Some(s >> 32))
            }
            // add/sub of 32 or 64 bits (.u32, .s32, .u64): modular, the carry (borrow) out of the top bit
            _ if op.starts_with("add") || op.starts_with("sub") => {
                let bits = if op.ends_with("64") { 64 } else { 32 };
                let mask = (1u128 << bits) - 1;
                let cin = if op.starts_with("addc") || op.starts_with("subc") { cf as u128 } else { 0 };
                let (x, y) = (v(1) as u128 & mask, v(2) as u128 & mask);
                let (r, out) = if op.starts_with("add") {
                    let s = x + y + cin;
                    (s & mask, s >> bits)
                } else {
                    ((x.wrapping_sub(y + cin)) & mask, (x < y + cin) as u128)
                };
                (r as u64, op.contains(".cc").then_some(out as u64))
            }
            "shr.s32" => (((v(1) as u32 as i32) >> v(2).min(31)) as u32 as u64, None),
            "shr.u32" => ((v(1) & 0xffff_ffff) >> v(2).min(32), None),
            "shl.b32" => ((v(1) << v(2).min(32)) & 0xffff_ffff, None),
            "and.b32" => (v(1) & v(2), None),
            "or.b32" => (v(1) | v(2), None),
            "not.b32" => (!v(1) & 0xffff_ffff, None),
            // the low word of hi:lo >> n (n < 32)
            "shf.r.clamp.b32" => ((((v(2) << 32) | v(1)) >> v(3).min(32)) & 0xffff_ffff, None),
            // the high word of (hi:lo) << n (n < 32)
            "shf.l.clamp.b32" => ((((v(2) << 32) | v(1)) << v(3).min(32)) >> 32 & 0xffff_ffff, None),
            _ => panic!("the model does not know `{stmt}`"),
        };
        if let Some(c) = carry {
            cf = c;
        }
        regs.insert(key(a[0]), val);
    }
    for (k, v) in regs {
        if env.contains_key(&k) || asm.operands.contains(&k) {
            env.insert(k, v);
        }
    }
}

/// The emitted PTX accumulator macros.
fn emitted() -> String {
    let prime = Prime::parse("(2^63+2^34)^8+1").unwrap();
    let mut c = C::new();
    accumulator(&mut c, &ArithSpec::new(&prime, MulForm::Wide64, true));
    c.out
}

const FIELDS: [&str; 8] = ["e0", "e1", "e2", "e3", "e4", "o1", "o2", "o3"];

/// The 192-bit value of three 64-bit words, least significant first.
fn words(w: [u64; 3]) -> BigInt {
    BigInt::from(w[0]) + (BigInt::from(w[1]) << 64) + (BigInt::from(w[2]) << 128)
}

/// The 192-bit value v2:v1:v0 the model left in `env`.
fn v_words(env: &HashMap<String, u64>) -> BigInt {
    words([env["v0"], env["v1"], env["v2"]])
}

/// Sums of `count` products through the emitted MAC and GET, against BigUint:
/// from a zeroed accumulator, or (`init`) from one that INIT sets with the
/// first product over whatever its words held.
fn check_sums(count: usize, init: bool, digit: &mut dyn FnMut() -> u64) {
    let src = emitted();
    let (mac, get) = (parse_asm(&macro_text(&src, "SRGFN_ACC_MAC")), parse_asm(&macro_text(&src, "SRGFN_ACC_GET")));
    let first = parse_asm(&macro_text(&src, "SRGFN_ACC_INIT"));
    let stale = if init { 0xdead_beef } else { 0 };
    let mut env: HashMap<String, u64> = FIELDS.iter().map(|f| (format!("(a).{f}"), stale)).collect();
    let mut want = BigUint::from(0u32);
    for m in 0..count {
        let (x, y) = (digit(), digit());
        env.insert("x".into(), x);
        env.insert("y".into(), y);
        run(if init && m == 0 { &first } else { &mac }, &mut env);
        want += BigUint::from(x) * BigUint::from(y);
    }
    run(&get, &mut env);
    assert_eq!(v_words(&env), BigInt::from(want), "{count} products, init = {init}");
}

#[test]
fn emitted_ptx_accumulator_sums_exactly() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for count in [1, 2, 8, 16, 64, 128] {
        for init in [false, true] {
            check_sums(count, init, &mut || u64::MAX);
            check_sums(count, init, &mut || rng.gen());
            let mut i = 0u64;
            check_sums(count, init, &mut || {
                i += 1;
                [0, 1, u64::MAX, 1 << 63, (1 << 32) - 1, 1 << 32][(i % 6) as usize]
            });
        }
    }
}

#[test]
fn emitted_ptx_difference_is_the_signed_coefficient() {
    let src = emitted();
    let (mac, diff) = (parse_asm(&macro_text(&src, "SRGFN_ACC_MAC")), parse_asm(&macro_text(&src, "SRGFN_ACC_DIFF")));
    let diff_text = macro_text(&src, "SRGFN_ACC_DIFF");
    let first = parse_asm(&macro_text(&src, "SRGFN_ACC_INIT"));
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    for (np, nn) in [(1, 0), (0, 1), (3, 5), (8, 8), (16, 0), (0, 16), (9, 7)] {
        for max in [false, true] {
            // P and N as INIT and the MAC leave them (an empty set zeroed), each under its own name
            let mut sums = [BigInt::from(0), BigInt::from(0)];
            let mut env: HashMap<String, u64> = HashMap::new();
            for (s, (name, count)) in [("p", np), ("n", nn)].into_iter().enumerate() {
                let mut acc: HashMap<String, u64> = FIELDS.iter().map(|f| (format!("(a).{f}"), 0)).collect();
                for m in 0..count {
                    let (x, y) = if max { (u64::MAX, u64::MAX) } else { (rng.gen(), rng.gen()) };
                    acc.insert("x".into(), x);
                    acc.insert("y".into(), y);
                    run(if m == 0 { &first } else { &mac }, &mut acc);
                    sums[s] += BigInt::from(x) * BigInt::from(y);
                }
                for f in FIELDS {
                    env.insert(format!("({name}).{f}"), acc[&format!("(a).{f}")]);
                }
            }
            // the C prelude of DIFF copies the even words it adds into: `uint pe1_ = (p).e1, ...`
            let prelude = &diff_text[diff_text.find("uint ").unwrap() + 5..diff_text.find(';').unwrap()];
            for decl in prelude.split(',') {
                let (name, expr) = decl.split_once('=').unwrap();
                let v = env[expr.trim()];
                env.insert(name.trim().to_string(), v);
            }
            run(&diff, &mut env);
            let modulus = BigInt::from(1) << 192;
            let want = ((&sums[0] - &sums[1]) % &modulus + &modulus) % &modulus;
            assert_eq!(v_words(&env), want, "P of {np} products, N of {nn}, max = {max}");
        }
    }
}

#[test]
fn emitted_ptx_lazy_digit_add_and_sub_are_96_bit() {
    let prime = Prime::parse("(2^63+2^34)^8+1").unwrap();
    let src = render_ops(&ArithSpec::new(&prime, MulForm::Wide64, true));
    let mut rng = rand::rngs::StdRng::seed_from_u64(13);
    let edges = [0u64, 1, u64::MAX, 1 << 63];
    for name in ["SRGFN_LZ_ADD", "SRGFN_LZ_SUB"] {
        let asm = parse_asm(&macro_text(&src, name));
        for i in 0..2000 {
            let (al, bl) = if i < 16 { (edges[i % 4], edges[i / 4]) } else { (rng.gen(), rng.gen()) };
            let (ah, bh): (i32, i32) = (rng.gen_range(-128..128), rng.gen_range(-128..128));
            let mut env: HashMap<String, u64> = HashMap::new();
            for (k, v) in [("al", al), ("bl", bl), ("ah", ah as u32 as u64), ("bh", bh as u32 as u64)] {
                env.insert(k.into(), v);
            }
            run(&asm, &mut env);
            let value = |l: u64, h: i32| (BigInt::from(h) << 64) + BigInt::from(l);
            let want = if name == "SRGFN_LZ_ADD" { value(al, ah) + value(bl, bh) } else { value(al, ah) - value(bl, bh) };
            assert_eq!(value(env["zl"], env["zh"] as u32 as i32), want, "{name}({al}, {ah}, {bl}, {bh})");
        }
    }
}

#[test]
fn emitted_ptx_carry_into_a_coefficient_is_192_bit() {
    let prime = Prime::parse("(2^62+2^36)^16+1").unwrap();
    let mut c = C::new();
    add_carry(&mut c, &ArithSpec::new(&prime, MulForm::Wide64, true));
    let asm = parse_asm(&c.out);
    let sign_of_ch = asm.operands.last().expect("operands").clone();
    let mut rng = rand::rngs::StdRng::seed_from_u64(17);
    let edges = [0u64, 1, u64::MAX, 1 << 63, u64::MAX - 1];
    for i in 0..3000 {
        let (v, carry): ([u64; 3], [u64; 2]) = if i < 125 {
            ([edges[i % 5], edges[(i / 5) % 5], edges[(i / 25) % 5]], [edges[i % 5], edges[(i / 5) % 5]])
        } else {
            ([rng.gen(), rng.gen(), rng.gen()], [rng.gen(), rng.gen()])
        };
        let mut env: HashMap<String, u64> = HashMap::new();
        for (k, x) in [("v0", v[0]), ("v1", v[1]), ("v2", v[2]), ("cl", carry[0]), ("ch", carry[1])] {
            env.insert(k.into(), x);
        }
        env.insert(sign_of_ch.clone(), ((carry[1] as i64) >> 63) as u64);
        run(&asm, &mut env);
        let modulus = BigInt::from(1) << 192;
        let signed_carry = BigInt::from(carry[0]) + (BigInt::from(carry[1] as i64) << 64);
        let want = ((words(v) + signed_carry) % &modulus + &modulus) % &modulus;
        assert_eq!(v_words(&env), want, "v = {v:?}, carry = {carry:?}");
    }
}

/// The arithmetic of radix r with k digits, PTX on (any r, prime or not).
fn ptx_spec(k: usize, r: u64) -> ArithSpec {
    ArithSpec { k, r, shift: r.leading_zeros(), mul: MulForm::Wide64, ptx: true }
}

/// Test coefficient i of f_mul_lazy (|v| < v_max): 0, ±(v_max − 1) and r first, then random of either sign.
fn coefficient(i: usize, v_max: &BigInt, r: u64, rng: &mut impl Rng) -> BigInt {
    match i {
        0 => BigInt::from(0),
        1 => v_max - 1,
        2 => BigInt::from(1) - v_max,
        3 => BigInt::from(r),
        _ => {
            let w: [u64; 3] = [rng.gen(), rng.gen(), rng.gen()];
            let x = words(w) % v_max;
            if rng.gen() {
                -x
            } else {
                x
            }
        }
    }
}

/// A split macro (`SRGFN_ROUNDS_SPLIT`, `SRGFN_CHAINED_SPLIT`: v0..v2 in; zl, zh, ql, qh out) run on
/// the coefficient v: the digit zh:zl (signed, 96 bits) and the quotient qh:ql (128 bits).
fn run_split(asm: &Asm, v: &BigInt) -> (BigInt, BigInt) {
    let mut env: HashMap<String, u64> = HashMap::new();
    for (name, x) in [("v0", word_of(v, 0)), ("v1", word_of(v, 1)), ("v2", word_of(v, 2))] {
        env.insert(name.into(), x);
    }
    run(asm, &mut env);
    let digit = (BigInt::from(env["zh"] as u32 as i32) << 64) + BigInt::from(env["zl"]);
    (digit, (BigInt::from(env["qh"]) << 64) + BigInt::from(env["ql"]))
}

/// 64-bit word n of the two's complement of x.
fn word_of(x: &BigInt, n: u32) -> u64 {
    let m = BigInt::from(1) << (64 * (n + 1));
    let y = ((x % &m) + &m) % &m;
    ((y >> (64 * n)) & BigInt::from(u64::MAX)).try_into().unwrap()
}

/// The fast normalisation's PTX step (`SRGFN_NORM_STEP`) and wrap
/// (`SRGFN_NORM_WRAP`) against the exact split: the quotient is always
/// ⌊v / 2^e⌋, and a digit that does not raise `bad` is v − q r in [0, r).
#[test]
fn emitted_ptx_fast_normalisation_steps_are_exact_or_flagged() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(19);
    // the catalog primes it serves, and the other shapes of r: delta < 0 below 2^64, u < 32
    let radices: [(usize, u64); 6] = [
        (4, u64::MAX - (1 << 50) + 1),
        (8, (1 << 63) + (1 << 34)),
        (16, (1 << 62) + (1 << 36)),
        (4, (1 << 63) - (1 << 40)),
        (4, (1 << 62) + (1 << 20)),
        (8, u64::MAX - (1 << 32) + 1),
    ];
    for (k, r) in radices {
        let text = format!("k = {k}, r = {r:#x}");
        let a = ptx_spec(k, r);
        let l = LazySpec::of(&a);
        let f = FastNorm::of(&a, &l).unwrap_or_else(|| panic!("{text} takes the fast path"));
        let mut c = C::new();
        f.render_macros(&mut c, &l, true);
        let (step, wrap) = (parse_asm(&macro_text(&c.out, "SRGFN_NORM_STEP")), parse_asm(&macro_text(&c.out, "SRGFN_NORM_WRAP")));
        let (r, two_e) = (BigInt::from(l.r), BigInt::from(1) << f.e);
        let bound = LazySpec::split_bound(l.levels, l.level0) as i128;
        let (mut flagged, total) = (0, 4000);
        for i in 0..total {
            // a lazy digit (h, l) and a carry q, |h 2^64 + l| + |q| within the bound
            let edges = [0i128, 1, -1, l.r as i128, l.r as i128 - 1, -(l.r as i128), bound - 1024, 1024 - bound];
            let v: i128 = if i < 8 { edges[i] } else { rng.gen_range(-(bound - 1024)..=bound - 1024) };
            let q: i32 = if i % 3 == 0 { 0 } else { rng.gen_range(-1000..=1000) };
            let (lo, hi) = (v as u64, (v >> 64) as i32);
            let mut env: HashMap<String, u64> = HashMap::new();
            for (k, x) in [("l", lo), ("h", hi as u32 as u64), ("q", q as u32 as u64), ("bad", 0)] {
                env.insert(k.into(), x);
            }
            run(&step, &mut env);
            let total_v = BigInt::from(v) + BigInt::from(q);
            let qq = BigInt::from(env["q"] as u32 as i32);
            let floor = {
                let (d, m) = (&total_v / &two_e, &total_v % &two_e);
                if m < BigInt::from(0) {
                    d - 1
                } else {
                    d
                }
            };
            assert_eq!(qq, floor, "{text}: v = {v}, q = {q}");
            let z = BigInt::from(env["z"]);
            if env["bad"] == 0 {
                assert_eq!(&z + &qq * &r, total_v, "{text}: v = {v}, q = {q}: digit {z}");
                assert!(z < r, "{text}: v = {v}, q = {q}: digit {z} passed");
            } else {
                flagged += 1;
            }
            // the wrap: z0 - q for a canonical z0
            let (z0, qw): (u64, i32) = (rng.gen_range(0..l.r), rng.gen_range(-1000..=1000));
            let mut env: HashMap<String, u64> =
                [("z0", z0), ("bad", 0), ("q", qw as u32 as u64)].into_iter().map(|(k, x)| (k.to_string(), x)).collect();
            run(&wrap, &mut env);
            let want = z0 as i128 - qw as i128;
            if env["bad"] == 0 {
                assert_eq!(env["z0"] as i128, want, "{text}: wrap of {z0} by {qw}");
                assert!(want < l.r as i128);
            } else {
                assert!(!(0..(f.r_hi() as i128) << 32).contains(&want), "{text}: wrap of {z0} by {qw} flagged");
            }
        }
        assert!(flagged < total / 50, "{text}: {flagged} of {total} flagged");
    }
}

/// f_mul_lazy's split of a coefficient as one PTX chain (`SRGFN_SERIES_SPLIT`,
/// emit/series.rs) against BigInt: Q = V + Σ (−σ)^m ⌊V / 2^(ms)⌋ with
/// V = ⌊v / 2^e⌋, the digit v − Q r plus the previous quotient modulo 2^96,
/// and Q (three words) on to the next coefficient.
#[test]
fn emitted_ptx_series_split_is_the_quotient_series() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(23);
    let m96 = BigInt::from(1) << 96;
    let signed96 = |x: BigInt| -> BigInt {
        let y = ((x % &m96) + &m96) % &m96;
        if y >= (BigInt::from(1) << 95) {
            y - &m96
        } else {
            y
        }
    };
    // the catalog's k = 2, 4, 8 (and 2^63 + 2^30, which has a wide split too), and delta below 2^32
    // and negative below 2^63
    // and eight terms, the last shifted by 64 (e = 63 and e = 64)
    let radices: [(usize, u64); 8] = [
        (2, (1 << 63) + (1 << 53)),
        (4, u64::MAX - (1 << 50) + 1),
        (8, (1 << 63) + (1 << 34)),
        (8, (1 << 63) + (1 << 30)),
        (4, (1 << 62) + (1 << 20)),
        (8, (1 << 63) - (1 << 40)),
        (2, (1 << 63) + (1 << 55)),
        (2, u64::MAX - (1 << 56) + 1),
    ];
    // f_mul_lazy's split, and f_mul_lazy_wide's where it has one (fewer terms)
    let splits = radices
        .iter()
        .flat_map(|&(k, r)| [HighPart::Byte, HighPart::Short].into_iter().filter_map(move |hp| hp.split(k, r).map(|sp| (k, r, hp, sp))));
    let mut wide = 0;
    for (k, r, hp, sp) in splits {
        let text = format!("k = {k}, r = {r:#x}, {hp:?}");
        let a = ptx_spec(k, r);
        wide += usize::from(hp == HighPart::Short);
        let SplitForm::Series { s, terms } = sp.form else { panic!("{text}: {sp:?} is no series") };
        let mut c = C::new();
        super::series::render_macros(&mut c, &a, (&sp, hp));
        let asm = parse_asm(&macro_text(&c.out, hp.split_macro()));
        let v_max = BigInt::from(k as u64 + 3) * BigInt::from(r) * BigInt::from(r);
        for i in 0..3000 {
            let v = coefficient(i, &v_max, r, &mut rng);
            let prev = BigInt::from(rng.gen_range(-(1i128 << 69)..(1i128 << 69)));
            let mut env: HashMap<String, u64> = HashMap::new();
            for (name, x) in [
                ("v0", word_of(&v, 0)),
                ("v1", word_of(&v, 1)),
                ("v2", word_of(&v, 2)),
                ("cl", word_of(&prev, 0)),
                ("ch", word_of(&prev, 1)),
            ] {
                env.insert(name.into(), x);
            }
            run(&asm, &mut env);
            let floor = |x: &BigInt, sh: u32| -> BigInt { x >> sh };
            let big_v = floor(&v, sp.e);
            let mut q = big_v.clone();
            for m in 1..=terms {
                let t = floor(&big_v, m * s);
                q = if sp.delta > 0 && m % 2 == 1 { q - t } else { q + t };
            }
            let digit = &v - &q * BigInt::from(r) + &prev;
            let got = (BigInt::from(env["zh"] as u32 as i32) << 64) + BigInt::from(env["zl"]);
            assert_eq!(got, signed96(digit.clone()), "{text}: v = {v}, prev = {prev}");
            assert!(digit.bits() < 95, "{text}: v = {v}: the digit {digit} leaves 96 bits");
            let q_got = (BigInt::from(env["ch"] & 0xffff_ffff) << 64) + BigInt::from(env["cl"]);
            assert_eq!(q_got, ((&q % &m96) + &m96) % &m96, "{text}: v = {v}: the quotient");
        }
    }
    assert!(wide >= 2, "{wide} wide splits checked");
}

/// f_mul_lazy's split rounds as one PTX chain (`SRGFN_ROUNDS_SPLIT`,
/// emit/series.rs) against BigInt: per round Q = ⌊v / 2^e⌋ and
/// v ← (v mod 2^e) − Q δ; the digit left and the quotients' sum.
#[test]
fn emitted_ptx_split_rounds_are_the_rounds() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(29);
    // the catalog's k = 16, delta below 2^32, delta < 0 with e = 64, and delta < 0 below 2^63
    // and delta = 2^32, 2^64 - 2^32 (whole-word shifts of Q)
    let radices: [(usize, u64); 6] = [
        (16, (1 << 62) + (1 << 36)),
        (16, (1 << 63) + (1 << 20)),
        (16, u64::MAX - (1 << 40) + 1),
        (16, (1 << 62) - (1 << 34)),
        (16, (1 << 63) + (1 << 32)),
        (16, u64::MAX - (1 << 32) + 1),
    ];
    let m128 = BigInt::from(1) << 128;
    for (k, r) in radices {
        let text = format!("k = {k}, r = {r:#x}");
        let a = ptx_spec(k, r);
        let sp = MulSplit::rounds(k, r).unwrap_or_else(|| panic!("{text} splits"));
        let SplitForm::Rounds(rounds) = sp.form else { panic!("{text}: {sp:?} is no rounds form") };
        assert!(super::series::rounds_in_ptx(&a, &sp), "{text} takes the PTX rounds");
        let mut c = C::new();
        super::series::render_macros(&mut c, &a, (&sp, HighPart::Byte));
        let asm = parse_asm(&macro_text(&c.out, "SRGFN_ROUNDS_SPLIT"));
        let v_max = BigInt::from(k as u64 + 3) * BigInt::from(r) * BigInt::from(r);
        let (two_e, delta) = (BigInt::from(1) << sp.e, BigInt::from(sp.delta));
        for i in 0..3000 {
            let v = coefficient(i, &v_max, r, &mut rng);
            let (got, q_got) = run_split(&asm, &v);
            let (mut d, mut q_sum) = (v.clone(), BigInt::from(0));
            for _ in 0..rounds {
                let q = &d >> sp.e;
                d = &d - &q * &two_e - &q * &delta;
                q_sum += q;
            }
            assert!(d.bits() < 95, "{text}: v = {v}: the digit {d} leaves 96 bits");
            assert_eq!(got, d, "{text}: v = {v}: the digit");
            assert_eq!(q_got, ((&q_sum % &m128) + &m128) % &m128, "{text}: v = {v}: the quotients' sum");
        }
    }
}

/// f_mul_lazy's chained series as one PTX chain (`SRGFN_CHAINED_SPLIT`,
/// emit/series.rs) against BigInt: on v with the carry already in it,
/// Q = V + Σ (−σ)^m ⌊V / 2^(ms)⌋ with V = ⌊v / 2^e⌋, the digit v − Q r alone
/// (96 bits), and Q as a signed 128-bit carry for `mul::add_carry`.
#[test]
fn emitted_ptx_chained_series_split_is_the_series() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(37);
    let m128 = BigInt::from(1) << 128;
    // the catalog's k = 16 (σ = +1, e = 62), σ = −1, e = 63 with a small and a large s
    let radices: [(usize, u64); 4] =
        [(16, (1 << 62) + (1 << 36)), (16, (1 << 63) + (1 << 20)), (16, (1 << 62) - (1 << 34)), (16, (1 << 63) - (1 << 40))];
    for (k, r) in radices {
        let text = format!("k = {k}, r = {r:#x}");
        let a = ptx_spec(k, r);
        let sp = MulSplit::of(k, r).unwrap_or_else(|| panic!("{text} splits"));
        let SplitForm::ChainedSeries { s, terms } = sp.form else { panic!("{text}: {sp:?} is no chained series") };
        let mut c = C::new();
        super::series::render_macros(&mut c, &a, (&sp, HighPart::Byte));
        let asm = parse_asm(&macro_text(&c.out, "SRGFN_CHAINED_SPLIT"));
        let v_max = BigInt::from(k as u64 + 3) * BigInt::from(r) * BigInt::from(r);
        for i in 0..3000 {
            let v = coefficient(i, &v_max, r, &mut rng);
            let (got, q_got) = run_split(&asm, &v);
            let big_v = &v >> sp.e;
            let mut q = big_v.clone();
            for m in 1..=terms {
                let t = &big_v >> (m * s);
                q = if sp.delta > 0 && m % 2 == 1 { q - t } else { q + t };
            }
            let digit = &v - &q * BigInt::from(r);
            assert!(digit.bits() < 95, "{text}: v = {v}: the digit {digit} leaves 96 bits");
            assert_eq!(got, digit, "{text}: v = {v}: the digit");
            assert_eq!(q_got, ((&q % &m128) + &m128) % &m128, "{text}: v = {v}: the quotient");
        }
    }
}

/// The twiddle phase's division by shifts and adds as one PTX chain
/// (`SRGFN_TWIDDLE_DIVMOD`, emit/quotient.rs) against the host form of the
/// same rounds (`SparseQuotient::eval`, itself checked against exact
/// division): d = a − Q r and Q, for the catalog's radices and radices of
/// other shapes (σ = ±1, s from 1 to 63, e from 33 to 64), with random a
/// below k r² and the extremes.
#[test]
fn emitted_ptx_twiddle_divmod_is_the_shifts_and_adds() {
    use super::quotient::{ptx_macro, SparseQuotient};
    let mut rng = rand::rngs::StdRng::seed_from_u64(31);
    let mut radices: Vec<(usize, u64)> = crate::prime::catalog().iter().map(|p| (p.k(), p.r())).collect();
    for (e, u) in [(62u32, 56u32), (62, 61), (60, 1), (58, 0), (64, 1), (64, 33), (33, 2), (40, 20)] {
        for k in [2usize, 128] {
            radices.push((k, ((1u128 << e) - (1u128 << u)) as u64));
            if e < 64 {
                radices.push((k, (1u64 << e) + (1u64 << u)));
            }
        }
    }
    for (k, r) in radices {
        let text = format!("k = {k}, r = {r:#x}");
        let sq = SparseQuotient::for_twiddles(k, r).unwrap_or_else(|| panic!("{text}"));
        let Some(m) = ptx_macro(&sq) else {
            assert!(sq.e < 32, "{text}: no PTX for e = {}", sq.e);
            continue;
        };
        let asm = parse_asm(&m);
        let bound = BigUint::from(k) * BigUint::from(r - 1) * BigUint::from(r);
        for i in 0..2000 {
            let a = match i {
                0 => BigUint::from(0u32),
                1 => bound.clone(),
                2 => (BigUint::from(1u32) << (bound.bits() - 1)) - 1u32,
                _ => BigUint::from_bytes_le(&(0..24).map(|_| rng.gen()).collect::<Vec<u8>>()) % (&bound + 1u32),
            };
            let w = [0, 1, 2].map(|j| a.to_u64_digits().get(j).copied().unwrap_or(0));
            let mut env: HashMap<String, u64> = HashMap::new();
            for (name, x) in [("a0", w[0]), ("a1", w[1]), ("a2", w[2])] {
                env.insert(name.into(), x);
            }
            run(&asm, &mut env);
            let (q, d) = sq.eval(w);
            assert_eq!((env["qh"] as u128) << 64 | env["ql"] as u128, q, "{text}: a = {a}: Q");
            assert_eq!((env["dh"] as u128) << 64 | env["dl"] as u128, d as u128, "{text}: a = {a}: d");
        }
    }
}
