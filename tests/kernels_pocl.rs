//! Every emitted kernel, compiled on the default OpenCL device (PoCL in CI),
//! against the host reference on random inputs and the representation's edge
//! values.

use num_bigint::BigUint;
use rand::Rng;
use srgfn::internals::{field_ops_of, from_digit_major, to_digit_major, FieldKernels, PassPart, SessionInternals as _};
use srgfn::{Error, Session};
use srgfn_gen::emit::digits::PassLayout;
use srgfn_gen::emit::{self, digits, KernelOptions, MulForm, TwiddleTable, Variant};
use srgfn_gen::plan::{Pass, PlanShape};
use srgfn_gen::reference::naive_dft_with_root;
use srgfn_gen::rules::Radix;
use srgfn_gen::spl::Spl;
use srgfn_gen::unroll::Program;
use srgfn_gen::{catalog, catalog_prime, Digits, Field, Prime};
use srgfn_suite::{edge_values, random_digits, rng};

fn session() -> Session {
    Session::open(None).expect("an OpenCL device (PoCL) is needed for these tests")
}

fn build(s: &Session, prime: &Prime, radix: Radix, mul: MulForm) -> FieldKernels {
    let fk = FieldKernels::with_mul(s, prime, radix, mul).unwrap();
    for (file, log) in &fk.build_all().unwrap_or_else(|e| panic!("{e:#}")) {
        assert!(!log.to_lowercase().contains("warning"), "{prime} {file} builds with warnings:\n{log}");
    }
    fk
}

/// Inputs: every edge value, then random elements.
fn inputs(field: &Field, n: usize, seed: u64) -> Vec<Digits> {
    let mut r = rng(seed);
    let mut v = edge_values(field);
    v.truncate(n);
    while v.len() < n {
        v.push(random_digits(field, &mut r));
    }
    v
}

/// Field operations on every pair of edge values and random pairs (the
/// library's own check, which `srgfn check` runs too).
fn check_field_ops(fk: &FieldKernels, prime: &Prime) {
    let (ok, detail) = field_ops_of(fk, prime).unwrap_or_else(|e| panic!("{prime}: {e:#}"));
    assert!(ok, "{prime} f_mul {}: {detail}", fk.mul().name());
}

/// Stockham passes applied one after the other on the host (the maps of
/// `Pass` with BigUint arithmetic) to `vecs` vectors of length n.
fn host_passes(prime: &Prime, x: &[Digits], n: usize, vecs: usize, passes: &[Pass]) -> Vec<Digits> {
    let f = Field::new(prime);
    let (pm, kk) = (prime.modulus(), prime.base_size());
    let w = prime.root_of_unity(n.trailing_zeros()).unwrap();
    let mut cur: Vec<BigUint> = x.iter().map(|d| f.to_biguint(d).unwrap()).collect();
    for pass in passes {
        let radix = pass.radix;
        let w_r = BigUint::from(prime.r()).modpow(&BigUint::from((kk / radix) as u64), pm);
        let mut next = vec![BigUint::default(); n * vecs];
        for v in 0..vecs {
            for i in 0..n / radix {
                let ins: Vec<BigUint> = (0..radix)
                    .map(|t| {
                        let e = BigUint::from(pass.twiddle_exponent(n, i, t) as u64);
                        &cur[v * n + pass.input(n, i, t)] * w.modpow(&e, pm) % pm
                    })
                    .collect();
                for (t, y) in naive_dft_with_root(prime, &ins, &w_r).into_iter().enumerate() {
                    next[v * n + pass.output(i, t)] = y;
                }
            }
        }
        cur = next;
    }
    cur.iter().map(|y| f.from_biguint(y).unwrap()).collect()
}

/// The table of ω_n the passes of `variant` read: W[t] = ω_n^t, t < n/K (one element
/// when n ≤ K), element-major (digit d of entry t at word t·k + d), then the entries'
/// suffix sums where the variant reads them (`Variant::table_layout`).
fn twiddle_table(fk: &FieldKernels, prime: &Prime, n: usize, variant: Variant) -> (ocl::Buffer<u64>, u32) {
    let t_len = (n / prime.base_size()).max(1);
    (powers_table(fk, prime, n.trailing_zeros(), t_len, variant), t_len.trailing_zeros())
}

