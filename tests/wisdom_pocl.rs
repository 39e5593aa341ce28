//! Measured plan choices (`srgfn::Wisdom`, `srgfn tune`) on the default OpenCL
//! device (PoCL in CI): an entry decides the variant and fusion of its size
//! only, on its device only, the transform stays exact, and an entry the
//! kernels cannot run is refused.

use srgfn::tune::{candidates, measure, record, Selection, PRUNED};
use srgfn::{Choice, Error, Fft, FftOptions, Session, Wisdom, WisdomKey};
use srgfn_gen::emit::{has_fused, plan_shape, variants_for, Variant};
use srgfn_gen::reference::host_fft;
use srgfn_gen::{catalog_prime, Digits, Field, Prime};
use srgfn_suite::{random_digits, rng};

fn session() -> Session {
    Session::open(None).expect("an OpenCL device (PoCL) is needed for these tests").with_wisdom(Wisdom::empty())
}

/// A wisdom with one entry: `variant` (fused or not) for plans of 2^log_n of
/// the prime's default kernels on the session's device.
fn wisdom_for(session: &Session, prime: &Prime, log_n: u32, variant: Variant, fuse: bool) -> Wisdom {
    let fft = Fft::new(session, prime).unwrap();
    let mut w = Wisdom::empty();
    w.insert(WisdomKey::new(session.device(), prime, &fft.kernel_options(), log_n), Choice { variant, fuse, ms: 1.0, default_ms: 1.1 });
    w
}

/// The forward transform of random digits (edge values among them) against the host reference.
fn assert_exact(fft: &Fft, n: usize, seed: u64) {
    let prime = fft.prime();
    let f = Field::new(prime);
    let mut r = rng(seed);
    let mut x: Vec<Digits> = (0..n).map(|_| random_digits(&f, &mut r)).collect();
    x[1] = f.neg(&f.one());
    let mut plan = fft.plan(n, 1).unwrap();
    let mut v = plan.upload_digits(&x).unwrap();
    plan.forward(&mut v).unwrap();
    let mut want = x.clone();
    host_fft(&f, &mut want).unwrap();
    assert!(plan.download_digits(&v).unwrap() == want, "{prime} N = {n}, variant {:?}: forward transform ≠ host reference", plan.variant());
}

#[test]
fn a_measured_choice_decides_its_size_only_and_the_transform_stays_exact() {
    let session = session();
    for (expr, log_n, variant, fuse) in [("(2^64-2^50)^4+1", 9, Variant::Table, false), ("(2^63+2^34)^8+1", 10, Variant::Local, false)] {
        let prime = Prime::parse(expr).unwrap();
        let plain = Fft::new(&session, &prime).unwrap();
        let (dv, df) = (plain.variant_for(log_n), plain.fuses_at(log_n));
        assert!((dv, df) != (variant, fuse), "{expr}: the test's choice must differ from the default");
        let tuned = Fft::new(&session.clone().with_wisdom(wisdom_for(&session, &prime, log_n, variant, fuse)), &prime).unwrap();
        assert_eq!((tuned.variant_for(log_n), tuned.fuses_at(log_n)), (variant, fuse), "{expr} 2^{log_n}");
        assert_eq!(tuned.measured_choice(log_n).map(|c| c.variant), Some(variant));
        // the other sizes keep the defaults
        for other in [log_n - 1, log_n + 1] {
            assert_eq!((tuned.variant_for(other), tuned.fuses_at(other)), (plain.variant_for(other), plain.fuses_at(other)));
            assert!(tuned.measured_choice(other).is_none());
        }
        assert_exact(&tuned, 1 << log_n, 7);
        let plan = tuned.plan(1 << log_n, 1).unwrap();
        assert_eq!(plan.variant(), variant);
        let expect = plan_shape(&prime, variant, &tuned.kernel_options(), Some(fuse), log_n, 1).unwrap();
        assert_eq!(plan.shape().launches(), expect.launches());
        plan.finish().unwrap();
    }
}

#[test]
fn entries_of_another_device_or_version_and_chosen_options_are_not_taken() {
    let session = session();
    let prime = catalog_prime(4).unwrap().clone();
    let plain = Fft::new(&session, &prime).unwrap();
    let key = WisdomKey::new(session.device(), &prime, &plain.kernel_options(), 9);
    let choice = Choice { variant: Variant::Workgroup, fuse: false, ms: 1.0, default_ms: 2.0 };
    for other in
        [WisdomKey { device: "Some Platform | Other GPU | 1.0".into(), ..key.clone() }, WisdomKey { srgfn: "0.0.1".into(), ..key.clone() }]
    {
        let mut w = Wisdom::empty();
        w.insert(other, choice);
        let fft = Fft::new(&session.clone().with_wisdom(w), &prime).unwrap();
        assert_eq!(fft.variant_for(9), plain.variant_for(9));
        assert!(fft.measured_choice(9).is_none());
    }
    // a variant or fusion the caller chose wins over the wisdom
    let mut w = Wisdom::empty();
    w.insert(key, choice);
    let s = session.clone().with_wisdom(w);
    assert_eq!(Fft::new(&s, &prime).unwrap().variant_for(9), Variant::Workgroup);
    let chosen = Fft::with_options(&s, &prime, FftOptions { variant: Some(Variant::Local), ..FftOptions::default() }).unwrap();
    assert_eq!(chosen.variant_for(9), Variant::Local);
    let fused = Fft::with_options(&s, &prime, FftOptions { fuse: Some(true), ..FftOptions::default() }).unwrap();
    assert!(fused.measured_choice(9).is_none() && fused.fuses_at(9));
}

