//! What a transform takes unless asked otherwise, decided once: the variants
//! a prime has and its default one, the radix of the DFT_K expansion, where
//! a plan puts its small radix, which sizes fuse two passes per launch, and
//! the plan the runtime runs with them.  Each choice cites the measurement
//! behind it (docs/performance.md).

use super::digits::PassLayout;
use super::{fused::FusedShape, EmitError, Variant, LOCAL_MAX_K, TABLE_MAX_K};
use crate::error::SizeError;
use crate::plan::{Halves, Launch, PlanShape, SmallRadix};
use crate::prime::Prime;
use crate::rules::Radix;
use crate::unroll::Program;

/// Smallest k for which "digits" is the default variant (H200, v8: at k = 32
/// 10.7 ms against 13.9 for "table" at N = 2^20; at k = 16 3.5 against 2.3).
pub const DIGITS_DEFAULT_MIN_K: usize = 32;

/// Variants emitted for a prime, the default first: "local" for k ≤ 8,
/// "table" for k ≤ 32, "digits" and "workgroup" always; the default is
/// "local" up to k = 8, "table" at k = 16 and "digits" from k = 32.
pub fn variants_for(prime: &Prime) -> Vec<Variant> {
    let mut v = Vec::new();
    if prime.k() <= LOCAL_MAX_K {
        v.push(Variant::Local);
    }
    if prime.k() <= TABLE_MAX_K {
        v.push(Variant::Table);
    }
    if prime.k() >= DIGITS_DEFAULT_MIN_K {
        v.insert(0, Variant::Digits);
    } else {
        v.push(Variant::Digits);
    }
    v.push(Variant::Workgroup);
    v
}

/// The radix of the DFT_K expansion a prime's transforms use unless asked
/// for another: 2 for k = 16, else 4.  H200, v21 (docs/perf/h200-v21/radix):
/// with the padded fused kernel (v20c) k = 2 and 4 run faster at radix 4,
/// fused at every size, than at radix 2 fused or not: k = 4 2^20 0.232 →
/// 0.214 ms, 2^24 3.39 → 3.26, 2^16 0.068 → 0.052; k = 2 2^20 0.201 →
/// 0.191, 2^24 3.20 → 2.92 (fused kernel at radix 4: two stages of local
/// memory instead of three at k = 4, 64 registers instead of 58).  H200, v12,
/// both radices of the default variant in one call (docs/perf/h200-v12/radix):
/// k = 8 (local) with radix 4 holds 130 registers instead of 96 but runs two
/// local-memory stages instead of four: 2^16 0.082 → 0.072 ms, 2^20 0.618 →
/// 0.545, 2^24 10.08 → 9.49; the digits variant: k = 32 2^20 8.60 → 8.18,
/// k = 64 2^18 4.61 → 4.37, k = 128 2^16 3.03 → 2.98; k = 16's table
/// variant 12–14% slower with radix 4 (212 registers instead of 156; v20 on
/// the H100: 14%).
pub fn default_radix(prime: &Prime) -> Radix {
    if prime.k() == 16 {
        Radix::R2
    } else {
        Radix::R4
    }
}

/// (k, radix, smallest log2 N) where a plan of the table variant with its
/// stages through the warp (`warp_stages::applies`: NVIDIA with PTX) takes
/// another radix than [`default_radix`] when the caller chose none.  H200,
/// v41 (docs/perf/h200-v41/radix, final code, both radices in one process,
/// two or three rounds): k = 8 at radix 2 against 4, 2^17 (pairs) 0.0631
/// against 0.0653 ms, 2^18 0.1029 against 0.1037, 2^19 0.1667 / 0.1701,
/// 2^20 0.3102 / 0.3121, 2^22 1.4307 / 1.4531, 2^23 2.9122 / 2.9856, 2^24
/// level; 2^16 level (0.0438 / 0.0434), where the fused local variant below
/// it runs much slower at radix 2 (0.0746 against 0.0490), so the radix is
/// chosen per size.
pub const TABLE_RADIX_MIN_LOG_N: [(usize, Radix, u32); 1] = [(8, Radix::R2, 17)];

/// The radix of the DFT_K expansion a plan of size 2^log_n runs: the
/// caller's (`chosen`), else [`TABLE_RADIX_MIN_LOG_N`]'s where the plan's
/// variant ([`plan_variant`] with `chosen_variant`) is the table variant
/// with its stages through the warp, else [`default_radix`].  `opts`: the
/// kernel options but their radix (PTX, warp emulation), which the variant
/// does not depend on.
pub fn plan_radix(prime: &Prime, chosen: Option<Radix>, chosen_variant: Option<Variant>, log_n: u32, opts: &super::KernelOptions) -> Radix {
    if let Some(r) = chosen {
        return r;
    }
    let k = prime.k();
    let table = plan_variant(prime, chosen_variant, log_n, opts) == Variant::Table && super::warp_stages::applies(k, 2 * k, opts);
    TABLE_RADIX_MIN_LOG_N
        .iter()
        .find(|&&(tk, _, min)| table && tk == k && log_n >= min)
        .map_or_else(|| default_radix(prime), |&(_, r, _)| r)
}

/// Where a variant's plans put their pass of radix below the largest.  The
/// digits variant holds one block (one κ) per work-group at the largest radix
/// for k ≥ 32 and skips a warp's products when its elements' twiddles are
/// powers of r (it takes the inputs t in bit-reversed order, so that such
/// inputs fill whole rounds of its twiddle phase): the small pass first makes
/// the first pass cheap and leaves the second with few general products.
/// H200, v15 (docs/perf/h200-v15/order): k = 32 2^20 5.71 → 5.19 ms with
/// both, 5.45 with the order alone; k = 128 2^16 2.73 → 2.21.  The table
/// variant with its stages through the warp puts it second for the k and
/// radices of [`SMALL_RADIX_SECOND`]; the other variants keep it last: a warp
/// there spans consecutive κ, and the first place measured 1.5–6% slower for
/// k = 8 at 2^17–2^22.
pub fn small_radix_at(prime: &Prime, variant: Variant, opts: &super::KernelOptions, small: Option<usize>) -> SmallRadix {
    if variant == Variant::Digits {
        return SmallRadix::First;
    }
    let k = prime.k();
    let second = variant == Variant::Table
        && super::warp_stages::applies(k, 2 * k, opts)
        && small.is_some_and(|s| SMALL_RADIX_SECOND.iter().any(|&(sk, max)| sk == k && s <= max));
    if second {
        SmallRadix::Second
    } else {
        SmallRadix::Last
    }
}

