//! Transforms and products on the default OpenCL device (PoCL in CI) against
//! the CPU references: whole outputs against the host FFT, schoolbook products.

use num_bigint::BigUint;
use srgfn::{Fft, FftOptions, Session};
use srgfn_gen::emit::{has_fused, plan_halves, plan_shape, variants_for, KernelOptions, MulForm};
use srgfn_gen::reference::{host_fft, schoolbook_mul};
use srgfn_gen::rules::Radix;
use srgfn_gen::{catalog, catalog_prime, Digits, Field, Prime};
use srgfn_suite::{edge_values, random_value, rng};

fn session() -> Session {
    Session::open(None).expect("an OpenCL device (PoCL) is needed for these tests")
}

/// Random values with the representation's edge values mixed in.
fn values(prime: &Prime, n: usize, seed: u64) -> Vec<BigUint> {
    let f = Field::new(prime);
    let mut r = rng(seed);
    let edges: Vec<BigUint> = edge_values(&f).iter().map(|d| f.to_biguint(d).unwrap()).collect();
    (0..n).map(|i| if i % 5 == 1 { edges[(i / 5) % edges.len()].clone() } else { random_value(prime, &mut r) }).collect()
}

/// The forward DFT of every vector of size n in `x`, by the host reference
/// (six-step on digit vectors, itself checked against the naive DFT).
fn host_forward(field: &Field, x: &[Digits], n: usize) -> Vec<Digits> {
    let mut y = x.to_vec();
    y.chunks_mut(n).for_each(|v| host_fft(field, v).unwrap());
    y
}

/// Uploads `batch` vectors of size n (values, or digits when `digits`),
/// checks the whole forward transform against the host reference, then
/// inverse(forward(x)) = x, the whole output again.
fn check_round_trip(fft: &Fft, n: usize, batch: usize, seed: u64, digits: bool) {
    let prime = fft.prime();
    let f = Field::new(prime);
    let what = format!("{prime} {:?} radix {} N = {n} × {batch}", fft.variant(), fft.radix().number());
    let x: Vec<Digits> = if digits {
        let mut r = rng(seed);
        (0..n * batch).map(|_| srgfn_suite::random_digits(&f, &mut r)).collect()
    } else {
        values(prime, n * batch, seed).iter().map(|v| f.from_biguint(v).unwrap()).collect()
    };
    let mut plan = fft.plan(n, batch).unwrap();
    let mut v = if digits {
        plan.upload_digits(&x).unwrap()
    } else {
        plan.upload(&x.iter().map(|d| f.to_biguint(d).unwrap()).collect::<Vec<_>>()).unwrap()
    };
    plan.forward(&mut v).unwrap();
    let got = plan.download_digits(&v).unwrap();
    let want = host_forward(&f, &x, n);
    let bad = (0..got.len()).filter(|&i| got[i] != want[i]).count();
    assert_eq!(bad, 0, "{what}: {bad} wrong outputs of the forward transform");
    plan.inverse(&mut v).unwrap();
    if digits {
        assert!(plan.download_digits(&v).unwrap() == x, "{what}: inverse(forward(x)) ≠ x");
    } else {
        let back = plan.download(&v).unwrap();
        assert!(back.iter().zip(&x).all(|(b, d)| f.from_biguint(b).unwrap() == *d), "{what}: inverse(forward(x)) ≠ x");
    }
}

/// Every variant the generator emits for the prime and both radices, with
/// the multiplication form `kernels_pocl` checks their passes with (radix 2:
/// wide64, radix 4: mixed), so that PoCL compiles each kernel once for both:
/// N = K (one pass), 4K (a pass of radix 4: last, or first for the digits
/// variant, `emit::small_radix_at`) and K², one vector and
/// three; for k ≤ 8 and the first variant also N = 4 (a pass below K) and
/// 2K (a last pass of radix 2).  The local variant runs with two passes per
/// launch and with one, also at K³ and K⁴ (fused launches beside single ones
/// and after each other) where N ≤ 4096.
fn every_variant_and_radix_forward_and_inverse(k: usize) {
    let s = session();
    let prime = catalog_prime(k).unwrap();
    let kk = prime.base_size();
    for (vi, variant) in variants_for(prime).into_iter().enumerate() {
        for (radix, mul) in [(Radix::R2, MulForm::Wide64), (Radix::R4, MulForm::Mixed)] {
            let fusions =
                if has_fused(prime, variant, &KernelOptions::new(radix, mul)) { vec![Some(true), Some(false)] } else { vec![None] };
            for fuse in fusions {
                let opts = FftOptions { radix: Some(radix), variant: Some(variant), mul: Some(mul), fuse, ..FftOptions::default() };
                let fft = Fft::with_options(&s, prime, opts).unwrap();
                let mut sizes = vec![(kk, 1), (4 * kk, 3), (kk * kk, 1)];
                if vi == 0 && k <= 8 {
                    sizes.extend([(4, 3), (2 * kk, 2)]);
                }
                if fuse.is_some() {
                    sizes.extend([(4 * kk * kk, 2), (kk * kk * kk, 1), (kk * kk * kk * kk, 1)]);
                }
                for (i, (n, batch)) in sizes.into_iter().filter(|&(n, _)| n <= 4096).enumerate() {
                    // values (converted on the device) with wide64, digits with mixed:
                    // the conversion kernels of one form are enough
                    let digits = radix == Radix::R4 || i % 2 == 1;
                    check_round_trip(&fft, n, batch, (kk + 10 * i + 100 * vi + 1000 * radix.number()) as u64, digits);
                }
            }
        }
    }
}

