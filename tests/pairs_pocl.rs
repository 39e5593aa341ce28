//! The table plans with their passes in pairs (`srgfn_gen::emit::first2`,
//! `TwoLevel::Pair`, `FftOptions::fuse`), on the default OpenCL device (PoCL
//! in CI) with the warp's shuffles emulated through local memory, as NVIDIA
//! runs them with PTX: forward transforms against the host and inverse
//! transforms back to the input, every k whose work-group holds whole
//! superblocks (2, 4, 8), both radices, pairs after the first two passes and
//! (in the natural order) as the first launch, a pass of radix K or of the
//! small radix after the last pair, launches in halves, batches, and the
//! vectors between launches element-major.

use srgfn::faults::Fault;
use srgfn::{Fft, FftOptions, Order, Session, Wisdom};
use srgfn_gen::emit::Variant;
use srgfn_gen::plan::{Halves, Launch};
use srgfn_gen::rules::Radix;
use srgfn_gen::{catalog_prime, Field};
use srgfn_suite::{assert_round_trip, inputs_with_edges};

fn session() -> Session {
    Session::open(None).expect("an OpenCL device (PoCL) is needed for these tests").with_wisdom(Wisdom::empty())
}

/// Forward against the host and inverse back to x, for one plan of the
/// table variant with fusion on; returns the plan's launches.
fn round_trip(s: &Session, k: usize, radix: Radix, n: usize, batch: usize, superblocks: bool, halves: Option<bool>) -> Vec<Launch> {
    round_trip_spare(s, k, radix, n, batch, superblocks, halves, true).0
}

/// [`round_trip`], also returning the plan's halves; without `spare` (only
/// for a plan whose halves have `Halves::spare_last`) the plan's first
/// allocation, the third vector its last launch would write, fails, and the
/// plan runs with the queues waiting for each other before that launch
/// instead.
#[allow(clippy::too_many_arguments)]
fn round_trip_spare(
    s: &Session,
    k: usize,
    radix: Radix,
    n: usize,
    batch: usize,
    superblocks: bool,
    halves: Option<bool>,
    spare: bool,
) -> (Vec<Launch>, Option<Halves>) {
    let prime = catalog_prime(k).unwrap();
    let f = Field::new(prime);
    let opts = FftOptions {
        radix: Some(radix),
        variant: Some(Variant::Table),
        fuse: Some(true),
        superblocks: Some(superblocks),
        halves,
        warp_emulation: true,
        ..FftOptions::default()
    };
    let fft = Fft::with_options(s, prime, opts).unwrap();
    if !spare {
        s.faults().arm(Fault::Alloc, 1);
    }
    let mut plan = fft.plan(n, batch).unwrap();
    let what = format!("k = {k} {radix:?} N = {n} batch {batch} superblocks {superblocks} halves {halves:?} spare {spare}");
    if !spare {
        assert!(plan.halves().is_some_and(|h| !h.spare_last), "{what}: {:?}", plan.halves());
    }
    let x = inputs_with_edges(&f, n * batch, (k * n + batch) as u64 + superblocks as u64);
    let mut v = plan.upload_digits(&x).unwrap();
    assert_eq!(matches!(v.order(), Order::Superblocks { .. }), superblocks, "{what}");
    assert_round_trip(&mut plan, &mut v, &f, &x, &what);
    (plan.shape().launches(), plan.halves())
}

/// Every place a pair can sit in a plan: after the first two passes, twice,
/// followed by a pass of radix K or of a smaller radix, and first.
#[test]
fn plans_with_pairs_match_the_host() {
    let s = session();
    for k in [2usize, 4, 8] {
        let kk = 2 * k;
        let k4 = kk.pow(4);
        for radix in [Radix::R2, Radix::R4] {
            // K⁴: the first two passes, then a pair; K⁴·2: and the small radix; K⁵ (k ≤ 4): and a pass of
            // radix K; K⁶ (k = 2): two pairs after the first
            let mut sizes = vec![(k4, 1), (k4 * 2, 1)];
            if k <= 4 {
                sizes.extend([(k4 * kk, 1), (k4, 2)]);
            }
            if k == 2 {
                sizes.push((k4 * kk * kk, 1));
            }
            for (n, batch) in sizes {
                let launches = round_trip(&s, k, radix, n, batch, true, Some(false));
                assert!(launches.iter().skip(1).any(|l| matches!(l, Launch::Fused(..))), "k = {k} N = {n}: no pair: {launches:?}");
            }
        }
    }
}

/// From the natural order the first launch is a pair too (p = 1); N = 2K²
/// ends with the small radix.
#[test]
fn a_pair_runs_first_from_the_natural_order() {
    let s = session();
    for k in [2usize, 4, 8] {
        let kk = 2 * k;
        for (n, batch) in [(kk * kk * 2, 1), (kk * kk, 3)] {
            let launches = round_trip(&s, k, Radix::R4, n, batch, false, Some(false));
            assert!(matches!(launches[0], Launch::Fused(a, _) if a.p == 1), "k = {k} N = {n}: {launches:?}");
        }
    }
}