/// (k, largest small radix) where the table variant's plans, with their
/// stages through the warp (`warp_stages::applies`: NVIDIA with PTX), put
/// their pass of radix below K second: (K, 1), (s, K), (K, s·K), ….  H200,
/// v50 (docs/perf/h200-v50/second, two alternated processes each, ms), k = 16:
/// 2^16 0.0651, 0.0658 → 0.0643, 0.0631; 2^17 0.1160, 0.1163 → 0.1116,
/// 0.1145; 2^18 0.2076, 0.2093 → 0.2046, 0.2062 (−1.5 to −4%); the rule
/// against the landed binary (`rule/`): 2^16 −3.5 to −4.3%, 2^17 −2 to −4%,
/// 2^18 −0.6 to −1.1%, 2^21 level, 2^22 −0.5%, and s = 16 second at 2^19
/// +1.5 to +1.9%, hence s ≤ 8.  Of (s, K)'s twiddles w^(t·κ) a fraction is
/// powers of r (s | t·κ: 75% at s = 2, 50% at 4, 31% at 8, against 1/s when
/// the pass comes last).
pub const SMALL_RADIX_SECOND: [(usize, usize); 1] = [(16, 8)];

/// The kernels of a variant's file that a register cap can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CappedKernel {
    /// The twiddled pass of radix K (the first pass keeps the compiler's
    /// choice).
    TwiddledPass,
    /// The twiddled pass of a radix below K (a plan's one small radix).
    SmallTwiddledPass,
    /// The table plans' first-two-passes kernel (`emit::first2`).
    First2,
    /// The table plans' kernel of a later pair of passes (`first2::TwoLevel::Pair`).
    Pair,
}

/// Register caps on NVIDIA (PTX program binaries): (k, variant, radix of the
/// expansion, kernel, cap).  NVIDIA's OpenCL ignores `-cl-nv-maxrregcount`,
/// so the runtime writes `.maxnreg` into the built PTX.
///
/// * k = 8's twiddled local pass at radix 4 (H200, v21, docs/perf/h200-v21)
///   holds 102 registers, so four work-groups of 128 fit an SM; capped at 96
///   (five fit, no spill) the transform ran 4–6% faster from 2^19 to 2^24
///   (2^20 0.428 → 0.406 ms, 2^24 6.79 → 6.40); a cap of 88 spilled 8 bytes
///   and gained less.
/// * k = 8's first-two-passes kernel at radix 4 (H200, v38,
///   docs/perf/h200-v38/cap-first2, two calls) holds 96 registers, five
///   work-groups an SM; capped at 72 (seven fit, 16 bytes of stack) its
///   launch ran 1–2% faster from 2^20 (2^22 0.3607 → 0.3548 ms, 2^23 0.7125
///   → 0.6980) and the transform 0.1–0.5%; 88 was slower (still five), 80
///   between, 64 3–6% slower (72 bytes of stack), 56 50% slower.
/// * The same kernels at radix 2, which k = 8's plans take from 2^17
///   ([`TABLE_RADIX_MIN_LOG_N`]; H200, v42, docs/perf/h200-v42/first,
///   three alternated processes): first2 holds 88 registers and the pair
///   114; capped at 72 (16 and 24 bytes of stack) the transform ran 0.5–0.8%
///   faster from 2^19 (2^20 0.3116 → 0.3100 ms, 2^22 1.4334 → 1.4243, 2^24
///   5.8241 → 5.7847), level at 2^17, where the pair runs, and at 2^18.
///
/// * k = 16's twiddled table passes with f_mul_lazy in one Karatsuba level
///   (`ArithSpec::karatsuba_lazy`; H200, v48, docs/perf/h200-v48) hold 196
///   registers, two work-groups of 128 an SM: uncapped the transform ran
///   2–6% slower than the schoolbook form (157 registers) from 2^18
///   (`kara/`).  Capped at 168 (three fit, 20–40 bytes of spill), the radix-K
///   pass alone made it 2–5% faster (`kara168/`), and with the small
///   radices' passes capped too 5–6% faster from 2^18 and 1–2% at 2^16 and
///   2^17 (`final/`: 2^20 0.7810 → 0.7325 ms, 2^22 3.897 → 3.651).  A k = 16
///   prime with r ≥ 2^63 keeps the schoolbook form, below the cap.  Plans
///   below 2^18 run them uncapped ([`REGISTER_CAPS_MIN_LOG_N`], v49).
///
/// Every cap tried on the other defaults was slower or within noise: k = 2
/// local 48 and 64, k = 4 local 64–80, k = 16 table 104–128 (−6 to −27%,
/// spills; the schoolbook form), k = 32 table 96 and 128 (−30 to −70%), k = 8's twiddled table
/// pass 72 and 64 (+1.5%, +8%; v38 `cap-table/`).
pub const PTX_REGISTER_CAPS: [(usize, Variant, Radix, CappedKernel, u32); 7] = [
    (16, Variant::Table, Radix::R2, CappedKernel::TwiddledPass, 168),
    (16, Variant::Table, Radix::R2, CappedKernel::SmallTwiddledPass, 168),
    (8, Variant::Local, Radix::R4, CappedKernel::TwiddledPass, 96),
    (8, Variant::Table, Radix::R4, CappedKernel::First2, 72),
    (8, Variant::Table, Radix::R4, CappedKernel::Pair, 72),
    (8, Variant::Table, Radix::R2, CappedKernel::First2, 72),
    (8, Variant::Table, Radix::R2, CappedKernel::Pair, 72),
];

/// (k, smallest log2 of N·batch, the elements each launch covers) from which
/// a plan's kernels carry the caps of [`PTX_REGISTER_CAPS`]; smaller plans
/// build the same files uncapped.  A cap buys a third work-group per SM
/// where a launch has waves of them to fill; a launch of few work-groups
/// pays only its spills.  k = 16 (H200,
/// v49, docs/perf/h200-v49/caps, two processes each): uncapped 2^16 in
/// 0.0634–0.0637 ms against 0.0645–0.0659 capped, 2^17 0.1205–0.1211
/// against 0.1240–0.1243, but 2^18 0.2230 against 0.2072 and 2^20 0.8155
/// against 0.7310–0.7317.  (A radix-32 launch at 2^17 has 512 work-groups
/// of 128: uncapped, two nearly full waves of two per SM on 132 SMs;
/// capped, a full wave of three per SM and a second 29% full.)
pub const REGISTER_CAPS_MIN_LOG_N: [(usize, u32); 1] = [(16, 18)];

/// Whether the kernels of a plan whose launches cover `elements` = N·batch
/// elements carry their register caps ([`REGISTER_CAPS_MIN_LOG_N`]; every
/// size of a k not listed there).  The measurements were of single vectors;
/// a batch of small vectors makes launches of as many work-groups as one
/// vector of their total size.
pub fn plan_register_caps(prime: &Prime, elements: usize) -> bool {
    REGISTER_CAPS_MIN_LOG_N.iter().find(|&&(k, _)| k == prime.k()).is_none_or(|&(_, min)| elements >= 1 << min)
}

