//! Benchmarks: warm transforms on device-resident data timed with OpenCL
//! profiling events, beside a roofline measured in the same run (copy
//! bandwidth, 64-bit multiply-add rate) and the "no trick" baseline.

use ocl::{Buffer, Kernel};
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use srgfn_gen::plan::PlanShape;
use srgfn_gen::unroll::Program;
use srgfn_gen::{Digits, Prime};

use crate::error::{DeviceContext as _, Result};
use crate::fft::Fft;
use crate::kernels::{FieldKernels, Recording};
use crate::session::Session;

/// Micro-kernels of the roofline (not generated: they measure the device).
const ROOFLINE_SRC: &str = r#"
__kernel void copy16(__global const ulong2 *x, __global ulong2 *y) {
    const size_t i = get_global_id(0);
    y[i] = x[i];
}
/* 4 independent chains of x = x*a + mul_hi(x, b): 8 64-bit multiplies per iteration */
__kernel void madd(__global ulong *out, const ulong a, const ulong b, const uint iters) {
    ulong x0 = get_global_id(0), x1 = x0 ^ a, x2 = x0 + b, x3 = x0 * 3;
    for (uint j = 0; j < iters; j++) {
        x0 = x0 * a + mul_hi(x0, b);
        x1 = x1 * a + mul_hi(x1, b);
        x2 = x2 * a + mul_hi(x2, b);
        x3 = x3 * a + mul_hi(x3, b);
    }
    out[get_global_id(0)] = x0 ^ x1 ^ x2 ^ x3;
}
/* 4 independent add-with-carry chains (add, compare, add): 12 word operations per iteration */
__kernel void addc(__global ulong *out, const ulong a, const uint iters) {
    ulong x0 = get_global_id(0), x1 = x0 ^ a, x2 = x0 + a, x3 = x0 * 3;
    ulong c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    for (uint j = 0; j < iters; j++) {
        x0 += a + c0; c0 = x0 < a;
        x1 += a + c1; c1 = x1 < a;
        x2 += a + c2; c2 = x2 < a;
        x3 += a + c3; c3 = x3 < a;
    }
    out[get_global_id(0)] = x0 ^ x1 ^ x2 ^ x3 ^ c0 ^ c1 ^ c2 ^ c3;
}
"#;

/// Multiplier pipes, measured one by one and together: 32-bit integer
/// multiply-adds (the instructions f_mul's carry chains become on NVIDIA
/// GPUs) and double-precision fused multiply-adds, whose exact products of
/// small limbs would be a second multiplier; both together are bound by the
/// issue rate (docs/performance-versions.md, "v16").
const PIPES_SRC: &str = r#"
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
/* 8 independent chains of x = x*a + b: 8 32-bit multiply-adds per iteration */
#define IMAD8 x0 = x0 * a + b; x1 = x1 * a + b; x2 = x2 * a + b; x3 = x3 * a + b; \
              x4 = x4 * a + b; x5 = x5 * a + b; x6 = x6 * a + b; x7 = x7 * a + b;
/* 8 independent chains of y = fma(y, c, d): 8 double-precision fused multiply-adds per iteration */
#define DFMA8 y0 = fma(y0, c, d); y1 = fma(y1, c, d); y2 = fma(y2, c, d); y3 = fma(y3, c, d); \
              y4 = fma(y4, c, d); y5 = fma(y5, c, d); y6 = fma(y6, c, d); y7 = fma(y7, c, d);
