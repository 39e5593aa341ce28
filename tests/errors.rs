//! Every kind of `srgfn::Error` is what a caller can match on: each test
//! provokes one kind through the public API and matches it (any other kind,
//! or success, fails the test), then checks the data it carries.

use std::path::PathBuf;

use num_bigint::BigUint;
use srgfn::faults::Fault;
use srgfn::io::{no_progress, parse_bin, read_text, read_text_from};
use srgfn::memory::Shortfall;
use srgfn::smallprime::SmallPrimeFft;
use srgfn::{select_device, Error, Fft, FftOptions, Misuse, ProgramCache, Session};
use srgfn_gen::emit::{EmitError, Variant};
use srgfn_gen::{catalog, Field, Prime, PrimeError};

fn session() -> Session {
    Session::open(None).expect("an OpenCL device (PoCL) is needed")
}

/// A session of its own, with no program cache (faults armed on it hit no other test).
fn private_session() -> Session {
    Session::on(session().device().clone(), ProgramCache::disabled()).unwrap()
}

/// What a caller of the library writes: the generator's errors convert with `?`.
fn parse(expr: &str) -> srgfn::Result<Prime> {
    Ok(Prime::parse(expr)?)
}

#[test]
fn invalid_primes() {
    match parse("(2^63+2^34)^8+3") {
        Err(Error::InvalidPrime(PrimeError::Syntax { expr, .. })) => assert_eq!(expr, "(2^63+2^34)^8+3"),
        other => panic!("{:?}", other.map(|p| p.to_string())),
    }
    match parse("(2^63+2^35)^8+1") {
        Err(Error::InvalidPrime(PrimeError::Composite(p))) => assert_eq!(p, "(2^63+2^35)^8+1"),
        other => panic!("{:?}", other.map(|p| p.to_string())),
    }
    match parse("(2^63+2^34)^6+1") {
        Err(e @ Error::InvalidPrime(PrimeError::K(_))) => assert!(e.to_string().contains("power of two from 2 to 256"), "{e}"),
        other => panic!("{:?}", other.map(|p| p.to_string())),
    }
    // a shape the kernel generator does not take (k = 256 > 128): refused by the generator
    let prime = Prime::parse_unchecked("(2^63+2^34)^256+1").unwrap();
    match Fft::new(&session(), &prime) {
        Err(e @ Error::Generator(EmitError::Unsupported(_))) => assert!(e.to_string().contains("k = 256"), "{e}"),
        other => panic!("{:?}", other.err()),
    }
}

