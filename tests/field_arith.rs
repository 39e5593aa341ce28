//! Host digit arithmetic against BigUint arithmetic mod p, for every catalog prime.

use num_bigint::BigUint;
use num_traits::{One, Zero};
use proptest::prelude::*;
use srgfn_gen::{catalog, Field, FieldError};
use srgfn_suite::edge_values;

/// An element of the i-th catalog prime: random digits (biased to 0 and r−1),
/// or one of the representation's edge values.
fn element(idx: usize) -> impl Strategy<Value = Vec<u64>> {
    let field = Field::new(&catalog()[idx]);
    let (k, r) = (field.k(), field.r());
    let edges = edge_values(&field);
    let digit = prop_oneof![Just(0u64), Just(r - 1), Just(1u64), 0..r];
    prop_oneof![
        3 => prop::collection::vec(digit, k),
        1 => prop::sample::select(edges),
    ]
}

fn prime_and_pair() -> impl Strategy<Value = (usize, Vec<u64>, Vec<u64>, i64)> {
    (0..catalog().len()).prop_flat_map(|i| (Just(i), element(i), element(i), -600i64..600))
}

fn value(field: &Field, x: &[u64]) -> BigUint {
    field.to_biguint(x).expect("canonical")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn ring_ops_match_biguint((i, x, y, s) in prime_and_pair()) {
        let prime = &catalog()[i];
        let f = Field::new(prime);
        let p = prime.modulus();
        let (a, b) = (value(&f, &x), value(&f, &y));
        let check = |got: Vec<u64>, want: BigUint, what: &str| {
            f.validate(&got).unwrap_or_else(|e| panic!("{what} not canonical: {e}"));
            assert_eq!(value(&f, &got), want, "{what} for {prime}");
        };
        check(f.add(&x, &y), (&a + &b) % p, "add");
        check(f.sub(&x, &y), (&a + p - &b) % p, "sub");
        check(f.neg(&x), (p - &a) % p, "neg");
        check(f.mul(&x, &y), &a * &b % p, "mul");
        // r^s for any integer s, via r^{2k} = 1.
        let two_k = 2 * prime.k() as i64;
        let rs = BigUint::from(prime.r()).modpow(&BigUint::from(s.rem_euclid(two_k) as u64), p);
        check(f.negacyclic_shift(&x, s), &a * rs % p, "negacyclic_shift");
        // round trip through BigUint
        prop_assert_eq!(f.from_biguint(&a).unwrap(), x);
    }
}

#[test]
fn every_pair_of_edge_values() {
    for prime in catalog() {
        let f = Field::new(prime);
        let p = prime.modulus();
        let edges = edge_values(&f);
        for x in &edges {
            for y in &edges {
                let (a, b) = (value(&f, x), value(&f, y));
                assert_eq!(value(&f, &f.add(x, y)), (&a + &b) % p);
                assert_eq!(value(&f, &f.sub(x, y)), (&a + p - &b) % p);
                assert_eq!(value(&f, &f.mul(x, y)), &a * &b % p, "{prime}: {x:?} * {y:?}");
            }
        }
    }
}

#[test]
fn p_minus_one_is_written_with_top_digit_r() {
    for prime in catalog() {
        let f = Field::new(prime);
        let pm1 = f.from_biguint(&prime.minus_one()).unwrap();
        assert_eq!(pm1, f.minus_one());
        assert_eq!(pm1[prime.k() - 1], prime.r());
        // (r−1, …, r−1) + 1 = r^k = p − 1 must come out in the special form.
        let all = vec![prime.r() - 1; prime.k()];
        assert_eq!(f.add(&all, &f.one()), f.minus_one());
        assert_eq!(f.sub(&f.zero(), &f.one()), f.minus_one());
        assert_eq!(f.add(&f.minus_one(), &f.one()), f.zero());
        assert_eq!(f.negacyclic_shift(&f.one(), prime.k() as i64), f.minus_one());
    }
}

#[test]
fn inverse_and_pow() {
    let mut rng = srgfn_suite::rng(7);
    for prime in catalog().iter().filter(|p| p.k() <= 32) {
        let f = Field::new(prime);
        let p = prime.modulus();
        for x in [f.one(), f.minus_one(), srgfn_suite::random_digits(&f, &mut rng), vec![prime.r() - 1; prime.k()]] {
            let inv = f.inv(&x).unwrap();
            assert_eq!(f.mul(&x, &inv), f.one(), "{prime}");
            let e = BigUint::from(0x1234_5678_9abc_u64);
            assert_eq!(value(&f, &f.pow(&x, &e)), value(&f, &x).modpow(&e, p));
        }
        assert_eq!(f.inv(&f.zero()), Err(FieldError::ZeroInverse));
        assert!(f.pow(&f.zero(), &BigUint::zero()) == f.one());
    }
    // One inverse at the largest sizes, checked through BigUint.
    for prime in catalog().iter().filter(|p| p.k() >= 64) {
        let f = Field::new(prime);
        let x = srgfn_suite::random_digits(&f, &mut rng);
        let inv = f.inv(&x).unwrap();
        assert!((value(&f, &x) * value(&f, &inv) % prime.modulus()).is_one());
    }
}

#[test]
fn out_of_range_input_is_rejected() {
    for prime in catalog() {
        let f = Field::new(prime);
        let k = prime.k();
        assert!(matches!(f.from_biguint(prime.modulus()), Err(FieldError::Value { .. })));
        let mut d = f.zero();
        d[0] = prime.r();
        assert!(matches!(f.to_biguint(&d), Err(FieldError::Digit { index: 0, .. })));
        let mut d = f.minus_one();
        d[0] = 1; // r in the top digit is only allowed for p − 1 itself
        assert!(matches!(f.validate(&d), Err(FieldError::Digit { .. })));
        assert!(matches!(f.validate(&vec![0; k + 1]), Err(FieldError::Length { .. })));
        let msg = f.validate(&[u64::MAX; 2][..1]).unwrap_err().to_string();
        assert!(msg.contains("digits"), "{msg}");
    }
}

/// The worked example of docs/math.md, p = (2^2+2^1)^2+1 = 37.
#[test]
fn worked_example_p37() {
    let prime = srgfn_gen::Prime::parse("(2^2+2^1)^2+1").unwrap();
    assert_eq!(prime.modulus(), &BigUint::from(37u32));
    let f = Field::new(&prime);
    assert_eq!(f.from_u64(23), vec![5, 3]);
    assert_eq!(f.minus_one(), vec![0, 6]);
    assert_eq!(f.negacyclic_shift(&[5, 3], 1), vec![3, 4]);
    assert_eq!(f.add(&[5, 5], &[1, 0]), vec![0, 6]);
    assert_eq!(f.mul(&[5, 3], &[2, 1]), vec![0, 6]);
    assert_eq!(prime.root_of_unity(2).unwrap(), BigUint::from(6u32));
}
