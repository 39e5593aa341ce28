//! The rewritten formulas and the unrolled programs equal DFT_K.

use num_bigint::BigUint;
use srgfn_gen::plan::{PlanShape, SmallRadix};
use srgfn_gen::rules::{cooley_tukey, expand, Radix};
use srgfn_gen::spl::Spl;
use srgfn_gen::unroll::Program;
use srgfn_gen::{catalog, Field};
use srgfn_suite::{edge_values, random_value, rng};

#[test]
fn stride_perm_convention_matches_the_thesis_examples() {
    let prime = &catalog()[2];
    let x: Vec<BigUint> = (0u32..16).map(BigUint::from).collect();
    let show = |f: Spl| f.apply(prime, &x).iter().map(|v| v.to_string()).collect::<Vec<_>>().join(",");
    assert_eq!(show(Spl::stride_perm(16, 2)), "0,2,4,6,8,10,12,14,1,3,5,7,9,11,13,15");
    assert_eq!(show(Spl::stride_perm(16, 4)), "0,4,8,12,1,5,9,13,2,6,10,14,3,7,11,15");
    assert_eq!(show(Spl::stride_perm(16, 8)), "0,8,1,9,2,10,3,11,4,12,5,13,6,14,7,15");
}

/// SPIRAL's check: the matrix of each rewritten formula is the DFT matrix.
#[test]
fn rewritten_formulas_have_the_dft_matrix() {
    for prime in catalog().iter().filter(|p| p.k() <= 16) {
        let kk = prime.base_size();
        let want = Spl::dft(kk).to_matrix(prime);
        for radix in [Radix::R2, Radix::R4] {
            let f = expand(kk, radix);
            assert_eq!(f.to_matrix(prime), want, "{f}");
        }
        for m in [2, 4] {
            if kk % m == 0 && kk > m {
                assert_eq!(cooley_tukey(m, kk / m).to_matrix(prime), want);
            }
        }
    }
    // Sizes N > K too, with the prime's roots ω_N: six-step on DFT_64 of k = 8.
    let prime = &catalog()[2];
    let f = srgfn_gen::rules::six_step(4, 16, Spl::dft(16));
    assert_eq!(f.to_matrix(prime), Spl::dft(64).to_matrix(prime));
}

#[test]
fn dft16_stage_shape() {
    let p2 = Program::unroll(8, Radix::R2).unwrap();
    assert_eq!(p2.stages.len(), 4);
    assert!(p2.stages.iter().all(|s| s.butterflies.len() == 8 && s.radix() == 2));
    let p4 = Program::unroll(8, Radix::R4).unwrap();
    assert_eq!(p4.stages.len(), 2);
    assert!(p4.stages.iter().all(|s| s.butterflies.len() == 4 && s.radix() == 4));
    let d = p2.descriptor();
    assert_eq!((d.size, d.butterflies, d.dft2, d.dft4), (16, 32, 32, 0));
    // radix-2 DIT with root r: in stage s every group of 2^(s+1) slots shifts
    // its j-th odd input by r^((8 >> s)·j), j < 2^s, so 8 + 4 + 2 + 1 = 15
    // inputs are not shifted and 17 are
    for (s, stage) in p2.stages.iter().enumerate() {
        let mut got: Vec<u32> = stage.butterflies.iter().map(|b| b.shifts[1]).collect();
        let mut want: Vec<u32> = (0..8 >> s).flat_map(|_| (0..1u32 << s).map(move |j| (8 >> s) * j)).collect();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want, "stage {s}");
    }
    assert_eq!((d.shifts, d.trivial_shifts, d.negations), (17, 15, 0));
    assert!(p2.output_shifts.iter().all(|&s| s == 0));
}

/// Every K = 4 … 256, both radices: the interpreted program equals the naive DFT_K.
#[test]
fn unrolled_programs_equal_the_naive_dft() {
    let mut rng = rng(3);
    for prime in catalog() {
        let field = Field::new(prime);
        let kk = prime.base_size();
        let w = prime.root_of_unity(kk.trailing_zeros()).unwrap();
        assert_eq!(w, BigUint::from(prime.r()), "ω_K = r");
        // random input, and one made of edge values, with their naive DFTs
        let edges = edge_values(&field);
        let inputs: Vec<_> = [
            (0..kk).map(|_| random_value(prime, &mut rng)).collect::<Vec<_>>(),
            (0..kk).map(|i| field.to_biguint(&edges[i % edges.len()]).unwrap()).collect(),
        ]
        .into_iter()
        .map(|x| {
            let want = srgfn_gen::reference::naive_dft_with_root(prime, &x, &w);
            (x, want)
        })
        .collect();
        for radix in [Radix::R2, Radix::R4] {
            let prog = Program::unroll(prime.k(), radix).unwrap();
            let d = prog.descriptor();
            let log = kk.trailing_zeros() as usize;
            match radix {
                Radix::R2 => assert_eq!((d.stages, d.dft2), (log, log * kk / 2)),
                Radix::R4 => assert_eq!(d.stages, log.div_ceil(2)),
            }
            for (x, want) in &inputs {
                let xd: Vec<_> = x.iter().map(|v| field.from_biguint(v).unwrap()).collect();
                let got: Vec<_> = prog.run(&field, &xd).iter().map(|v| field.to_biguint(v).unwrap()).collect();
                assert_eq!(&got, want, "{prime} radix {radix:?}");
            }
        }
    }
}

