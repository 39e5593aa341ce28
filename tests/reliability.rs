//! Concurrent use and injected faults: every result exact, every failure a
//! clear error, the session usable afterwards.

use std::sync::Arc;

use num_bigint::BigUint;
use srgfn::faults::Fault;
use srgfn::{DeviceVec, Fft, Plan, Session};
use srgfn_gen::reference::schoolbook_mul;
use srgfn_gen::{catalog, Prime};
use srgfn_suite::{random_value, rng};

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn runtime_types_are_send_and_sync() {
    assert_send_sync::<Session>();
    assert_send_sync::<Fft>();
    assert_send_sync::<Plan>();
    assert_send_sync::<DeviceVec>();
}

fn session() -> Session {
    Session::open(None).expect("an OpenCL device (PoCL) is needed")
}

fn random_poly(prime: &Prime, len: usize, seed: u64) -> Vec<BigUint> {
    let mut r = rng(seed);
    (0..len).map(|_| random_value(prime, &mut r)).collect()
}

/// Products from several threads sharing one Fft, and on a second context.
#[test]
fn many_threads_on_one_device_and_two_contexts() {
    let prime = &catalog()[2];
    let s1 = session();
    let s2 = Session::on(s1.device().clone(), s1.cache().clone()).unwrap(); // a second context
    let ffts = [Arc::new(Fft::new(&s1, prime).unwrap()), Arc::new(Fft::new(&s2, prime).unwrap())];
    let handles: Vec<_> = (0..6u64)
        .map(|t| {
            let fft = ffts[t as usize % 2].clone();
            let prime = prime.clone();
            std::thread::spawn(move || {
                for round in 0..3u64 {
                    let (la, lb) = (5 + 7 * t as usize + round as usize, 3 + round as usize * 11);
                    let a = random_poly(&prime, la, t * 100 + round);
                    let b = random_poly(&prime, lb, t * 100 + round + 50);
                    let got = fft.poly_mul(&a, &b).unwrap();
                    assert_eq!(got, schoolbook_mul(&prime, &a, &b), "thread {t} round {round}");
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("no thread panicked");
    }
}

#[test]
fn injected_faults_give_clear_errors_and_leave_the_session_working() {
    let prime = &catalog()[2];
    let s = Session::on(session().device().clone(), srgfn::ProgramCache::disabled()).unwrap();
    let fft = Fft::new(&s, prime).unwrap();
    let a = random_poly(prime, 40, 1);
    let b = random_poly(prime, 30, 2);
    let want = schoolbook_mul(prime, &a, &b);
    for (fault, needle) in [
        (Fault::Build, "build of"),
        (Fault::Alloc, "injected fault: Alloc"),
        (Fault::Enqueue, "injected fault: Enqueue"),
        (Fault::Read, "injected fault: Read"),
    ] {
        // a fresh Fft so that the build fault hits a real build
        let fft = if fault == Fault::Build { Fft::new(&s, &Prime::parse("(2^62+2^36)^16+1").unwrap()).unwrap() } else { fft.clone() };
        let (a, b) = if fault == Fault::Build {
            (random_poly(fft.prime(), 60, 3), random_poly(fft.prime(), 60, 4)) // N = 4K: kernels other tests compile
        } else {
            (a.clone(), b.clone())
        };
        s.faults().arm(fault, 1);
        let err = fft.poly_mul(&a, &b).expect_err("the injected fault surfaces");
        let msg = format!("{err:#}");
        assert!(msg.contains(needle), "{fault:?}: {msg}");
        // the fault is spent: the same call now gives the exact product
        assert_eq!(fft.poly_mul(&a, &b).unwrap(), schoolbook_mul(fft.prime(), &a, &b), "{fault:?}");
    }
    assert_eq!(fft.poly_mul(&a, &b).unwrap(), want);
}

#[test]
fn a_vector_is_refused_after_a_failed_operation() {
    let prime = &catalog()[2];
    let s = session();
    let fft = Fft::new(&s, prime).unwrap();
    let mut plan = fft.plan(256, 1).unwrap();
    let x = random_poly(prime, 256, 9);
    let mut v = plan.upload(&x).unwrap();
    s.faults().arm(Fault::Enqueue, 1);
    assert!(plan.forward(&mut v).is_err());
    let err = plan.forward(&mut v).expect_err("contents are undefined");
    assert!(format!("{err:#}").contains("upload it again"), "{err:#}");
    assert!(plan.download(&v).is_err());
    // a fresh upload works, and gives the exact transform
    let mut v = plan.upload(&x).unwrap();
    plan.forward(&mut v).unwrap();
    plan.inverse(&mut v).unwrap();
    assert_eq!(plan.download(&v).unwrap(), x);
}

/// A plan builds its inverse's and its product's programs at their first use
/// (`Plan::inverse`, `Plan::pointwise_mul`): a build that fails there is a
/// clear error, the vectors keep what they held, and the next call works.
#[test]
fn a_failed_build_at_the_first_inverse_or_product_leaves_the_vectors_intact() {
    let prime = &catalog()[2];
    let s = Session::on(session().device().clone(), srgfn::ProgramCache::disabled()).unwrap();
    let fft = Fft::new(&s, prime).unwrap();
    let mut plan = fft.plan(64, 1).unwrap();
    let x = random_poly(prime, 64, 5);
    let mut v = plan.upload(&x).unwrap();
    let w = plan.upload(&x).unwrap();
    plan.forward(&mut v).unwrap();
    let y = plan.download(&v).unwrap();
    s.faults().arm(Fault::Build, 1);
    let err = plan.pointwise_mul(&mut v, &w).expect_err("the injected build failure surfaces");
    assert!(format!("{err:#}").contains("build of"), "{err:#}");
    assert_eq!(plan.download(&v).unwrap(), y, "the vector still holds the forward transform");
    s.faults().arm(Fault::Build, 1);
    let err = plan.inverse(&mut v).expect_err("the injected build failure surfaces");
    assert!(format!("{err:#}").contains("build of"), "{err:#}");
    assert_eq!(plan.download(&v).unwrap(), y, "the vector still holds the forward transform");
    plan.inverse(&mut v).unwrap();
    assert_eq!(plan.download(&v).unwrap(), x, "inverse(forward(x)) = x");
}
