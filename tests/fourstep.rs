//! The four-step split (runtime/src/fft/fourstep.rs): transforms and products
//! of size N = N1·N2 run as column and row transforms in chunks through host
//! memory, on one device (streaming) or several (on PoCL, two contexts of the
//! CPU stand in for two GPUs).  Results must equal a whole plan of size N word
//! for word, and the host reference; bad input and sizes are refused clearly.

use num_bigint::BigUint;
use srgfn::{Devices, Error, Fft, FftOptions, MultiFft, Session};
use srgfn_gen::reference::schoolbook_mul;
use srgfn_gen::rules::Radix;
use srgfn_gen::{Field, Prime};
use srgfn_suite::{edge_values, host_forward_values, random_digits, rng};

fn session() -> Session {
    Session::open(None).expect("an OpenCL device (PoCL) is needed for these tests")
}

/// `len` random canonical elements as digit words, the edge values of the
/// representation (0, p − 1 = (0, …, 0, r), carries through every digit) first.
fn words(field: &Field, len: usize, seed: u64) -> Vec<u64> {
    let mut r = rng(seed);
    let edges = edge_values(field);
    (0..len).flat_map(|i| if i < edges.len() { edges[i].clone() } else { random_digits(field, &mut r) }).collect()
}

fn values(field: &Field, words: &[u64]) -> Vec<BigUint> {
    words.chunks(field.k()).map(|e| field.to_biguint(e).expect("canonical")).collect()
}

/// A whole plan's forward transform of `x` (padded to n), as digit words.
fn whole_forward(fft: &Fft, x: &[u64], n: usize) -> Vec<u64> {
    let mut plan = fft.plan(n, 1).unwrap();
    let mut v = plan.upload_digit_words(x).unwrap();
    plan.forward(&mut v).unwrap();
    plan.download_digit_words(&v, n).unwrap()
}

#[test]
fn split_transforms_equal_a_whole_plan_and_the_host() {
    let s = session();
    // k = 2 (K = 4) from the smallest split, k = 8 (K = 16) with N below, at and above K²,
    // N1 ≠ N2 (odd log N); k = 4 with radix 4
    for (expr, radix, log_ns) in
        [("(2^63+2^53)^2+1", 2, vec![2, 3, 7]), ("(2^63+2^34)^8+1", 2, vec![4, 7, 8, 9]), ("(2^64-2^50)^4+1", 4, vec![6, 9])]
    {
        let prime = Prime::parse(expr).unwrap();
        let field = Field::new(&prime);
        let fft =
            Fft::with_options(&s, &prime, FftOptions { radix: Some(Radix::from_number(radix).unwrap()), ..Default::default() }).unwrap();
        for log_n in log_ns {
            let n = 1usize << log_n;
            let x = words(&field, n - 1, log_n as u64); // one short: padded with a zero
            let whole = whole_forward(&fft, &x, n);
            let want = host_forward_values(&prime, &[values(&field, &x), vec![BigUint::default()]].concat(), n);
            assert_eq!(values(&field, &whole), want, "{prime} N = 2^{log_n} (whole plan)");
            let n2 = 1usize << (log_n - log_n / 2);
            // the smallest chunk (one row), one in between, the whole vector
            for chunk in [n2, (2 * n2).min(n), n] {
                let split = fft.four_step(n, Some(chunk)).unwrap();
                assert_eq!(split.chunk(), chunk);
                let got = split.forward_digits(&x).unwrap();
                assert!(got == whole, "{prime} N = 2^{log_n}, chunks of {chunk}: differs from the whole plan");
                let stats = split.stats();
                assert_eq!(stats.chunks.iter().sum::<usize>(), 2 * n / chunk, "{prime} N = 2^{log_n}: chunks of both steps");
            }
        }
    }
}

#[test]
fn streamed_products_equal_schoolbook_and_whole_products() {
    let s = session();
    for (expr, lens) in [("(2^63+2^53)^2+1", vec![(1, 3), (5, 12), (40, 25)]), ("(2^63+2^34)^8+1", vec![(16, 1), (77, 50), (128, 129)])] {
        let prime = Prime::parse(expr).unwrap();
        let field = Field::new(&prime);
        let fft = Fft::new(&s, &prime).unwrap();
        for (i, (la, lb)) in lens.into_iter().enumerate() {
            let (a, b) = (words(&field, la, 10 + i as u64), words(&field, lb, 20 + i as u64));
            let want = schoolbook_mul(&prime, &values(&field, &a), &values(&field, &b));
            let n = (la + lb - 1).next_power_of_two().max(2);
            let whole = fft.poly_mul_digits(&a, &b).unwrap();
            assert_eq!(values(&field, &whole), want, "{prime} {la}×{lb} (whole)");
            if n.trailing_zeros() < 2 || n < prime.base_size() {
                assert!(fft.four_step(n, None).is_err(), "{prime} N = {n} is below the split's smallest N");
                continue;
            }
            let n2 = 1usize << (n.trailing_zeros() - n.trailing_zeros() / 2);
            for chunk in [n2, n] {
                let got = fft.four_step(n, Some(chunk)).unwrap().product_digits(&a, &b).unwrap();
                assert!(got == whole, "{prime} {la}×{lb} in chunks of {chunk}: differs from the whole product");
            }
        }
    }
}