/// The register cap of `kernel` of `variant` (see [`PTX_REGISTER_CAPS`]):
/// only where the kernels use PTX and carry caps ([`super::KernelOptions::register_caps`]).
pub fn ptx_register_cap(k: usize, variant: Variant, kernel: CappedKernel, opts: &super::KernelOptions) -> Option<u32> {
    if !opts.ptx || !opts.register_caps {
        return None;
    }
    PTX_REGISTER_CAPS.iter().find(|&&(ck, cv, cr, ckind, _)| (ck, cv, cr, ckind) == (k, variant, opts.radix, kernel)).map(|c| c.4)
}

/// For k = 2, 4, 8 and each radix of the expansion: the largest log2 N at
/// which plans fuse two passes of radix K per launch by default, where the
/// fused launches were faster than one pass per launch (H200, v21, both
/// radices fused and not in one call, docs/perf/h200-v21/radix): k = 2 at
/// every N; k = 4 at every N with radix 4 (2^20 0.214 against 0.235 ms,
/// 2^24 3.26 against 3.34), up to 2^18 with radix 2 (2^19 0.129 against
/// 0.138, 2^20 0.243 against 0.232); k = 8 up to 2^17 with radix 2 (2^18
/// 0.169 against 0.155), and up to 2^18 with radix 4 since v22 gave its fused
/// kernel 80 registers instead of 116 (docs/perf/h200-v22/fuse8: 2^18 0.128
/// against 0.137, 2^19 0.237 against 0.225).
pub const FUSE_DEFAULT_MAX_LOG_N: [(usize, Radix, u32); 6] = [
    (2, Radix::R2, u32::MAX),
    (2, Radix::R4, u32::MAX),
    (4, Radix::R2, 18),
    (4, Radix::R4, u32::MAX),
    (8, Radix::R2, 17),
    (8, Radix::R4, 18),
];

/// (k, smallest log2 N) where a plan takes the table variant instead of the
/// prime's default when the caller chose no variant and the table variant
/// runs its stages through the warp (`warp_stages::applies`: NVIDIA with
/// PTX) and fusion is not asked for.  H200, v32d (docs/perf/h200-v32/twiddled,
/// both radix 4 in one call): k = 8 table against local (fused up to 2^18)
/// 2^18 0.118 against 0.129 ms, 2^19 0.205 / 0.210, 2^20 0.340 / 0.375,
/// 2^21 0.757 / 0.787, 2^22 1.558 / 1.566, 2^24 6.255 / 6.363; fused local
/// stayed ahead at 2^16 and 2^17 (0.045 / 0.076 against 0.076 / 0.076).
/// v35 (docs/perf/h200-v35/small, two runs in one call): with the input in
/// the superblock order (`first2`) the table variant takes 2^17 too (0.0728
/// and 0.0681 against 0.0751 and 0.0769 ms); level at 2^16 (0.0491 and
/// 0.0526 against 0.0501 and 0.0493), where the fused local variant stayed
/// until v40: with its passes in pairs ([`TABLE_PAIRS_DEFAULT_LOG_N`]) the
/// table variant takes 2^16 too (docs/perf/h200-v40/small, five alternated
/// processes: 0.0412 against 0.0515 ms).
pub const TABLE_WARP_DEFAULT_MIN_LOG_N: [(usize, u32); 1] = [(8, 16)];

/// The variant a plan of size 2^log_n runs: the caller's (`chosen`), else
/// the prime's default ([`variants_for`]), or the table variant where
/// [`TABLE_WARP_DEFAULT_MIN_LOG_N`] says so for these kernel options.  The
/// fusion asked for does not choose it: both variants fuse (since v40;
/// before, fusion on chose the local variant, the only one that fused).
pub fn plan_variant(prime: &Prime, chosen: Option<Variant>, log_n: u32, opts: &super::KernelOptions) -> Variant {
    if let Some(v) = chosen {
        return v;
    }
    let k = prime.k();
    let warp = super::warp_stages::applies(k, 2 * k, opts);
    let table = warp && TABLE_WARP_DEFAULT_MIN_LOG_N.iter().any(|&(tk, min)| tk == k && log_n >= min);
    if table && variants_for(prime).contains(&Variant::Table) {
        Variant::Table
    } else {
        variants_for(prime)[0]
    }
}

/// Whether `variant` of the prime has a kernel of two DFT_K levels per
/// launch with these kernel options: the local variant's fused kernel, when
/// two levels of blocks fit local memory, and the table variant's pair
/// kernel where its stages run through the warp and a work-group holds
/// whole superblocks (`first2::applies`: k ≤ 8 with PTX).
pub fn has_fused(prime: &Prime, variant: Variant, opts: &super::KernelOptions) -> bool {
    let k = prime.k();
    match variant {
        Variant::Local => {
            variants_for(prime).contains(&Variant::Local)
                && Program::unroll(k, opts.radix).ok().and_then(|p| FusedShape::of(k, &p)).is_some()
        }
        Variant::Table => variants_for(prime).contains(&Variant::Table) && super::first2::applies(k, 2 * k, opts),
        _ => false,
    }
}

/// Refuses a request for fused launches (`choice` = `Some(true)`) where the
/// variant has no fused kernel.
pub fn check_fuse(prime: &Prime, variant: Variant, opts: &super::KernelOptions, choice: Option<bool>) -> Result<(), EmitError> {
    if choice == Some(true) && !has_fused(prime, variant, opts) {
        return Err(EmitError::Unsupported(format!(
            "no fused kernel for the {} variant of k = {} (two levels are fused by the local variant, k ≤ {LOCAL_MAX_K}, and by the table variant with PTX, k ≤ 8)",
            variant.name(),
            prime.k()
        )));
    }
    Ok(())
}

/// Whether plans of `variant` of size 2^log_n fuse passes by default (see
/// [`FUSE_DEFAULT_MAX_LOG_N`] and [`TABLE_PAIRS_DEFAULT_LOG_N`]; only where
/// the variant can: [`has_fused`]).
pub fn fuse_default(prime: &Prime, variant: Variant, radix: Radix, log_n: u32) -> bool {
    match variant {
        Variant::Table => {
            TABLE_PAIRS_DEFAULT_LOG_N.iter().any(|&(k, r, min, max)| k == prime.k() && r == radix && (min..=max).contains(&log_n))
        }
        _ => FUSE_DEFAULT_MAX_LOG_N.iter().any(|&(k, r, max)| k == prime.k() && r == radix && log_n <= max),
    }
}