/// The table ω^t, t < len, for the root ω of 2^log_root, in `variant`'s layout.
fn powers_table(fk: &FieldKernels, prime: &Prime, log_root: u32, len: usize, variant: Variant) -> ocl::Buffer<u64> {
    let f = Field::new(prime);
    let w = prime.root_of_unity(log_root).unwrap();
    let table: Vec<Digits> = (0..len).map(|t| f.from_biguint(&w.modpow(&BigUint::from(t as u64), prime.modulus())).unwrap()).collect();
    fk.upload(&variant.table_layout(prime.k(), &table.concat())).unwrap()
}

/// Every output of `what` as the host has it: else how many differ, and the first positions.
fn assert_outputs(got: &[Digits], want: &[Digits], what: &str) {
    let bad: Vec<usize> = (0..want.len()).filter(|&e| got[e] != want[e]).collect();
    assert!(bad.is_empty(), "{what}: {} wrong outputs, first at {:?}", bad.len(), &bad[..bad.len().min(8)]);
}

/// One Stockham pass (radix R | K, length n, after sub-transforms of length p)
/// on `vecs` vectors, every variant, against [`host_passes`].
fn check_pass(fk: &FieldKernels, prime: &Prime, radix: usize, n: usize, p: usize, vecs: usize) {
    check_pass_of(fk, prime, &fk.variants(), radix, n, p, vecs)
}

/// [`check_pass`] for some variants.
fn check_pass_of(fk: &FieldKernels, prime: &Prime, variants: &[Variant], radix: usize, n: usize, p: usize, vecs: usize) {
    check_pass_parts(fk, prime, variants, radix, n, p, vecs, None)
}

/// [`check_pass_of`], the pass whole or (`halves` = Some(shift)) as two
/// halves by bit `shift` of the block index, the second on the side queue.
/// Twiddled passes of radix K of a variant with kernels for launch tables
/// (`emit::has_launch_table_passes`) run a second time with such a table,
/// ω_M^j for every j < M = R·p, through the kernel that stores its products
/// unrotated; one entry short of that is refused.
#[allow(clippy::too_many_arguments)]
fn check_pass_parts(
    fk: &FieldKernels,
    prime: &Prime,
    variants: &[Variant],
    radix: usize,
    n: usize,
    p: usize,
    vecs: usize,
    halves: Option<u32>,
) {
    let k = prime.k();
    let total = n * vecs;
    let x = inputs(&Field::new(prime), total, (radix * 31 + n * 7 + p) as u64);
    let pass = Pass { radix, p };
    let want = host_passes(prime, &x, n, vecs, &[pass]);
    // the runtime's exponent unit (ω_n = r^(K/n) when n ≤ K)
    let shape = PlanShape::new(prime, n.trailing_zeros(), 1).unwrap();
    let tw_shift = shape.twiddle_shift(&pass);
    for &variant in variants {
        if variant == Variant::Digits && radix > digits::max_radix(k) {
            continue; // plans never ask the digits variant for blocks beyond local memory
        }
        let mut tables = vec![(twiddle_table(fk, prime, n, variant), tw_shift, TwiddleTable::Plan)];
        let m = radix * p;
        if emit::has_launch_table_passes(k, variant) && radix == prime.base_size() && p >= 2 {
            let log_m = m.trailing_zeros();
            let own = (powers_table(fk, prime, log_m, m, variant), log_m);
            tables.push((own, shape.launch_twiddle_shift(&pass, log_m), TwiddleTable::Launch));
            let short = powers_table(fk, prime, log_m - 1, m / 2, variant);
            let by = fk.alloc(total * k).unwrap();
            let bx = fk.upload(&to_digit_major(&x, k)).unwrap();
            let err = fk
                .pass(
                    variant,
                    radix,
                    &[bx],
                    &[by],
                    (&short, TwiddleTable::Launch),
                    [total as u64, n as u64, p as u64],
                    log_m - 1,
                    0,
                    (total / radix) as u64,
                    PassPart::Whole,
                    PassLayout::DIGIT_MAJOR,
                )
                .unwrap_err();
            assert!(format!("{err:#}").contains("does not hold the twiddles"), "{err:#}");
        }
        for (((bw, log_t), tw_shift, table), layout) in tables.iter().flat_map(|t| layouts(variant).into_iter().map(move |l| (t, l))) {
            let bx = fk.upload(&laid_out(&x, k, layout.input_element_major)).unwrap();
            let by = fk.alloc(total * k).unwrap();
            let parts = match halves {
                None => vec![PassPart::Whole],
                Some(shift) => {
                    fk.fork().unwrap();
                    vec![PassPart::Half { shift, half: 0 }, PassPart::Half { shift, half: 1 }]
                }
            };
            for part in parts {
                fk.pass(
                    variant,
                    radix,
                    std::slice::from_ref(&bx),
                    std::slice::from_ref(&by),
                    (bw, *table),
                    [total as u64, n as u64, p as u64],
                    *log_t,
                    *tw_shift,
                    (total / radix) as u64,
                    part,
                    layout,
                )
                .unwrap();
            }
            if halves.is_some() {
                fk.join().unwrap();
            }
            let got = read_back(&fk.download(&by).unwrap(), k, layout.output_element_major);
            let what = format!(
                "{prime} {variant:?} radix-{} program, DFT_{radix} pass n={n} p={p} halves {halves:?} ({layout:?}), {table:?} table",
                fk.radix().number()
            );
            assert_outputs(&got, &want, &what);
        }
    }
}