#define IMAD_INIT uint x0 = get_global_id(0), x1 = x0 ^ a, x2 = x0 + b, x3 = x0 * 3, x4 = x0 ^ b, x5 = x0 + a, x6 = x0 * 5, x7 = x0 * 7;
#define DFMA_INIT double y0 = (double)get_global_id(0), y1 = y0 + 1.0, y2 = y0 + 2.0, y3 = y0 + 3.0, y4 = y0 + 4.0, y5 = y0 + 5.0, y6 = y0 + 6.0, y7 = y0 + 7.0;
__kernel void imad32(__global ulong *out, const uint a, const uint b, const double c, const double d, const uint iters) {
    IMAD_INIT
    for (uint j = 0; j < iters; j++) { IMAD8 }
    out[get_global_id(0)] = x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7;
}
__kernel void dfma(__global ulong *out, const uint a, const uint b, const double c, const double d, const uint iters) {
    DFMA_INIT
    for (uint j = 0; j < iters; j++) { DFMA8 }
    out[get_global_id(0)] = as_ulong(y0 + y1 + y2 + y3 + y4 + y5 + y6 + y7);
}
/* both in one loop: 8 multiply-adds of each kind per iteration */
__kernel void imad32_dfma(__global ulong *out, const uint a, const uint b, const double c, const double d, const uint iters) {
    IMAD_INIT
    DFMA_INIT
    for (uint j = 0; j < iters; j++) { IMAD8 DFMA8 }
    out[get_global_id(0)] = (x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7) ^ as_ulong(y0 + y1 + y2 + y3 + y4 + y5 + y6 + y7);
}
"#;

/// Rates of the multiplier pipes (G operations per second), where the
/// device runs double precision.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub struct Pipes {
    /// 32-bit integer multiply-adds.
    pub imad32_gops: f64,
    /// Double-precision fused multiply-adds.
    pub dfma_gops: f64,
    /// Both kinds in one loop, counted together: near the sum of the two
    /// where the device overlaps them, near the larger one where it does not.
    pub mixed_gops: f64,
}

/// Measured ceilings of the device.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Roofline {
    /// Device-to-device copy, bytes read + written per second / 1e9.
    pub copy_gbs: f64,
    /// 64-bit multiplies (low or high half) per second / 1e9.
    pub mul_gops: f64,
    /// 64-bit adds and compares per second / 1e9.
    pub add_gops: f64,
    /// The multiplier pipes (absent in records before v16, and on devices
    /// without double precision).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pipes: Option<Pipes>,
}

impl Roofline {
    /// Seconds of arithmetic for `muls` multiplies and `adds` adds (they share the integer pipes).
    pub fn compute_s(&self, muls: f64, adds: f64) -> f64 {
        muls / (self.mul_gops * 1e9) + adds / (self.add_gops * 1e9)
    }
}

/// Median time in ms of `runs` launches of a kernel after `warmup` launches.
fn median_launch_ms(kernel: &Kernel, warmup: usize, runs: usize) -> Result<f64> {
    let mut times = Vec::with_capacity(runs);
    for i in 0..warmup + runs {
        let mut ev = ocl::Event::empty();
        // SAFETY: the micro-kernels' arguments are all set at build time.
        unsafe { kernel.cmd().enew(&mut ev).enq() }.or_device(|| "cannot enqueue a roofline kernel".into())?;
        let (span, _) = crate::kernels::event_span(std::slice::from_ref(&ev))?;
        if i >= warmup {
            times.push(span as f64 / 1e6);
        }
    }
    Ok(median(&mut times))
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
    v[v.len() / 2]
}