/// Pairs in halves on two queues (`plan::Halves`), where the plan allows it:
/// the last launch, which writes digit-major, writes a third vector
/// (`Halves::spare_last`), or where that vector could not be allocated the
/// queues wait for each other before it (the race v40 fixed: half 0 of the
/// last launch overwrote words that half 1 of the launch before had yet to
/// read; this plan of k = 4 at 8^5 lost up to a quarter of them on PoCL).
#[test]
fn pairs_in_halves_match_the_host() {
    let s = session();
    let mut without = 0;
    for (k, n, batch) in [(2usize, 4usize.pow(6), 1), (4, 8usize.pow(5), 1), (4, 8usize.pow(4) * 2, 2), (8, 16usize.pow(4) * 2, 1)] {
        for superblocks in [true, false] {
            let (_, halves) = round_trip_spare(&s, k, Radix::R4, n, batch, superblocks, Some(true), true);
            if halves.expect("halves").spare_last {
                round_trip_spare(&s, k, Radix::R4, n, batch, superblocks, Some(true), false);
                without += 1;
            }
        }
    }
    // k = 4 at 8^5 among them, whose last launch v40's race hit
    assert!(without >= 2, "{without} plans ran without the third vector");
}

/// Without a radix asked for, each size's plan takes the radix of
/// `emit::plan_radix` (k = 8's table plans take radix 2 from 2^17, as NVIDIA
/// runs them with PTX), builds those kernels, and runs exactly: forward
/// against the host and inverse back; the size below keeps the prime's
/// default radix.
#[test]
fn default_plans_take_their_sizes_radix() {
    let s = session();
    for &(k, radix, min) in &srgfn_gen::emit::TABLE_RADIX_MIN_LOG_N {
        let prime = catalog_prime(k).unwrap();
        let f = Field::new(prime);
        let fft = Fft::with_options(&s, prime, FftOptions { warp_emulation: true, ..FftOptions::default() }).unwrap();
        assert_eq!(fft.radix(), srgfn_gen::emit::default_radix(prime));
        assert_ne!(radix, fft.radix(), "k = {k}: the rule names the default radix");
        for (log_n, want) in [(min - 1, fft.radix()), (min, radix)] {
            let n = 1usize << log_n;
            assert_eq!(fft.radix_for(log_n), want, "k = {k} 2^{log_n}");
            fft.prepare(n).unwrap();
            let mut plan = fft.plan(n, 1).unwrap();
            assert_eq!((plan.radix(), plan.variant()), (want, Variant::Table), "k = {k} 2^{log_n}");
            let x = inputs_with_edges(&f, n, log_n as u64);
            let mut v = plan.upload_digits(&x).unwrap();
            assert_round_trip(&mut plan, &mut v, &f, &x, &format!("k = {k} 2^{log_n}"));
        }
    }
}

/// The benchmark's two recordings of a plan in halves (`srgfn::Recording`):
/// every launch's event, or only the first launch's and the last launch's
/// (both halves), whose span covers the whole run; a run recorded by its
/// ends that marks no last launch is refused.
#[test]
fn a_run_recorded_by_its_ends_spans_the_whole_transform() {
    use srgfn::internals::plan_kernels;
    use srgfn::Recording;
    let s = session();
    let prime = catalog_prime(8).unwrap();
    let opts =
        FftOptions { radix: Some(Radix::R4), halves: Some(true), superblocks: Some(true), warp_emulation: true, ..FftOptions::default() };
    let fft = Fft::with_options(&s, prime, opts).unwrap();
    let n = 16usize.pow(4) * 2;
    let mut plan = fft.plan(n, 1).unwrap();
    let h = plan.halves().expect("halves");
    let launches = plan.shape().launches().len();
    let order = plan.input_order();
    assert_ne!(order, Order::Natural);
    let x = inputs_with_edges(&Field::new(prime), n, 9);
    let mut v = plan.upload_digits(&x).unwrap();
    // every launch: the first two passes (one launch from the superblock order), then one kernel a
    // launch, two from the halves on
    let taken = srgfn_gen::emit::first2::first2_launches(plan.shape()).expect("the first two passes in one launch");
    let kernels_every = 1 + (taken..launches).map(|j| if j >= h.from { 2 } else { 1 }).sum::<usize>();
    let k = plan_kernels(&plan);
    k.start_recording(Recording::Every);
    plan.forward(&mut v).unwrap();
    let (span_every, _, each, _) = k.stop_recording_each().unwrap();
    assert_eq!(each.len(), kernels_every, "{launches} launches, halves from {}", h.from);
    plan.reorder(&mut v, order).unwrap();
    k.start_recording(Recording::Ends);
    plan.forward(&mut v).unwrap();
    let (span_ends, busy, each, starts) = k.stop_recording_each().unwrap();
    // the first launch and both halves of the last
    assert_eq!(each.len(), 3);
    assert!(span_ends > 0 && span_every > 0 && busy > 0);
    assert!(starts.iter().all(|&t| t <= span_ends));
    // a run that marks no last launch (here a transpose into the superblock order): refused
    k.start_recording(Recording::Ends);
    plan.reorder(&mut v, order).unwrap();
    assert!(k.stop_recording_each().is_err());
}