/// (k, radix, smallest and largest log2 N) where the table variant's plans
/// run their passes in pairs (`first2`, `TwoLevel::Pair`) by default.  H200,
/// v40 (docs/perf/h200-v40/pairs, both in one process, k = 8 radix 4): a
/// pair is about a tenth cheaper than its two passes at 2^16 and 2^17
/// (0.0409 against 0.0437 ms, 0.0645 against 0.0733), where launches are
/// less than a wave or two; from 2^18 its work-groups run as long as the
/// two passes' together (a pair saves one pass's global loads and stores,
/// not its products or normalisations: v36's bound), 2^18 −1%, 2^19 +2%,
/// 2^20 +4%, and at 2^24 +37% (its R² inputs n/4 bytes apart).  Five
/// alternated processes (`small/`, `pairs18/`): 2^16 0.0506 → 0.0412,
/// 2^17 0.0712 → 0.0641, 2^18 0.1041 → 0.1034 ms.
/// Radix 2 (v41, `radix/`, three rounds): pairs at 2^17 0.0631 against
/// 0.0848 ms, where [`TABLE_RADIX_MIN_LOG_N`] takes it; at 2^18 level
/// (0.1038 against 0.1029).
pub const TABLE_PAIRS_DEFAULT_LOG_N: [(usize, Radix, u32, u32); 2] = [(8, Radix::R4, 16, 18), (8, Radix::R2, 16, 17)];

/// Whether a plan of size 2^log_n with these kernels fuses passes: where the
/// variant can, as `choice` says, else by [`fuse_default`].
pub fn plan_fuses(prime: &Prime, variant: Variant, opts: &super::KernelOptions, choice: Option<bool>, log_n: u32) -> bool {
    has_fused(prime, variant, opts) && choice.unwrap_or_else(|| fuse_default(prime, variant, opts.radix, log_n))
}

/// The plan the runtime runs for a transform of size 2^log_n on `batch`
/// vectors with these kernels: the small radix where [`small_radix_at`] puts
/// it, two passes per launch where [`plan_fuses`] says.
pub fn plan_shape(
    prime: &Prime,
    variant: Variant,
    opts: &super::KernelOptions,
    fuse: Option<bool>,
    log_n: u32,
    batch: usize,
) -> Result<PlanShape, SizeError> {
    let shape = PlanShape::new(prime, log_n, batch)?;
    let at = small_radix_at(prime, variant, opts, shape.small_radix());
    Ok(shape.with_small_radix(at).with_fusion(plan_fuses(prime, variant, opts, fuse, log_n)).with_table_for(variant))
}

/// By default a plan runs in halves only where each launch moves at least
/// this many digits (N · batch · k): the queues overlap only where the GPU
/// stays busy longer than NVIDIA's driver takes to start a queue's command
/// after one on the other queue (tens of µs, seen as gaps between kernels).
/// v23 on the H200: k = 4 at 2^17 (2^19 digits) +100%, k = 64 at 2^15 (2^21)
/// +14%, k = 16 at 2^17 (2^21) +1%; from 2^22 digits −1 to −9% (k = 8
/// 2^19 … 2^24, k = 4 2^20 … 2^24 and k = 2 2^21 … 2^24 with their fused launches in halves,
/// k = 16 2^18 … 2^22, k = 64 2^16 … 2^19).  v49 on the H200 (kernels and
/// host since changed; docs/perf/h200-v49/halves-k, halves on and off
/// alternated, two processes each) moved it to 2^21 digits: k = 2 at 2^20
/// 0.1647–0.1658 ms in halves against 0.1715–0.1718 whole, k = 4 at 2^19
/// 0.1028–0.1064 against 0.1070–0.1078, k = 8 at 2^18 0.0921–0.0937
/// against 0.0966–0.0968, k = 16 at 2^17 0.1140–0.1169 against 0.1207–0.1214
/// (its plans below 2^18 run uncapped, [`REGISTER_CAPS_MIN_LOG_N`]), k = 32
/// at 2^16 0.1580–0.1589 against 0.1676–0.1692; at 2^20 digits slower or
/// level (k = 16 at 2^16 0.0726 against 0.0646, k = 8 at 2^17 0.0608–0.0673
/// against 0.0610–0.0613).  k = 64 and 128 keep 2^22
/// ([`HALVES_MIN_DIGITS_BY_K`]).
pub const HALVES_MIN_DIGITS: usize = 1 << 21;

/// (k, digits) where a k's plans run in halves from more digits than
/// [`HALVES_MIN_DIGITS`]: k = 64 and 128 from 2^22 (H200, v49,
/// docs/perf/h200-v49/halves-k: at 2^21 digits, k = 64 at 2^15 0.2333–0.2346
/// ms in halves against 0.2288–0.2307 whole, k = 128 at 2^14 0.3415–0.3418
/// against 0.3333–0.3335; at 2^22 digits 7% faster in halves).
pub const HALVES_MIN_DIGITS_BY_K: [(usize, usize); 2] = [(64, 1 << 22), (128, 1 << 22)];

/// The digits (N · batch · k) from which plans of `k` run in halves by
/// default ([`HALVES_MIN_DIGITS_BY_K`], else [`HALVES_MIN_DIGITS`]).
pub fn halves_min_digits(k: usize) -> usize {
    HALVES_MIN_DIGITS_BY_K.iter().find(|&&(bk, _)| bk == k).map_or(HALVES_MIN_DIGITS, |&(_, d)| d)
}

/// By default a plan runs in halves only where at least this many of its
/// boundaries between two half-launches overlap: those before which the
/// queues need not wait for each other ([`Halves::joins_before`]).  Without
/// one the plan pays the queues' fork and join and overlaps nothing: one
/// launch alone in halves (v23, H200: k = 8's last radix-4 launch at 2^17
/// and 2^18, +0.5 to +4%), or the digits plans without a buffer of their
/// own for the last launch, which changes the layout and so waits for both
/// halves of the one before (v41, H200: k = 32 radix 4 at 2^16 0.1764 ms in
/// halves against 0.1706 whole, radix 2 0.2213 against 0.1943).
pub const HALVES_MIN_OVERLAPS: usize = 1;

/// Consecutive blocks a half-launch keeps together at least (2^s ≥ this):
/// each digit plane is then read and written in runs of 64 bytes, whole
/// memory sectors (the table and digits kernels map each block into its
/// half).  v23b, H200: k = 16's second launch (p = 32) in halves, 2^18
/// −4.2%, 2^22 −1.4%.
pub const HALF_MIN_RUN: usize = 8;