/// Measures copy bandwidth and the multiply-add rate (median of 10 runs each).
pub fn measure_roofline(session: &Session) -> Result<Roofline> {
    let program = session.program("srgfn_roofline", ROOFLINE_SRC)?;
    let q = session.queue.clone();
    let dev = &session.device;
    let bytes = (512u64 << 20).min(dev.global_mem_bytes / 8).min(dev.max_alloc_bytes.max(1 << 20)).max(1 << 20);
    let n2 = (bytes / 16) as usize;
    let alloc = || format!("cannot allocate the roofline's {} MiB buffers", bytes >> 20);
    let x = Buffer::<u64>::builder().queue(q.clone()).len(2 * n2).fill_val(7u64).build().or_device(alloc)?;
    let y = Buffer::<u64>::builder().queue(q.clone()).len(2 * n2).build().or_device(alloc)?;
    let copy = Kernel::builder()
        .program(&program)
        .name("copy16")
        .queue(q.clone())
        .global_work_size(n2)
        .arg(&x)
        .arg(&y)
        .build()
        .or_device(|| "cannot set up copy16".into())?;
    let copy_gbs = 2.0 * (n2 * 16) as f64 / (median_launch_ms(&copy, 3, 10)? * 1e-3) / 1e9;
    let items = (dev.compute_units.max(1) as usize) * 2048;
    let iters = 4096u32;
    let out = Buffer::<u64>::builder().queue(q.clone()).len(items).build().or_device(alloc)?;
    let rate = |name: &str, ops_per_iter: f64, extra: &[u64]| -> Result<f64> {
        let mut b = Kernel::builder();
        b.program(&program).name(name).queue(q.clone()).global_work_size(items).arg(&out);
        for &v in extra {
            b.arg(v);
        }
        b.arg(iters);
        let kern = b.build().or_device(|| format!("cannot set up {name}"))?;
        Ok(ops_per_iter * items as f64 * iters as f64 / (median_launch_ms(&kern, 2, 6)? * 1e-3) / 1e9)
    };
    let mul_gops = rate("madd", 8.0, &[0x9e37_79b9_7f4a_7c15, 0xd1b5_4a32_d192_ed03])?;
    let add_gops = rate("addc", 12.0, &[0x9e37_79b9_7f4a_7c15])?;
    let pipes = if dev.has_fp64() { Some(measure_pipes(session, &out, items, iters)?) } else { None };
    Ok(Roofline { copy_gbs, mul_gops, add_gops, pipes })
}

/// Rates of the multiplier pipes (see [`PIPES_SRC`]), `items` work-items of
/// `iters` iterations writing to `out`.
fn measure_pipes(session: &Session, out: &Buffer<u64>, items: usize, iters: u32) -> Result<Pipes> {
    let program = session.program("srgfn_pipes", PIPES_SRC)?;
    let rate = |name: &str, ops_per_iter: f64| -> Result<f64> {
        let kern = Kernel::builder()
            .program(&program)
            .name(name)
            .queue(session.queue.clone())
            .global_work_size(items)
            .arg(out)
            .arg(0x9e37_79b9u32)
            .arg(0x7f4a_7c15u32)
            .arg(0.999_999_9f64)
            .arg(1e-3f64)
            .arg(iters)
            .build()
            .or_device(|| format!("cannot set up {name}"))?;
        Ok(ops_per_iter * items as f64 * iters as f64 / (median_launch_ms(&kern, 2, 6)? * 1e-3) / 1e9)
    };
    Ok(Pipes { imad32_gops: rate("imad32", 8.0)?, dfma_gops: rate("dfma", 8.0)?, mixed_gops: rate("imad32_dfma", 16.0)? })
}

/// Operation model of the field arithmetic (documented in docs/performance.md):
/// (64-bit multiplies, 64-bit adds/compares/selects) per operation.
pub(crate) mod model {
    /// f_add / f_sub: per digit an add, two compares, a select, plus the fold.
    pub fn add(k: usize) -> (f64, f64) {
        (0.0, 6.0 * k as f64)
    }
    /// f_shift: the barrel rotation (log2 k selects per digit) and one subtraction.
    pub fn shift(k: usize) -> (f64, f64) {
        (0.0, (6 + k.trailing_zeros() as usize + 2) as f64 * k as f64)
    }
    /// f_mul: k² products (low and high halves), 192-bit accumulation (4
    /// adds per product), per coefficient a signed sum with the carry (~20
    /// adds) and one floor division by r of 2 reciprocal steps (3 multiplies,
    /// ~12 adds each), and one final subtraction.
    pub fn mul(k: usize) -> (f64, f64) {
        let k = k as f64;
        (2.0 * k * k + 6.0 * k, 4.0 * k * k + 44.0 * k + 6.0 * k)
    }
}

fn add2(a: (f64, f64), b: (f64, f64), times: f64) -> (f64, f64) {
    (a.0 + b.0 * times, a.1 + b.1 * times)
}