/// The layouts a pass kernel of `variant` runs with: the digits variant's
/// four (`PassLayout`), every other variant's digit-major one.
fn layouts(variant: Variant) -> Vec<PassLayout> {
    if variant != Variant::Digits {
        return vec![PassLayout::DIGIT_MAJOR];
    }
    [(false, false), (true, false), (false, true), (true, true)]
        .map(|(i, o)| PassLayout { input_element_major: i, output_element_major: o })
        .to_vec()
}

/// The words of `elems` element-major (digit d of element e at e·k + d) or digit-major.
fn laid_out(elems: &[Digits], k: usize, element_major: bool) -> Vec<u64> {
    if element_major {
        elems.concat()
    } else {
        to_digit_major(elems, k)
    }
}

/// The elements of words laid out as [`laid_out`] lays them out.
fn read_back(words: &[u64], k: usize, element_major: bool) -> Vec<Digits> {
    if element_major {
        words.chunks(k).map(|c| c.to_vec()).collect()
    } else {
        from_digit_major(words, k)
    }
}

/// Passes (K, p) and (K, pK) in one launch of the fused kernel on `vecs`
/// vectors of length n, against [`host_passes`]: the kernel built for the
/// plan's table (ω_N^t, t < N/K, the rest rotations by r^s) and the one built
/// for a launch table (ω_M^j for all j < M = K²·p: no rotation).
fn check_fused(fk: &FieldKernels, prime: &Prime, n: usize, p: usize, vecs: usize) {
    let (k, kk) = (prime.k(), prime.base_size());
    let total = n * vecs;
    let x = inputs(&Field::new(prime), total, (n * 13 + p * 5 + vecs) as u64);
    let passes = [Pass { radix: kk, p }, Pass { radix: kk, p: p * kk }];
    let want = host_passes(prime, &x, n, vecs, &passes);
    let shape = PlanShape::new(prime, n.trailing_zeros(), 1).unwrap();
    let m = kk * kk * p;
    let bx = fk.upload(&to_digit_major(&x, k)).unwrap();
    let count = (total / (kk * kk)) as u64;
    for table in [TwiddleTable::Plan, TwiddleTable::Launch] {
        let ((bw, log_t), shifts) = match table {
            TwiddleTable::Plan => (twiddle_table(fk, prime, n, Variant::Local), passes.map(|q| shape.twiddle_shift(&q))),
            TwiddleTable::Launch => {
                let log_m = m.trailing_zeros();
                ((powers_table(fk, prime, log_m, m, Variant::Local), log_m), passes.map(|q| shape.launch_twiddle_shift(&q, log_m)))
            }
        };
        let by = fk.alloc(total * k).unwrap();
        let (xs, ys) = (std::slice::from_ref(&bx), std::slice::from_ref(&by));
        fk.fused_pass(
            Variant::Local,
            kk,
            xs,
            ys,
            (&bw, table),
            [total as u64, n as u64, p as u64],
            log_t,
            shifts,
            count,
            PassPart::Whole,
            PassLayout::DIGIT_MAJOR,
        )
        .unwrap();
        let got = from_digit_major(&fk.download(&by).unwrap(), k);
        let radix = fk.radix().number();
        let what = format!("{prime} radix-{radix} program, fused DFT_{kk} passes n={n} p={p} ({vecs} vectors), {table:?} table");
        assert_outputs(&got, &want, &what);
    }
    // a launch table too short for the launch is refused
    let short = powers_table(fk, prime, m.trailing_zeros() - 1, m / 2, Variant::Local);
    let (by, shifts) = (fk.alloc(total * k).unwrap(), passes.map(|q| shape.launch_twiddle_shift(&q, m.trailing_zeros())));
    let err = fk
        .fused_pass(
            Variant::Local,
            kk,
            &[bx],
            &[by],
            (&short, TwiddleTable::Launch),
            [total as u64, n as u64, p as u64],
            m.trailing_zeros() - 1,
            shifts,
            count,
            PassPart::Whole,
            PassLayout::DIGIT_MAJOR,
        )
        .unwrap_err();
    assert!(format!("{err:#}").contains("does not hold the twiddles"), "{err:#}");
}