/// A product that does not fit the device whole streams by itself: here the
/// device's largest buffer is made so small that a vector would need more
/// than 16 segments.
#[test]
fn products_too_large_for_the_device_stream_through_the_host() {
    let s = session();
    let prime = Prime::parse("(2^63+2^34)^8+1").unwrap();
    let field = Field::new(&prime);
    let (a, b) = (words(&field, 1500, 1), words(&field, 1000, 2)); // N = 2^12: a vector of 256 KiB
    let want = schoolbook_mul(&prime, &values(&field, &a), &values(&field, &b));
    let small = Fft::with_options(&s, &prime, FftOptions { max_buffer: Some(1 << 13), ..Default::default() }).unwrap();
    assert!(small.plan(1 << 12, 1).is_err(), "a whole plan must not fit (32 segments)");
    // the split it falls back to: chunks of two rows (8 KiB)
    assert_eq!(small.four_step(1 << 12, None).unwrap().chunk(), 128);
    let got = small.poly_mul_digits(&a, &b).unwrap();
    assert_eq!(values(&field, &got), want, "digit words");
    assert_eq!(small.poly_mul(&values(&field, &a), &values(&field, &b)).unwrap(), want, "values");
    // a value ≥ p is still named by its element
    let mut bad = values(&field, &a);
    bad[7] = prime.modulus().clone();
    let err = format!("{:#}", small.poly_mul(&bad, &values(&field, &b)).unwrap_err());
    assert!(err.contains("element 7"), "{err}");
    // too small for even one row of the split (64 elements, 4 KiB): refused, with the amounts
    let tiny = Fft::with_options(&s, &prime, FftOptions { max_buffer: Some(1 << 11), ..Default::default() }).unwrap();
    let err = tiny.poly_mul_digits(&a, &b).unwrap_err();
    assert!(matches!(err, Error::OutOfMemory(_)), "{err:#}");
    assert!(format!("{err:#}").contains("four-step split of N = 2^12"), "{err:#}");
}

#[test]
fn split_over_two_contexts_equals_one_device() {
    let s = || session();
    let devices = Devices::new(vec![s(), s()]).unwrap();
    let prime = Prime::parse("(2^64-2^50)^4+1").unwrap();
    let field = Field::new(&prime);
    let many = MultiFft::new(&devices, &prime, FftOptions::default()).unwrap();
    let one = Fft::new(&devices.sessions()[0], &prime).unwrap();
    let n = 1 << 10;
    let x = words(&field, n, 5);
    let split = many.four_step(n, Some(64)).unwrap();
    assert_eq!(split.split(), (32, 32));
    let got = split.forward_digits(&x).unwrap();
    assert!(got == whole_forward(&one, &x, n), "forward over two contexts differs from one device");
    let stats = split.stats();
    assert_eq!(stats.chunks.len(), 2);
    assert_eq!(stats.chunks.iter().sum::<usize>(), 2 * n / 64);
    assert!(stats.bytes > 0 && stats.steps.len() == 2);
    let (a, b) = (words(&field, 600, 6), words(&field, 400, 7));
    let got = split.product_digits(&a, &b).unwrap();
    assert!(got == one.poly_mul_digits(&a, &b).unwrap(), "product over two contexts differs from one device");
    assert_eq!(split.stats().steps.len(), 4);
}

#[test]
fn bad_splits_and_inputs_are_clear_errors() {
    let s = session();
    let prime = Prime::parse("(2^63+2^34)^8+1").unwrap();
    let field = Field::new(&prime);
    let fft = Fft::new(&s, &prime).unwrap();
    let msg = |r: srgfn::Result<srgfn::FourStep>| format!("{:#}", r.err().expect("an error"));
    assert!(msg(fft.four_step(8, None)).contains("the four-step split takes N ≥ 2^4"));
    assert!(msg(fft.four_step(48, None)).contains("not a power of two"));
    assert!(msg(fft.four_step(256, Some(8))).contains("at least N2 = 2^4"));
    assert!(msg(fft.four_step(256, Some(24))).contains("power of two"));
    let split = fft.four_step(256, Some(32)).unwrap();
    let mut x = words(&field, 10, 3);
    x[8] = prime.r(); // digit 0 of element 1 equal to r: never canonical
    let err = format!("{:#}", split.forward_digits(&x).unwrap_err());
    assert!(err.contains("element 1"), "{err}");
    let err = format!("{:#}", split.forward_digits(&words(&field, 257, 3)).unwrap_err());
    assert!(err.contains("at most 256 elements"), "{err}");
    let err = format!("{:#}", split.product_digits(&words(&field, 200, 3), &words(&field, 100, 4)).unwrap_err());
    assert!(err.contains("la + lb − 1 ≤ N"), "{err}");
    let err = format!("{:#}", split.product_digits(&[], &words(&field, 1, 4)).unwrap_err());
    assert!(err.contains("0 × 1"), "{err}");
}