/// (multiplies, adds) of one forward transform of a plan.
pub(crate) fn plan_ops(shape: &PlanShape, radix_choice: srgfn_gen::rules::Radix) -> (f64, f64) {
    let k = shape.k;
    let total = (shape.n * shape.batch) as f64;
    let mut ops = (0.0, 0.0);
    for pass in &shape.passes {
        let prog = Program::unroll_size(k, pass.radix, radix_choice).expect("supported");
        let d = prog.descriptor();
        let dfts = total / pass.radix as f64;
        ops = add2(ops, model::add(k), dfts * (d.dft2 * 2 + d.dft4 * 8) as f64);
        ops = add2(ops, model::shift(k), dfts * (d.shifts + d.dft4) as f64);
        if pass.p > 1 {
            // every input with t, κ > 0 is rotated by its r^s; the general ones are multiplied too
            let rotated = dfts * (pass.radix - 1) as f64 * (1.0 - 1.0 / pass.p as f64);
            ops = add2(ops, model::mul(k), shape.general_twiddles(pass) as f64);
            ops = add2(ops, model::shift(k), rotated);
        }
    }
    ops
}

/// One benchmark result (read back by `srgfn bench --replot`; fields added
/// after v5 default to 0 in older files).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record {
    /// The prime.
    pub prime: String,
    /// Its k.
    pub k: usize,
    /// The transform size N.
    pub n: usize,
    /// log2 N.
    pub log_n: u32,
    /// "srgfn-r2-local-limb22", "srgfn-r4-workgroup-wide64", "baseline-notrick", …
    pub variant: String,
    /// f_mul's form ("wide64" or "limb22"; "" for the small-prime baseline).
    pub mul: String,
    /// Median time of the timed runs.
    pub median_ms: f64,
    /// Fastest run.
    pub min_ms: f64,
    /// Slowest run.
    pub max_ms: f64,
    /// Timed runs (after 3 warm-up runs).
    pub reps: usize,
    /// Sum of kernel times (the median run), to show launch gaps.
    pub busy_ms: f64,
    /// Each kernel's time in the median run, in launch order (passes).
    pub kernel_ms: Vec<f64>,
    /// Each kernel's start after the first kernel's start in the median run
    /// (launch order; empty where not recorded): the timeline of the halves.
    #[serde(default)]
    pub kernel_start_ms: Vec<f64>,
    /// The host's time to enqueue the median run's kernels (from the call to
    /// its return, before the device finished; 0 where not measured): where
    /// it nears `median_ms`, the host, not the device, sets the pace.  (Off
    /// NVIDIA a plan in halves waits on the host for a queue at its fork and
    /// join, so there it holds device time too.)
    #[serde(default)]
    pub enqueue_ms: f64,
    /// Since v42 the median, min and max come from runs timed by their ends
    /// (`Recording::Ends`: events on the first and last launches only, as
    /// light on the host as outside a benchmark) and `kernel_ms`,
    /// `kernel_start_ms` and `busy_ms` from as many runs with every kernel's
    /// event (`Recording::Every`); this is those runs' median span (0 where
    /// not measured, and in records before v42, whose median came from them).
    #[serde(default)]
    pub profiled_median_ms: f64,
    /// Bytes read and written from device memory by the kernels (the memory model).
    pub bytes: u64,
    /// 64-bit multiplies of the operation model.
    pub muls: f64,
    /// 64-bit adds, compares and selects of the operation model.
    pub adds: f64,
    /// `bytes` per second of the median run / 1e9.
    pub gbs: f64,
    /// (multiplies + adds) per second / 1e9.
    pub gops: f64,
    /// max(bytes / copy bandwidth, multiplies / multiply rate + adds / add rate).
    pub roofline_ms: f64,
    /// 100 · roofline_ms / median_ms (above 100: the model over-counts).
    pub pct_roofline: f64,
    /// General twiddle products (f_mul) of the transform.
    #[serde(default)]
    pub twiddle_products: f64,
    /// Those products at the product-core rate measured by the micro-benchmark
    /// (0 when not measured): a floor independent of the operation model.
    #[serde(default)]
    pub core_floor_ms: f64,
}