/// The pass shapes a plan uses: I_B ⊗ DFT_K (n = K), first and later passes
/// of a longer transform, and a smaller radix last or first.
fn check_dft(fk: &FieldKernels, prime: &Prime) {
    let kk = prime.base_size();
    check_pass(fk, prime, kk, kk, 1, 3);
    check_pass(fk, prime, kk, kk * 4, 1, 2);
    check_pass(fk, prime, kk, kk * 4, 4, 1);
    check_pass(fk, prime, 4.min(kk), kk * 4, kk, 2);
    // the small radix first (the digits variant's plans): DFT_4 with p = 1
    check_pass(fk, prime, 4.min(kk), kk * 4, 1, 2);
    // several work-groups: the transposed store of p < 32 and the lane store of p >= 32
    check_pass(fk, prime, kk, kk * 64, 16, 1);
    if kk <= 16 {
        check_pass(fk, prime, kk, kk * kk * 32, kk * 32, 1);
    }
    if fk.variants().contains(&Variant::Local) {
        check_fused_shapes(fk, prime);
    }
}

/// The fused launches a plan makes, through both stores (superblocks as lanes
/// where p ≥ the work-group's superblocks or a vector has fewer; otherwise
/// the work-group's outputs as one contiguous run): the first two passes
/// (p = 1) of one and of several vectors, a work-group that is not full,
/// later passes, and several work-groups.
fn check_fused_shapes(fk: &FieldKernels, prime: &Prime) {
    let kk = prime.base_size();
    for (n, p, vecs) in
        [(kk * kk, 1, 3), (kk * kk * 4, 1, 2), (kk * kk * 4, 4, 2), (kk * kk * 64, 1, 1), (kk * kk * 64, 2, 1), (kk * kk * 64, 64, 1)]
    {
        check_fused(fk, prime, n, p, vecs);
    }
}

/// D_{K,J} on B blocks, with the table of ω_M (M = K·J·2, so step = 2).
fn check_twiddle(fk: &FieldKernels, prime: &Prime, b: usize, j: usize) {
    let f = Field::new(prime);
    let (k, kk) = (prime.k(), prime.base_size());
    let m = kk * j * 2;
    let log_m = m.trailing_zeros();
    let w = prime.root_of_unity(log_m).unwrap();
    let p = prime.modulus();
    let t_len = m / kk;
    let table: Vec<Digits> = (0..t_len).map(|t| f.from_biguint(&w.modpow(&BigUint::from(t), p)).unwrap()).collect();
    let n = b * kk * j;
    let x = inputs(&f, n, 99);
    let bx = fk.upload(&to_digit_major(&x, k)).unwrap();
    let bw = fk.upload(&table.concat()).unwrap();
    fk.twiddle(&bx, n as u64, &bw, t_len.trailing_zeros(), kk as u32, j as u32, 2, n as u64).unwrap();
    let got = from_digit_major(&fk.download(&bx).unwrap(), k);
    let w_kj = prime.root_of_unity(log_m - 1).unwrap();
    for e in 0..n {
        let (i, jj) = ((e / j) % kk, e % j);
        let tw = w_kj.modpow(&BigUint::from(i * jj), p);
        let want = f.from_biguint(&(f.to_biguint(&x[e]).unwrap() * tw % p)).unwrap();
        assert_eq!(got[e], want, "{prime} twiddle at {e}");
    }
}

