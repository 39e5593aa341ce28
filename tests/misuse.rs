//! Device vectors are tied to the plan that made them: every operation
//! refuses a vector of another prime, size, batch, plan or session with a
//! clear error (never a wrong answer or an abort), and the refused vector
//! stays exact with its own plan.

use num_bigint::BigUint;
use srgfn::{DeviceVec, Fft, Plan, Session};
use srgfn_gen::{catalog, Field, Prime};
use srgfn_suite::{host_forward_values, random_values};

fn session() -> Session {
    Session::open(None).expect("an OpenCL device (PoCL) is needed")
}

/// Every operation of `plan` on the foreign vector `v` fails with an error
/// containing `needle`; `own` is a vector of `plan` for the two-operand case.
fn refused_everywhere(plan: &mut Plan, v: &mut DeviceVec, own: &mut DeviceVec, needle: &str) {
    let errors = [
        plan.forward(v).err(),
        plan.inverse(v).err(),
        plan.pointwise_mul(v, own).err(),
        plan.pointwise_mul(own, v).err(),
        plan.download(v).err(),
        plan.download_prefix(v, 1).err(),
        plan.download_digits(v).err(),
        plan.download_digit_words(v, 1).err(),
    ];
    for (i, e) in errors.into_iter().enumerate() {
        let msg = format!("{:#}", e.unwrap_or_else(|| panic!("operation {i} accepted a foreign vector")));
        assert!(msg.contains(needle), "operation {i}: {msg}");
    }
}

/// Uploads x with plan `a` and y with plan `b`; every operation of `b`
/// refuses a's vector with an error containing `needle`; afterwards both
/// vectors are unchanged and both plans still give exact transforms.
fn refused_across(a: &mut Plan, x: &[BigUint], b: &mut Plan, y: &[BigUint], needle: &str) {
    let (mut va, mut vb) = (a.upload(x).unwrap(), b.upload(y).unwrap());
    refused_everywhere(b, &mut va, &mut vb, needle);
    for (plan, v, x) in [(a, &mut va, x), (b, &mut vb, y)] {
        let prime = Prime::parse_unchecked(&plan.shape().prime).unwrap();
        assert_eq!(plan.download(v).unwrap(), x, "the vector is unchanged");
        plan.forward(v).unwrap();
        assert_eq!(plan.download(v).unwrap(), host_forward_values(&prime, x, plan.n()));
        plan.inverse(v).unwrap();
        assert_eq!(plan.download(v).unwrap(), x);
    }
}

/// The case: a vector of (2^63+2^34)^8+1 given to a plan of
/// (2^62+2^36)^16+1 of the same N (it used to corrupt memory); and back.
#[test]
fn a_vector_of_another_prime_is_refused() {
    let s = session();
    let (p8, p16) = (&catalog()[2], &catalog()[3]);
    let n = 1024; // K² for k = 16, 4K² for k = 8: kernels other tests compile too
    let (x, y) = (random_values(p8, n, 1), random_values(p16, n, 2));
    let (mut a, mut b) = (Fft::new(&s, p8).unwrap().plan(n, 1).unwrap(), Fft::new(&s, p16).unwrap().plan(n, 1).unwrap());
    refused_across(&mut a, &x, &mut b, &y, "holds elements of (2^63+2^34)^8+1 (k = 8) but the plan is for (2^62+2^36)^16+1");
    refused_across(&mut b, &y, &mut a, &x, "holds elements of (2^62+2^36)^16+1");
}

/// Same prime, another N; and another batch with the same element count.
#[test]
fn a_vector_of_another_size_or_batch_is_refused() {
    let s = session();
    let prime = &catalog()[2];
    let fft = Fft::new(&s, prime).unwrap();
    let x = random_values(prime, 512, 3);
    for (n_a, batch_a, n_b, batch_b) in [(256, 1, 512, 1), (256, 2, 512, 1), (64, 8, 128, 4)] {
        let (mut a, mut b) = (fft.plan(n_a, batch_a).unwrap(), fft.plan(n_b, batch_b).unwrap());
        let needle = format!("holds {batch_a} vector(s) of N = {n_a} but the plan is for {batch_b} vector(s) of N = {n_b}");
        refused_across(&mut a, &x[..n_a * batch_a], &mut b, &x[..n_b * batch_b], &needle);
    }
}

/// Same prime, N and batch, but another plan or another OpenCL context.
#[test]
fn a_vector_of_another_plan_or_session_is_refused() {
    let s1 = session();
    let s2 = Session::on(s1.device().clone(), s1.cache().clone()).unwrap();
    assert_ne!(s1.id(), s2.id());
    assert_eq!(s1.clone().id(), s1.id(), "clones share the context");
    let prime = &catalog()[1];
    let n = 128;
    let (x, y) = (random_values(prime, n, 4), random_values(prime, n, 5));
    let fft = Fft::new(&s1, prime).unwrap();
    let (mut a, mut b) = (fft.plan(n, 1).unwrap(), fft.plan(n, 1).unwrap());
    assert_eq!(a.upload(&x).unwrap().plan_id(), a.id());
    let needle = format!("made by plan {} and this is plan {}", a.id(), b.id());
    refused_across(&mut a, &x, &mut b, &y, &needle);
    let mut c = Fft::new(&s2, prime).unwrap().plan(n, 1).unwrap();
    refused_across(&mut a, &x, &mut c, &y, "lives in another OpenCL context");
}

/// Bad uploads: wrong counts, values ≥ p, digits ≥ r, wrong digit counts.
#[test]
fn bad_uploads_are_refused() {
    let s = session();
    let prime = &catalog()[2];
    let field = Field::new(prime);
    let mut plan = Fft::new(&s, prime).unwrap().plan(16, 2).unwrap();
    let msg = |e: srgfn::Result<DeviceVec>| format!("{:#}", e.err().expect("refused"));
    let x = random_values(prime, 32, 6);
    assert!(msg(plan.upload(&x[..31])).contains("mismatched sizes"));
    assert!(msg(plan.upload_padded(&random_values(prime, 33, 6))).contains("do not fit"));
    let mut big = x.clone();
    big[17] = prime.modulus() + 5u32;
    assert!(msg(plan.upload(&big)).contains("element 17"));
    let mut digits: Vec<Vec<u64>> = x.iter().map(|v| field.from_biguint(v).unwrap()).collect();
    digits[4][2] = prime.r();
    assert!(msg(plan.upload_digits(&digits)).contains("element 4"));
    digits[4][2] = 0;
    digits[9].pop();
    assert!(msg(plan.upload_digits(&digits)).contains("element 9"));
    assert!(msg(plan.upload_digit_words(&[0u64; 7])).contains("not at most"));
    // the plan still works
    let mut v = plan.upload(&x).unwrap();
    plan.forward(&mut v).unwrap();
    assert_eq!(plan.download(&v).unwrap(), host_forward_values(prime, &x, 16));
}
