//! The template context of `templates/smallprime.cl.tera`: every index,
//! offset and constant the kernels print, computed from the plan's own
//! functions (`Pass::exchange_index`, `Pass::stage_index`, …) so that the
//! printed code is the host model.

use serde::Serialize;

use super::dft::{power_steps, DftProgram, PowerStep};
use super::plan::{NttPlan, Pass};
use super::{SmallPrimes, INNER_ROOTS};

/// Level B of one work-item: DFT number ρ of its column (i″ = τ + U·ρ).
#[derive(Serialize)]
struct LevelB {
    rho: usize,
    /// Exchange word of input t2, relative to `tau·G + g`.
    reads: Vec<usize>,
    /// ω_R^{t2·i″} is inner root (t2·256/R)·i″, for t2 = 0 … r_B − 1.
    root_steps: Vec<usize>,
    /// Output m2 (m = i″ + r_A·m2) at `base + m·P`, relative to the work-item's base.
    stores: Vec<usize>,
}

#[derive(Serialize)]
struct PassContext {
    name: String,
    #[serde(flatten)]
    pass: Pass,
    radix: usize,
    group_size: usize,
    log_g: u32,
    log_p: u32,
    fused: bool,
    twiddled: bool,
    shared_twiddles: bool,
    staged: bool,
    /// Word offsets of the r_A loads, relative to x + i + τ·T.
    loads: Vec<usize>,
    /// This work-item computes d^{t1} for t1 = τ + each of these.
    twiddle_starts: Vec<usize>,
    twiddle_words: usize,
    /// ω exponent shifts: d^{t1} = ω^{(t1·κ) << scale_a}, c = ω^{(τ·κ) << scale_c}.
    scale_a: u32,
    scale_c: u32,
    powers: Vec<PowerStep>,
    dft_a: DftProgram,
    dft_b: DftProgram,
    roots: Vec<usize>,
    local_words: usize,
    /// Exchange word of level-A output m1 is `tau·exchange_tau + g + m1·G`.
    exchange_tau: usize,
    level_b: Vec<LevelB>,
    /// R·P: the output block of one ⌊i/P⌋.
    block: usize,
    /// Staged: output m of column g at local `(g >> log_p)·stage_row + (g & (P−1)) + τ·P + …`.
    stage_row: usize,
    stage_pad: usize,
    log_block: u32,
    /// Staged copy: word o = l + z·group_size for each of these z·group_size.
    copies: Vec<usize>,
}

fn pass_context(k: usize, pass: &Pass, sp: &SmallPrimes) -> PassContext {
    let (ra, rb, g_cols, u, p) = (pass.radix_a, pass.radix_b, pass.group_columns, pass.threads_per_column(), pass.stride);
    let (e, r) = (sp.two_adicity, pass.radix());
    let (dft_a, dft_b) = (DftProgram::new(ra), DftProgram::new(rb));
    let mut roots: Vec<usize> = dft_a.butterflies.iter().chain(&dft_b.butterflies).map(|b| b.root).filter(|&h| h != 0).collect();
    roots.sort_unstable();
    roots.dedup();
    let level_b = if pass.fused() {
        (0..ra / u)
            .map(|rho| LevelB {
                rho,
                reads: (0..rb).map(|t2| pass.exchange_index(u * rho + ra * t2, 0)).collect(),
                root_steps: (0..rb).map(|t2| t2 * INNER_ROOTS / r).collect(),
                stores: (0..rb).map(|m2| (u * rho + ra * m2) * p).collect(),
            })
            .collect()
    } else {
        Vec::new()
    };
    PassContext {
        name: format!("sp_pass{k}"),
        pass: pass.clone(),
        radix: r,
        group_size: pass.group_size(),
        log_g: g_cols.trailing_zeros(),
        log_p: p.trailing_zeros(),
        fused: pass.fused(),
        twiddled: pass.twiddled(),
        shared_twiddles: pass.shared_twiddles(),
        staged: pass.staged(),
        loads: (0..ra).map(|t1| rb * t1 * pass.columns).collect(),
        twiddle_starts: (0..ra).step_by(u).collect(),
        twiddle_words: pass.twiddle_words(),
        scale_a: e - (ra * p).trailing_zeros(),
        scale_c: e - (r * p).trailing_zeros(),
        powers: power_steps(ra),
        dft_a,
        dft_b,
        roots,
        local_words: pass.local_words(),
        exchange_tau: pass.exchange_index(ra, 0),
        level_b,
        block: r * p,
        stage_row: pass.stage_block() + if pass.staged() { pass.stage_pad() } else { 0 },
        stage_pad: pass.stage_pad(),
        log_block: pass.stage_block().trailing_zeros(),
        copies: (0..ra).map(|z| z * pass.group_size()).collect(),
    }
}

/// One Garner term: x·c accumulated as x·lo + x·hi·2^16.
#[derive(Serialize)]
struct GarnerTerm {
    lo: u32,
    hi: u32,
}

/// Garner digit b_j (j ≥ 1) from a_j (first term) and b_0 … b_{j−1}.
#[derive(Serialize)]
struct GarnerDigit {
    j: usize,
    terms: Vec<GarnerTerm>,
    q: u32,
    neg_qinv: u32,
}

/// Horner step n ← n·q_i + b_i on the `len` low words.
#[derive(Serialize)]
struct HornerStep {
    i: usize,
    q: u32,
    len: usize,
}

/// The two programs of the baseline: the passes depend on N, the
/// recombination only on the prime set (N is its argument), so that it is
/// compiled once per set.
#[derive(Clone, Copy, Debug)]
pub enum SmallPrimeProgram<'a> {
    Ntt(&'a NttPlan),
    Recombination,
}

/// The template context of one program of the s-prime baseline.
pub fn template_context(sp: &SmallPrimes, program: SmallPrimeProgram) -> tera::Context {
    let s = sp.s();
    let mut c = tera::Context::new();
    c.insert("s", &s);
    c.insert("e", &sp.two_adicity);
    c.insert("q", &sp.q);
    c.insert("qinv", &sp.qinv);
    let passes: Vec<PassContext> = match program {
        SmallPrimeProgram::Ntt(plan) => {
            c.insert("n", &plan.n());
            plan.passes.iter().enumerate().map(|(k, p)| pass_context(k, p, sp)).collect()
        }
        SmallPrimeProgram::Recombination => Vec::new(),
    };
    c.insert("passes", &passes);
    c.insert("w16", &sp.w16);
    let w16q: Vec<Vec<u32>> = sp.w16.iter().enumerate().map(|(j, row)| row.iter().map(|&w| sp.companion(j, w)).collect()).collect();
    c.insert("w16q", &w16q);
    c.insert("lo_bits", &sp.lo_bits());
    c.insert("lo_len", &(1usize << sp.lo_bits()));
    c.insert("table_words", &sp.table_words());
    c.insert("inner_base", &sp.inner_base());
    let garner: Vec<GarnerDigit> = (1..s)
        .map(|j| GarnerDigit {
            j,
            terms: sp.garner[j].iter().map(|&x| GarnerTerm { lo: x & 0xffff, hi: x >> 16 }).collect(),
            q: sp.q[j],
            neg_qinv: sp.qinv[j].wrapping_neg(),
        })
        .collect();
    c.insert("recombination", &matches!(program, SmallPrimeProgram::Recombination));
    c.insert("garner", &garner);
    let horner: Vec<HornerStep> = (0..s - 1).rev().map(|i| HornerStep { i, q: sp.q[i], len: s - 1 - i }).collect();
    c.insert("horner", &horner);
    c
}