fn check_transpose(fk: &FieldKernels, prime: &Prime) {
    let mut r = rng(5);
    for (rows, cols, batch) in [(16usize, 16usize, 1usize), (37, 5, 3), (8, 64, 2), (1, 33, 1)] {
        let x: Vec<u64> = (0..rows * cols * batch).map(|_| r.gen()).collect();
        let bx = fk.upload(&x).unwrap();
        let by = fk.alloc(x.len()).unwrap();
        fk.transpose(&bx, &by, rows as u32, cols as u32, batch as u32).unwrap();
        let got = fk.download(&by).unwrap();
        for bt in 0..batch {
            for i in 0..rows {
                for c in 0..cols {
                    assert_eq!(got[bt * rows * cols + c * rows + i], x[bt * rows * cols + i * cols + c]);
                }
            }
        }
    }
    // L^{mn}_m on every digit plane of B blocks equals the SPL stride permutation.
    let f = Field::new(prime);
    let k = prime.k();
    let (m, nn, b) = (prime.base_size(), 8usize, 2usize);
    let n = m * nn * b;
    let x = inputs(&f, n, 17);
    let bx = fk.upload(&to_digit_major(&x, k)).unwrap();
    let by = fk.alloc(n * k).unwrap();
    fk.transpose(&bx, &by, nn as u32, m as u32, (b * k) as u32).unwrap();
    let got = from_digit_major(&fk.download(&by).unwrap(), k);
    let l = Spl::stride_perm(m * nn, m);
    for blk in 0..b {
        let v: Vec<BigUint> = x[blk * m * nn..(blk + 1) * m * nn].iter().map(|d| f.to_biguint(d).unwrap()).collect();
        let want: Vec<Digits> = l.apply(prime, &v).iter().map(|y| f.from_biguint(y).unwrap()).collect();
        assert_eq!(&got[blk * m * nn..(blk + 1) * m * nn], &want[..]);
    }
}

/// The kernels of the catalog prime with this k (k ≤ 32).
fn kernels_match_the_host(k: usize) {
    let s = session();
    let prime = catalog_prime(k).unwrap();
    // every f_mul form on the field operations
    for mul in MulForm::ALL {
        check_field_ops(&FieldKernels::with_mul(&s, prime, Radix::R2, mul).unwrap(), prime);
    }
    // every variant's passes, each radix with another form
    for (radix, mul) in [(Radix::R2, MulForm::Wide64), (Radix::R4, MulForm::Mixed)] {
        let fk = build(&s, prime, radix, mul);
        if radix == Radix::R2 {
            check_twiddle(&fk, prime, 2, 3);
            check_transpose(&fk, prime);
        }
        check_dft(&fk, prime);
    }
}

// one test per prime, so that the test threads compile kernels in parallel
#[test]
fn kernels_for_k2_match_the_host() {
    kernels_match_the_host(2)
}
#[test]
fn kernels_for_k4_match_the_host() {
    kernels_match_the_host(4)
}
#[test]
fn kernels_for_k8_match_the_host() {
    kernels_match_the_host(8)
}
#[test]
fn kernels_for_k16_match_the_host() {
    kernels_match_the_host(16)
}
#[test]
fn kernels_for_k32_match_the_host() {
    kernels_match_the_host(32)
}

/// k = 16's other splits of f_mul_lazy's coefficients (`emit::mul_split`),
/// which the catalog's prime (the chained series in two terms, σ = +1) does
/// not take: a searched radix below 2^63 with δ < 0, whose chained series
/// takes one term (Karatsuba products), and one next to 2^64, whose chained
/// digits would not fit a byte of high part, so it keeps the split rounds
/// (schoolbook products, r ≥ 2^63).  Every variant's passes (radix 2).
#[test]
fn k16_radices_of_the_other_splits_match_the_host() {
    use srgfn_gen::emit::lazy::{MulSplit, SplitForm};
    let s = session();
    for (expr, chained) in [("(2^60-2^17)^16+1", true), ("(2^64-2^17)^16+1", false)] {
        let prime = Prime::parse(expr).unwrap();
        let form = MulSplit::of(16, prime.r()).map(|sp| sp.form);
        assert_eq!(matches!(form, Some(SplitForm::ChainedSeries { terms: 1, .. })), chained, "{expr}: {form:?}");
        assert_eq!(matches!(form, Some(SplitForm::Rounds(_))), !chained, "{expr}: {form:?}");
        check_dft(&build(&s, &prime, Radix::R2, MulForm::Wide64), &prime);
    }
}

