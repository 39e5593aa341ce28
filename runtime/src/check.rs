//! `srgfn check`: a self-test of one device against the host reference.
//!
//! For each prime it runs, on the device's kernels, and compares whole
//! outputs with the independent host code of `srgfn_gen`:
//! * the field operations (f_mul, f_add, f_sub, shifts, scaling) on every
//!   pair of edge values and on random pairs, for each f_mul form asked for;
//! * for each radix and each emitted variant, forward transforms of several
//!   sizes (powers of K and sizes that are not) against the host radix-2 FFT,
//!   the inverse of each back to the input, and a batch of two;
//! * polynomial products of lengths that are not powers of two against the
//!   schoolbook product;
//! * the four-step split (transforms and products in chunks through host
//!   memory) against the host FFT and the schoolbook product;
//! * where [`CheckSpec::large`] asks (by default on GPUs), each radix and
//!   variant (the workgroup variant up to [`LARGE_WORKGROUP_MAX_K`]) at two
//!   [`large_sizes`], the sizes whose default plans run as production ones do
//!   (launches in halves where the default runs them, launch tables, the
//!   superblock order), at single outputs against their definition and the
//!   inverse back.
//!
//! Inputs are the representation's edge values followed by random elements.
//! Every case is one [`Case`]; a failed case says how many outputs differ.

use num_bigint::BigUint;
use rand::{Rng, SeedableRng};
use srgfn_gen::emit::{self, has_fused, variants_for, KernelOptions, MulForm, Variant};
use srgfn_gen::reference::{host_fft, schoolbook_mul};
use srgfn_gen::rules::Radix;
use srgfn_gen::{Digits, Field, Prime};

use crate::error::Result;
use crate::fft::{Fft, FftOptions};
use crate::kernels::{default_ptx, FieldKernels};
use crate::layout::{from_digit_major, to_digit_major};
use crate::memory;
use crate::session::Session;

/// One checked case.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Case {
    /// The prime checked.
    pub prime: String,
    /// e.g. "r2 local forward+inverse N=2^12".
    pub name: String,
    /// Whether the device agreed with the host on every output.
    pub passed: bool,
    /// What was compared, or what differed (or the error).
    pub detail: String,
    /// Wall time of the case.
    pub ms: f64,
}

/// What to check.
#[derive(Clone, Debug)]
pub struct CheckSpec {
    /// The primes, each checked in full.
    pub primes: Vec<Prime>,
    /// f_mul forms whose field operations are checked (the transforms use the first).
    pub muls: Vec<MulForm>,
    /// Host work per transform size (digit products of the reference FFT);
    /// larger sizes are skipped.
    pub host_budget: f64,
    /// Variants whose transforms are checked (empty: every variant emitted).
    pub variants: Vec<srgfn_gen::emit::Variant>,
    /// Also each radix and variant at the [`large_sizes`] (default: on GPUs;
    /// on a CPU device they take minutes).
    pub large: bool,
}

impl CheckSpec {
    /// The default check of a device: the given primes, the device's default f_mul form.
    pub fn new(session: &Session, primes: Vec<Prime>) -> Result<CheckSpec> {
        let mul = match primes.first() {
            Some(p) => crate::kernels::default_mul(session, p)?,
            None => MulForm::Wide64,
        };
        Ok(CheckSpec { primes, muls: vec![mul], host_budget: HOST_BUDGET, variants: Vec::new(), large: session.device().is_gpu() })
    }
}

/// The default [`CheckSpec::host_budget`]: 2^25 digit products per size.
pub const HOST_BUDGET: f64 = (1u64 << 25) as f64;

