//! Vectors in the superblock order (`srgfn::Order`) and the table plans'
//! first two passes in one launch (`srgfn_gen::emit::first2`), on the default
//! OpenCL device (PoCL in CI) with the warp's shuffles emulated through local
//! memory, as NVIDIA runs them with PTX: uploads, forward and inverse
//! transforms, products and downloads against the host reference, every k
//! whose work-group holds whole superblocks (2, 4, 8), both radices, sizes that
//! are powers of K and not, partial work-groups and batches.

use num_bigint::BigUint;
use srgfn::{Fft, FftOptions, Order, Plan, Session, Wisdom};
use srgfn_gen::emit::Variant;
use srgfn_gen::reference::schoolbook_mul;
use srgfn_gen::rules::Radix;
use srgfn_gen::{catalog_prime, Digits, Field, Prime};
use srgfn_suite::{assert_round_trip, host_forward_digits, inputs_with_edges, random_values};

fn session() -> Session {
    Session::open(None).expect("an OpenCL device (PoCL) is needed for these tests").with_wisdom(Wisdom::empty())
}

/// The table variant with emulated shuffles; `superblocks` as given.
fn fft(s: &Session, prime: &Prime, radix: Radix, superblocks: Option<bool>) -> Fft {
    let opts = FftOptions { radix: Some(radix), variant: Some(Variant::Table), superblocks, warp_emulation: true, ..FftOptions::default() };
    Fft::with_options(s, prime, opts).unwrap()
}

fn plan(fft: &Fft, n: usize, batch: usize) -> Plan {
    fft.plan(n, batch).unwrap()
}

#[test]
fn forward_transforms_from_the_superblock_order_match_the_host() {
    let s = session();
    for k in [2usize, 4, 8] {
        let prime = catalog_prime(k).unwrap();
        let f = Field::new(prime);
        let kk = 2 * k;
        for radix in [Radix::R2, Radix::R4] {
            let fft = fft(&s, prime, radix, None);
            // K² (one superblock: a partial work-group for k ≤ 4), K³, and sizes that are not powers of K
            for (n, batch) in [(kk * kk, 1), (kk * kk * 2, 2), (kk * kk * kk, 1), (kk * kk * 4, 1)] {
                let mut plan = plan(&fft, n, batch);
                assert_eq!(plan.input_order(), Order::Superblocks { r2: kk * kk }, "k = {k} N = {n}");
                let x = inputs_with_edges(&f, n * batch, (k * n + batch) as u64);
                let mut v = plan.upload_digits(&x).unwrap();
                assert_eq!(v.order(), Order::Superblocks { r2: kk * kk });
                // read back as uploaded: the natural order
                assert!(plan.download_digits(&v).unwrap() == x, "k = {k} {radix:?} N = {n}: the upload does not read back");
                // forward from the superblock order, and the inverse of its output (natural order)
                assert_round_trip(&mut plan, &mut v, &f, &x, &format!("k = {k} {radix:?} N = {n} batch {batch}"));
            }
        }
    }
}

/// The superblock order off, on, and vectors moved between the orders by
/// hand give the same transforms; plans below K² and other variants upload
/// in the natural order.
#[test]
fn both_orders_give_the_same_results_and_reorder_is_exact() {
    let s = session();
    let prime = catalog_prime(8).unwrap();
    let f = Field::new(prime);
    let n = 16 * 16 * 2;
    let x = inputs_with_edges(&f, n, 5);
    let want = host_forward_digits(&f, &x, n);
    let off = fft(&s, prime, Radix::R4, Some(false));
    let mut p = plan(&off, n, 1);
    assert_eq!(p.input_order(), Order::Natural);
    let mut v = p.upload_digits(&x).unwrap();
    assert_eq!(v.order(), Order::Natural);
    // a vector put in an order its plan does not have is refused
    assert!(p.reorder(&mut v, Order::Superblocks { r2: 256 }).is_err());
    p.forward(&mut v).unwrap();
    assert!(p.download_digits(&v).unwrap() == want);
    let on = fft(&s, prime, Radix::R4, None);
    let mut p = plan(&on, n, 1);
    let mut v = p.upload_digits(&x).unwrap();
    // to the natural order and back, then transformed from each
    p.reorder(&mut v, Order::Natural).unwrap();
    assert!(p.download_digits(&v).unwrap() == x);
    let mut w = p.upload_digits(&x).unwrap();
    p.forward(&mut v).unwrap();
    p.forward(&mut w).unwrap();
    assert!(p.download_digits(&v).unwrap() == want && p.download_digits(&w).unwrap() == want);
    // N < K²: no superblock; the local variant: none either
    assert_eq!(plan(&on, 128, 1).input_order(), Order::Natural);
    let local =
        Fft::with_options(&s, prime, FftOptions { variant: Some(Variant::Local), warp_emulation: true, ..FftOptions::default() }).unwrap();
    assert_eq!(plan(&local, n, 1).input_order(), Order::Natural);
}

