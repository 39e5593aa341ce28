//! Any bytes as two digit vectors of a catalog prime → either a validation
//! error, or add/sub/mul/shift results exactly equal to BigUint arithmetic mod p.
#![no_main]
use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use srgfn_gen::{prime::CATALOG, Field, Prime};

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let prime = &Prime::parse_unchecked(CATALOG[(data[0] as usize) % 5]).unwrap(); // k = 2 … 32
    let f = Field::new(prime);
    let k = prime.k();
    let s = data[1] as i64 - 128;
    let words: Vec<u64> = data[2..]
        .chunks(8)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            // bias towards the edges of the digit range
            match u64::from_le_bytes(b) % 5 {
                0 => prime.r() - 1,
                1 => prime.r(),
                _ => u64::from_le_bytes(b),
            }
        })
        .collect();
    if words.len() < 2 * k {
        return;
    }
    let (x, y) = (&words[..k], &words[k..2 * k]);
    let (Ok(a), Ok(b)) = (f.to_biguint(x), f.to_biguint(y)) else {
        // invalid digits must be refused, never computed on
        assert!(f.validate(x).is_err() || f.validate(y).is_err());
        return;
    };
    let p = prime.modulus();
    let check = |got: Vec<u64>, want: BigUint| {
        f.validate(&got).expect("canonical result");
        assert_eq!(f.to_biguint(&got).unwrap(), want);
    };
    check(f.add(x, y), (&a + &b) % p);
    check(f.sub(x, y), (&a + p - &b) % p);
    check(f.mul(x, y), &a * &b % p);
    let e = BigUint::from(s.rem_euclid(2 * k as i64) as u64);
    check(f.negacyclic_shift(x, s), &a * BigUint::from(prime.r()).modpow(&e, p) % p);
});