/// The transform sizes checked for a prime: 2, K/2, K, 2K, K²/2, K², 2K²,
/// K³, 2^12 and 2^16 (sizes that are and are not powers of K; K²/2 runs the
/// twiddled pass of radix K/2, the largest small radix, whose kernel can
/// take the warp's stages, `warp_stages::lane_per_digit`), as far as the
/// host reference stays within `budget` digit products.
pub(crate) fn sizes(prime: &Prime, budget: f64) -> Vec<usize> {
    let kk = prime.base_size();
    let k = prime.k() as f64;
    let mut v: Vec<usize> = vec![2, kk / 2, kk, 2 * kk, kk * kk / 2, kk * kk, 2 * kk * kk, kk * kk * kk, 1 << 12, 1 << 16];
    v.retain(|&n| n >= 2 && (n.trailing_zeros() <= prime.two_adicity()));
    v.retain(|&n| n as f64 * (n.trailing_zeros() as f64) * k * k <= budget);
    v.sort_unstable();
    v.dedup();
    v
}

/// The large sizes checked for a prime: the least 2^a ≥ 2^16 whose plans
/// hold [`emit::halves_min_digits`] digits (where default plans start to run
/// launches in halves, the digits variant's where the device holds a third
/// vector, `emit::plan_halves`; for k ≤ 8 also the table variant's launch
/// tables and the superblock order), and 2^(a+1), so that one of them is a
/// power of K or not as the other is not; within the prime's two-adicity.
pub fn large_sizes(prime: &Prime) -> Vec<usize> {
    let a = (emit::halves_min_digits(prime.k()) / prime.k()).max(1 << 16).trailing_zeros();
    (a..=a + 1).filter(|&l| l <= prime.two_adicity()).map(|l| 1usize << l).collect()
}

/// The sizes at which fused plans are also checked at points: K⁴, 2K⁴ and
/// 4K⁴, where the prime allows them and the whole-output sizes do not hold
/// them.
pub fn fused_point_sizes(prime: &Prime, whole: &[usize]) -> Vec<usize> {
    let k4 = prime.base_size().pow(4);
    [k4, 2 * k4, 4 * k4].into_iter().filter(|&n| n.trailing_zeros() <= prime.two_adicity() && !whole.contains(&n)).collect()
}

/// The largest k whose workgroup variant (a default nowhere) runs the large
/// sizes: at k = 64 its transforms of 2^16 and 2^17 took 15–55 s a case on
/// the H200 (docs/perf/h200-v39/primes), minutes for the check of one prime.
pub const LARGE_WORKGROUP_MAX_K: usize = 32;

/// Outputs a large-size case compares with the definition: the first two,
/// the last, and [`RANDOM_POINTS`] drawn from `seed`.
pub const RANDOM_POINTS: usize = 5;

fn points(n: usize, seed: u64) -> Vec<usize> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut v = vec![0, 1, n - 1];
    v.extend((0..RANDOM_POINTS).map(|_| rng.gen_range(0..n)));
    v.sort_unstable();
    v.dedup();
    v
}

/// The outputs at `js` of a forward transform of `x` (digits) against
/// X_j = Σ_i x_i ω^{ij}: None if all agree, else which differ.
pub fn points_differ(field: &Field, x: &[Digits], got: &[Digits], js: &[usize]) -> Result<Option<String>> {
    use rayon::prelude::*;
    let prime = field.prime();
    let omega = prime.root_of_unity(x.len().trailing_zeros())?;
    let values: Vec<BigUint> = x.par_iter().map(|e| field.to_biguint(e)).collect::<std::result::Result<_, _>>()?;
    let mut bad = Vec::new();
    for &j in js {
        let want = crate::points::dft_output(&values, &omega, j, false, prime.modulus());
        if field.to_biguint(&got[j])? != want {
            bad.push(j);
        }
    }
    Ok((!bad.is_empty()).then(|| format!("outputs {bad:?} of {js:?} differ from the definition")))
}

/// A forward transform of size n (edge values, then random elements) checked
/// at its points (outputs 0, 1, N − 1 and [`RANDOM_POINTS`] random ones)
/// against the definition, and its inverse back to the input
/// whole: for sizes whose host FFT would cost too much.
pub fn transform_at_points(fft: &Fft, n: usize) -> Result<(bool, String)> {
    let js = points(n, n as u64 + 11);
    let what = format!("forward outputs {js:?} vs their definition, inverse back to the input");
    round_trip(fft, n, n as u64 + 5, |f, x, got| points_differ(f, x, got, &js), what)
}