/// Products of vectors in different orders (one transformed, one as
/// uploaded), value uploads and downloads, and polynomial products through
/// the superblock plans, against the host.
#[test]
fn products_and_values_through_superblock_plans_match_the_host() {
    let s = session();
    let prime = catalog_prime(4).unwrap();
    let f = Field::new(prime);
    let fft = fft(&s, prime, Radix::R4, None);
    let n = 8 * 8 * 4;
    let mut p = plan(&fft, n, 1);
    let (a, b) = (inputs_with_edges(&f, n, 11), inputs_with_edges(&f, n, 12));
    let mut va = p.upload_digits(&a).unwrap();
    let vb = p.upload_digits(&b).unwrap();
    p.forward(&mut va).unwrap();
    // va natural, vb in the superblock order: the product takes vb's order
    p.pointwise_mul(&mut va, &vb).unwrap();
    assert_eq!(va.order(), vb.order());
    let fa = host_forward_digits(&f, &a, n);
    let want: Vec<Digits> = fa.iter().zip(&b).map(|(x, y)| f.mul(x, y)).collect();
    assert!(p.download_digits(&va).unwrap() == want, "pointwise product across the orders ≠ host");
    // values: a prefix read back in the natural order
    let vals = random_values(prime, n, 3);
    let v = p.upload(&vals).unwrap();
    assert!(matches!(v.order(), Order::Superblocks { .. }));
    assert_eq!(p.download_prefix(&v, 37).unwrap(), vals[..37].to_vec());
    // polynomial products whose plans take the superblock order
    let (x, y) = (random_values(prime, 300, 4), random_values(prime, 211, 5));
    let got: Vec<BigUint> = fft.poly_mul(&x, &y).unwrap();
    assert_eq!(got, schoolbook_mul(prime, &x, &y));
}

/// Forward transforms from the superblock order in halves from the first
/// launch on (`srgfn_gen::plan::Chain`, forced on, every launch single):
/// against the host, twice on one plan (the three buffers rotate), then the
/// inverse back (natural order, the usual halves); every k whose work-group
/// holds whole superblocks, both radices, chains that end before the last
/// launch or at it, in halves and in quarters (`Chain::in_quarters`), sizes
/// that are not powers of K, batches of 1 and 2.  At least two sizes of each
/// k, radix and form must run a chain of that form, so that this test cannot
/// pass without one.
#[test]
fn chains_of_halves_from_the_first_launch_match_the_host() {
    let s = session();
    for (k, logs) in [(2usize, 10..=14u32), (4, 12..=15), (8, 16..=17)] {
        let prime = catalog_prime(k).unwrap();
        let f = Field::new(prime);
        for (radix, quarters) in [(Radix::R2, false), (Radix::R2, true), (Radix::R4, false), (Radix::R4, true)] {
            let opts = FftOptions {
                radix: Some(radix),
                variant: Some(Variant::Table),
                fuse: Some(false),
                halves: Some(true),
                chain: Some(true),
                quarters: Some(quarters),
                warp_emulation: true,
                ..FftOptions::default()
            };
            let fft = Fft::with_options(&s, prime, opts).unwrap();
            let mut chained = 0;
            for log_n in logs.clone() {
                let (n, batch) = (1usize << log_n, 1 + (log_n as usize % 2));
                let what = format!("k = {k} {radix:?} N = 2^{log_n} batch {batch}");
                let mut plan = plan(&fft, n, batch);
                let Some(chain) = plan.chain().filter(|c| c.low.is_some() == quarters) else { continue };
                chained += 1;
                for seed in 0..2u64 {
                    let x = inputs_with_edges(&f, n * batch, (k * n) as u64 + seed);
                    let mut v = plan.upload_digits(&x).unwrap();
                    assert_eq!(v.order(), Order::Superblocks { r2: 4 * k * k }, "{what}");
                    let want: Vec<Digits> = x.chunks(n).flat_map(|c| host_forward_digits(&f, c, n)).collect();
                    plan.forward(&mut v).unwrap();
                    assert!(plan.download_digits(&v).unwrap() == want, "{what} seed {seed}: forward ≠ host ({chain:?})");
                    plan.inverse(&mut v).unwrap();
                    assert!(plan.download_digits(&v).unwrap() == x, "{what} seed {seed}: inverse(forward(x)) ≠ x");
                }
            }
            assert!(chained >= 2, "k = {k} {radix:?} quarters {quarters}: {chained} sizes with a chain");
        }
    }
}