#[test]
fn invalid_input_names_the_file_line_and_element() {
    let prime = &catalog()[2];
    match read_text_from(&b"1\n# a comment\n12x\n"[..], "in.txt", prime, &no_progress) {
        Err(e @ Error::InvalidInput { .. }) => {
            assert_eq!(e.to_string(), "in.txt:3: cannot read '12x' as a decimal or 0x-hex integer");
            let Error::InvalidInput { file, line, element, .. } = e else { unreachable!() };
            assert_eq!((file.as_deref(), line, element), (Some("in.txt"), Some(3), None));
        }
        other => panic!("{other:?}"),
    }
    let field = Field::new(prime);
    let mut bytes = vec![0u8; 3 * 8 * 8];
    bytes[2 * 64 + 8..2 * 64 + 16].copy_from_slice(&u64::MAX.to_le_bytes()); // digit 1 of element 2 ≥ r
    match parse_bin(&bytes, "in.bin", &field) {
        Err(Error::InvalidInput { file, line: None, element: Some(2), reason }) => {
            assert_eq!(file.as_deref(), Some("in.bin"));
            assert!(reason.contains("digit 1"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    let mut plan = Fft::new(&session(), prime).unwrap().plan(16, 1).unwrap();
    let mut values = vec![BigUint::from(7u32); 16];
    values[5] = prime.modulus().clone();
    match plan.upload(&values) {
        Err(Error::InvalidInput { file: None, element: Some(5), .. }) => {}
        other => panic!("{:?}", other.err()),
    }
    match plan.upload(&values[..15]) {
        Err(e @ Error::InvalidInput { element: None, .. }) => assert!(e.to_string().contains("mismatched sizes"), "{e}"),
        other => panic!("{:?}", other.err()),
    }
}

#[test]
fn unsupported_sizes_carry_the_limit() {
    let prime = &catalog()[2]; // 2-adic valuation 272
    let fft = Fft::new(&session(), prime).unwrap();
    match fft.plan(1000, 1) {
        Err(Error::UnsupportedSize { max: Some(max), message }) => {
            assert_eq!(max, BigUint::from(1u32) << 272);
            assert!(message.contains("not a power of two"), "{message}");
        }
        other => panic!("{:?}", other.err()),
    }
    match fft.plan(1, 1) {
        Err(Error::UnsupportedSize { max: Some(max), message }) => {
            assert_eq!(max, BigUint::from(1u32) << 272);
            assert!(message.contains("allowed are 2^1 to 2^272"), "{message}");
        }
        other => panic!("{:?}", other.err()),
    }
    match fft.plan(16, 0) {
        Err(Error::UnsupportedSize { max: None, message }) => assert!(message.contains("batch"), "{message}"),
        other => panic!("{:?}", other.err()),
    }
    match SmallPrimeFft::new(&session(), 32, 1 << 24) {
        Err(Error::UnsupportedSize { max: Some(max), .. }) => assert_eq!(max, BigUint::from(1u32 << 23)),
        Err(e) => panic!("{e:?}"),
        Ok(_) => panic!("2^24 is beyond the s = 32 set"),
    }
}

#[test]
fn memory_that_is_not_there_is_out_of_memory() {
    let s = session();
    let fft = Fft::new(&s, &catalog()[2]).unwrap();
    match fft.plan(1 << 40, 1) {
        Err(Error::OutOfMemory(short)) => {
            let Shortfall { needed, available, message } = *short;
            assert!(needed.device > available.device.unwrap_or(0), "{needed:?} {available:?}");
            assert_eq!(available.device, Some(s.device().global_mem_bytes as u128));
            assert!(message.starts_with("N = 2^40 needs "), "{message}");
        }
        other => panic!("{:?}", other.err()),
    }
    // an allocation the driver refuses (injected) is the same kind
    let s = private_session();
    let mut plan = Fft::new(&s, &catalog()[2]).unwrap().plan(64, 1).unwrap();
    s.faults().arm(Fault::Alloc, 1);
    match plan.upload(&vec![BigUint::from(3u32); 64]) {
        Err(Error::OutOfMemory(short)) => {
            assert_eq!(short.needed.device, 64 * 8 * 8, "one vector of 64 elements of 8 words");
            assert!(short.message.contains("injected fault: Alloc"), "{}", short.message);
        }
        other => panic!("{:?}", other.err()),
    }
}

#[test]
fn build_failures_hold_the_log_and_the_kept_source() {
    let s = private_session();
    let fft = Fft::new(&s, &catalog()[1]).unwrap();
    s.faults().arm(Fault::Build, 1);
    match fft.plan(64, 1) {
        Err(Error::Build { program, device, log, kept_source }) => {
            assert!(program.contains(&catalog()[1].slug()), "{program}");
            assert_eq!(device, s.device().describe());
            assert!(log.contains("injected fault: Build"), "{log}");
            let kept: PathBuf = kept_source.expect("the source was kept");
            assert!(std::fs::read_to_string(kept).unwrap().contains("__kernel"));
        }
        other => panic!("{:?}", other.err()),
    }
    // the fault is spent: the same plan now builds and transforms
    let mut plan = fft.plan(64, 1).unwrap();
    let x: Vec<BigUint> = (0u32..64).map(BigUint::from).collect();
    let mut v = plan.upload(&x).unwrap();
    plan.forward(&mut v).unwrap();
    plan.inverse(&mut v).unwrap();
    assert_eq!(plan.download(&v).unwrap(), x);
}

#[test]
fn device_failures_and_misuse_after_them() {
    let s = private_session();
    let mut plan = Fft::new(&s, &catalog()[2]).unwrap().plan(32, 1).unwrap();
    let x: Vec<BigUint> = (0u32..32).map(BigUint::from).collect();
    let mut v = plan.upload(&x).unwrap();
    s.faults().arm(Fault::Enqueue, 1);
    match plan.forward(&mut v) {
        Err(Error::Device { message }) => assert!(message.contains("injected fault: Enqueue"), "{message}"),
        other => panic!("{other:?}"),
    }
    assert!(!v.is_valid());
    match plan.forward(&mut v) {
        Err(Error::Misuse(Misuse::Undefined)) => {}
        other => panic!("{other:?}"),
    }
    let v = plan.upload(&x).unwrap();
    s.faults().arm(Fault::Read, 1);
    match plan.download(&v) {
        Err(Error::Device { message }) => assert!(message.contains("injected fault: Read"), "{message}"),
        other => panic!("{:?}", other.err()),
    }
    assert_eq!(plan.download(&v).unwrap(), x, "a failed read leaves the vector valid");
}

#[test]
fn misuse_of_vectors_names_both_sides() {
    let s = session();
    let (p8, p16) = (&catalog()[2], &catalog()[3]);
    let fft = Fft::new(&s, p8).unwrap();
    let (mut a, mut b) = (fft.plan(64, 1).unwrap(), fft.plan(64, 1).unwrap());
    let x: Vec<BigUint> = (0u32..64).map(BigUint::from).collect();
    let mut va = a.upload(&x).unwrap();
    match b.forward(&mut va) {
        Err(Error::Misuse(Misuse::OtherPlan { vector, plan })) => assert_eq!((vector, plan), (a.id(), b.id())),
        other => panic!("{other:?}"),
    }
    let mut c = fft.plan(32, 2).unwrap();
    match c.forward(&mut va) {
        Err(Error::Misuse(Misuse::OtherSize { vector_n: 64, vector_batch: 1, plan_n: 32, plan_batch: 2 })) => {}
        other => panic!("{other:?}"),
    }
    let mut d = Fft::new(&s, p16).unwrap().plan(64, 1).unwrap();
    match d.download(&va) {
        Err(Error::Misuse(Misuse::OtherPrime { vector_k: 8, plan_k: 16, .. })) => {}
        other => panic!("{:?}", other.err()),
    }
    let other_context = Session::on(s.device().clone(), s.cache().clone()).unwrap();
    let mut e = Fft::new(&other_context, p8).unwrap().plan(64, 1).unwrap();
    match e.inverse(&mut va) {
        Err(Error::Misuse(Misuse::OtherSession { vector, plan })) => assert_eq!((vector, plan), (s.id(), other_context.id())),
        other => panic!("{other:?}"),
    }
    assert_eq!(a.download(&va).unwrap(), x, "every refused vector stays valid with its own plan");
}

#[test]
fn options_that_cannot_be_used() {
    let s = session();
    let k32 = catalog().iter().find(|p| p.k() == 32).unwrap();
    match Fft::with_options(&s, k32, FftOptions { variant: Some(Variant::Local), ..FftOptions::default() }) {
        Err(Error::InvalidOption { message }) => assert!(message.contains("available"), "{message}"),
        other => panic!("{:?}", other.err()),
    }
    // two passes per launch exist for the local variant (k ≤ 8) only
    let k8 = catalog().iter().find(|p| p.k() == 8).unwrap();
    for (prime, variant) in [(k32, None), (k8, Some(Variant::Table))] {
        match Fft::with_options(&s, prime, FftOptions { variant, fuse: Some(true), ..FftOptions::default() }) {
            Err(Error::InvalidOption { message }) => assert!(message.contains("no fused kernel"), "{message}"),
            other => panic!("{prime} {variant:?}: {:?}", other.err()),
        }
    }
    match select_device(Some("no device has this name")) {
        Err(Error::InvalidOption { message }) => assert!(message.contains("no device matches"), "{message}"),
        other => panic!("{:?}", other.map(|d| d.name)),
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("srgfn-errors-cache-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        match ProgramCache::at(&dir) {
            Err(Error::InvalidOption { message }) => assert!(message.contains("writable by group or others"), "{message}"),
            other => panic!("{:?}", other.err()),
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}

#[test]
fn files_that_cannot_be_read_are_io_errors() {
    let missing = std::env::temp_dir().join("srgfn-errors-no-such-file.txt");
    match read_text(&missing, &catalog()[2], &no_progress) {
        Err(Error::Io { context, source }) => {
            assert_eq!(context, format!("cannot open {}", missing.display()));
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("{other:?}"),
    }
}

/// Set in the child process of [`no_opencl_platform_is_no_device`].
const NO_OPENCL: &str = "SRGFN_TEST_WITHOUT_OPENCL";

/// Device discovery runs once per process: the test runs itself again with an
/// OpenCL loader that finds no platform.
#[test]
fn no_opencl_platform_is_no_device() {
    if std::env::var_os(NO_OPENCL).is_some() {
        match Session::open(None) {
            Err(e @ Error::NoDevice { .. }) => {
                assert!(e.to_string().contains("apt-get install -y pocl-opencl-icd"), "{e}");
                return;
            }
            other => panic!("{:?}", other.err()),
        }
    }
    let empty = std::env::temp_dir().join(format!("srgfn-errors-no-icd-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let t = std::time::Instant::now();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "no_opencl_platform_is_no_device", "--nocapture"])
        .env(NO_OPENCL, "1")
        .env("OCL_ICD_VENDORS", &empty)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && text.contains("1 passed"), "{text}");
    assert!(t.elapsed().as_secs() < 5, "no platform is reported at once, not after ocl's 10 s wait: {:?}", t.elapsed());
    std::fs::remove_dir_all(&empty).ok();
}