/// Uploads n inputs (seeded), runs the forward transform and checks it with
/// `forward(field, inputs, outputs)` (None: agreed), then the inverse back
/// to the inputs whole: (passed, `what` or what differed).
fn round_trip(
    fft: &Fft,
    n: usize,
    seed: u64,
    forward: impl FnOnce(&Field, &[Digits], &[Digits]) -> Result<Option<String>>,
    what: String,
) -> Result<(bool, String)> {
    let f = fft.field();
    let x = inputs(f, n, seed);
    let mut plan = fft.plan(n, 1)?;
    let mut v = plan.upload_digits(&x)?;
    plan.forward(&mut v)?;
    let got = plan.download_digits(&v)?;
    if let Some(d) = forward(f, &x, &got)? {
        return Ok((false, format!("forward: {d}")));
    }
    plan.inverse(&mut v)?;
    let back = plan.download_digits(&v)?;
    if let Some(d) = differ(&back, &x) {
        return Ok((false, format!("inverse of the forward: {d}")));
    }
    Ok((true, what))
}

/// Edge values, then random elements, n in all.
pub(crate) fn inputs(field: &Field, n: usize, seed: u64) -> Vec<Digits> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let r = field.r();
    let mut v = field.edge_values();
    v.truncate(n);
    while v.len() < n {
        v.push((0..field.k()).map(|_| if rng.gen_range(0..4) == 0 { r - 1 } else { rng.gen_range(0..r) }).collect());
    }
    v
}

fn differ(got: &[Digits], want: &[Digits]) -> Option<String> {
    if got.len() != want.len() {
        return Some(format!("{} outputs instead of {}", got.len(), want.len()));
    }
    let bad: Vec<usize> = (0..got.len()).filter(|&i| got[i] != want[i]).collect();
    (!bad.is_empty()).then(|| format!("{} of {} outputs differ, first at index {}", bad.len(), got.len(), bad[0]))
}

/// Runs a case, timing it and turning an error into a failed case.
fn case(prime: &Prime, name: String, report: &mut dyn FnMut(&Case), f: impl FnOnce() -> Result<(bool, String)>) -> Case {
    let t = std::time::Instant::now();
    let (passed, detail) = match f() {
        Ok(r) => r,
        Err(e) => (false, format!("error: {e}")),
    };
    let c = Case { prime: prime.to_string(), name, passed, detail, ms: t.elapsed().as_secs_f64() * 1e3 };
    report(&c);
    c
}

/// The field operations of one f_mul form on every pair of edge values and
/// on random pairs, against the host: (passed, what was compared or what differed).
pub(crate) fn field_ops(session: &Session, prime: &Prime, mul: MulForm) -> Result<(bool, String)> {
    let opts = KernelOptions { ptx: default_ptx(session), ..KernelOptions::new(Radix::R2, mul) };
    field_ops_of(&FieldKernels::with_options(session, prime, opts)?, prime)
}