/// The least p with which `launch` of these kernels may run in halves
/// (`PlanShape::halves`): 2^(s+1) for runs of [`HALF_MIN_RUN`] blocks; for the
/// local and fused kernels runs of a whole work-group (32 blocks, or its
/// superblocks), which they map by its first block and their stores take as
/// consecutive.  v23b, H200: a local kernel that mapped each lane's block
/// instead, with k = 8's second launch (p = 16) in halves of runs of 8
/// blocks, made the transform 3–12% slower from 2^20, and mapping each lane
/// alone cost 4–5% (2^24 6.29 → 6.62 ms).  None for a variant whose kernels
/// run only whole ([`Variant::runs_in_halves`]).
pub fn half_min_p(prime: &Prime, variant: Variant, radix: Radix, launch: &Launch) -> Option<usize> {
    if !variant.runs_in_halves() {
        return None;
    }
    let run = match (launch, variant) {
        (Launch::Single(_), Variant::Local) => super::local::GROUPS,
        (Launch::Single(_), _) => 1,
        (Launch::Fused(..), Variant::Table) => super::first2::superblocks_per_group(prime.k(), 2 * prime.k())?,
        (Launch::Fused(..), _) => Program::unroll(prime.k(), radix).ok().and_then(|p| FusedShape::of(prime.k(), &p))?.blocks,
    };
    Some(2 * HALF_MIN_RUN.max(run.next_power_of_two()))
}

/// The launch tables (`PlanShape::launch_table_log`) a plan of `variant`
/// reads, one entry per launch (None: the plan's table W\[t\] = ω_N^t,
/// t < N/K), each read by a kernel built a second time for such tables
/// (`TwiddleTable::Launch`) that stores its products unrotated:
///
/// * the local variant's fused launches, every one with twiddles
///   (`fused::name`).  H200 (docs/perf/h200-v37/branch): k = 4's fused
///   launches with every twiddled store behind a branch on the table's
///   length, a table of their own where it fits: 2^24 3.104 → 3.029 ms, but
///   k = 8 level and k = 16 up to 4.6% slower (2^18), the kernels larger
///   (first2 96 → 112 registers); hence a kernel built for the launch
///   tables, where the rotation cost most (v35's ablation: 5.2% at k = 4):
///   2^24 3.103 → 2.974 ms (docs/perf/h200-v37/lt).  The first fused launch
///   too, although a tenth of its twiddles are powers of r whose products
///   only the plan's table skips: back on the plan's table it ran 0.6–0.7%
///   slower at 2^20–2^24 (v38, docs/perf/h200-v38/lt2);
/// * the table variant's launches of radix K whose p is at least K², where
///   it has such kernels ([`has_launch_table_passes`]): at p = K the launch
///   (the first two passes' in the superblock order) ran 2.4% slower with a
///   table at k = 8 (2^24, v38 `lt/`), the products of the powers of r
///   costing more than the rotations saved; from K² on k = 8's passes ran
///   2.5% faster (v38 `lt2/`).
pub fn launch_tables(variant: Variant, shape: &PlanShape) -> Vec<Option<u32>> {
    let kk = 2 * shape.k;
    let min_p = |l: &Launch| match (variant, l) {
        (Variant::Local, Launch::Fused(..)) => Some(2),
        (Variant::Table, Launch::Single(pass)) if has_launch_table_passes(shape.k, variant) && pass.radix == kk => Some(kk * kk),
        (Variant::Table, Launch::Fused(..)) if has_launch_table_passes(shape.k, variant) => Some(kk * kk),
        _ => None,
    };
    shape.launches().iter().map(|l| min_p(l).and_then(|m| shape.launch_table_log(l, m))).collect()
}

/// Whether `variant`'s pass kernels of radix K are built a second time for
/// launch tables (`dft_kernel` with `TwiddleTable::Launch`, in a file of
/// their own): the table variant's for k ≤ 8.  k = 16's (radix 2, H200,
/// v38 `lt/`, `lt2/`) ran −0.4 to +1.1% against the plan's table (its
/// launch with a table 139 instead of 157 registers, no faster), not worth
/// a second build of its largest kernel.
pub fn has_launch_table_passes(k: usize, variant: Variant) -> bool {
    variant == Variant::Table && k <= 8
}

/// Where the runtime runs `shape`'s launches (of kernels of `radix`) as two
/// halves side by side ([`PlanShape::halves`] with [`half_min_p`]): never
/// with `choice` `Some(false)`; with `Some(true)` wherever the plan allows
/// it; by default where the launches overlap as often and are as large as
/// [`HALVES_MIN_OVERLAPS`] and [`halves_min_digits`] ask.  With `spare` (the
/// device holds a third vector) the last launch writes a buffer of its own
/// where the queues would otherwise wait for each other before it
/// ([`Halves::spare_last`]: the element-major plans, whose last launch
/// writes digit-major).
pub fn plan_halves(prime: &Prime, variant: Variant, radix: Radix, shape: &PlanShape, choice: Option<bool>, spare: bool) -> Option<Halves> {
    if choice == Some(false) {
        return None;
    }
    let mut halves = shape.halves(|l| half_min_p(prime, variant, radix, l))?;
    let layouts = PassLayout::of_plan(variant, shape);
    let last = layouts.len() - 1;
    halves.spare_last = spare && halves.joins_before(&layouts, last);
    if choice == Some(true) {
        return Some(halves);
    }
    let overlaps = (halves.from + 1..layouts.len()).filter(|&j| !halves.joins_before(&layouts, j)).count();
    (overlaps >= HALVES_MIN_OVERLAPS && shape.n * shape.batch * shape.k >= halves_min_digits(prime.k())).then_some(halves)
}

#[cfg(test)]
mod tests {
    use super::super::{emit_with, KernelOptions, MulForm, RegisterCap};
    use super::*;

    /// Which launches read a table of their own: the table variant's of
    /// radix K from p = K² on (k ≤ 8), every fused launch of the local
    /// variant with twiddles, never the last launch nor another variant's.
    #[test]
    fn launch_tables_go_where_v38_measured_them_faster() {
        let k8 = Prime::parse("(2^63+2^34)^8+1").unwrap();
        let shape = PlanShape::new(&k8, 20, 1).unwrap();
        // passes (16, 1), (16, 16), (16, 256), (16, 4096), (16, 65536)
        assert_eq!(launch_tables(Variant::Table, &shape), [None, None, Some(12), Some(16), None]);
        for variant in [Variant::Local, Variant::Digits, Variant::Workgroup] {
            assert_eq!(launch_tables(variant, &shape), [None; 5], "{variant:?}");
        }
        let k16 = Prime::parse("(2^62+2^36)^16+1").unwrap();
        assert!(launch_tables(Variant::Table, &PlanShape::new(&k16, 20, 1).unwrap()).iter().all(Option::is_none));
        let k4 = Prime::parse("(2^64-2^50)^4+1").unwrap();
        // fused (8, 1)(8, 8), (8, 64)(8, 512), (8, 4096)(8, 32768), (8, 2^18)(8, 2^21)
        let fused = PlanShape::new(&k4, 24, 1).unwrap().with_fusion(true);
        assert_eq!(launch_tables(Variant::Local, &fused), [Some(6), Some(12), Some(18), None]);
        // k = 8 in pairs: (16, 1)(16, 16), (16, 256)(16, 4096), (16, 65536)(16, 2^20); the last's M = 2^24 > N/K
        let pairs = PlanShape::new(&k8, 24, 1).unwrap().with_fusion(true);
        assert_eq!(launch_tables(Variant::Table, &pairs), [None, Some(16), None]);
    }

