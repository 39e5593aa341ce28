//! The small-prime baseline computes what it claims: s NTTs (against a naive
//! DFT mod each q_j) and the Garner recombination (against BigUint CRT).

use num_bigint::BigUint;
use rand::{Rng, SeedableRng};
use srgfn::smallprime::SmallPrimeFft;
use srgfn::Session;

#[test]
fn small_prime_ntts_and_recombination_are_exact() {
    let session = Session::open(None).expect("an OpenCL device (PoCL) is needed");
    for (s, n) in [(16usize, 64usize), (16, 32), (4, 2)] {
        let mut sp = SmallPrimeFft::new(&session, s, n).unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(n as u64);
        let mut input = Vec::new();
        for j in 0..s {
            let q = sp.primes.q[j];
            input.extend((0..n).map(|i| if i == 1 { (q - 1) as u32 } else { rng.gen_range(0..q) as u32 }));
        }
        sp.upload(&input).unwrap();
        sp.forward().unwrap();
        let got = sp.read_transformed().unwrap();
        for j in 0..s {
            let x: Vec<u64> = input[j * n..(j + 1) * n].iter().map(|&v| v as u64).collect();
            let want: Vec<u32> = sp.primes.naive_ntt(j, &x).into_iter().map(|v| v as u32).collect();
            assert_eq!(&got[j * n..(j + 1) * n], &want[..], "s={s} n={n} prime {j}");
        }
        let _ = sp.recombine().unwrap();
        let words = sp.read_recombined().unwrap();
        for e in 0..n {
            let residues: Vec<u64> = (0..s).map(|j| got[j * n + e] as u64).collect();
            let digits: Vec<u32> = (0..s).map(|w| words[w * n + e]).collect();
            assert_eq!(BigUint::from_slice(&digits), sp.primes.crt(&residues), "element {e}");
        }
    }
}