#[test]
fn an_entry_the_kernels_cannot_run_is_refused() {
    let session = session();
    let prime = catalog_prime(32).unwrap().clone();
    assert!(!variants_for(&prime).contains(&Variant::Local));
    for (variant, fuse, want) in [(Variant::Local, false, "not emitted for k = 32"), (Variant::Digits, true, "no fused kernel")] {
        let w = wisdom_for(&session, &prime, 12, variant, fuse);
        match Fft::new(&session.clone().with_wisdom(w), &prime) {
            Err(e @ Error::InvalidInput { .. }) => assert!(e.to_string().contains(want) && e.to_string().contains("2^12"), "{e}"),
            other => panic!("{variant:?} fuse {fuse}: {:?}", other.err()),
        }
    }
}

#[test]
fn tune_times_every_candidate_and_records_a_choice() {
    let session = session();
    let prime = catalog_prime(4).unwrap().clone();
    let radix = srgfn_gen::emit::default_radix(&prime);
    let t = measure(&session, &prime, None, 8, 1, Selection::default()).unwrap();
    assert_eq!(t.kernels.radix, radix, "the size's radix where none is given");
    let opts = srgfn_gen::emit::KernelOptions::new(radix, srgfn_gen::emit::MulForm::Wide64);
    let all = candidates(&prime, &opts);
    assert_eq!(t.timings.iter().map(|x| x.candidate).collect::<Vec<_>>(), all);
    assert!(all.iter().any(|c| c.fuse) && all.iter().all(|c| !c.fuse || has_fused(&prime, c.variant, &opts)));
    assert!(t.timings.iter().all(|x| x.ms.as_ref().is_ok_and(|ms| *ms > 0.0)), "{:?}", t.timings);
    assert!(all.contains(&t.default));
    let mut w = Wisdom::empty();
    record(&mut w, &session, &prime, &t);
    let fft = Fft::new(&session.clone().with_wisdom(w), &prime).unwrap();
    let c = fft.measured_choice(8).expect("an entry for 2^8");
    assert!(all.iter().any(|x| (x.variant, x.fuse) == (c.variant, c.fuse)));
    assert!(c.ms <= c.default_ms && c.default_ms == t.default_ms().unwrap());
    assert_exact(&fft, 1 << 8, 3);
    // only the table variant asked for: it and the default are timed
    let some = measure(&session, &prime, Some(radix), 8, 1, Selection { only: &[Variant::Table], after: None }).unwrap();
    let timed: Vec<_> = some.timings.iter().map(|x| x.candidate).collect();
    assert!(timed.contains(&some.default) && timed.iter().all(|c| c.variant == Variant::Table || *c == some.default), "{timed:?}");
    // after a size at which every candidate ran, a factor of 1 prunes all but the fastest and the default
    let next = measure(&session, &prime, Some(radix), 9, 1, Selection { only: &[], after: Some((&t, 1.0)) }).unwrap();
    let (fastest, _) = t.best().unwrap();
    for x in &next.timings {
        let kept = x.candidate == fastest || x.candidate == next.default;
        assert_eq!(x.ms.is_ok(), kept, "{:?}: {:?}", x.candidate, x.ms);
        if !kept {
            assert!(x.ms.as_ref().unwrap_err().starts_with(PRUNED));
        }
    }
}

/// Only the entries of the radix a size's plans take are taken and checked:
/// an entry of the other radix, even one the kernels cannot run, does not
/// keep an `Fft` from being made (without PTX every size of k = 32 takes the
/// prime's default radix 4, `emit::plan_radix`).
#[test]
fn entries_of_a_radix_no_plan_takes_are_not_checked() {
    let session = session();
    let prime = catalog_prime(32).unwrap().clone();
    let plain = Fft::new(&session, &prime).unwrap();
    assert_eq!(plain.radix_for(12), srgfn_gen::rules::Radix::R4);
    let r2 = srgfn_gen::emit::KernelOptions { radix: srgfn_gen::rules::Radix::R2, ..plain.kernel_options() };
    let mut w = Wisdom::empty();
    w.insert(WisdomKey::new(session.device(), &prime, &r2, 12), Choice { variant: Variant::Local, fuse: false, ms: 1.0, default_ms: 2.0 });
    let s = session.clone().with_wisdom(w);
    let fft = Fft::new(&s, &prime).unwrap();
    assert!(fft.measured_choice(12).is_none());
    let chosen = Fft::with_options(&s, &prime, FftOptions { radix: Some(srgfn_gen::rules::Radix::R4), ..FftOptions::default() }).unwrap();
    assert!(chosen.measured_choice(12).is_none());
    // the caller's radix 2: its entry is checked, and refused
    let refused = Fft::with_options(&s, &prime, FftOptions { radix: Some(srgfn_gen::rules::Radix::R2), ..FftOptions::default() });
    assert!(matches!(refused, Err(Error::InvalidInput { .. })), "{:?}", refused.err());
}