    /// The table variant fuses its passes in pairs by default only where v40
    /// and v41 measured it faster (k = 8, radix 4 at 2^16 … 2^18, radix 2 at
    /// 2^16 and 2^17), and only with its stages through the warp (PTX, or
    /// emulated shuffles in tests).
    #[test]
    fn table_pairs_by_default_at_k8_2_16_to_2_18() {
        let k8 = Prime::parse("(2^63+2^34)^8+1").unwrap();
        let ptx = KernelOptions { ptx: true, ..KernelOptions::new(Radix::R4, MulForm::Wide64) };
        let plain = KernelOptions::new(Radix::R4, MulForm::Wide64);
        assert!(has_fused(&k8, Variant::Table, &ptx) && !has_fused(&k8, Variant::Table, &plain));
        let emulated = KernelOptions { warp_emulation: true, ..plain };
        assert!(has_fused(&k8, Variant::Table, &emulated));
        for log_n in 8..=24 {
            let want = (16..=18).contains(&log_n);
            assert_eq!(plan_fuses(&k8, Variant::Table, &ptx, None, log_n), want, "2^{log_n}");
            assert!(!plan_fuses(&k8, Variant::Table, &plain, None, log_n));
            assert_eq!(
                plan_fuses(&k8, Variant::Table, &KernelOptions { radix: Radix::R2, ..ptx }, None, log_n),
                (16..=17).contains(&log_n)
            );
            assert!(plan_fuses(&k8, Variant::Table, &ptx, Some(true), log_n) && !plan_fuses(&k8, Variant::Table, &ptx, Some(false), log_n));
        }
        // k = 16's table variant holds no whole superblock in a work-group: no pairs
        let k16 = Prime::parse("(2^62+2^36)^16+1").unwrap();
        assert!(!has_fused(&k16, Variant::Table, &ptx));
        assert!(check_fuse(&k16, Variant::Table, &ptx, Some(true)).is_err() && check_fuse(&k8, Variant::Table, &ptx, Some(true)).is_ok());
    }

    /// k = 8 plans take the table variant from 2^16 where its stages go
    /// through the warp (PTX) and the caller chose no variant, whatever the
    /// fusion; elsewhere the prime's default.
    #[test]
    fn k8_plans_take_the_table_variant_where_its_stages_use_the_warp() {
        let k8 = Prime::parse("(2^63+2^34)^8+1").unwrap();
        let k16 = Prime::parse("(2^62+2^36)^16+1").unwrap();
        let ptx = KernelOptions { ptx: true, ..KernelOptions::new(Radix::R4, MulForm::Wide64) };
        let plain = KernelOptions::new(Radix::R4, MulForm::Wide64);
        for log_n in 4..=24 {
            let want = if log_n >= 16 { Variant::Table } else { Variant::Local };
            assert_eq!(plan_variant(&k8, None, log_n, &ptx), want, "2^{log_n}");
            assert_eq!(plan_variant(&k8, None, log_n, &plain), Variant::Local);
            assert_eq!(plan_variant(&k8, Some(Variant::Local), log_n, &ptx), Variant::Local);
            assert_eq!(plan_variant(&k16, None, log_n, &ptx), Variant::Table);
        }
    }

    /// k = 8's table plans with PTX take radix 2 from 2^17 where the caller
    /// chose no radix; a chosen radix, another variant, kernels without PTX
    /// and the other primes keep theirs.
    #[test]
    fn k8_table_plans_take_radix_2_from_2_17() {
        let k8 = Prime::parse("(2^63+2^34)^8+1").unwrap();
        let ptx = KernelOptions { ptx: true, ..KernelOptions::new(Radix::R4, MulForm::Wide64) };
        let plain = KernelOptions::new(Radix::R4, MulForm::Wide64);
        for log_n in 4..=24 {
            let want = if log_n >= 17 { Radix::R2 } else { Radix::R4 };
            assert_eq!(plan_radix(&k8, None, None, log_n, &ptx), want, "2^{log_n}");
            assert_eq!(plan_radix(&k8, None, Some(Variant::Table), log_n, &ptx), want, "2^{log_n}");
            assert_eq!(plan_radix(&k8, None, Some(Variant::Local), log_n, &ptx), Radix::R4);
            assert_eq!(plan_radix(&k8, Some(Radix::R4), None, log_n, &ptx), Radix::R4);
            assert_eq!(plan_radix(&k8, None, None, log_n, &plain), Radix::R4);
            // the radix in the options does not choose it
            let r2 = KernelOptions { radix: Radix::R2, ..ptx };
            assert_eq!(plan_radix(&k8, None, None, log_n, &r2), want);
            for (expr, default) in [("(2^64-2^50)^4+1", Radix::R4), ("(2^62+2^36)^16+1", Radix::R2), ("(2^62+2^56)^32+1", Radix::R4)] {
                let p = Prime::parse(expr).unwrap();
                assert_eq!(plan_radix(&p, None, None, log_n, &ptx), default, "{expr} 2^{log_n}");
            }
        }
        // radix 2's pairs where it takes over, not beyond 2^17
        let r2 = KernelOptions { radix: Radix::R2, ..ptx };
        assert!(plan_fuses(&k8, Variant::Table, &r2, None, 17) && !plan_fuses(&k8, Variant::Table, &r2, None, 18));
    }

