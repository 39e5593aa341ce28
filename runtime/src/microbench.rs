//! Micro-benchmarks of the field arithmetic on a device: the rate of f_mul,
//! of its product core alone (the k² digit products summed into signed
//! coefficients, no base-r carries) and of add/sub butterflies, for each
//! f_mul form, one element per work-item in a dependent chain.
//!
//! The product-core rate is the independent floor `srgfn bench` reports a
//! transform against: a transform needs at least its general twiddle
//! products' worth of product cores.  Every form's f_mul and butterfly
//! outputs are compared with the host's on a sample; the product cores of
//! all forms must agree with each other.

use ocl::{Buffer, Kernel};
use rand::{Rng, SeedableRng};
use serde::Serialize;
use srgfn_gen::emit::{emit_microbench, KernelOptions, MulForm};
use srgfn_gen::rules::Radix;
use srgfn_gen::{Digits, Field, Prime};

use crate::error::{DeviceContext as _, Error, Result};
use crate::kernels::{default_mul, default_ptx};
use crate::layout::{from_digit_major, to_digit_major};
use crate::session::Session;

/// One micro-benchmark result.
#[derive(Clone, Debug, Serialize)]
pub struct MicroRecord {
    /// The prime.
    pub prime: String,
    /// Its k.
    pub k: usize,
    /// The f_mul form ("wide64", "limb22" or "mixed").
    pub mul: String,
    /// Whether inline PTX was used.
    pub ptx: bool,
    /// "mul", "core" or "add".
    pub kernel: String,
    /// Elements, one per work-item.
    pub items: usize,
    /// Length of each work-item's dependent chain.
    pub iters: u32,
    /// Median time of one launch.
    pub median_ms: f64,
    /// Operations per second / 1e9: f_mul, product cores, or butterflies (one add + one sub).
    pub rate_g: f64,
    /// Outputs equal the host's (mul, add) or the first form's (core).
    pub agrees: bool,
}

/// Elements and chain length for a device: enough work-items to fill it.
fn size(session: &Session) -> (usize, u32) {
    if session.device.is_gpu() {
        (((session.device.compute_units.max(1) as usize) * 2048).next_power_of_two().min(1 << 20), 32)
    } else {
        (1 << 10, 4)
    }
}

fn random_elems(field: &Field, n: usize, seed: u64) -> Vec<Digits> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    (0..n).map(|_| (0..field.k()).map(|_| rng.gen_range(0..field.r())).collect()).collect()
}

/// Median of `reps` timed launches (ms), the buffer re-filled before each; returns
/// the median and the output of one launch from the initial contents.
fn time_kernel(session: &Session, kernel: &Kernel, x: &Buffer<u64>, init: &[u64], reps: usize) -> Result<(f64, Vec<u64>)> {
    let mut times = Vec::with_capacity(reps);
    let mut first = Vec::new();
    for rep in 0..reps + 1 {
        x.write(init).enq().or_device(|| "cannot write the micro-benchmark's input".into())?;
        let mut ev = ocl::Event::empty();
        // SAFETY: the micro-kernels' arguments are all set when they are built.
        unsafe { kernel.cmd().enew(&mut ev).enq() }.or_device(|| "cannot enqueue a micro-benchmark".into())?;
        let (span, _) = crate::kernels::event_span(std::slice::from_ref(&ev))?;
        if rep == 0 {
            first = vec![0u64; init.len()];
            x.read(&mut first).enq().or_device(|| "cannot read the micro-benchmark's output".into())?;
        } else {
            times.push(span as f64 / 1e6);
        }
    }
    session.queue.finish().or_device(|| "the device queue failed".into())?;
    times.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
    Ok((times[times.len() / 2], first))
}

/// The option sets the micro-benchmarks compare: the device's default form
/// (or `mul`), or with `all` every f_mul form, with and without inline PTX
/// where the device has it.
pub fn forms(session: &Session, prime: &Prime, all: bool, mul: Option<MulForm>) -> Result<Vec<KernelOptions>> {
    let ptx = default_ptx(session);
    if !all {
        let mul = match mul {
            Some(m) => m,
            None => default_mul(session, prime)?,
        };
        return Ok(vec![KernelOptions { ptx, ..KernelOptions::new(Radix::R2, mul) }]);
    }
    let mut v = Vec::new();
    for mul in MulForm::ALL {
        v.push(KernelOptions::new(Radix::R2, mul));
        if ptx {
            v.push(KernelOptions { ptx: true, ..KernelOptions::new(Radix::R2, mul) });
        }
    }
    Ok(v)
}