impl Record {
    /// The memory floor: the bytes the plan moves at the measured copy bandwidth.
    pub fn memory_floor_ms(&self, roof: &Roofline) -> f64 {
        self.bytes as f64 / (roof.copy_gbs * 1e9) * 1e3
    }

    /// The core floor where it bounds this record: the product-core rate is
    /// that of one element per work-item, and a variant that shares each
    /// element's products among work-items (the digits variant at k ≥ 64)
    /// runs faster than that floor, which then bounds nothing.  None where no
    /// micro-benchmark ran or the transform beat it.
    pub fn binding_core_floor_ms(&self) -> Option<f64> {
        (self.core_floor_ms > 0.0 && self.core_floor_ms <= self.median_ms).then_some(self.core_floor_ms)
    }

    /// The larger of the two measured floors: the bytes moved at the copy
    /// bandwidth, and the twiddle products at the product-core rate where
    /// that bounds the record ([`Record::binding_core_floor_ms`]).
    pub fn floor_ms(&self, roof: &Roofline) -> f64 {
        self.memory_floor_ms(roof).max(self.binding_core_floor_ms().unwrap_or(0.0))
    }
}

fn random_digits(fft: &Fft, len: usize, seed: u64) -> Vec<Digits> {
    random_words(fft, len, seed).chunks(fft.prime().k()).map(<[u64]>::to_vec).collect()
}