#[test]
fn unsupported_k_is_an_error() {
    assert!(Program::unroll(256, Radix::R2).unwrap_err().contains("k = 256"));
    assert!(Program::unroll(6, Radix::R2).is_err());
    assert!(Radix::from_number(8).unwrap_err().contains("radix 8"));
}

/// Whole plans, run on the host with their index and twiddle maps, equal the
/// naive DFT: sizes that are and are not powers of K.
#[test]
fn plans_equal_the_naive_dft() {
    let mut r = rng(21);
    let k2 = &catalog()[0]; // K = 4
    let k8 = &catalog()[2]; // K = 16
    for (prime, log_n) in [(k2, 1), (k2, 2), (k2, 3), (k2, 4), (k2, 5), (k2, 7), (k8, 3), (k8, 5), (k8, 8), (k8, 9), (k8, 10)] {
        for at in [SmallRadix::Last, SmallRadix::First] {
            let shape = PlanShape::new(prime, log_n, 1).unwrap().with_small_radix(at);
            let n = 1usize << log_n;
            let x: Vec<BigUint> = (0..n).map(|_| random_value(prime, &mut r)).collect();
            assert_eq!(shape.run_host(prime, &x), srgfn_gen::reference::naive_dft(prime, &x).unwrap(), "{prime} N = {n}, {at:?}");
        }
    }
    assert_eq!(PlanShape::new(k8, 20, 3).unwrap().radices(), vec![16, 16, 16, 16, 16]);
    assert_eq!(PlanShape::new(k8, 9, 1).unwrap().radices(), vec![16, 16, 2]);
    let first = PlanShape::new(k8, 9, 1).unwrap().with_small_radix(SmallRadix::First);
    assert_eq!(first.passes.iter().map(|p| (p.radix, p.p)).collect::<Vec<_>>(), vec![(2, 1), (16, 2), (16, 32)]);
    assert_eq!(PlanShape::new(k8, 8, 1).unwrap().with_small_radix(SmallRadix::First).radices(), vec![16, 16]);
    assert!(PlanShape::new(k8, 273, 1).is_err());
}

/// The count of general twiddle products equals the plan's twiddles that are
/// not powers of r, counted one by one: ω_N^e with e not a multiple of N/K.
#[test]
fn general_twiddle_products_count_the_twiddles_that_are_not_powers_of_r() {
    // k = 2, 8, 32, and k = 64, 128 whose largest radix is below K (N ≤ K takes two passes there)
    for prime in [&catalog()[0], &catalog()[2], &catalog()[4], &catalog()[5], &catalog()[6]] {
        let kk = prime.base_size();
        for log_n in 1..=14u32 {
            for at in [SmallRadix::Last, SmallRadix::First] {
                let shape = PlanShape::new(prime, log_n, 2).unwrap().with_small_radix(at);
                let n = shape.n;
                let mut want = 0u64;
                for pass in &shape.passes {
                    for i in 0..n / pass.radix {
                        for t in 0..pass.radix {
                            // ω_n^e is a power of r = ω_n^(n/K) exactly when (n/K) | e
                            let e = pass.twiddle_exponent(n, i, t);
                            want += u64::from(n > kk && e % (n / kk) != 0);
                        }
                    }
                }
                assert_eq!(shape.general_twiddle_products(), 2 * want, "{prime} N = 2^{log_n}, {at:?}");
            }
        }
    }
}

/// The inputs that kernels read without a rotation (`Stage::input_unshifted`):
/// every input of the first stage, input 0 of the later ones, and in each later
/// stage some input that is shifted, for every k and both radices.
#[test]
fn unshifted_inputs_are_the_first_stage_and_input_0() {
    for k in [2usize, 4, 8, 16, 32, 64, 128] {
        for radix in [Radix::R2, Radix::R4] {
            let prog = Program::unroll(k, radix).unwrap();
            for (si, stage) in prog.stages.iter().enumerate() {
                let un: Vec<bool> = (0..stage.radix()).map(|q| stage.input_unshifted(q, k)).collect();
                let direct: Vec<bool> = (0..stage.radix()).map(|q| stage.butterflies.iter().all(|bf| bf.shifts[q] == 0)).collect();
                assert_eq!(un, direct, "k = {k} {radix:?} stage {si}: shifts are below 2k");
                if si == 0 {
                    assert!(un.iter().all(|&u| u), "k = {k} {radix:?}: the first stage shifts no input");
                } else {
                    assert!(un[0] && !un.iter().all(|&u| u), "k = {k} {radix:?} stage {si}: {un:?}");
                }
            }
        }
    }
}