// one test per prime, so that the test threads compile kernels in parallel
#[test]
fn every_variant_and_radix_forward_and_inverse_k2() {
    every_variant_and_radix_forward_and_inverse(2)
}
#[test]
fn every_variant_and_radix_forward_and_inverse_k4() {
    every_variant_and_radix_forward_and_inverse(4)
}
#[test]
fn every_variant_and_radix_forward_and_inverse_k8() {
    every_variant_and_radix_forward_and_inverse(8)
}
#[test]
fn every_variant_and_radix_forward_and_inverse_k16() {
    every_variant_and_radix_forward_and_inverse(16)
}
#[test]
fn every_variant_and_radix_forward_and_inverse_k32() {
    every_variant_and_radix_forward_and_inverse(32)
}

/// Plans whose later launches run as two halves side by side on two queues
/// (`emit::plan_halves`, asked for: the default keeps it for launches beyond
/// these sizes), for every variant that can, both radices, k = 2 … 32, one
/// pass per launch and (local variant) two: whole outputs against the host
/// reference at the first two sizes from 2^8 that split, with edge values
/// and batches.  (The same plans whole are `every_variant_and_radix_…`'s.)
/// Each prime and variant runs some plan in halves, and none without asking.
#[test]
fn halves_on_two_queues_match_the_host_reference() {
    let s = session();
    for k in [2usize, 4, 8, 16, 32] {
        let prime = catalog_prime(k).unwrap();
        for variant in variants_for(prime).into_iter().filter(|v| v.runs_in_halves()) {
            let mut ran = 0;
            for (radix, mul) in [(Radix::R2, MulForm::Wide64), (Radix::R4, MulForm::Mixed)] {
                let fusions =
                    if has_fused(prime, variant, &KernelOptions::new(radix, mul)) { vec![Some(false), Some(true)] } else { vec![None] };
                for fuse in fusions {
                    let opts = |halves| FftOptions {
                        radix: Some(radix),
                        variant: Some(variant),
                        mul: Some(mul),
                        fuse,
                        halves,
                        ..FftOptions::default()
                    };
                    let (on, off) =
                        (Fft::with_options(&s, prime, opts(Some(true))).unwrap(), Fft::with_options(&s, prime, opts(Some(false))).unwrap());
                    let split = [(8u32, 2usize), (9, 1), (10, 3), (11, 1), (12, 1)].into_iter().filter(|&(log_n, batch)| {
                        let shape = plan_shape(prime, variant, &KernelOptions::new(radix, mul), fuse, log_n, batch).unwrap();
                        plan_halves(prime, variant, radix, &shape, Some(true), true).is_some()
                    });
                    for (log_n, batch) in split.take(2) {
                        assert!(off.plan(1 << log_n, batch).unwrap().halves().is_none());
                        assert!(on.plan(1 << log_n, batch).unwrap().halves().is_some());
                        check_round_trip(&on, 1 << log_n, batch, (log_n as usize * 7 + k) as u64, log_n % 2 == 0);
                        ran += 1;
                    }
                }
            }
            assert!(ran > 0, "k = {k} {variant:?}: no plan ran in halves");
        }
    }
}