/// [`field_ops`] on kernels already emitted.
pub(crate) fn field_ops_of(fk: &FieldKernels, prime: &Prime) -> Result<(bool, String)> {
    let f = Field::new(prime);
    let k = prime.k();
    let edges = f.edge_values();
    let (mut xs, mut ys): (Vec<Digits>, Vec<Digits>) = (Vec::new(), Vec::new());
    for a in &edges {
        for b in &edges {
            xs.push(a.clone());
            ys.push(b.clone());
        }
    }
    let random = inputs(&f, edges.len() + 512, 11);
    xs.extend_from_slice(&random[edges.len()..]);
    ys.extend(random[edges.len()..].iter().rev().cloned());
    let n = xs.len();
    let (bx, by) = (fk.upload(&to_digit_major(&xs, k))?, fk.upload(&to_digit_major(&ys, k))?);
    let bz = fk.alloc(n * k)?;
    let mut problems = Vec::new();
    for op in ["mul", "mul_lazy", "add", "sub"] {
        if op == "mul_lazy" && prime.k() > 16 {
            continue; // f_mul_lazy is emitted where f_mul is straight-line code
        }
        fk.pointwise(op, &bx, &by, &bz, n as u64, n as u64)?;
        let got = from_digit_major(&fk.download(&bz)?, k);
        let want: Vec<Digits> = (0..n)
            .map(|i| match op {
                "mul" | "mul_lazy" => f.mul(&xs[i], &ys[i]),
                "add" => f.add(&xs[i], &ys[i]),
                _ => f.sub(&xs[i], &ys[i]),
            })
            .collect();
        if let Some(d) = differ(&got, &want) {
            problems.push(format!("{op}: {d}"));
        }
    }
    for s in [1u32, 3, k as u32 - 1, k as u32, k as u32 + 1, 2 * k as u32 - 1, 2 * k as u32 + 5] {
        let b = fk.upload(&to_digit_major(&xs, k))?;
        fk.shift_by(&b, s, n as u64, n as u64)?;
        let got = from_digit_major(&fk.download(&b)?, k);
        let want: Vec<Digits> = xs.iter().map(|x| f.negacyclic_shift(x, s as i64)).collect();
        if let Some(d) = differ(&got, &want) {
            problems.push(format!("shift by r^{s}: {d}"));
        }
    }
    Ok(if problems.is_empty() {
        (true, format!("mul, lazy mul, add, sub, 7 shifts on {n} pairs ({} edge pairs) vs host", edges.len() * edges.len()))
    } else {
        (false, problems.join("; "))
    })
}

fn transform(fft: &Fft, n: usize) -> Result<(bool, String)> {
    let host = |f: &Field, x: &[Digits], got: &[Digits]| {
        let mut want = x.to_vec();
        host_fft(f, &mut want)?;
        Ok(differ(got, &want))
    };
    round_trip(fft, n, n as u64 + 3, host, "whole forward output vs host FFT, inverse back to the input".into())
}

fn batch(fft: &Fft, n: usize) -> Result<(bool, String)> {
    let f = fft.field();
    let x = inputs(f, 2 * n, 77);
    let mut want = Vec::new();
    for half in x.chunks(n) {
        let mut h = half.to_vec();
        host_fft(f, &mut h)?;
        want.extend(h);
    }
    let mut plan = fft.plan(n, 2)?;
    let mut v = plan.upload_digits(&x)?;
    plan.forward(&mut v)?;
    let got = plan.download_digits(&v)?;
    Ok(match differ(&got, &want) {
        Some(d) => (false, d),
        None => (true, "each vector vs host FFT".into()),
    })
}

fn product(fft: &Fft, la: usize, lb: usize) -> Result<(bool, String)> {
    let f = fft.field();
    let to_values = |d: &[Digits]| -> Result<Vec<BigUint>> { d.iter().map(|x| Ok(f.to_biguint(x)?)).collect() };
    let a = to_values(&inputs(f, la, 5))?;
    let b = to_values(&inputs(f, lb, 6)[..lb].iter().rev().cloned().collect::<Vec<_>>())?;
    let got = fft.poly_mul(&a, &b)?;
    let want = schoolbook_mul(fft.prime(), &a, &b);
    let bad = got.iter().zip(&want).filter(|(g, w)| g != w).count() + got.len().abs_diff(want.len());
    Ok(if bad == 0 {
        (true, format!("{} coefficients vs schoolbook", want.len()))
    } else {
        (false, format!("{bad} of {} coefficients differ", want.len()))
    })
}