/// `len` random canonical elements (digits below r) as flat digit words,
/// element after element, generated on every core in blocks seeded from `seed`.
pub fn random_words(fft: &Fft, len: usize, seed: u64) -> Vec<u64> {
    use rayon::prelude::*;
    const BLOCK: usize = 1 << 16;
    let (k, r) = (fft.prime().k(), fft.prime().r());
    let mut words = vec![0u64; len * k];
    words.par_chunks_mut(BLOCK * k).enumerate().for_each(|(b, block)| {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed ^ (b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        block.iter_mut().for_each(|w| *w = rng.gen_range(0..r));
    });
    words
}

/// Times of a benchmark in ms.
struct Times {
    median: f64,
    min: f64,
    max: f64,
    /// The sum of the median run's kernel times.
    busy: f64,
    /// Each kernel's time in the median run, and its start after the first kernel's.
    each: Vec<f64>,
    starts: Vec<f64>,
    /// The host's time to enqueue the median run (0 where not measured).
    enqueue: f64,
    /// The median span of runs with every kernel's event, where the median
    /// is of runs timed by their ends (0 where not measured).
    profiled: f64,
}

impl Times {
    /// `ends`' span, min, max and enqueue time with `every`'s kernels (the
    /// kernels of the median run with every event recorded).
    fn with_kernels_of(ends: Times, every: Times) -> Times {
        Times { busy: every.busy, each: every.each, starts: every.starts, profiled: every.median, ..ends }
    }
}

/// Runs `f` warm `reps` times and returns its [`Times`] from the launches
/// `recording` names; `kernels` are those `f` launches (a plan's own where
/// its vectors are split), and for [`Recording::Ends`] `f` marks its last
/// launch (`FieldKernels::mark_last_launch`).
fn time_runs(kernels: &FieldKernels, reps: usize, recording: Recording, mut f: impl FnMut() -> Result<()>) -> Result<Times> {
    time_runs_on(kernels, reps, recording, &mut (), |_| Ok(()), |_| f())
}

/// [`time_runs`] of `f` on `state`, with `setup` of it before each run, not
/// timed (its launches are not recorded).
fn time_runs_on<S>(
    kernels: &FieldKernels,
    reps: usize,
    recording: Recording,
    state: &mut S,
    mut setup: impl FnMut(&mut S) -> Result<()>,
    mut f: impl FnMut(&mut S) -> Result<()>,
) -> Result<Times> {
    for _ in 0..3 {
        setup(state)?;
        f(state)?;
    }
    kernels.session().queue.finish().or_device(|| "the device queue failed".into())?;
    let mut runs = Vec::with_capacity(reps);
    for _ in 0..reps {
        setup(state)?;
        kernels.start_recording(recording);
        let t0 = std::time::Instant::now();
        let ran = f(state);
        let enqueue = t0.elapsed().as_secs_f64() * 1e3;
        // the recording stops whether the run failed or not
        let recorded = kernels.stop_recording_each();
        ran?;
        let (span, busy, each, starts) = recorded?;
        if each.is_empty() {
            return Err(crate::Error::internal("a timed run launched no kernel these kernels record"));
        }
        let ms = |v: Vec<u64>| v.iter().map(|&t| t as f64 / 1e6).collect::<Vec<_>>();
        runs.push(Times {
            median: span as f64 / 1e6,
            min: 0.0,
            max: 0.0,
            busy: busy as f64 / 1e6,
            each: ms(each),
            starts: ms(starts),
            enqueue,
            profiled: 0.0,
        });
    }
    runs.sort_by(|a, b| a.median.total_cmp(&b.median));
    let (min, max) = (runs[0].median, runs[runs.len() - 1].median);
    Ok(Times { min, max, ..runs.swap_remove(runs.len() / 2) })
}

#[allow(clippy::too_many_arguments)]
fn record(
    prime: &Prime,
    n: usize,
    variant: String,
    mul: &str,
    t: Times,
    reps: usize,
    bytes: u64,
    ops: (f64, f64),
    roof: &Roofline,
) -> Record {
    let roofline_ms = (bytes as f64 / (roof.copy_gbs * 1e9)).max(roof.compute_s(ops.0, ops.1)) * 1e3;
    Record {
        prime: prime.to_string(),
        k: prime.k(),
        n,
        log_n: n.trailing_zeros(),
        variant,
        mul: mul.to_string(),
        median_ms: t.median,
        min_ms: t.min,
        max_ms: t.max,
        reps,
        busy_ms: t.busy,
        kernel_ms: t.each,
        kernel_start_ms: t.starts,
        enqueue_ms: t.enqueue,
        profiled_median_ms: t.profiled,
        bytes,
        muls: ops.0,
        adds: ops.1,
        gbs: bytes as f64 / (t.median * 1e-3) / 1e9,
        gops: (ops.0 + ops.1) / (t.median * 1e-3) / 1e9,
        roofline_ms,
        pct_roofline: 100.0 * roofline_ms / t.median,
        twiddle_products: 0.0,
        core_floor_ms: 0.0,
    }
}

/// A plan of size n (one vector) and the times of its forward transform on
/// random data resident on the device ([`time_runs`]).
/// The median and its spread come from runs timed by their ends
/// ([`Recording::Ends`]), as light on the host as a transform outside a
/// benchmark; with `profile`, as many runs with every kernel's event give
/// each kernel's time and start ([`Times::with_kernels_of`]).
fn timed_forward(fft: &Fft, n: usize, reps: usize, profile: bool) -> Result<(crate::Plan, Times)> {
    let mut plan = fft.plan(n, 1)?;
    // flat words: the host holds 8k bytes per element, not a vector per element
    let v = plan.upload_digit_words(&random_words(fft, n, n as u64))?;
    // each run transforms the vector as uploaded (in the plan's input order, Plan::input_order)
    let order = v.order();
    let kernels = plan.kernels().clone();
    let mut state = (plan, v);
    let mut runs =
        |recording| time_runs_on(&kernels, reps, recording, &mut state, |(plan, v)| plan.reorder(v, order), |(plan, v)| plan.forward(v));
    let ends = runs(Recording::Ends)?;
    let t = if profile { Times::with_kernels_of(ends, runs(Recording::Every)?) } else { ends };
    Ok((state.0, t))
}

/// The median time (ms) of `reps` forward transforms of size n (one vector,
/// data resident on the device) after 3 warm-up runs: what `srgfn tune` compares.
pub fn forward_median_ms(fft: &Fft, n: usize, reps: usize) -> Result<f64> {
    Ok(timed_forward(fft, n, reps.max(1), false)?.1.median)
}

/// Times the forward transform of a plan of size n (one vector); with the
/// product-core rate (G/s) of the micro-benchmark, the record carries that floor.
pub fn bench_forward(fft: &Fft, n: usize, reps: usize, roof: &Roofline, core_rate_g: Option<f64>) -> Result<Record> {
    let (plan, t) = timed_forward(fft, n, reps, true)?;
    let shape = plan.shape().clone();
    let radix = plan.radix();
    let mul = fft.mul().name();
    let ptx = if plan.kernels().options().ptx { "-ptx" } else { "" };
    let fused = match fft.fuse_option() {
        Some(true) => "-fused",
        Some(false) => "-unfused",
        None => "",
    };
    let halves = match fft.halves_option() {
        Some(true) => "-halves",
        Some(false) => "-whole",
        None => "",
    };
    // "-sb": the input in the superblock order, its first two passes in one launch (emit::first2)
    let sb = if plan.input_order() == crate::Order::Natural { "" } else { "-sb" };
    // "-chain": that launch and the next ones in halves by a bit above p (plan::Chain); "-chain4":
    // the next ones in quarters
    let sb = match plan.chain() {
        Some(c) if c.low.is_some() => format!("{sb}-chain4"),
        Some(_) => format!("{sb}-chain"),
        None => sb.to_string(),
    };
    let variant = format!("srgfn-r{}-{}{fused}{halves}{sb}-{mul}{ptx}", radix.number(), plan.variant().name());
    let mut rec = record(fft.prime(), n, variant, mul, t, reps, shape.bytes_moved(), plan_ops(&shape, radix), roof);
    rec.twiddle_products = shape.general_twiddle_products() as f64;
    if let Some(g) = core_rate_g {
        rec.core_floor_ms = rec.twiddle_products / (g * 1e9) * 1e3;
    }
    Ok(rec)
}

/// Times the "no trick" baseline: radix-2 passes, every twiddle a general product.
pub fn bench_notrick(fft: &Fft, n: usize, reps: usize, roof: &Roofline) -> Result<Record> {
    let prime = fft.prime().clone();
    let k = prime.k();
    let log_n = n.trailing_zeros();
    let w = prime.root_of_unity(log_n)?;
    // W[e] = ω_n^e, e < n/2
    let table = crate::fft::powers(fft.field(), &w, 0, 1, (n / 2).max(1))?;
    let kernels = fft.kernels();
    let tb = kernels.upload(&crate::layout::to_digit_major(&table, k))?;
    let data = random_digits(fft, n, 7);
    let mut x = kernels.upload(&crate::layout::to_digit_major(&data, k))?;
    let mut y = kernels.alloc(n * k)?;
    let mut runs = |recording| {
        time_runs(fft.kernels(), reps, recording, || {
            let mut pp = 1u64;
            while pp < n as u64 {
                if 2 * pp >= n as u64 {
                    kernels.mark_last_launch();
                }
                kernels.radix2_general(&x, &y, &tb, n as u64, n as u64, pp, n as u64 / 2)?;
                std::mem::swap(&mut x, &mut y);
                pp *= 2;
            }
            Ok(())
        })
    };
    let t = Times::with_kernels_of(runs(Recording::Ends)?, runs(Recording::Every)?);
    let data_bytes = (n * k * 8) as u64;
    let bytes = log_n as u64 * (2 * data_bytes + data_bytes / 2);
    let per_bf = add2(add2((0.0, 0.0), model::add(k), 2.0), model::mul(k), 1.0);
    let ops = (log_n as f64 * (n as f64 / 2.0) * per_bf.0, log_n as f64 * (n as f64 / 2.0) * per_bf.1);
    Ok(record(&prime, n, "baseline-notrick".into(), fft.mul().name(), t, reps, bytes, ops, roof))
}

/// Times the "small primes" baseline of the thesis (ch. 7): s = 2k NTTs of
/// size n over 32-bit Fourier primes plus the Garner recombination, on the
/// same device, for comparison with the big-prime forward transform.
/// Returns three records: "baseline-smallprimes-s{s}" (NTTs and recombination,
/// `kernel_ms` each kernel), "…-ntt" (the passes, `kernel_ms` each pass) and
/// "…-recombine", each the median of its own span over the runs.  Their
/// roofline is the memory floor alone (bytes / copy bandwidth, operation
/// counts 0), so `pct_roofline` is the share of the copy bandwidth reached.
/// An error where no set of s primes covers n (`smallprime::check_coverage`).
pub fn bench_small_primes(session: &Session, prime: &Prime, n: usize, reps: usize, roof: &Roofline) -> Result<Vec<Record>> {
    let s = 2 * prime.k();
    let mut sp = crate::smallprime::SmallPrimeFft::new(session, s, n)?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let residues: Vec<u32> = sp.primes().q.iter().flat_map(|&q| (0..n).map(|_| rng.gen_range(0..q)).collect::<Vec<_>>()).collect();
    sp.upload(&residues)?;
    // per run: (NTT span, recombination, total span) and each recorded kernel's time, in ns; as
    // for srgfn's transforms (Recording), the medians come from runs with events on the first and
    // last NTT pass and the recombination only, each kernel's time from runs with every event
    let mut run = |recording: Recording| -> Result<([u64; 3], Vec<u64>)> {
        let mut evs = sp.forward_recording(recording)?;
        let (ntt, _, _, _) = crate::kernels::event_times(&evs)?;
        evs.push(sp.recombine()?);
        let (total, _, each, _) = crate::kernels::event_times(&evs)?;
        Ok(([ntt, each[each.len() - 1], total], each))
    };
    for _ in 0..3 {
        run(Recording::Every)?;
    }
    let ends: Vec<([u64; 3], Vec<u64>)> = (0..reps).map(|_| run(Recording::Ends)).collect::<Result<_>>()?;
    let every: Vec<([u64; 3], Vec<u64>)> = (0..reps).map(|_| run(Recording::Every)).collect::<Result<_>>()?;
    let passes = sp.plan().passes.len();
    let ms = |ns: u64| ns as f64 / 1e6;
    // the median run of measure `which` in `runs`, with min, max and busy time of `kernels`
    let of = |runs: &[([u64; 3], Vec<u64>)], which: usize, kernels: std::ops::Range<usize>| -> Times {
        let mut order: Vec<&([u64; 3], Vec<u64>)> = runs.iter().collect();
        order.sort_by_key(|r| r.0[which]);
        let med = order[order.len() / 2];
        let each: Vec<f64> = med.1.get(kernels).unwrap_or_default().iter().map(|&t| ms(t)).collect();
        Times {
            median: ms(med.0[which]),
            min: ms(order[0].0[which]),
            max: ms(order[order.len() - 1].0[which]),
            busy: each.iter().sum(),
            each,
            starts: Vec::new(),
            enqueue: 0.0,
            profiled: 0.0,
        }
    };
    let times = |which: usize, kernels: std::ops::Range<usize>| -> Times {
        Times::with_kernels_of(of(&ends, which, 0..0), of(&every, which, kernels))
    };
    let ntt_bytes: u64 = (0..passes).map(|k| sp.pass_bytes(k)).sum();
    let name = format!("baseline-smallprimes-s{s}");
    let no_ops = (0.0, 0.0);
    Ok(vec![
        record(prime, n, name.clone(), "", times(2, 0..passes + 1), reps, ntt_bytes + sp.recombine_bytes(), no_ops, roof),
        record(prime, n, format!("{name}-ntt"), "", times(0, 0..passes), reps, ntt_bytes, no_ops, roof),
        record(prime, n, format!("{name}-recombine"), "", times(1, passes..passes + 1), reps, sp.recombine_bytes(), no_ops, roof),
    ])
}