/// k = 16's table plans with the warp's stages (emulated through local memory
/// here, as NVIDIA runs them with PTX) put a small radix s ≤ 8 second
/// (`emit::SMALL_RADIX_SECOND`): (K, 1), (s, K), (K, s·K), … exact against the
/// host and inverse back, whole and in halves, one vector and two, at sizes
/// where (s, K) is the last pass (K·s) and where passes of radix K follow it,
/// their DFT_s kernels loading the inputs that need a product first
/// (`table::LoadOrder`); s = 16 stays last, its DFT_16 kernel a lane per digit
/// with the warp's stages (`warp_stages::lane_per_digit`).
#[test]
fn k16_table_plans_with_the_small_radix_second_match_the_host() {
    let s = session();
    let prime = catalog_prime(16).unwrap();
    let opts =
        |halves| FftOptions { variant: Some(srgfn_gen::emit::Variant::Table), warp_emulation: true, halves, ..FftOptions::default() };
    let (whole, split) =
        (Fft::with_options(&s, prime, opts(Some(false))).unwrap(), Fft::with_options(&s, prime, opts(Some(true))).unwrap());
    for (log_n, batch, second) in
        [(6u32, 2usize, Some(2)), (7, 1, Some(4)), (8, 1, Some(8)), (9, 1, None), (11, 1, Some(2)), (12, 2, Some(4))]
    {
        for fft in [&whole, &split] {
            let radices: Vec<usize> = fft.plan(1 << log_n, batch).unwrap().shape().passes.iter().map(|p| p.radix).collect();
            match second {
                Some(r) => assert_eq!(radices[..2], [32, r], "2^{log_n}: {radices:?}"),
                None => assert_eq!(radices.last(), Some(&16), "2^{log_n}: {radices:?}"),
            }
            check_round_trip(fft, 1 << log_n, batch, log_n as u64 + 16, log_n % 2 == 0);
        }
        if log_n >= 11 {
            assert!(split.plan(1 << log_n, batch).unwrap().halves().is_some(), "2^{log_n} in halves");
        }
    }
}

/// `srgfn check`'s case for large sizes (`check::transform_at_points`) on
/// the device: a forward transform at its points against the definition and
/// the inverse back whole, here at a size PoCL runs in a second (k = 4,
/// 2^11, a size that is not a power of K, in halves: the large sizes' plans
/// run so by default).
#[test]
fn a_transform_checked_at_points_passes() {
    let s = session();
    let prime = catalog_prime(4).unwrap();
    let fft = Fft::with_options(&s, prime, FftOptions { halves: Some(true), ..FftOptions::default() }).unwrap();
    assert!(fft.plan(1 << 11, 1).unwrap().halves().is_some());
    let (passed, detail) = srgfn::check::transform_at_points(&fft, 1 << 11).unwrap();
    assert!(passed, "{detail}");
    assert!(detail.starts_with("forward outputs [0, 1, "), "{detail}");
}

/// k = 64 and 128 at N = K², 16384 and 65536 elements of 4032 and 8192 bits,
/// forward and inverse, whole outputs (default options); and two vectors of
/// 2K for every variant and both radices (with the multiplication forms
/// `kernels_pocl` compiles them with).
#[test]
fn k64_and_k128_full_transforms_at_k_squared() {
    let s = session();
    for prime in catalog().iter().filter(|p| p.k() >= 64) {
        let kk = prime.base_size();
        check_round_trip(&Fft::new(&s, prime).unwrap(), kk * kk, 1, 64, true);
        for variant in variants_for(prime) {
            for (radix, mul) in [(Radix::R2, MulForm::Wide64), (Radix::R4, MulForm::Limb22)] {
                let opts = FftOptions { radix: Some(radix), variant: Some(variant), mul: Some(mul), ..FftOptions::default() };
                check_round_trip(&Fft::with_options(&s, prime, opts).unwrap(), 2 * kk, 2, 65, false);
            }
        }
    }
}

#[test]
fn polynomial_products_match_schoolbook() {
    let s = session();
    let mut r = rng(77);
    for prime in catalog().iter().filter(|p| p.k() <= 32) {
        let mul = if prime.k() == 8 { Some(MulForm::Limb22) } else { None };
        let fft = Fft::with_options(&s, prime, FftOptions { mul, ..FftOptions::default() }).unwrap();
        // above k = 8 one product of N = 4K: its kernels are those of the other tests
        let kk = prime.base_size();
        let lens = match prime.k() {
            8 => vec![(1, 1), (1, 5), (2, 3), (17, 9), (100, 129), (255, 2)],
            k if k < 8 => vec![(1, 2), (13, 20)],
            _ => vec![(kk + 5, 2 * kk + 3)],
        };
        for (la, lb) in lens {
            let a: Vec<BigUint> = (0..la).map(|_| random_value(prime, &mut r)).collect();
            let mut b: Vec<BigUint> = (0..lb).map(|_| random_value(prime, &mut r)).collect();
            b[0] = prime.minus_one();
            let got = fft.poly_mul(&a, &b).unwrap();
            assert_eq!(got, schoolbook_mul(prime, &a, &b), "{prime} {la}×{lb}");
        }
    }
}