/// The four-step split in its smallest chunks (one row each): the forward
/// transform of size n against the host FFT, and a product of K × K
/// coefficients (N = 2K) against the schoolbook product.
fn split(fft: &Fft, n: usize) -> Result<(bool, String)> {
    let (f, k) = (fft.field(), fft.prime().k());
    let rows = |n: usize| Some(1usize << (n.trailing_zeros() - n.trailing_zeros() / 2));
    let x = inputs(f, n, 78);
    let mut want = x.clone();
    host_fft(f, &mut want)?;
    let got: Vec<Digits> = fft.four_step(n, rows(n))?.forward_digits(&x.concat())?.chunks(k).map(<[u64]>::to_vec).collect();
    if let Some(d) = differ(&got, &want) {
        return Ok((false, format!("forward: {d}")));
    }
    let kk = fft.prime().base_size();
    let (a, b) = (inputs(f, kk, 5), inputs(f, kk, 6).into_iter().rev().collect::<Vec<_>>());
    let got: Vec<Digits> =
        fft.four_step(2 * kk, rows(2 * kk))?.product_digits(&a.concat(), &b.concat())?.chunks(k).map(<[u64]>::to_vec).collect();
    let to_values = |d: &[Digits]| -> Result<Vec<BigUint>> { d.iter().map(|x| Ok(f.to_biguint(x)?)).collect() };
    let want = schoolbook_mul(fft.prime(), &to_values(&a)?, &to_values(&b)?);
    Ok(if to_values(&got)? == want {
        (true, format!("forward vs host FFT; a product of {kk} × {kk} vs schoolbook"))
    } else {
        (false, format!("the product of {kk} × {kk} differs from schoolbook"))
    })
}

/// The largest buffer that splits each vector of N = n into 2 buffers: half a
/// vector, or the twiddle table where that is larger (the table is never
/// split; the digits variant's entries of 3k words make it 3/4 of a vector
/// at k = 2).
fn two_buffer_limit(prime: &Prime, variant: srgfn_gen::emit::Variant, n: usize) -> u64 {
    let half = memory::element_bytes(prime.k(), n as u128 / 2);
    half.max(memory::table_bytes(prime, variant, n as u128)) as u64
}

fn log2_label(n: usize) -> String {
    format!("2^{}", n.trailing_zeros())
}

/// Whether the plan of size n (one vector, default fusion) runs launches in
/// halves when asked to (`emit::plan_halves`).
fn runs_in_halves(prime: &Prime, variant: Variant, opts: &KernelOptions, n: usize) -> bool {
    emit::plan_shape(prime, variant, opts, None, n.trailing_zeros(), 1)
        .is_ok_and(|shape| emit::plan_halves(prime, variant, opts.radix, &shape, Some(true), true).is_some())
}

/// Whether the plan of size n (one vector, unfused) runs a forward transform
/// from the superblock order in halves from its first launch when asked to
/// (`emit::first2::plan_chain`, on a device that holds a third vector).
/// `quarters`: the chain in quarters (`plan::Chain::in_quarters`).
fn runs_chain(prime: &Prime, variant: Variant, opts: &KernelOptions, n: usize, quarters: bool) -> bool {
    emit::plan_shape(prime, variant, opts, Some(false), n.trailing_zeros(), 1).is_ok_and(|shape| {
        let first = emit::first2::plan_superblock(prime.k(), variant, opts, &shape).and(emit::first2::first2_launches(&shape));
        let chain = emit::first2::plan_chain(prime, opts.radix, &shape, None, first, (Some(true), Some(quarters)), true);
        chain.is_some_and(|c| c.low.is_some() == quarters)
    })
}

