//! CPU reference transforms, used as the oracle for every kernel.
//!
//! * [`naive_dft`]: X_j = Σ_i x_i ω^{ij} over BigUint, O(N²), independent of
//!   the digit arithmetic;
//! * [`host_fft`]: six-step FFT on digit vectors with [`Field`]: DFT_K levels
//!   by shifts, one general product per element per level.

use num_bigint::BigUint;
use num_traits::One;
use rayon::prelude::*;

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

/// DFT of x (N = x.len() ≤ K) with the root r^step, a primitive N-th root
/// (step·N = K): radix-2 decimation in time whose twiddles are all shifts.
fn shift_fft(field: &Field, x: &mut [Digits], step: usize) {
    let n = x.len();
    bit_reverse(x);
    let mut len = 2;
    while len <= n {
        let half = len / 2;
        let s = step * (n / len); // the twiddle of slot t is r^(s·t)
        for blk in x.chunks_mut(len) {
            let (lo, hi) = blk.split_at_mut(half);
            for (t, (a, b)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
                let wb = field.negacyclic_shift(b, (s * t) as i64);
                *b = field.sub(a, &wb);
                *a = field.add(a, &wb);
            }
        }
        len *= 2;
    }
}

/// DFT of x with root w, a primitive N-th root with w^(N/K) = r (N = x.len()
/// ≥ K; w = r^(K/N) below K), in natural order.  Six-step with N = K·M:
/// x[M·n1 + n2] → DFT_K over n1 by shifts (ω^M = r) → twiddle ω^(n2·k1),
/// one product each (ω^e = r^(e div M)·ω^(e mod M)) → DFT_M over n2 with
/// ω^K, recursively → X[k1 + K·k2].  Columns and rows run in parallel.
fn fft_levels(field: &Field, x: &mut [Digits], w: &Digits) {
    let (n, kk) = (x.len(), 2 * field.k());
    if n <= kk {
        shift_fft(field, x, kk / n);
        return;
    }
    let m = n / kk;
    let mut table = Vec::with_capacity(m); // ω^b, b < M
    table.push(field.one());
    for b in 1..m {
        table.push(field.mul(&table[b - 1], w));
    }
    let cols: Vec<Vec<Digits>> = (0..m)
        .into_par_iter()
        .map(|n2| {
            let mut col: Vec<Digits> = (0..kk).map(|n1| x[m * n1 + n2].clone()).collect();
            shift_fft(field, &mut col, 1);
            for (k1, v) in col.iter_mut().enumerate() {
                let e = n2 * k1;
                *v = field.negacyclic_shift(&field.mul(v, &table[e % m]), (e / m) as i64);
            }
            col
        })
        .collect();
    let w_m = field.pow(w, &BigUint::from(kk));
    let rows: Vec<Vec<Digits>> = (0..kk)
        .into_par_iter()
        .map(|k1| {
            let mut row: Vec<Digits> = cols.iter().map(|c| c[k1].clone()).collect();
            fft_levels(field, &mut row, &w_m);
            row
        })
        .collect();
    for (k1, row) in rows.into_iter().enumerate() {
        for (k2, v) in row.into_iter().enumerate() {
            x[k1 + kk * k2] = v;
        }
    }
}

/// Forward FFT with the prime's ω_N, on digit vectors: one general product
/// per element per level of K = 2k (the rest are shifts and additions).
pub fn host_fft(field: &Field, x: &mut [Digits]) -> Result<(), SizeError> {
    let log_n = log2_len(field.prime(), x.len())?;
    let w = field.from_biguint_reduced(&field.prime().root_of_unity(log_n)?);
    fft_levels(field, x, &w);
    Ok(())
}

/// Inverse FFT (ω_N^{-1}, scaled by 1/N), on digit vectors: the DFT at ω^{-1}
/// is the forward DFT read at −j mod N.
pub fn host_ifft(field: &Field, x: &mut [Digits]) -> Result<(), SizeError> {
    host_fft(field, x)?;
    x[1..].reverse();
    let n_inv = field.inv_u64(x.len() as u64).expect("N is invertible mod p");
    x.par_iter_mut().for_each(|v| *v = field.mul(v, &n_inv));
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
