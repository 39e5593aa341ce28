//! CPU reference transforms, used as the oracle for every kernel.
//!
//! * [`naive_dft`]: X_j = Σ_i x_i ω^{ij} over BigUint, O(N²), independent of
//!   the digit arithmetic;
//! * [`host_fft`]: iterative radix-2 FFT on digit vectors with [`Field`].

use num_bigint::BigUint;
use num_traits::One;

use crate::error::SizeError;
use crate::field::{Digits, Field};
use crate::prime::Prime;
use crate::roots::log2_exact;

fn log2_len(prime: &Prime, n: usize) -> Result<u32, SizeError> {
    let log_n = log2_exact(&BigUint::from(n)).ok_or_else(|| SizeError::NotPowerOfTwo(n.to_string()))?;
    prime.check_log_size(log_n)?;
    Ok(log_n)
}

/// X_j = Σ_i x_i w^{ij} mod p for an explicit root `w` (any length).
pub fn naive_dft_with_root(prime: &Prime, x: &[BigUint], w: &BigUint) -> Vec<BigUint> {
    let p = prime.modulus();
    let n = x.len();
    let mut out = Vec::with_capacity(n);
    let mut wj = BigUint::one(); // w^j
    for _ in 0..n {
        let mut acc = BigUint::default();
        let mut t = BigUint::one(); // w^{ij}
        for xi in x {
            acc += xi * &t;
            t = &t * &wj % p;
        }
        out.push(acc % p);
        wj = &wj * w % p;
    }
    out
}

/// Forward DFT of size N = len(x) with the prime's ω_N.
pub fn naive_dft(prime: &Prime, x: &[BigUint]) -> Result<Vec<BigUint>, SizeError> {
    let w = prime.root_of_unity(log2_len(prime, x.len())?)?;
    Ok(naive_dft_with_root(prime, x, &w))
}

/// Inverse DFT: DFT at ω_N^{-1}, scaled by 1/N.
pub fn naive_idft(prime: &Prime, x: &[BigUint]) -> Result<Vec<BigUint>, SizeError> {
    let p = prime.modulus();
    let w = prime.root_of_unity(log2_len(prime, x.len())?)?;
    let w_inv = w.modpow(&(p - 2u32), p);
    let n_inv = BigUint::from(x.len()).modpow(&(p - 2u32), p);
    Ok(naive_dft_with_root(prime, x, &w_inv).into_iter().map(|v| v * &n_inv % p).collect())
}

/// In-place bit-reversal permutation.
pub fn bit_reverse<T>(x: &mut [T]) {
    let n = x.len();
    let bits = n.trailing_zeros();
    if n < 2 {
        return;
    }
    for i in 0..n {
        let j = i.reverse_bits() >> (usize::BITS - bits);
        if i < j {
            x.swap(i, j);
        }
    }
}

/// Radix-2 decimation-in-time FFT on digit vectors, natural order in and out,
/// X_j = Σ x_i w^{ij} with `w` a primitive N-th root given as digits.
pub fn host_fft_with_root(field: &Field, x: &mut [Digits], w: &[u64]) {
    let n = x.len();
    bit_reverse(x);
    let mut len = 2;
    while len <= n {
        // w_len = w^{n/len}
        let w_len = field.pow(w, &BigUint::from(n / len));
        let half = len / 2;
        let mut tw = vec![field.one()];
        for t in 1..half {
            tw.push(field.mul(&tw[t - 1], &w_len));
        }
        for start in (0..n).step_by(len) {
            for t in 0..half {
                let a = x[start + t].clone();
                let b = field.mul(&x[start + t + half], &tw[t]);
                x[start + t] = field.add(&a, &b);
                x[start + t + half] = field.sub(&a, &b);
            }
        }
        len *= 2;
    }
}

/// Forward FFT with the prime's ω_N, on digit vectors.
pub fn host_fft(field: &Field, x: &mut [Digits]) -> Result<(), SizeError> {
    let log_n = log2_len(field.prime(), x.len())?;
    let w = field.from_biguint_reduced(&field.prime().root_of_unity(log_n)?);
    host_fft_with_root(field, x, &w);
    Ok(())
}

/// Inverse FFT (ω_N^{-1}, scaled by 1/N), on digit vectors.
pub fn host_ifft(field: &Field, x: &mut [Digits]) -> Result<(), SizeError> {
    let log_n = log2_len(field.prime(), x.len())?;
    let p = field.prime().modulus();
    let w = field.prime().root_of_unity(log_n)?;
    let w_inv = field.from_biguint_reduced(&w.modpow(&(p - 2u32), p));
    host_fft_with_root(field, x, &w_inv);
    let n_inv = field.inv_u64(x.len() as u64).expect("N is invertible mod p");
    for v in x.iter_mut() {
        *v = field.mul(v, &n_inv);
    }
    Ok(())
}

/// Schoolbook product of two coefficient vectors mod p (the polymul oracle).
pub fn schoolbook_mul(prime: &Prime, a: &[BigUint], b: &[BigUint]) -> Vec<BigUint> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let p = prime.modulus();
    let mut out = vec![BigUint::default(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
        if i % 64 == 63 {
            out.iter_mut().for_each(|v| *v %= p);
        }
    }
    out.into_iter().map(|v| v % p).collect()
}
