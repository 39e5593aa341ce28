//! Vectors larger than the device's largest buffer are split into segments
//! (`FftOptions::max_buffer` forces the split on PoCL at small N): every
//! operation on segmented vectors must give exactly what whole vectors give,
//! and sizes that cannot be split are refused before allocating.

use num_bigint::BigUint;
use srgfn::{Error, Fft, FftOptions, Session};
use srgfn_gen::emit::{variants_for, Variant};
use srgfn_gen::rules::Radix;
use srgfn_gen::{Field, Prime};
use srgfn_suite::{host_forward_values, random_values};

fn session() -> Session {
    Session::open(None).expect("an OpenCL device (PoCL) is needed")
}

fn values(prime: &Prime, len: usize, seed: u64) -> Vec<BigUint> {
    let mut v = random_values(prime, len, seed);
    v[0] = BigUint::default();
    v[len - 1] = prime.modulus() - 1u32; // p − 1 = (0, …, 0, r): carries through every digit
    v
}

/// Forward, inverse, pointwise product and both download paths with vectors
/// split into `segments` buffers, against the host and against whole vectors.
fn check_split(s: &Session, prime: &Prime, opts: FftOptions, n: usize, batch: usize, segments: usize) {
    let k = prime.k();
    let vector_bytes = (n * batch * 8 * k) as u64;
    let split = Fft::with_options(s, prime, FftOptions { max_buffer: Some(vector_bytes / segments as u64), ..opts }).unwrap();
    let whole = Fft::with_options(s, prime, opts).unwrap();
    let what = format!("{prime} {:?} r{} N = {n} batch {batch} in {segments}", opts.variant, opts.radix.map_or(2, |r| r.number()));
    let x = values(prime, n * batch, n as u64 + segments as u64);
    let mut plan = split.plan(n, batch).unwrap();
    let mut v = plan.upload(&x).unwrap();
    assert_eq!(v.segments(), segments, "{what}");
    assert_eq!(plan.download(&v).unwrap(), x, "{what}: upload and download");
    plan.forward(&mut v).unwrap();
    let forward = plan.download(&v).unwrap();
    assert_eq!(forward, host_forward_values(prime, &x, n), "{what}: forward");
    // digit words in and out, and the pointwise product, against whole vectors
    let field = Field::new(prime);
    let words: Vec<u64> = x.iter().flat_map(|e| field.from_biguint(e).unwrap()).collect();
    let mut a = plan.upload_digit_words(&words[..words.len() - 3 * k]).unwrap(); // zero-padded
    let mut whole_plan = whole.plan(n, batch).unwrap();
    let mut b = whole_plan.upload_digit_words(&words[..words.len() - 3 * k]).unwrap();
    assert_eq!(b.segments(), 1);
    plan.pointwise_mul(&mut a, &v).unwrap();
    let vb = whole_plan.upload(&forward).unwrap();
    whole_plan.pointwise_mul(&mut b, &vb).unwrap();
    assert_eq!(
        plan.download_digit_words(&a, n * batch).unwrap(),
        whole_plan.download_digit_words(&b, n * batch).unwrap(),
        "{what}: product"
    );
    plan.inverse(&mut v).unwrap();
    assert_eq!(plan.download(&v).unwrap(), x, "{what}: inverse");
}

#[test]
fn split_vectors_equal_whole_ones_in_every_pass_template() {
    // each template of a pass kernel (local, table, digits, workgroup) and both radices with vectors
    // in two segments; each combination is another program to compile, so one prime per template
    let s = session();
    let (k8, k4) = (Prime::parse("(2^63+2^34)^8+1").unwrap(), Prime::parse("(2^64-2^50)^4+1").unwrap());
    // k = 32's digits plans keep the vector between their launches element-major, segment by segment
    let k32 = Prime::parse("(2^62+2^56)^32+1").unwrap();
    for (prime, variant, radix, n) in [
        (&k8, Variant::Local, Radix::R2, 1 << 9),
        (&k8, Variant::Table, Radix::R4, 1 << 9),
        (&k8, Variant::Workgroup, Radix::R2, 1 << 9),
        (&k8, Variant::Digits, Radix::R2, 1 << 9),
        (&k4, Variant::Local, Radix::R4, 1 << 8),
        (&k4, Variant::Digits, Radix::R4, 1 << 8),
        (&k32, Variant::Digits, Radix::R4, 1 << 8),
        // a launch with a twiddle table of its own (p = K² = 64, emit::launch_tables), split too
        (&k4, Variant::Table, Radix::R4, 1 << 13),
    ] {
        assert!(variants_for(prime).contains(&variant));
        if n == 1 << 13 {
            let shape = srgfn_gen::plan::PlanShape::new(prime, 13, 1).unwrap();
            assert!(srgfn_gen::emit::launch_tables(variant, &shape).iter().any(Option::is_some), "{prime} 2^13");
        }
        let opts = FftOptions { radix: Some(radix), variant: Some(variant), ..FftOptions::default() };
        check_split(&s, prime, opts, n, 1, 2);
    }
}

#[test]
fn split_vectors_of_batches_and_many_segments() {
    let s = session();
    let prime = Prime::parse("(2^63+2^34)^8+1").unwrap();
    check_split(&s, &prime, FftOptions::default(), 64, 4, 16); // segments smaller than a vector
                                                               // polynomial products through split plans (N = 1024 in two segments)
    let k = prime.k() as u64;
    let fft = Fft::with_options(&s, &prime, FftOptions { max_buffer: Some(512 * 8 * k), ..FftOptions::default() }).unwrap();
    let (a, b) = (values(&prime, 300, 1), values(&prime, 500, 2));
    assert_eq!(fft.poly_mul(&a, &b).unwrap(), srgfn_gen::reference::schoolbook_mul(&prime, &a, &b));
}

#[test]
fn vectors_that_cannot_be_split_are_refused_before_allocating() {
    let s = session();
    let prime = Prime::parse("(2^63+2^34)^8+1").unwrap();
    let k = prime.k() as u64;
    // batch 3: no power-of-two segments; and more than 16 segments
    let fft = Fft::with_options(&s, &prime, FftOptions { max_buffer: Some(64 * 8 * k), ..FftOptions::default() }).unwrap();
    for (n, batch) in [(64, 3), (1 << 11, 1)] {
        match fft.plan(n, batch) {
            Err(e @ Error::OutOfMemory(_)) => {
                assert!(e.to_string().contains("largest buffer"), "{e}");
                let Error::OutOfMemory(short) = e else { unreachable!() };
                assert_eq!(short.available.buffer, Some(64 * 8 * k as u128));
            }
            other => panic!("N = {n} batch {batch}: {:?}", other.err()),
        }
    }
    assert!(matches!(
        Fft::with_options(&s, &prime, FftOptions { max_buffer: Some(0), ..FftOptions::default() }),
        Err(Error::InvalidOption { .. })
    ));
}
