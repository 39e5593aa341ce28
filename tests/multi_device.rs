//! Batches spread over several devices: on PoCL, two OpenCL contexts of the
//! CPU stand in for two GPUs.  Results must equal one device's word for word
//! and the host reference; misuse is refused with a clear error.

use num_bigint::BigUint;
use srgfn::{shares, Devices, Error, FftOptions, MultiFft, Session};
use srgfn_gen::Prime;
use srgfn_suite::{host_forward_values, random_values};

fn two_contexts() -> Devices {
    let s = || Session::open(None).expect("an OpenCL device (PoCL) is needed");
    Devices::new(vec![s(), s()]).unwrap()
}

#[test]
fn shares_are_contiguous_balanced_and_cover_the_batch() {
    for devices in 1..=5 {
        for batch in 1..=13 {
            let s = shares(batch, devices);
            assert_eq!(s.len(), devices.min(batch));
            assert_eq!(s[0].start, 0);
            assert_eq!(s.last().unwrap().end, batch);
            assert!(s.windows(2).all(|w| w[0].end == w[1].start));
            let (min, max) = (s.iter().map(|r| r.len()).min().unwrap(), s.iter().map(|r| r.len()).max().unwrap());
            assert!(min >= 1 && max - min <= 1, "{batch} over {devices}: {s:?}");
        }
    }
}

#[test]
fn batches_on_two_contexts_equal_one_device_and_the_host() {
    let devices = two_contexts();
    // k = 8 (the default variant) and k = 4 with radix 4; batches of 3 (shares 2+1) and 1 (one device idle)
    for (expr, n, batch, radix) in [("(2^63+2^34)^8+1", 64, 3, 2), ("(2^64-2^50)^4+1", 128, 1, 4), ("(2^64-2^50)^4+1", 32, 4, 2)] {
        let prime = Prime::parse(expr).unwrap();
        let opts = FftOptions { radix: Some(srgfn_gen::rules::Radix::from_number(radix).unwrap()), ..Default::default() };
        let many = MultiFft::new(&devices, &prime, opts).unwrap();
        let mut x = random_values(&prime, n * batch, n as u64 + batch as u64);
        x[0] = BigUint::default();
        x[1] = prime.modulus() - 1u32; // p − 1 = (0, …, 0, r)
        let mut plan = many.plan(n, batch).unwrap();
        assert_eq!(plan.shares().len(), batch.min(2));
        let mut v = plan.upload(&x).unwrap();
        plan.forward(&mut v).unwrap();
        let spread = plan.download(&v).unwrap();
        assert_eq!(spread, host_forward_values(&prime, &x, n), "{expr} N = {n} batch {batch}");

        let first = Devices::new(vec![devices.sessions()[0].clone()]).unwrap();
        let mut alone = MultiFft::new(&first, &prime, opts).unwrap().plan(n, batch).unwrap();
        let mut w = alone.upload(&x).unwrap();
        alone.forward(&mut w).unwrap();
        assert_eq!(alone.download(&w).unwrap(), spread, "one device and two differ");

        plan.inverse(&mut v).unwrap();
        assert_eq!(plan.download(&v).unwrap(), x, "inverse of {expr}");
    }
}

#[test]
fn batched_products_on_two_contexts_are_the_products() {
    let devices = two_contexts();
    let prime = Prime::parse("(2^63+2^34)^8+1").unwrap();
    let many = MultiFft::new(&devices, &prime, FftOptions::default()).unwrap();
    let pairs: Vec<_> = (0..3u64).map(|i| (random_values(&prime, 5 + i as usize, i), random_values(&prime, 9, 10 + i))).collect();
    let got = many.poly_mul_batch(&pairs).unwrap();
    assert_eq!(got.len(), pairs.len());
    for ((a, b), c) in pairs.iter().zip(&got) {
        assert_eq!(c, &srgfn_gen::reference::schoolbook_mul(&prime, a, b));
    }
}

#[test]
fn misuse_of_multi_device_plans_is_refused() {
    let devices = two_contexts();
    let s = devices.sessions()[0].clone();
    assert!(matches!(Devices::new(vec![]), Err(Error::InvalidOption { .. })));
    assert!(matches!(Devices::new(vec![s.clone(), s]), Err(Error::InvalidOption { .. })));
    assert!(matches!(Devices::open(" , ", &srgfn::ProgramCache::disabled()), Err(Error::InvalidOption { .. })));
    assert!(matches!(Devices::open("no such device", &srgfn::ProgramCache::disabled()), Err(Error::InvalidOption { .. })));

    let prime = Prime::parse("(2^63+2^34)^8+1").unwrap();
    let many = MultiFft::new(&devices, &prime, FftOptions::default()).unwrap();
    assert!(matches!(many.plan(64, 0), Err(Error::UnsupportedSize { .. })));
    assert!(matches!(many.plan(48, 2), Err(Error::UnsupportedSize { .. })));
    let mut a = many.plan(64, 2).unwrap();
    let mut b = many.plan(64, 2).unwrap();
    assert!(matches!(a.upload(&random_values(&prime, 127, 1)), Err(Error::InvalidInput { .. })));
    let x = random_values(&prime, 128, 2);
    let mut va = a.upload(&x).unwrap();
    let mut vb = b.upload(&x).unwrap();
    for err in [a.forward(&mut vb).err(), a.inverse(&mut vb).err(), a.download(&vb).err(), a.pointwise_mul(&mut va, &vb).err()] {
        let err = err.expect("a vector of another plan is refused");
        assert!(matches!(err, Error::Misuse(_)), "{err}");
    }
    // both vectors stay exact with their own plans
    a.forward(&mut va).unwrap();
    b.forward(&mut vb).unwrap();
    assert_eq!(a.download(&va).unwrap(), host_forward_values(&prime, &x, 64));
    assert_eq!(b.download(&vb).unwrap(), host_forward_values(&prime, &x, 64));
}