    /// Caps land only where [`PTX_REGISTER_CAPS`] puts them (with PTX, k =
    /// 8's twiddled local pass and first-two-passes kernel): the file carries
    /// them, its source names them in its first line (so they key the program
    /// cache), and the manifest lists them.
    #[test]
    fn register_caps_follow_the_table() {
        for (expr, radix) in [("(2^63+2^34)^8+1", Radix::R4), ("(2^63+2^34)^8+1", Radix::R2), ("(2^64-2^50)^4+1", Radix::R2)] {
            let prime = Prime::parse(expr).unwrap();
            for ptx in [false, true] {
                let opts = KernelOptions { ptx, ..KernelOptions::new(radix, MulForm::Wide64) };
                let set = emit_with(&prime, &opts).unwrap();
                let capped = ptx && prime.k() == 8;
                let r = if radix == Radix::R4 { "r4" } else { "r2" };
                // (file, kernel, cap): the twiddled local pass at radix 4, and with PTX (warp stages) the
                // first2 and pair kernels (emit::first2) at both radices, the pair's in the launch tables'
                // file too
                let mut caps = vec![
                    (format!("dft16_{r}_table"), format!("dft16_{r}_table_first2"), 72),
                    (format!("dft16_{r}_table"), format!("dft16_{r}_table_pair"), 72),
                    (format!("dft16_{r}_table_lt"), format!("dft16_{r}_table_pair_lt"), 72),
                ];
                if radix == Radix::R4 {
                    caps.push((format!("dft16_{r}_local"), format!("dft16_{r}_local"), 96));
                }
                for f in &set.files {
                    let here: Vec<RegisterCap> = caps
                        .iter()
                        .filter(|(file, _, _)| capped && f.name == format!("{file}.cl"))
                        .map(|(_, kernel, registers)| RegisterCap { kernel: kernel.clone(), registers: *registers })
                        .collect();
                    assert_eq!(f.ptx_register_caps, here, "{expr} {radix:?} ptx {ptx}: {}", f.name);
                    assert_eq!(f.source.starts_with("// PTX register caps"), !here.is_empty(), "{}", f.name);
                    for c in &here {
                        assert!(f.source.lines().next().unwrap().contains(&format!("{} {}", c.kernel, c.registers)), "{}", f.name);
                    }
                }
                for e in &set.manifest.kernels {
                    let want = caps.iter().find(|(_, kernel, _)| capped && e.name == *kernel).map(|c| c.2);
                    assert_eq!(e.ptx_max_registers, want, "{}", e.name);
                }
            }
        }
    }

    /// k = 16's table passes of every radix take f_mul_lazy in one Karatsuba
    /// level where r < 2^63 (the catalog's (2^62+2^36)^16+1), with PTX capped
    /// at 168 registers and their p = 1 kernels not; r ≥ 2^63 keeps the
    /// schoolbook form (a cap above its registers changes nothing).
    #[test]
    fn k16_table_passes_take_karatsuba_and_the_cap() {
        use super::super::emit_dft;
        for (expr, kara) in [("(2^62+2^36)^16+1", true), ("(2^64-2^17)^16+1", false)] {
            let prime = Prime::parse(expr).unwrap();
            for ptx in [false, true] {
                let opts = KernelOptions { ptx, ..KernelOptions::new(Radix::R2, MulForm::Wide64) };
                for n in [2, 4, 8, 16, 32] {
                    let f = emit_dft(&prime, n, Variant::Table, &opts).unwrap();
                    let want: Vec<RegisterCap> =
                        if ptx { vec![RegisterCap { kernel: format!("dft{n}_r2_table"), registers: 168 }] } else { Vec::new() };
                    assert_eq!(f.ptx_register_caps, want, "{expr} DFT_{n} ptx {ptx}");
                    assert_eq!(f.source.contains("one Karatsuba level (emit/karatsuba.rs)"), kara, "{expr} DFT_{n}");
                    // uncapped (plans below 2^18): the same kernels without caps, and a source of
                    // its own (the caps' comment line), so that the program cache keeps both builds
                    let uncapped = emit_dft(&prime, n, Variant::Table, &KernelOptions { register_caps: false, ..opts }).unwrap();
                    assert!(uncapped.ptx_register_caps.is_empty(), "{expr} DFT_{n} ptx {ptx}");
                    assert_eq!(uncapped.source != f.source, ptx, "{expr} DFT_{n} ptx {ptx}");
                }
            }
        }
    }

    /// k = 16 and radix 2's options with PTX, with emulated shuffles, and
    /// with neither (no warp stages).
    fn k16_with_warp_options() -> (&'static Prime, [KernelOptions; 3]) {
        let plain = KernelOptions::new(Radix::R2, MulForm::Wide64);
        let ptx = KernelOptions { ptx: true, ..plain };
        let emulated = KernelOptions { warp_emulation: true, ..plain };
        (crate::catalog_prime(16).unwrap(), [ptx, emulated, plain])
    }

    /// k = 16's table plans with the warp stages (PTX, or emulated) put a
    /// small radix s ≤ 8 second; s = 16 (2^19), N a power of 32, no warp
    /// stages, the other variants and k = 8 keep it last (digits: first).
    #[test]
    fn k16_table_plans_put_a_small_radix_second() {
        let (k16, [ptx, emulated, plain]) = k16_with_warp_options();
        let radices = |prime, variant, opts: &KernelOptions, log_n| {
            plan_shape(prime, variant, opts, None, log_n, 1).unwrap().passes.iter().map(|p| p.radix).collect::<Vec<_>>()
        };
        assert_eq!(radices(k16, Variant::Table, &ptx, 16), [32, 2, 32, 32]);
        assert_eq!(radices(k16, Variant::Table, &ptx, 17), [32, 4, 32, 32]);
        assert_eq!(radices(k16, Variant::Table, &ptx, 18), [32, 8, 32, 32]);
        assert_eq!(radices(k16, Variant::Table, &emulated, 22), [32, 4, 32, 32, 32]);
        assert_eq!(radices(k16, Variant::Table, &ptx, 7), [32, 4]);
        assert_eq!(radices(k16, Variant::Table, &ptx, 19), [32, 32, 32, 16]);
        assert_eq!(radices(k16, Variant::Table, &ptx, 20), [32, 32, 32, 32]);
        assert_eq!(radices(k16, Variant::Table, &plain, 17), [32, 32, 32, 4]);
        assert_eq!(radices(k16, Variant::Workgroup, &ptx, 17), [32, 32, 32, 4]);
        assert_eq!(radices(k16, Variant::Digits, &ptx, 17), [4, 32, 32, 32]);
        let k8 = crate::catalog_prime(8).unwrap();
        assert_eq!(radices(k8, Variant::Table, &ptx, 19), [16, 16, 16, 16, 8]);
        // the twiddles of (s, K) are powers of r where s | t·κ, as the rule's comment counts
        for (s, trivial) in [(2usize, 48usize), (4, 64), (8, 80)] {
            let count = (0..s).flat_map(|t| (0..32).map(move |kappa| (t * kappa) % s == 0)).filter(|&p| p).count();
            assert_eq!(count, trivial, "s = {s}: {count} of {} powers of r", 32 * s);
        }
    }