/// A form whose program did not build: its label ("wide64+ptx") and the error.
pub type FailedForm = (String, String);

/// Runs the three micro-kernels for each option set; `reps` timed runs each.
/// A form whose program does not build is left out and reported in the
/// second list; an error is returned only if none builds.
pub fn run(session: &Session, prime: &Prime, forms: &[KernelOptions], reps: usize) -> Result<(Vec<MicroRecord>, Vec<FailedForm>)> {
    let field = Field::new(prime);
    let k = prime.k();
    let (items, iters) = size(session);
    let xs = random_elems(&field, items, 1);
    let ws = random_elems(&field, 64, 2);
    let init = to_digit_major(&xs, k);
    let q = session.queue.clone();
    let alloc = || "cannot allocate the micro-benchmark's buffers".to_string();
    let x = Buffer::<u64>::builder().queue(q.clone()).len(init.len()).build().or_device(alloc)?;
    let w = Buffer::<u64>::builder().queue(q.clone()).len(64 * k).copy_host_slice(&to_digit_major(&ws, k)).build().or_device(alloc)?;
    // host references on a sample: x w^iters, and iters butterflies on (x_2e, x_2e+1)
    let sample: Vec<usize> = (0..items).step_by((items / 64).max(1)).collect();
    let want_mul: Vec<Digits> = sample.iter().map(|&e| (0..iters).fold(xs[e].clone(), |acc, _| field.mul(&acc, &ws[e & 63]))).collect();
    let want_add: Vec<(usize, Digits, Digits)> = sample
        .iter()
        .filter(|&&e| e < items / 2)
        .map(|&e| {
            let (mut a, mut b) = (xs[2 * e].clone(), xs[2 * e + 1].clone());
            for _ in 0..iters {
                let s = field.add(&a, &b);
                b = field.sub(&a, &b);
                a = s;
            }
            (e, a, b)
        })
        .collect();
    let mut out = Vec::new();
    let mut failed = Vec::new();
    let mut first_core: Option<Vec<u64>> = None;
    for opts in forms {
        let label = format!("{}{}", opts.mul.name(), if opts.ptx { "+ptx" } else { "" });
        let file = emit_microbench(prime, opts)?;
        let program = match session
            .program(&format!("{}_microbench_{}{}", prime.slug(), opts.mul.name(), if opts.ptx { "_ptx" } else { "" }), &file.source)
        {
            Ok(p) => p,
            Err(e) => {
                failed.push((label, e.to_string()));
                continue;
            }
        };
        for (name, global) in [("mb_mul", items), ("mb_core", items), ("mb_add", items / 2)] {
            let mut b = Kernel::builder();
            b.program(&program).name(name).queue(q.clone()).global_work_size(global).arg(&x);
            if name != "mb_add" {
                b.arg(&w);
            }
            b.arg(items as u64).arg(iters);
            let kernel = b.build().or_device(|| format!("cannot set up {name}"))?;
            let (ms, got) = time_kernel(session, &kernel, &x, &init, reps)?;
            let got = from_digit_major(&got, k);
            let agrees = match name {
                "mb_mul" => sample.iter().zip(&want_mul).all(|(&e, want)| &got[e] == want),
                "mb_add" => want_add.iter().all(|(e, a, b)| &got[2 * e] == a && &got[2 * e + 1] == b),
                _ => {
                    let flat: Vec<u64> = got.concat();
                    match &first_core {
                        None => {
                            first_core = Some(flat);
                            true
                        }
                        Some(f) => f == &flat,
                    }
                }
            };
            out.push(MicroRecord {
                prime: prime.to_string(),
                k,
                mul: opts.mul.name().into(),
                ptx: opts.ptx,
                kernel: name.trim_start_matches("mb_").into(),
                items,
                iters,
                median_ms: ms,
                rate_g: global as f64 * iters as f64 / (ms * 1e-3) / 1e9,
                agrees,
            });
        }
    }
    if let Some(bad) = out.iter().find(|r| !r.agrees) {
        let ptx = if bad.ptx { " (PTX)" } else { "" };
        return Err(Error::device(format!("micro-benchmark {} of f_mul form {}{ptx} disagrees with the reference", bad.kernel, bad.mul)));
    }
    if out.is_empty() {
        let each: Vec<String> = failed.iter().map(|(f, e)| format!("{f}: {e}")).collect();
        return Err(Error::device(format!("no form of the micro-benchmarks builds: {}", each.join("; "))));
    }
    Ok((out, failed))
}
