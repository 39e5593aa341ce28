//! Transforms and products on the default OpenCL device (PoCL in CI) against
//! the CPU references: naive DFT, spot-checked DFT sums, schoolbook products.

use num_bigint::BigUint;
use rand::Rng;
use srgfn::{Fft, FftOptions, Session};
use srgfn_gen::emit::{MulForm, Variant};
use srgfn_gen::reference::{naive_dft, schoolbook_mul};
use srgfn_gen::rules::Radix;
use srgfn_gen::{catalog, Field, Prime};
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

/// X_j = Σ x_i ω^{ij}, checked in full for small N and at 6 random j otherwise.
fn check_forward(prime: &Prime, x: &[BigUint], got: &[BigUint]) {
    let n = x.len();
    if n <= 128 {
        assert_eq!(got, naive_dft(prime, x).unwrap(), "{prime} N = {n}");
        return;
    }
    let p = prime.modulus();
    let w = prime.root_of_unity(n.trailing_zeros()).unwrap();
    let mut r = rng(n as u64);
    for j in [0, 1, n - 1].into_iter().chain((0..3).map(|_| r.gen_range(0..n))) {
        let wj = w.modpow(&BigUint::from(j), p);
        let mut acc = BigUint::default();
        let mut t = BigUint::from(1u32);
        for xi in x {
            acc = (acc + xi * &t) % p;
            t = t * &wj % p;
        }
        assert_eq!(got[j], acc, "{prime} N = {n}, X_{j}");
    }
}

fn sizes(prime: &Prime) -> Vec<usize> {
    let kk = prime.base_size();
    let mut s = vec![2, kk / 2, kk, 2 * kk, kk * kk, 2 * kk * kk];
    if kk <= 16 {
        s.push(kk * kk * kk);
    }
    s.retain(|&n| (2..=1 << 14).contains(&n));
    s.dedup();
    s
}

#[test]
fn forward_and_inverse_for_primes_up_to_k32() {
    let s = session();
    for prime in catalog().iter().filter(|p| p.k() <= 32) {
        // the default form on PoCL is wide64: the radix-4 run covers limb22
        for (radix, variant, mul) in [(Radix::R2, None, None), (Radix::R4, Some(Variant::Workgroup), Some(MulForm::Limb22))] {
            let fft = Fft::with_options(&s, prime, FftOptions { radix: Some(radix), variant, mul }).unwrap();
            for n in sizes(prime) {
                if prime.k() == 32 && n > 4096 && radix == Radix::R4 {
                    continue; // keep the k = 32 workgroup run short; radix 2 covers it
                }
                let x = values(prime, n, n as u64 + prime.k() as u64);
                let mut plan = fft.plan(n, 1).unwrap();
                let mut v = plan.upload(&x).unwrap();
                plan.forward(&mut v).unwrap();
                let y = plan.download(&v).unwrap();
                check_forward(prime, &x, &y);
                plan.inverse(&mut v).unwrap();
                assert_eq!(plan.download(&v).unwrap(), x, "{prime} N = {n}: inverse(forward(x)) = x");
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
        let lens: &[(usize, usize)] =
            if prime.k() == 8 { &[(1, 1), (1, 5), (2, 3), (17, 9), (100, 129), (255, 2)] } else { &[(1, 2), (13, 20)] };
        for &(la, lb) in lens {
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
fn k64_and_k128_transforms() {
    let s = session();
    for prime in catalog().iter().filter(|p| p.k() >= 64) {
        let fft = Fft::new(&s, prime).unwrap();
        for n in [4, prime.base_size(), 2 * prime.base_size()] {
            let x = values(prime, n, 3);
            let mut plan = fft.plan(n, 1).unwrap();
            let mut v = plan.upload(&x).unwrap();
            plan.forward(&mut v).unwrap();
            check_forward(prime, &x, &plan.download(&v).unwrap());
        }
    }
}

#[test]
fn bad_sizes_are_clear_errors() {
    let s = session();
    let prime = &catalog()[2];
    let fft = Fft::new(&s, prime).unwrap();
    let msg = |r: anyhow::Result<srgfn::Plan>| format!("{:#}", r.err().expect("an error"));
    assert!(msg(fft.plan(24, 1)).contains("not a power of two"));
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
        let (la, lb) = (37, 20);
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
