//! The small-prime baseline computes what it claims, on PoCL: the s NTTs of
//! every pass shape (single-level passes of radix 2 … 16, fused 16 × r_B
//! passes with staged or direct stores, shared or chained twiddles) against a
//! host DFT mod each q_j, and the Garner recombination against BigUint CRT,
//! for every prime-set size of the benchmark (s = 8, 16, 32).

use num_bigint::BigUint;
use rand::{Rng, SeedableRng};
use srgfn::smallprime::{check_coverage, SmallPrimeFft};
use srgfn::Session;

fn session() -> Session {
    Session::open(None).expect("an OpenCL device (PoCL) is needed")
}

/// Transforms `input` (s planes), checks every plane against the host DFT and
/// every element's recombination against the CRT; returns the recombined words.
fn check(sp: &mut SmallPrimeFft, input: &[u32], what: &str) -> Vec<u32> {
    let (s, n) = (sp.primes.s(), sp.n());
    sp.upload(input).unwrap();
    sp.forward().unwrap();
    let _ = sp.recombine().unwrap();
    let got = sp.read_transformed().unwrap();
    let words = sp.read_recombined().unwrap();
    for j in 0..s {
        let plane = &input[j * n..(j + 1) * n];
        let want = if n <= 256 { sp.primes.naive_ntt(j, plane) } else { sp.primes.reference_ntt(j, plane) };
        assert_eq!(&got[j * n..(j + 1) * n], &want[..], "{what}: s = {s}, N = {n}, prime {j}");
    }
    for e in 0..n {
        let residues: Vec<u32> = (0..s).map(|j| got[j * n + e]).collect();
        let digits: Vec<u32> = (0..s).map(|w| words[w * n + e]).collect();
        assert_eq!(BigUint::from_slice(&digits), sp.primes.crt(&residues), "{what}: s = {s}, N = {n}, element {e}");
    }
    words
}

/// Random residues with the edge values q_j − 1 and 0 at elements 0 and 1.
fn random_input(sp: &SmallPrimeFft, seed: u64) -> Vec<u32> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let n = sp.n();
    sp.primes.q.iter().flat_map(|&q| (0..n).map(|e| [q - 1, 0].get(e).copied().unwrap_or_else(|| rng.gen_range(0..q))).collect::<Vec<_>>()).collect()
}

#[test]
fn every_pass_shape_is_exact() {
    let session = session();
    // log2 N: 1-4 one single-level pass; 5, 7 one fused pass of one column; 8 radix 256;
    // 9 fused 32 then single 16; 12 staged 256 then chained 16; 13 staged 256 then shared 16 x 2;
    // 16 staged then shared 256; 17 two 256 then chained radix 2; 18 the same then radix 4
    for (s, log_n) in [(8, 1), (8, 2), (8, 3), (8, 4), (8, 5), (8, 7), (8, 8), (8, 9), (8, 12), (8, 13), (32, 16), (8, 17), (16, 18)] {
        let mut sp = SmallPrimeFft::new(&session, s, 1 << log_n).unwrap();
        let input = random_input(&sp, log_n as u64);
        check(&mut sp, &input, "random");
    }
}

#[test]
fn every_prime_set_recombines_the_edges() {
    let session = session();
    for (s, log_n) in [(8, 10), (16, 9), (32, 12)] {
        let mut sp = SmallPrimeFft::new(&session, s, 1 << log_n).unwrap();
        let n = sp.n();
        let input = random_input(&sp, s as u64);
        check(&mut sp, &input, "random");
        // x = (c_j, 0, 0, …) transforms to c_j everywhere: all q_j − 1 recombines to m − 1,
        // all 0 to 0, and a mix to whatever the CRT says
        let m: BigUint = sp.primes.q.iter().map(|&q| BigUint::from(q)).product();
        for (what, c) in [
            ("m - 1", sp.primes.q.iter().map(|&q| q - 1).collect::<Vec<_>>()),
            ("zero", vec![0; s]),
            ("mixed", sp.primes.q.iter().enumerate().map(|(j, &q)| if j % 2 == 0 { q - 1 } else { 0 }).collect()),
        ] {
            let input: Vec<u32> = c.iter().flat_map(|&cj| (0..n).map(move |e| if e == 0 { cj } else { 0 })).collect();
            let words = check(&mut sp, &input, what);
            let first = BigUint::from_slice(&(0..s).map(|w| words[w * n]).collect::<Vec<_>>());
            match what {
                "m - 1" => assert_eq!(first, &m - 1u32, "s = {s}"),
                "zero" => assert_eq!(first, BigUint::default(), "s = {s}"),
                _ => assert_eq!(first, sp.primes.crt(&c), "s = {s}"),
            }
        }
    }
}

#[test]
fn sizes_and_residues_out_of_range_are_refused() {
    assert_eq!(check_coverage(32, 1 << 23), Ok(()));
    assert_eq!(check_coverage(16, 1 << 24), Ok(()));
    assert!(check_coverage(32, 1 << 24).unwrap_err().to_string().contains("covers N ≤ 2^23"));
    assert!(check_coverage(64, 1 << 10).is_err(), "k = 32 has no set");
    let session = session();
    let err = SmallPrimeFft::new(&session, 32, 1 << 24).err().expect("2^24 is beyond the s = 32 set").to_string();
    assert!(err.contains("covers N ≤ 2^23"), "{err}");
    assert!(SmallPrimeFft::new(&session, 16, 1 << 25).is_err());
    assert!(SmallPrimeFft::new(&session, 8, 48).is_err());
    assert!(SmallPrimeFft::new(&session, 33, 64).is_err());
    let mut sp = SmallPrimeFft::new(&session, 8, 16).unwrap();
    assert!(sp.upload(&[0; 8 * 15]).is_err());
    let mut bad = vec![0; 8 * 16];
    bad[3 * 16 + 5] = sp.primes.q[3];
    let err = sp.upload(&bad).unwrap_err().to_string();
    assert!(err.contains("element 5") && err.contains("q_3"), "{err}");
}
