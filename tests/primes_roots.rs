//! Catalog, primality, search and roots of unity.

use num_bigint::BigUint;
use num_traits::One;
use srgfn_gen::primality::is_probable_prime;
use srgfn_gen::search::{search, SearchSpec};
use srgfn_gen::{catalog, Prime, PrimeError};

#[test]
fn catalog_valuations_are_computed_from_p() {
    // Table 3.1 lists 2^2500 for k = 64: the true valuation is 64 · 40 = 2560.
    let expected = [106, 200, 272, 576, 1792, 2560, 3584];
    for (prime, want) in catalog().iter().zip(expected) {
        let v = prime.minus_one().trailing_zeros().unwrap() as u32;
        assert_eq!(prime.two_adicity(), v, "{prime}");
        assert_eq!(v, want, "{prime}");
        assert!(is_probable_prime(prime.modulus()));
        assert_eq!(prime.bits(), prime.modulus().bits());
    }
}

/// Trial division: the independent oracle for small p.
fn is_prime_slow(n: u64) -> bool {
    n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| !n.is_multiple_of(d))
}

#[test]
fn probable_prime_test_agrees_with_trial_division() {
    for n in (1u64..20_000).chain((1u64 << 40) - 2000..(1u64 << 40)) {
        if n > 2 {
            assert_eq!(is_probable_prime(&BigUint::from(n)), is_prime_slow(n), "{n}");
        }
    }
    // Strong pseudoprimes to several bases and Carmichael numbers.
    for n in [3215031751u64, 2152302898747, 3474749660383, 341550071728321, 561, 1105, 25326001] {
        assert!(!is_probable_prime(&BigUint::from(n)), "{n}");
    }
}

#[test]
fn search_finds_exactly_the_primes_of_small_shapes() {
    // Every 2- and 3-term radix with w ≤ 9 and k ∈ {2, 4}: p < 2^40, so trial
    // division decides each candidate independently.
    for terms in [2, 3] {
        for k in [2usize, 4] {
            let spec = SearchSpec { k, terms, w_min: 3, w_max: 9 };
            let found: Vec<u64> = search(&spec, &|| {}).unwrap().iter().map(|p| p.r()).collect();
            let mut want = Vec::new();
            for radix in srgfn_gen::search::candidate_radices(&spec).unwrap() {
                let p = (radix.value() as u128).pow(k as u32) + 1;
                if p < 1 << 63 && is_prime_slow(p as u64) {
                    want.push(radix.value());
                }
            }
            assert!(!want.is_empty());
            assert_eq!(found, want, "terms {terms} k {k}");
        }
    }
}

#[test]
fn search_reports_catalog_primes() {
    let found = search(&SearchSpec { k: 8, terms: 2, w_min: 63, w_max: 63 }, &|| {}).unwrap();
    assert!(found.iter().any(|p| p.to_string() == "(2^63+2^34)^8+1"));
    for p in &found {
        assert!(is_probable_prime(p.modulus()));
    }
    assert!(matches!(
        search(&SearchSpec { k: 12, terms: 2, w_min: 60, w_max: 61 }, &|| {}),
        Err(PrimeError::K(_))
    ));
}

#[test]
fn composites_of_the_shape_are_rejected() {
    let mut rejected = 0;
    for u in 1..63 {
        let e = format!("(2^63+2^{u})^8+1");
        match Prime::parse(&e) {
            Ok(p) => assert_eq!(p.to_string(), "(2^63+2^34)^8+1"),
            Err(PrimeError::Composite(_)) => rejected += 1,
            Err(other) => panic!("{e}: {other}"),
        }
    }
    assert_eq!(rejected, 61);
}

#[test]
fn roots_of_unity_have_the_required_powers() {
    for prime in catalog() {
        let p = prime.modulus();
        let pm1 = prime.minus_one();
        let r = BigUint::from(prime.r());
        let log_k2 = prime.base_size().trailing_zeros();
        for log_n in [1, log_k2, log_k2 + 1, 20.min(prime.two_adicity()), prime.two_adicity()] {
            let w = prime.root_of_unity(log_n).unwrap();
            let pow2 = |m: u32| w.modpow(&(BigUint::one() << m), p);
            assert!(pow2(log_n).is_one(), "{prime} N=2^{log_n}: ω^N = 1");
            assert_eq!(pow2(log_n - 1), pm1, "{prime}: ω^(N/2) = −1");
            if log_n >= log_k2 {
                assert_eq!(pow2(log_n - log_k2), r, "{prime}: ω^(N/2k) = r");
            }
        }
        // Consistency across sizes: ω_{2N}² = ω_N, and the choice is deterministic.
        let w20 = prime.root_of_unity(20.min(prime.two_adicity())).unwrap();
        let w19 = prime.root_of_unity(19.min(prime.two_adicity() - 1)).unwrap();
        assert_eq!(&w20 * &w20 % p, w19);
        assert_eq!(Prime::parse(&prime.to_string()).unwrap().root_of_unity(19).unwrap(), w19);
        assert!(prime.root_of_unity(0).is_err());
        assert!(prime.root_of_unity(prime.two_adicity() + 1).is_err());
    }
}