#[test]
fn kernels_for_k64_and_k128_match_the_host() {
    let s = session();
    for prime in catalog().iter().filter(|p| p.k() >= 64) {
        // each multiplication form once, with field ops and both pass kinds
        for (radix, mul) in [(Radix::R2, MulForm::Wide64), (Radix::R4, MulForm::Limb22)] {
            let fk = build(&s, prime, radix, mul);
            check_field_ops(&fk, prime);
            check_pass(&fk, prime, prime.base_size(), prime.base_size(), 1, 1);
            check_pass(&fk, prime, 2, 2 * prime.base_size(), prime.base_size(), 1);
            // the plans' largest radix (below K): first and twiddled passes, and n ≤ K in two passes
            let m = digits::max_radix(prime.k());
            check_pass(&fk, prime, m, m, 1, 2);
            check_pass(&fk, prime, m, 2 * m * m, 2 * m, 1);
            check_pass(&fk, prime, 4, 4 * m, m, 1);
        }
    }
}

/// The digits variant's carries through the warp (shuffles, on NVIDIA with
/// PTX) with the shuffles emulated through local memory
/// (`KernelOptions::warp_emulation`), so that their lane maps and the negated
/// wraps of the top digit are checked here too: twiddled passes of the primes
/// whose element's work-items fit a warp (the twiddle phase), and the store
/// phase's element per warp (k = 32 and 64, one block per work-group or
/// several, first and twiddled passes, in every layout).
#[test]
fn the_digits_warp_path_with_emulated_shuffles_matches_the_host() {
    let s = session();
    for k in [8usize, 32, 64] {
        assert_eq!(digits::carry_path(k, true), digits::CarryPath::Warp, "k = {k}");
        assert_eq!(digits::store_in_warp(k, true), k >= 32, "k = {k}");
        let prime = catalog_prime(k).unwrap();
        let opts = KernelOptions { warp_emulation: true, ..KernelOptions::new(Radix::R4, MulForm::Wide64) };
        let fk = FieldKernels::with_options(&s, prime, opts).unwrap();
        let (kk, m) = (prime.base_size(), digits::max_radix(k));
        let only = [Variant::Digits];
        check_pass_of(&fk, prime, &only, m, 2 * m * m, 2 * m, 1);
        check_pass_of(&fk, prime, &only, m, m * m, 1, 1);
        check_pass_of(&fk, prime, &only, 4, 4 * m, 1, 2);
        check_pass_of(&fk, prime, &only, 4, 4 * m, m, 2);
        check_pass_of(&fk, prime, &only, 2, 2 * kk, kk, 1);
    }
}

/// The table variant's stages in registers, a digit per work-item, with the
/// rotations as shuffles of the warp (`emit::warp_stages`, on NVIDIA with
/// PTX), here with the shuffles emulated through local memory
/// (`KernelOptions::warp_emulation`): every catalog k whose DFT_K fits a
/// warp, both radices, the first pass and twiddled ones, one vector and
/// several, a partial last work-group, the stores of output runs (p < G),
/// and a pass in halves, against the host.
#[test]
fn the_table_stages_through_the_warp_with_emulated_shuffles_match_the_host() {
    let s = session();
    for k in [2usize, 4, 8, 16, 32] {
        let prime = catalog_prime(k).unwrap();
        let kk = prime.base_size();
        for radix in [Radix::R2, Radix::R4] {
            let opts = KernelOptions { warp_emulation: true, ..KernelOptions::new(radix, MulForm::Wide64) };
            assert!(srgfn_gen::emit::warp_stages::applies(k, kk, &opts), "k = {k}");
            let fk = FieldKernels::with_options(&s, prime, opts).unwrap();
            let only = [Variant::Table];
            check_pass_of(&fk, prime, &only, kk, kk, 1, 2);
            check_pass_of(&fk, prime, &only, kk, kk * kk, kk, 1);
            check_pass_of(&fk, prime, &only, kk, 2 * kk, 2, 3);
            // the stores of output runs (p < G, a work-group's blocks in one vector), and a pass in
            // halves (by a bit below p, so that for k = 2, G = 64, it keeps the blocks' own stores)
            check_pass_of(&fk, prime, &only, kk, 64 * kk, 1, 1);
            check_pass_of(&fk, prime, &only, kk, 64 * kk, 2, 2);
            check_pass_parts(&fk, prime, &only, kk, 64 * kk, 32, 1, Some(4));
        }
    }
}