/// Runs the check; `report` sees each case as it finishes.
pub fn run(session: &Session, spec: &CheckSpec, report: &mut dyn FnMut(&Case)) -> Vec<Case> {
    let mut cases = Vec::new();
    for prime in &spec.primes {
        for &mul in &spec.muls {
            cases.push(case(prime, format!("field ops, f_mul {}", mul.name()), report, || field_ops(session, prime, mul)));
        }
        let mul = spec.muls.first().copied();
        let sizes = sizes(prime, spec.host_budget);
        for radix in [Radix::R2, Radix::R4] {
            for variant in variants_for(prime).into_iter().filter(|v| spec.variants.is_empty() || spec.variants.contains(v)) {
                let label = format!("r{} {}", radix.number(), variant.name());
                let fft = match Fft::with_options(
                    session,
                    prime,
                    FftOptions { radix: Some(radix), variant: Some(variant), mul, ..FftOptions::default() },
                ) {
                    Ok(f) => f,
                    Err(e) => {
                        cases.push(case(prime, format!("{label} kernels"), report, || Err(e)));
                        continue;
                    }
                };
                for &n in &sizes {
                    cases.push(case(prime, format!("{label} forward+inverse N={}", log2_label(n)), report, || transform(&fft, n)));
                }
                // where the variant can fuse two passes per launch: every size both ways
                if has_fused(prime, variant, &fft.kernel_options()) {
                    for fuse in [true, false] {
                        let opts =
                            FftOptions { radix: Some(radix), variant: Some(variant), mul, fuse: Some(fuse), ..FftOptions::default() };
                        let how = if fuse { "fused" } else { "unfused" };
                        for &n in sizes.iter().filter(|&&n| n >= prime.base_size() * prime.base_size()) {
                            cases.push(case(prime, format!("{label} {how} forward+inverse N={}", log2_label(n)), report, || {
                                transform(&Fft::with_options(session, prime, opts)?, n)
                            }));
                        }
                        // K⁴, 2K⁴ and 4K⁴ fused, checked at points beyond the host budget: a pair of passes
                        // after the first two, alone and before a small radix of 2 or 4 (the table variant's
                        // defaults at k = 8, emit::TABLE_PAIRS_DEFAULT_LOG_N)
                        for n in fused_point_sizes(prime, &sizes).into_iter().filter(|_| fuse && spec.large) {
                            let name = format!("{label} {how} forward+inverse N={} at points", log2_label(n));
                            cases.push(case(prime, name, report, || transform_at_points(&Fft::with_options(session, prime, opts)?, n)));
                        }
                    }
                }
                // where a size's plan can run launches in halves on two queues: those sizes so
                // (the default does that only for large launches, beyond these sizes)
                let halves = FftOptions { radix: Some(radix), variant: Some(variant), mul, halves: Some(true), ..FftOptions::default() };
                for &n in sizes.iter().filter(|&&n| runs_in_halves(prime, variant, &fft.kernel_options(), n)) {
                    cases.push(case(prime, format!("{label} halves forward+inverse N={}", log2_label(n)), report, || {
                        transform(&Fft::with_options(session, prime, halves)?, n)
                    }));
                }
                if let Some(&n) = sizes.iter().find(|&&n| n > prime.base_size()) {
                    cases.push(case(prime, format!("{label} batch 2 x N={}", log2_label(n)), report, || batch(&fft, n)));
                }
                // where a plan can run halves from its first launch (plan::Chain), in halves and in
                // quarters: those sizes so, whole where the host checks them, else at points
                let large = if spec.large { large_sizes(prime) } else { Vec::new() };
                for (quarters, form) in [(false, "chain"), (true, "chain quarters")] {
                    let chain = FftOptions { fuse: Some(false), chain: Some(true), quarters: Some(quarters), ..halves };
                    for &n in sizes.iter().chain(&large).filter(|&&n| runs_chain(prime, variant, &fft.kernel_options(), n, quarters)) {
                        let at_points = !sizes.contains(&n);
                        let name =
                            format!("{label} {form} forward+inverse N={}{}", log2_label(n), if at_points { " at points" } else { "" });
                        cases.push(case(prime, name, report, || {
                            let fft = Fft::with_options(session, prime, chain)?;
                            if at_points {
                                transform_at_points(&fft, n)
                            } else {
                                transform(&fft, n)
                            }
                        }));
                    }
                }
                if spec.large && (variant != Variant::Workgroup || prime.k() <= LARGE_WORKGROUP_MAX_K) {
                    for n in large {
                        let name = format!("{label} forward+inverse N={} at points", log2_label(n));
                        cases.push(case(prime, name, report, || transform_at_points(&fft, n)));
                    }
                }
                // vectors split into 2 buffers, as beyond the device's largest buffer (radix 2;
                // k ≤ 32, where a second build of the pass kernels takes seconds)
                if let (Radix::R2, true, Some(&n)) = (radix, prime.k() <= 32, sizes.iter().rev().find(|&&n| n > prime.base_size())) {
                    let opts = FftOptions {
                        radix: Some(radix),
                        variant: Some(variant),
                        mul,
                        max_buffer: Some(two_buffer_limit(prime, variant, n)),
                        ..FftOptions::default()
                    };
                    cases.push(case(prime, format!("{label} in 2 buffers N={}", log2_label(n)), report, || {
                        transform(&Fft::with_options(session, prime, opts)?, n)
                    }));
                }
                if variant == variants_for(prime)[0] {
                    for (la, lb) in [(1, 3), (37, 50), (100, 157)] {
                        cases.push(case(prime, format!("{label} polymul {la} x {lb}"), report, || product(&fft, la, lb)));
                    }
                    let min = 1usize << crate::fft::min_split_log_n(prime);
                    if let (Radix::R2, Some(&n)) = (radix, sizes.iter().rev().find(|&&n| n >= min)) {
                        cases.push(case(prime, format!("{label} four-step split N={}", log2_label(n)), report, || split(&fft, n)));
                    }
                }
            }
        }
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The large sizes of every catalog prime: two consecutive powers of two
    /// from 2^16, the first the least holding `halves_min_digits` digits; there
    /// the default plan of every radix runs launches in halves (the digits
    /// variant's with a third vector for its last launch, `emit::plan_halves`),
    /// and for k ≤ 8 the table variant's plan reads launch tables.
    #[test]
    fn large_sizes_reach_the_production_plans() {
        for prime in srgfn_gen::prime::catalog() {
            let sizes = large_sizes(prime);
            assert_eq!(sizes.len(), 2, "{prime}");
            let (a, b) = (sizes[0], sizes[1]);
            assert_eq!(b, 2 * a, "{prime}");
            let min = emit::halves_min_digits(prime.k());
            assert!(a >= 1 << 16 && a * prime.k() >= min, "{prime}: {a}");
            assert!(a == 1 << 16 || a / 2 * prime.k() < min, "{prime}: {a} is not the least");
            for radix in [Radix::R2, Radix::R4] {
                let variant = variants_for(prime)[0];
                for n in [a, b] {
                    let opts = KernelOptions::new(radix, MulForm::Wide64);
                    let shape = emit::plan_shape(prime, variant, &opts, None, n.trailing_zeros(), 1).expect("a plan");
                    // by default in halves where the device holds a third vector for the last
                    // launch of an element-major plan (the digits variant's), and without one
                    // only where half-launches overlap without a join (not the digits variant's)
                    assert!(
                        emit::plan_halves(prime, variant, radix, &shape, None, true).is_some(),
                        "{prime} r{} N = {n}: no halves",
                        radix.number()
                    );
                    assert_eq!(
                        emit::plan_halves(prime, variant, radix, &shape, None, false).is_some(),
                        variant != Variant::Digits,
                        "{prime} r{} N = {n}: halves without a third vector",
                        radix.number()
                    );
                    if emit::has_launch_table_passes(prime.k(), Variant::Table) {
                        let table = emit::plan_shape(prime, Variant::Table, &opts, None, n.trailing_zeros(), 1).expect("a table plan");
                        assert!(
                            emit::launch_tables(Variant::Table, &table).iter().any(Option::is_some),
                            "{prime} N = {n}: no launch table"
                        );
                    }
                }
            }
        }
    }

    /// The fused sizes checked at points hold every size at which the table
    /// variant pairs its passes by default, and each such plan runs a pair
    /// after the first two passes (with PTX).
    #[test]
    fn fused_point_sizes_cover_the_default_pairs() {
        for &(k, radix, min, max) in &emit::TABLE_PAIRS_DEFAULT_LOG_N {
            let prime = srgfn_gen::prime::catalog_prime(k).unwrap();
            let whole = sizes(prime, HOST_BUDGET);
            let at_points = fused_point_sizes(prime, &whole);
            let opts = KernelOptions { ptx: true, ..KernelOptions::new(radix, MulForm::Wide64) };
            for log_n in min..=max {
                let n = 1usize << log_n;
                assert!(whole.contains(&n) || at_points.contains(&n), "k = {k}: 2^{log_n} not checked");
                let shape = emit::plan_shape(prime, Variant::Table, &opts, None, log_n, 1).unwrap();
                let launches = shape.launches();
                assert!(
                    matches!(launches.get(1), Some(srgfn_gen::plan::Launch::Fused(a, _)) if a.p > 1),
                    "k = {k} 2^{log_n}: {launches:?}"
                );
            }
        }
    }

    /// The whole-output sizes hold K²/2 up to k = 32, whose plans run a
    /// twiddled pass of radix K/2 (for k = 16's table variant with PTX a
    /// kernel through the warp, `warp_stages::lane_per_digit`).
    #[test]
    fn the_sizes_hold_a_twiddled_pass_of_radix_half_k() {
        for prime in srgfn_gen::prime::catalog().iter().filter(|p| p.k() <= 32) {
            let kk = prime.base_size();
            assert!(sizes(prime, HOST_BUDGET).contains(&(kk * kk / 2)), "{prime}");
            let opts = KernelOptions { ptx: true, ..KernelOptions::new(Radix::R2, MulForm::Wide64) };
            let shape = emit::plan_shape(prime, Variant::Table, &opts, None, (kk * kk / 2).trailing_zeros(), 1).unwrap();
            assert!(shape.passes.iter().any(|p| p.radix == kk / 2 && p.p == kk), "{prime}: {:?}", shape.passes);
        }
        let ptx = KernelOptions { ptx: true, ..KernelOptions::new(Radix::R2, MulForm::Wide64) };
        assert!(emit::warp_stages::applies(16, 16, &ptx), "k = 16's DFT_16 through the warp");
    }

    /// The points of a large case: the first two, the last and random ones,
    /// each once; and a forward output wrong at one of them is reported, at
    /// that index (host only: the host FFT stands in for the device).
    #[test]
    fn a_wrong_output_at_a_point_is_caught() {
        let field = Field::new(srgfn_gen::catalog_prime(4).expect("k = 4 in the catalog"));
        let n = 1 << 9;
        let js = points(n, 3);
        assert!(js.len() >= 3 && js.len() <= 3 + RANDOM_POINTS && js.windows(2).all(|w| w[0] < w[1]), "{js:?}");
        assert!(js.starts_with(&[0, 1]) && js.ends_with(&[n - 1]), "{js:?}");
        let x = inputs(&field, n, 7);
        let mut y = x.clone();
        host_fft(&field, &mut y).expect("a host FFT");
        assert_eq!(points_differ(&field, &x, &y, &js).expect("points"), None);
        let j = js[js.len() / 2];
        y[j] = field.add(&y[j], &field.one());
        let d = points_differ(&field, &x, &y, &js).expect("points").expect("a difference");
        assert!(d.starts_with(&format!("outputs [{j}]")), "{d}");
    }

    /// The "in 2 buffers" case of every catalog prime it runs for (k ≤ 32) and
    /// every variant fits its limit with each vector in exactly two buffers
    /// (k = 2's digits variant, whose table exceeds half a vector, was refused
    /// with half a vector as the limit).
    #[test]
    fn the_two_buffer_case_fits_its_limit() {
        for prime in srgfn_gen::prime::catalog().iter().filter(|p| p.k() <= 32) {
            let n = *sizes(prime, HOST_BUDGET).iter().rev().find(|&&n| n > prime.base_size()).expect("a size above K");
            for variant in variants_for(prime) {
                let limit = two_buffer_limit(prime, variant, n);
                let (need, segments) = memory::plan_need_split(prime, variant, n as u128, 1, 2, limit);
                assert_eq!(segments, 2, "{prime} {variant:?} N = {n}");
                assert!(need.buffer <= limit as u128, "{prime} {variant:?} N = {n}: {} > {limit}", need.buffer);
            }
        }
    }
}
