//! Catalog, primality, search and roots of unity.

use num_bigint::BigUint;
use num_traits::One;
use srgfn_gen::primality::{is_probable_prime, miller_rabin, strong_lucas};
use srgfn_gen::search::{search, SearchSpec};
use srgfn_gen::{catalog, Prime, PrimeError};
use srgfn_suite::proof::{pocklington_proves_prime, prime_factors, proves_srgfn_prime};

#[test]
fn catalog_valuations_are_computed_from_p() {
    // Table 3.1 lists 2^2500 for k = 64: the true valuation is 64 · 40 = 2560.
    let expected = [106, 200, 272, 576, 1792, 2560, 3584];
    let bits = [127, 256, 505, 993, 1985, 4032, 8192];
    assert_eq!(catalog().len(), expected.len());
    for ((prime, want), bits) in catalog().iter().zip(expected).zip(bits) {
        let v = prime.minus_one().trailing_zeros().unwrap() as u32;
        assert_eq!(prime.two_adicity(), v, "{prime}");
        assert_eq!(v, want, "{prime}");
        assert_eq!(prime.bits(), bits, "{prime}");
    }
}

/// The catalog is trusted without a primality test in every process: here
/// each entry gets a Pocklington certificate (p − 1 = r^k, r factored), and
/// the library's own test agrees.  A composite of the same shape gets none.
#[test]
fn catalog_primes_are_proven_prime() {
    for prime in catalog() {
        assert!(proves_srgfn_prime(prime.modulus(), prime.r()), "{prime} has no certificate");
        assert!(is_probable_prime(prime.modulus()), "{prime}");
    }
    let composite = Prime::parse_unchecked("(2^63+2^33)^8+1").unwrap();
    assert!(!proves_srgfn_prime(composite.modulus(), composite.r()));
    assert!(!is_probable_prime(composite.modulus()));
    // the certificate checks its factorisation: a missing factor proves nothing
    let p = catalog()[2].modulus();
    assert!(!pocklington_proves_prime(p, &prime_factors(catalog()[2].r())[1..]));
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
    // Strong pseudoprimes to several bases (3825123056546413051 to every base
    // up to 23: only the Lucas half refuses it) and Carmichael numbers.
    for n in [3215031751u64, 2152302898747, 3474749660383, 341550071728321, 3825123056546413051, 561, 1105, 25326001] {
        assert!(!is_probable_prime(&BigUint::from(n)), "{n}");
    }
    // Mersenne numbers: 2^67 − 1 = 193707721 · 761838257287 is composite
    for (e, prime) in [(61u32, true), (67, false), (89, true), (107, true), (127, true), (521, true), (523, false)] {
        let m = (BigUint::one() << e) - 1u32;
        assert_eq!(is_probable_prime(&m), prime, "2^{e} − 1");
    }
    let m61 = (BigUint::one() << 61) - 1u32;
    assert!(!is_probable_prime(&(&m61 * ((BigUint::one() << 89) - 1u32))));
}

/// Each half of Baillie–PSW alone: its pseudoprimes below 10^5 are exactly
/// the known ones (OEIS A001262 and A217255, cross-checked with sympy).
#[test]
fn each_half_of_bpsw_has_exactly_the_known_pseudoprimes() {
    let mr2 = [2047u64, 3277, 4033, 4681, 8321, 15841, 29341, 42799, 49141, 52633, 65281, 74665, 80581, 85489, 88357, 90751];
    let lucas = [5459u64, 5777, 10877, 16109, 18971, 22499, 24569, 25199, 40309, 58519, 75077, 97439];
    let two = BigUint::from(2u32);
    for n in (3u64..100_000).step_by(2) {
        let b = BigUint::from(n);
        let prime = is_prime_slow(n);
        assert_eq!(miller_rabin(&b, &two), prime || mr2.contains(&n), "Miller–Rabin base 2 on {n}");
        assert_eq!(strong_lucas(&b), prime || lucas.contains(&n), "strong Lucas on {n}");
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

/// Every candidate of a search at k = 8, w = 63 (p ≈ 2^504) is decided
/// independently: the ones found have a Pocklington certificate, every other
/// one a Fermat witness of compositeness.
#[test]
fn search_reports_catalog_primes() {
    let spec = SearchSpec { k: 8, terms: 2, w_min: 63, w_max: 63 };
    let found = search(&spec, &|| {}).unwrap();
    assert!(found.iter().any(|p| p.to_string() == "(2^63+2^34)^8+1"));
    let found: Vec<u64> = found.iter().map(|p| p.r()).collect();
    for radix in srgfn_gen::search::candidate_radices(&spec).unwrap() {
        let p = BigUint::from(radix.value()).pow(8) + 1u32;
        if found.contains(&radix.value()) {
            assert!(proves_srgfn_prime(&p, radix.value()), "({radix})^8+1 was reported but has no certificate");
        } else {
            let fermat = BigUint::from(3u32).modpow(&(&p - 1u32), &p);
            assert!(!fermat.is_one(), "({radix})^8+1 was not reported but passes a Fermat test");
        }
    }
    assert!(matches!(search(&SearchSpec { k: 12, terms: 2, w_min: 60, w_max: 61 }, &|| {}), Err(PrimeError::K(_))));
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

/// Memoised roots equal ω_max squared e − log N times, whatever the order in
/// which sizes are asked for (descending, ascending, and mixed).
#[test]
fn memoised_roots_equal_repeated_squaring() {
    let prime = &catalog()[3];
    let e = prime.two_adicity();
    let direct = |log_n: u32| prime.max_root().modpow(&(BigUint::one() << (e - log_n)), prime.modulus());
    let fresh = || Prime::parse_unchecked(&prime.to_string()).unwrap();
    let orders: [Vec<u32>; 3] = [(1..=e).rev().step_by(37).collect(), (1..=e).step_by(41).collect(), vec![300, 5, 301, 4, e, 1, 299]];
    for order in orders {
        let p = fresh();
        for log_n in order {
            assert_eq!(p.root_of_unity(log_n).unwrap(), direct(log_n), "N = 2^{log_n}");
        }
    }
}