/// The digits store phase's second round of carries, which runs only where a
/// vote asks for it (`digits::store_in_warp`, and a vote of the work-group
/// where the carries go through local memory) and which random and edge
/// inputs almost never need: here run for every round of elements
/// (`KernelOptions::every_second_round`), through local memory with the vote
/// (k = 4, and 32 without shuffles) and without it (k = 128: every round runs
/// both anyway), and through the warp (k = 32, 64, shuffles emulated), first
/// and twiddled passes, one block per work-group or several.
#[test]
fn the_digits_store_phase_second_round_matches_the_host() {
    let s = session();
    for (k, warp) in [(4usize, false), (32, false), (128, false), (32, true), (64, true)] {
        assert_eq!(digits::store_in_warp(k, warp), warp, "k = {k}");
        assert_eq!(digits::store_vote(k, warp), !warp && k <= 32, "k = {k}");
        let prime = catalog_prime(k).unwrap();
        let opts = KernelOptions { warp_emulation: warp, every_second_round: true, ..KernelOptions::new(Radix::R4, MulForm::Wide64) };
        let fk = FieldKernels::with_options(&s, prime, opts).unwrap();
        let m = digits::max_radix(k);
        let only = [Variant::Digits];
        check_pass_of(&fk, prime, &only, m, m * m, 1, 1);
        check_pass_of(&fk, prime, &only, m, 2 * m * m, m, 1);
        check_pass_of(&fk, prime, &only, 4, 4 * m, m, 2);
    }
}

#[test]
fn a_searched_prime_with_three_terms_works_too() {
    // not in the catalog: (2^59+2^57+2^39)^8+1 style radices with headroom
    let found = srgfn_gen::search::search(&srgfn_gen::search::SearchSpec { k: 4, terms: 3, w_min: 58, w_max: 58 }, &|| {}).unwrap();
    let prime = found.first().expect("some 3-term prime with w = 58, k = 4").clone();
    let s = session();
    for (radix, mul) in [(Radix::R2, MulForm::Wide64), (Radix::R4, MulForm::Limb22)] {
        let fk = build(&s, &prime, radix, mul);
        check_field_ops(&fk, &prime);
        check_dft(&fk, &prime);
        let prog = Program::unroll(prime.k(), radix).unwrap();
        assert_eq!(prog.size, 8);
    }
}

/// The digits variant's twiddle phase divides by shifts and adds in rounds
/// whose number and remainder bound depend on r (`emit/quotient.rs`): the
/// searched two-term radices of k = 4 that take the most rounds (five and
/// six, one of them with s = 1), first and twiddled passes against the host.
#[test]
fn searched_radices_with_many_quotient_rounds_work_in_the_digits_variant() {
    use srgfn_gen::emit::quotient::SparseQuotient;
    let spec = srgfn_gen::search::SearchSpec { k: 4, terms: 2, w_min: 40, w_max: 63 };
    let mut found: Vec<(usize, Prime)> = srgfn_gen::search::search(&spec, &|| {})
        .unwrap()
        .into_iter()
        .filter_map(|p| SparseQuotient::for_twiddles(p.k(), p.r()).map(|sq| (sq.shifts.len(), p)))
        .collect();
    found.sort_by_key(|(rounds, _)| *rounds);
    let s = session();
    let only = [Variant::Digits];
    for (rounds, prime) in found.iter().rev().take(2) {
        assert!(*rounds >= 5, "{prime}: {rounds} rounds");
        let fk = build(&s, prime, Radix::R4, MulForm::Wide64);
        let m = digits::max_radix(prime.k());
        check_pass_of(&fk, prime, &only, m, m * m, 1, 1);
        check_pass_of(&fk, prime, &only, m, 2 * m * m, 2 * m, 1);
        check_pass_of(&fk, prime, &only, m, m * m, m, 2);
    }
}

#[test]
fn a_build_failure_reports_the_log_and_the_source_path() {
    let s = session();
    let err = s.build("broken_kernel", "__kernel void broken(__global ulong *x) { x[0] = undefined_name; }").unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("build of broken_kernel failed"), "{msg}");
    assert!(msg.contains("undefined_name"), "the build log is shown: {msg}");
    let path = msg.split("source kept at ").nth(1).unwrap().split(';').next().unwrap();
    assert!(std::fs::read_to_string(path).unwrap().contains("undefined_name"));
    // the same, as data
    let Error::Build { program, log, kept_source, .. } = err else { panic!("not a build error: {err:?}") };
    assert_eq!(program, "broken_kernel");
    assert!(log.contains("undefined_name"), "{log}");
    assert_eq!(kept_source.unwrap().to_str(), Some(path));
}

