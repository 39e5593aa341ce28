//! Random sequences of API calls on the default device (PoCL): plans of
//! random primes, sizes, batches, radices, variants and multiplication forms;
//! uploads (values, digits, digit words, padded), forward and inverse
//! transforms, pointwise products, downloads, polynomial products, and misuse
//! (vectors of another plan, prime, size, batch or OpenCL context; values
//! ≥ p; digits ≥ r; wrong lengths); a quarter of the plans split their
//! vectors into segments of at most 64 elements (or are refused when they cannot).  Every result is checked against the host reference
//! (srgfn_gen's host FFT, Field and schoolbook arithmetic); every misuse must
//! be refused with an error and leave the vector exact.
#![no_main]
use std::sync::{Mutex, OnceLock};

use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use srgfn::{DeviceVec, Fft, FftOptions, Plan, Session};
use srgfn_gen::emit::{variants_for, MulForm};
use srgfn_gen::reference::{host_fft, host_ifft, schoolbook_mul};
use srgfn_gen::rules::Radix;
use srgfn_gen::{Digits, Field, Prime};

/// Primes of the plans: catalog k = 2 … 16 and a three-term radix.
const PRIMES: [&str; 5] = ["(2^63+2^53)^2+1", "(2^64-2^50)^4+1", "(2^63+2^34)^8+1", "(2^62+2^36)^16+1", "(2^59+2^57+2^39)^8+1"];
/// Largest log2 N of a plan (kept small: PoCL runs every launch on the CPU).
const MAX_LOG_N: u32 = 9;

struct World {
    /// Two OpenCL contexts on the default device: vectors must not cross them.
    sessions: [Session; 2],
    primes: Vec<Prime>,
    /// Ffts by (session, prime, radix, variant, mul): their programs are built once.
    ffts: Mutex<Vec<(FftKey, Fft)>>,
}

type FftKey = (usize, usize, usize, usize, usize, bool);

/// With `split`, the largest buffer a plan may allocate, in elements: vectors
/// longer than this are split into segments (or refused when they cannot be).
const SPLIT_ELEMENTS: u64 = 64;

fn world() -> &'static World {
    static W: OnceLock<World> = OnceLock::new();
    W.get_or_init(|| {
        let first = Session::open(None).expect("an OpenCL device");
        let second = Session::on(first.device().clone(), first.cache().clone()).expect("a second context");
        let primes = PRIMES.iter().map(|e| Prime::parse(e).expect("a prime")).collect();
        World { sessions: [first, second], primes, ffts: Mutex::default() }
    })
}

fn fft(session: usize, prime: usize, radix: usize, variant: usize, mul: usize, split: bool) -> Fft {
    let w = world();
    let key = (session, prime, radix, variant, mul, split);
    let mut ffts = w.ffts.lock().unwrap();
    if let Some((_, f)) = ffts.iter().find(|(k, _)| *k == key) {
        return f.clone();
    }
    let p = &w.primes[prime];
    let variants = variants_for(p);
    let opts = FftOptions {
        radix: Some([Radix::R2, Radix::R4][radix]),
        variant: Some(variants[variant % variants.len()]),
        mul: Some([MulForm::Wide64, MulForm::Limb22][mul]),
        max_buffer: split.then(|| SPLIT_ELEMENTS * 8 * p.k() as u64),
        // the default: two passes per launch at the small sizes drawn here (k ≤ 8, local variant)
        fuse: None,
    };
    let f = Fft::with_options(&w.sessions[session], p, opts).expect("an Fft");
    ffts.push((key, f.clone()));
    f
}

/// Bytes of the input, read one at a time (zeros once exhausted).
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn byte(&mut self) -> u8 {
        let (b, rest) = self.0.split_first().map_or((0, &[][..]), |(b, r)| (*b, r));
        self.0 = rest;
        b
    }
    fn below(&mut self, n: usize) -> usize {
        self.byte() as usize % n.max(1)
    }
    fn done(&self) -> bool {
        self.0.is_empty()
    }
}

/// A reproducible stream of elements, biased to the representation's edges.
struct Elements {
    state: u64,
}