    /// The twiddled kernels of the radices a plan puts second load the
    /// inputs that need a product first (`table::LoadOrder`); every other
    /// table kernel keeps the natural order.
    #[test]
    fn the_small_radix_second_loads_its_products_first() {
        use super::super::table::LoadOrder;
        let (k16, [ptx, emulated, plain]) = k16_with_warp_options();
        for (n, products) in [(2, 64), (4, 128), (8, 176)] {
            for opts in [&ptx, &emulated] {
                match LoadOrder::of(k16, n, true, opts) {
                    LoadOrder::SkipRows(order) => assert_eq!(order.products, products, "DFT_{n}"),
                    LoadOrder::Natural => panic!("DFT_{n} twiddled: the rows of products first"),
                }
                assert_eq!(LoadOrder::of(k16, n, false, opts), LoadOrder::Natural, "DFT_{n}'s first pass");
            }
            assert_eq!(LoadOrder::of(k16, n, true, &plain), LoadOrder::Natural, "DFT_{n} without the warp stages: last");
        }
        for n in [16, 32] {
            assert_eq!(LoadOrder::of(k16, n, true, &ptx), LoadOrder::Natural, "DFT_{n}");
        }
        let k8 = crate::catalog_prime(8).unwrap();
        assert_eq!(LoadOrder::of(k8, 8, true, &ptx), LoadOrder::Natural, "k = 8 keeps its small radix last");
    }

    /// Plans carry their register caps from [`REGISTER_CAPS_MIN_LOG_N`]'s
    /// size on for k = 16 (N·batch: 2^16 × 4 as 2^18), at every size for the
    /// other k.
    #[test]
    fn register_caps_follow_the_plan_size() {
        for k in [2usize, 4, 8, 16, 32, 64, 128] {
            let prime = crate::catalog_prime(k).unwrap();
            for log_n in 10..=24u32 {
                assert_eq!(plan_register_caps(prime, 1 << log_n), k != 16 || log_n >= 18, "k = {k}, 2^{log_n}");
            }
        }
        let k16 = crate::catalog_prime(16).unwrap();
        assert!(plan_register_caps(k16, (1 << 16) * 4) && !plan_register_caps(k16, (1 << 16) * 3));
    }

    /// The launches that write in another layout than the launch before read:
    /// the second and the last of an element-major plan (digits k ≥ 32, fused
    /// table plans), none of a digit-major one.  (Halves start at launch 1 or
    /// later, after a fork that orders every launch before them.)
    #[test]
    fn halves_join_where_the_layout_of_a_buffer_changes() {
        let opts = KernelOptions { warp_emulation: true, ..KernelOptions::new(Radix::R4, MulForm::Wide64) };
        let at = |k: usize, log_n: u32, variant: Variant, fused: bool| {
            let shape = plan_shape(crate::catalog_prime(k).unwrap(), variant, &opts, Some(fused), log_n, 1).unwrap();
            let layouts = PassLayout::of_plan(variant, &shape);
            (0..layouts.len()).map(|j| PassLayout::halves_join_before(&layouts, j)).collect::<Vec<_>>()
        };
        // digits k = 32 at 2^17: (32, 1), (64, 32), (64, 2048)
        assert_eq!(at(32, 17, Variant::Digits, false), [false, true, true]);
        // fused table k = 4 at 8^5: (8, 1)(8, 8), (8, 64)(8, 512), (8, 4096)
        assert_eq!(at(4, 15, Variant::Table, true), [false, true, true]);
        assert_eq!(at(4, 15, Variant::Table, false), [false; 5]);
        assert_eq!(at(8, 20, Variant::Local, false), [false; 5]);
    }

    /// By default halves run only where two half-launches follow each other
    /// without a join.  The digits plans from [`halves_min_digits`] (k = 32
    /// from 2^16, k = 64 from 2^16, k = 128 from 2^15), whose halved launches
    /// end in the last, layout-changing one, run in halves where their last
    /// launch has a buffer of its own (the queues then join nowhere), and
    /// otherwise whole unless asked.  The digit-major plans of k = 8 and 16
    /// from 2^21 digits keep their halves and need no such buffer.
    #[test]
    fn halves_by_default_only_where_half_launches_overlap() {
        let opts = KernelOptions::new(Radix::R4, MulForm::Wide64);
        let shape = |k: usize, log_n: u32, variant: Variant| {
            plan_shape(crate::catalog_prime(k).unwrap(), variant, &opts, Some(false), log_n, 1).unwrap()
        };
        let halves = |k: usize, log_n: u32, variant: Variant, choice: Option<bool>, spare: bool| {
            plan_halves(crate::catalog_prime(k).unwrap(), variant, Radix::R4, &shape(k, log_n, variant), choice, spare)
        };
        for (k, sizes) in [(32usize, 16..=20u32), (64, 16..=18), (128, 15..=16)] {
            for log_n in sizes {
                let at = format!("k = {k}, 2^{log_n}");
                assert_eq!(halves(k, log_n, Variant::Digits, None, false), None, "{at}");
                assert!(halves(k, log_n, Variant::Digits, Some(true), false).is_some_and(|h| !h.spare_last), "{at}");
                let spare = halves(k, log_n, Variant::Digits, None, true).expect(&at);
                assert!(spare.spare_last, "{at}");
                let layouts = PassLayout::of_plan(Variant::Digits, &shape(k, log_n, Variant::Digits));
                assert!((0..layouts.len()).all(|j| !spare.joins_before(&layouts, j)), "{at}");
            }
        }
        for log_n in 18..=24 {
            let h = halves(8, log_n, Variant::Table, None, true).expect("k = 8 in halves");
            assert!(!h.spare_last, "k = 8, 2^{log_n}");
        }
        assert!(halves(16, 20, Variant::Table, None, false).is_some());
        assert_eq!(halves(8, 20, Variant::Table, Some(false), true), None);
        // from 2^21 digits, k = 64 and 128 from 2^22 (HALVES_MIN_DIGITS_BY_K)
        assert!(halves(16, 17, Variant::Table, None, false).is_some() && halves(16, 16, Variant::Table, None, false).is_none());
        assert!(halves(8, 18, Variant::Table, None, true).is_some() && halves(8, 17, Variant::Table, None, true).is_none());
        assert!(halves(64, 15, Variant::Digits, None, true).is_none() && halves(64, 16, Variant::Digits, None, true).is_some());
        let digits: Vec<usize> = [2, 4, 8, 16, 32, 64, 128].into_iter().map(halves_min_digits).collect();
        assert_eq!(digits, [1 << 21, 1 << 21, 1 << 21, 1 << 21, 1 << 21, 1 << 22, 1 << 22]);
    }
}