/// Many work-groups of the local-memory variants at once, several times: a
/// race between work-groups shows as a moving error.
#[test]
fn local_memory_variants_are_race_free_across_work_groups() {
    let s = session();
    for k in [8, 16] {
        let prime = srgfn_gen::catalog_prime(k).unwrap();
        let fk = FieldKernels::new(&s, prime, Radix::R2).unwrap();
        for _ in 0..3 {
            check_pass(&fk, prime, 2 * k, 128 * k, 32, 2);
        }
    }
}

/// The kernels of k = 4 and an input and output of `len` elements, for
/// launches refused before they run.
fn k4_kernels_and_buffers(len: usize) -> (&'static Prime, FieldKernels, ocl::Buffer<u64>, ocl::Buffer<u64>) {
    let prime = catalog_prime(4).unwrap();
    let fk = FieldKernels::with_mul(&session(), prime, Radix::R2, MulForm::Wide64).unwrap();
    let (x, y) = (fk.upload(&vec![0u64; len * prime.k()]).unwrap(), fk.alloc(len * prime.k()).unwrap());
    (prime, fk, x, y)
}

/// The kernels map indices with shifts and masks, so a pass whose n or p is
/// not a power of two (or whose radix·p exceeds n) is refused before launch.
#[test]
fn passes_of_a_shape_the_kernels_cannot_map_are_refused() {
    let (prime, fk, x, y) = k4_kernels_and_buffers(96);
    let (w, log_t) = twiddle_table(&fk, prime, 64, Variant::Local);
    for (n, p) in [(96u64, 1u64), (64, 3), (8, 8)] {
        let e = fk
            .pass(
                Variant::Local,
                8,
                std::slice::from_ref(&x),
                std::slice::from_ref(&y),
                (&w, TwiddleTable::Plan),
                [96, n, p],
                log_t,
                0,
                96 / 8,
                PassPart::Whole,
                PassLayout::DIGIT_MAJOR,
            )
            .expect_err("a pass the kernels cannot map");
        assert!(format!("{e:#}").contains("powers of two with radix·p ≤ n"), "n = {n}, p = {p}: {e:#}");
    }
    // element-major vectors only where a kernel reads its layout argument
    let em = PassLayout { input_element_major: true, output_element_major: false };
    let e = fk
        .pass(
            Variant::Local,
            8,
            std::slice::from_ref(&x),
            std::slice::from_ref(&y),
            (&w, TwiddleTable::Plan),
            [64, 64, 8],
            log_t,
            0,
            64 / 8,
            PassPart::Whole,
            em,
        )
        .expect_err("an element-major vector for the local variant");
    assert!(format!("{e:#}").contains("only the digits variant"), "{e:#}");
}

/// A twiddled pass of the digits variant reads the suffix sums right after exactly 2^log_t
/// entries: a table in another layout or of another length is refused before launch.
#[test]
fn a_table_not_laid_out_for_the_variant_is_refused() {
    let (prime, fk, x, y) = k4_kernels_and_buffers(64);
    let k = prime.k();
    let (entries_only, log_t) = twiddle_table(&fk, prime, 64, Variant::Local);
    let longer = fk.alloc(Variant::Digits.table_words(k, 2 << log_t)).unwrap();
    for w in [&entries_only, &longer] {
        let e = fk
            .pass(
                Variant::Digits,
                8,
                std::slice::from_ref(&x),
                std::slice::from_ref(&y),
                (w, TwiddleTable::Plan),
                [64, 64, 8],
                log_t,
                0,
                64 / 8,
                PassPart::Whole,
                PassLayout::DIGIT_MAJOR,
            )
            .expect_err("a table in another layout");
        assert!(format!("{e:#}").contains("Variant::table_words"), "{e:#}");
    }
    let short = fk.alloc(8).unwrap();
    let e = fk.outer_product(&short, &short, &short, 0, 4, Variant::Digits).expect_err("a table too short for its layout");
    assert!(format!("{e:#}").contains("Variant::table_words"), "{e:#}");
}
