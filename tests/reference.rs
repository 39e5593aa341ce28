//! The two CPU references agree: naive O(N²) DFT over BigUint and the host
//! six-step FFT on digit vectors, forward and inverse.

use srgfn_gen::reference::{host_fft, host_ifft, naive_dft, naive_idft, schoolbook_mul};
use srgfn_gen::{catalog, Field};
use srgfn_suite::{random_value, rng};

/// Sizes below K (shifts only), of K, and above K: one and two six-step
/// levels (N = K·M with M < K, M = K and M > K); k ≥ 64 at sizes the naive
/// O(N²) reference can afford (k = 64 above K).
#[test]
fn naive_dft_equals_host_fft() {
    let mut rng = rng(11);
    for prime in catalog() {
        let f = Field::new(prime);
        let k2 = prime.base_size();
        let sizes = match prime.k() {
            128 => vec![4],
            64 => vec![4, 2 * k2],
            _ => vec![2, 4, k2, 2 * k2, k2 * k2, 2 * k2 * k2],
        };
        for n in sizes.into_iter().filter(|&n| n <= 512) {
            let x: Vec<_> = (0..n).map(|_| random_value(prime, &mut rng)).collect();
            let want = naive_dft(prime, &x).unwrap();
            let mut d: Vec<_> = x.iter().map(|v| f.from_biguint(v).unwrap()).collect();
            host_fft(&f, &mut d).unwrap();
            let got: Vec<_> = d.iter().map(|v| f.to_biguint(v).unwrap()).collect();
            assert_eq!(got, want, "{prime} N={n}");
            assert_eq!(naive_idft(prime, &want).unwrap(), x);
            host_ifft(&f, &mut d).unwrap();
            let back: Vec<_> = d.iter().map(|v| f.to_biguint(v).unwrap()).collect();
            assert_eq!(back, x);
        }
    }
}

#[test]
fn convolution_theorem_holds() {
    let prime = &catalog()[2];
    let f = Field::new(prime);
    let mut rng = rng(5);
    let a: Vec<_> = (0..9).map(|_| random_value(prime, &mut rng)).collect();
    let b: Vec<_> = (0..7).map(|_| random_value(prime, &mut rng)).collect();
    let n = 16;
    let pad = |v: &[num_bigint::BigUint]| {
        let mut d: Vec<_> = v.iter().map(|x| f.from_biguint(x).unwrap()).collect();
        d.resize(n, f.zero());
        d
    };
    let (mut fa, mut fb) = (pad(&a), pad(&b));
    host_fft(&f, &mut fa).unwrap();
    host_fft(&f, &mut fb).unwrap();
    let mut c: Vec<_> = fa.iter().zip(&fb).map(|(x, y)| f.mul(x, y)).collect();
    host_ifft(&f, &mut c).unwrap();
    let got: Vec<_> = c[..15].iter().map(|v| f.to_biguint(v).unwrap()).collect();
    assert_eq!(got, schoolbook_mul(prime, &a, &b));
}