#[test]
fn batched_equals_unbatched() {
    let s = session();
    let prime = &catalog()[2];
    let fft = Fft::new(&s, prime).unwrap();
    let n = 512;
    let x = values(prime, 3 * n, 4);
    let mut plan = fft.plan(n, 3).unwrap();
    let mut v = plan.upload(&x).unwrap();
    plan.forward(&mut v).unwrap();
    let batched = plan.download(&v).unwrap();
    let mut single = fft.plan(n, 1).unwrap();
    for b in 0..3 {
        let mut v = single.upload(&x[b * n..(b + 1) * n]).unwrap();
        single.forward(&mut v).unwrap();
        assert_eq!(single.download(&v).unwrap(), batched[b * n..(b + 1) * n]);
    }
}

#[test]
fn bad_sizes_are_clear_errors() {
    let s = session();
    let prime = &catalog()[2];
    let fft = Fft::new(&s, prime).unwrap();
    let msg = |r: srgfn::Result<srgfn::Plan>| format!("{:#}", r.err().expect("an error"));
    assert!(msg(fft.plan(24, 1)).contains("not a power of two"));
    for n in [0, 24] {
        assert!(format!("{:#}", fft.prepare(n).unwrap_err()).contains("not a power of two"), "prepare({n})");
    }
    assert!(format!("{:#}", fft.plan(16, 0).err().unwrap()).contains("batch must be at least 1"));
    assert!(msg(fft.plan(1, 1)).contains("out of range"));
    assert!(msg(fft.plan(1 << 40, 1)).starts_with("N = 2^40 needs 132 TiB on the device"));
    let mut plan = fft.plan(16, 1).unwrap();
    let e = plan.upload(&vec![BigUint::from(1u32); 15]).err().unwrap();
    assert!(format!("{e:#}").contains("mismatched sizes"));
    let mut bad = vec![BigUint::from(1u32); 16];
    bad[3] = prime.modulus().clone();
    let e = plan.upload(&bad).err().unwrap();
    assert!(format!("{e:#}").contains("element 3"), "{e:#}");
    assert!(fft.poly_mul(&[], &[BigUint::from(1u32)]).is_err());
}

/// The digit-word product (no base conversion) equals the value product, edge
/// values included, and refuses malformed words.
#[test]
fn digit_word_products_match_value_products() {
    let s = session();
    let mut r = rng(91);
    for prime in catalog().iter().filter(|p| [4, 8, 16].contains(&p.k())) {
        let field = Field::new(prime);
        let fft = Fft::new(&s, prime).unwrap();
        let kk = prime.base_size();
        let (la, lb) = (kk + 5, 2 * kk + 3); // N = 4K, as in the other tests
        let mut a: Vec<Vec<u64>> = (0..la).map(|_| srgfn_suite::random_digits(&field, &mut r)).collect();
        let b: Vec<Vec<u64>> = (0..lb).map(|_| srgfn_suite::random_digits(&field, &mut r)).collect();
        for (i, e) in edge_values(&field).into_iter().enumerate().take(la) {
            a[i] = e;
        }
        let got = fft.poly_mul_digits(&a.concat(), &b.concat()).unwrap();
        let vals = |d: &[Vec<u64>]| d.iter().map(|e| field.to_biguint(e).unwrap()).collect::<Vec<_>>();
        let want = schoolbook_mul(prime, &vals(&a), &vals(&b));
        let got: Vec<BigUint> = got.chunks(prime.k()).map(|e| field.to_biguint(e).expect("canonical output")).collect();
        assert_eq!(got, want, "{prime}");
        assert_eq!(fft.poly_mul(&vals(&a), &vals(&b)).unwrap(), want, "{prime} (values)");
        let mut bad = a.concat();
        bad[0] = prime.r(); // a digit r below the top: never canonical
        let err = format!("{:#}", fft.poly_mul_digits(&bad, &b.concat()).unwrap_err());
        assert!(err.contains("element 0"), "{err}");
        let err = format!("{:#}", fft.poly_mul_digits(&a.concat()[1..], &b.concat()).unwrap_err());
        assert!(err.contains("not whole elements"), "{err}");
        let too_big = vec![prime.modulus().clone()];
        let err = format!("{:#}", fft.poly_mul(&too_big, &vals(&b)).unwrap_err());
        assert!(err.contains("element 0"), "{err}");
    }
}