impl Elements {
    fn word(&mut self) -> u64 {
        // xorshift64*
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn element(&mut self, f: &Field) -> Digits {
        let r = f.r();
        match self.word() % 8 {
            0 => f.zero(),
            1 => f.minus_one(),
            2 => vec![r - 1; f.k()],
            _ => (0..f.k()).map(|_| if self.word() % 4 == 0 { r - 1 } else { self.word() % r }).collect(),
        }
    }
}

struct LivePlan {
    plan: Plan,
    field: Field,
}

struct LiveVec {
    vec: DeviceVec,
    /// Index of the plan that made it (in `plans`, which only grows).
    plan: usize,
    /// What it must hold: N·batch elements.
    want: Vec<Digits>,
}

/// A foreign vector must be refused as a misuse, with an error about the vector.
fn refused<T>(r: srgfn::Result<T>, what: &str) {
    match r {
        Ok(_) => panic!("{what}: a vector of another plan was accepted"),
        Err(e @ srgfn::Error::Misuse(_)) => assert!(e.to_string().contains("device vector"), "{what}: {e}"),
        Err(e) => panic!("{what}: refused, but not as a misuse: {e}"),
    }
}

fn values(f: &Field, d: &[Digits]) -> Vec<BigUint> {
    d.iter().map(|e| f.to_biguint(e).unwrap()).collect()
}

/// Applies `op` to each vector of size n of `x` (N·batch elements).
fn per_vector(x: &mut [Digits], n: usize, op: impl Fn(&mut [Digits])) {
    x.chunks_mut(n).for_each(op);
}

fn run(data: &[u8]) {
    let w = world();
    let mut input = Input(data);
    let mut elems = Elements { state: 0x9e37_79b9_7f4a_7c15 ^ data.len() as u64 };
    let mut plans: Vec<LivePlan> = Vec::new();
    let mut vecs: Vec<LiveVec> = Vec::new();
    while !input.done() && plans.len() < 6 {
        match input.byte() % 8 {
            0 => {
                let pb = input.byte(); // the top bit picks the session
                let (p, session) = (pb as usize % PRIMES.len(), (pb >> 7) as usize);
                let prime = &w.primes[p];
                let log_n = 1 + input.below(MAX_LOG_N as usize) as u32;
                let batch = 1 + input.below(3);
                let split = input.below(4) == 0;
                let f = fft(session, p, input.below(2), input.below(3), input.below(2), split);
                let total = ((1usize << log_n) * batch) as u128;
                // it fits when its vectors split and its twiddle table (N/K entries laid out for the
                // variant, never split) fits one buffer
                let kk = 2 * prime.k();
                let entries = if (1usize << log_n) > kk { (1usize << log_n) / kk } else { 0 };
                let table_bytes = 8 * f.variant().table_words(prime.k(), entries) as u128;
                let splits = srgfn::memory::vector_segments(prime.k(), total, f.max_buffer()).is_some()
                    && table_bytes <= f.max_buffer() as u128;
                match f.plan(1 << log_n, batch) {
                    Ok(plan) => {
                        assert!(splits, "a plan of {total} elements beyond {SPLIT_ELEMENTS}-element buffers that cannot be split");
                        plans.push(LivePlan { plan, field: Field::new(prime) });
                    }
                    Err(srgfn::Error::OutOfMemory(_)) if split && !splits => {} // refused before allocating
                    Err(e) => panic!("a plan of a small size: {e}"),
                }
            }
            1 if !plans.is_empty() => {
                let i = input.below(plans.len());
                let lp = &mut plans[i];
                let (f, total) = (&lp.field, lp.plan.n() * lp.plan.batch());
                let len = match input.byte() % 4 {
                    0 => total,
                    1 => total.saturating_sub(1 + input.below(3)),
                    2 => total + 1 + input.below(3),
                    _ => input.below(total + 1),
                };
                let mut want: Vec<Digits> = (0..len).map(|_| elems.element(f)).collect();
                let corrupt = input.byte() % 8 == 0 && len > 0;
                let at = input.below(len.max(1));
                let how = input.byte() % 4;
                let got = match how {
                    0 | 1 => {
                        let mut vals = values(f, &want);
                        if corrupt {
                            vals[at] = f.prime().modulus() + elems.word() % 3;
                        }
                        if how == 0 {
                            lp.plan.upload(&vals)
                        } else {
                            lp.plan.upload_padded(&vals)
                        }
                    }
                    _ => {
                        if corrupt {
                            want[at][input.below(f.k())] = f.r() + elems.word() % 2;
                            if want[at] == f.minus_one() {
                                want[at][0] = f.r(); // (0, …, 0, r) is p − 1, a valid element
                            }
                        }
                        if how == 2 {
                            lp.plan.upload_digits(&want)
                        } else {
                            lp.plan.upload_digit_words(&want.concat())
                        }
                    }
                };
                let padded = (how == 1 || how == 3) && len <= total; // the padding uploads
                match got {
                    Ok(vec) => {
                        assert!(!corrupt && (len == total || padded), "accepted: corrupt {corrupt}, {len} of {total}, how {how}");
                        want.resize(total, f.zero());
                        vecs.push(LiveVec { vec, plan: i, want });
                    }
                    Err(e) => {
                        assert!(corrupt || !(len == total || padded), "refused a valid upload (how {how}, {len} of {total}): {e:#}");
                        assert!(!format!("{e:#}").is_empty());
                    }
                }
            }
            op @ 2..=4 if !vecs.is_empty() && !plans.is_empty() => {
                let (pi, vi) = (input.below(plans.len()), input.below(vecs.len()));
                let lp = &mut plans[pi];
                let n = lp.plan.n();
                let v = &mut vecs[vi];
                if v.plan != pi {
                    let r = match op {
                        2 => lp.plan.forward(&mut v.vec),
                        3 => lp.plan.inverse(&mut v.vec),
                        _ => lp.plan.download(&v.vec).map(drop),
                    };
                    refused(r, "forward/inverse/download");
                    continue;
                }
                let f = &lp.field;
                match op {
                    2 => {
                        lp.plan.forward(&mut v.vec).unwrap();
                        per_vector(&mut v.want, n, |x| host_fft(f, x).unwrap());
                    }
                    3 => {
                        lp.plan.inverse(&mut v.vec).unwrap();
                        per_vector(&mut v.want, n, |x| host_ifft(f, x).unwrap());
                    }
                    _ => match input.byte() % 4 {
                        0 => assert_eq!(lp.plan.download(&v.vec).unwrap(), values(f, &v.want)),
                        1 => assert_eq!(lp.plan.download_digits(&v.vec).unwrap(), v.want),
                        2 => {
                            let len = input.below(v.want.len() + 2);
                            let got = lp.plan.download_prefix(&v.vec, len).unwrap();
                            assert_eq!(got, values(f, &v.want[..len.min(v.want.len())]));
                        }
                        _ => {
                            let len = input.below(v.want.len() + 2);
                            let got = lp.plan.download_digit_words(&v.vec, len).unwrap();
                            assert_eq!(got, v.want[..len.min(v.want.len())].concat());
                        }
                    },
                }
            }
            5 if vecs.len() >= 2 && !plans.is_empty() => {
                let pi = input.below(plans.len());
                let (a, b) = (input.below(vecs.len()), input.below(vecs.len() - 1));
                let b = if b >= a { b + 1 } else { b }; // a ≠ b
                let (va, vb) = if a < b {
                    let (lo, hi) = vecs.split_at_mut(b);
                    (&mut lo[a], &hi[0])
                } else {
                    let (lo, hi) = vecs.split_at_mut(a);
                    (&mut hi[0], &lo[b])
                };
                let lp = &plans[pi];
                let r = lp.plan.pointwise_mul(&mut va.vec, &vb.vec);
                if va.plan != pi || vb.plan != pi {
                    refused(r, "pointwise_mul");
                } else {
                    r.unwrap();
                    for (x, y) in va.want.iter_mut().zip(&vb.want) {
                        *x = lp.field.mul(x, y);
                    }
                }
            }
            6 => {
                let p = input.below(PRIMES.len());
                let f = fft(0, p, input.below(2), input.below(3), input.below(2), input.below(4) == 0);
                let field = Field::new(f.prime());
                let (la, lb) = (1 + input.below(40), 1 + input.below(40));
                let a: Vec<Digits> = (0..la).map(|_| elems.element(&field)).collect();
                let b: Vec<Digits> = (0..lb).map(|_| elems.element(&field)).collect();
                let (av, bv) = (values(&field, &a), values(&field, &b));
                let want = schoolbook_mul(f.prime(), &av, &bv);
                if input.byte() % 2 == 0 {
                    assert_eq!(f.poly_mul(&av, &bv).unwrap(), want);
                } else {
                    let got = f.poly_mul_digits(&a.concat(), &b.concat()).unwrap();
                    assert_eq!(values(&field, &got.chunks(field.k()).map(<[u64]>::to_vec).collect::<Vec<_>>()), want);
                }
            }
            7 if !vecs.is_empty() => {
                vecs.swap_remove(input.below(vecs.len()));
            }
            _ => {}
        }
    }
    // every surviving vector is still exact with its own plan
    for v in &vecs {
        let lp = &mut plans[v.plan];
        assert_eq!(lp.plan.download_digits(&v.vec).unwrap(), v.want);
    }
}

fuzz_target!(|data: &[u8]| run(data));
