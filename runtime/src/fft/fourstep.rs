//! One transform or product of N = N1·N2 elements in pieces: the four-step
//! split (docs/scale.md).  With input index n = N2·n1 + n2 and output index
//! k1 + N1·k2,
//!
//! X[k1 + N1·k2] = Σ_{n2} ω_{N2}^{n2·k2} · ω_N^{n2·k1} · Σ_{n1} x[N2·n1 + n2] · ω_{N1}^{n1·k1},
//!
//! with ω_{N1} = ω_N^{N2} and ω_{N2} = ω_N^{N1}: the roots of `srgfn roots` are
//! powers of one another, so this is the transform a plan of size N computes,
//! word for word.  The *column step* runs the N2 transforms of size N1 (column
//! n2 is x[N2·n1 + n2]) and the twiddles ω_N^{n2·k1}; the *row step* the N1
//! transforms of size N2.  Between them the data rest in host memory as
//! A[k1·N2 + n2], so each step runs in chunks of whole columns or rows that fit
//! a device: products larger than a device stream through the host, and the
//! chunks of a step are dealt to several devices (one thread each, taking the
//! next chunk from a shared counter).  A chunk computes the same numbers
//! wherever it runs, so results depend neither on the chunk size nor on the
//! devices.
//!
//! Data cross the bus as element-major digit words; the layout changes
//! (element-major ↔ digit-major, columns ↔ vectors) run on the device
//! (`transpose`), so the host only copies runs of whole elements.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use num_bigint::BigUint;
use ocl::Buffer;
use rayon::prelude::*;
use srgfn_gen::emit::Variant;
use srgfn_gen::Prime;

use super::{powers, Fft, Plan};
use crate::device_vec::DeviceVec;
use crate::error::{Error, Result};
use crate::memory;
use crate::staging::Staging;

/// Where a chunk's vectors lie in a host array of elements.
#[derive(Clone, Copy, Debug)]
enum Side {
    /// Vector j's element i at i·stride + j (the vectors are columns).
    Columns { stride: usize },
    /// Vector j's element i at j·stride + i (the vectors are rows).
    Rows { stride: usize },
}

impl Side {
    /// The runs of consecutive elements that `b` vectors of length `m` from
    /// vector `first` on occupy: (how many, elements each, first element of run
    /// r is start + r·stride).  The device block is the runs one after the other.
    fn runs(self, first: usize, b: usize, m: usize) -> (usize, usize, usize, usize) {
        match self {
            Side::Columns { stride } => (m, b, first, stride),
            Side::Rows { stride } => (b, m, first * stride, stride),
        }
    }
    fn is_columns(self) -> bool {
        matches!(self, Side::Columns { .. })
    }
}

/// A host array of elements (k words each) that the threads of a step read
/// and write at once.  Invariant: within a step, no two chunks touch the same
/// element of an array written in that step, and an array is read only by the
/// chunk that will write the same elements (the row step of a product, which
/// reads and writes its own rows) or not written at all.
struct Host<'a> {
    ptr: *mut u64,
    /// Elements.
    len: usize,
    k: usize,
    writable: bool,
    _data: PhantomData<&'a mut [u64]>,
}

// SAFETY: the pointer comes from a slice that outlives the step; the
// invariant above keeps the threads' accesses apart.
unsafe impl Send for Host<'_> {}
unsafe impl Sync for Host<'_> {}

impl<'a> Host<'a> {
    fn read(words: &'a [u64], k: usize) -> Host<'a> {
        Host { ptr: words.as_ptr() as *mut u64, len: words.len() / k, k, writable: false, _data: PhantomData }
    }
    fn write(words: &'a mut [u64], k: usize) -> Host<'a> {
        Host { ptr: words.as_mut_ptr(), len: words.len() / k, k, writable: true, _data: PhantomData }
    }
    /// The elements of [start, start + len) that exist (the rest lie past the end).
    fn clip(&self, start: usize, len: usize) -> usize {
        len.min(self.len.saturating_sub(start))
    }
    /// Copies elements [start, start + count) into `dst` (k words each), zeros past the end.
    fn get(&self, start: usize, dst: &mut [u64]) {
        let have = self.clip(start, dst.len() / self.k) * self.k;
        // SAFETY: in bounds by `clip`; no chunk writes these elements during the read (invariant).
        let src = unsafe { std::slice::from_raw_parts(self.ptr.add(start * self.k), have) };
        dst[..have].copy_from_slice(src);
        dst[have..].fill(0);
    }
    /// Writes `src` (k words per element) at element `start`, dropping what lies past the end.
    fn put(&self, start: usize, src: &[u64]) {
        assert!(self.writable, "a step writes only to its output");
        let have = self.clip(start, src.len() / self.k) * self.k;
        // SAFETY: in bounds by `clip`; the elements belong to this chunk alone (invariant).
        let dst = unsafe { std::slice::from_raw_parts_mut(self.ptr.add(start * self.k), have) };
        dst.copy_from_slice(&src[..have]);
    }
}

/// Times and traffic of a [`FourStep`]'s last operation.
#[derive(Clone, Debug, Default)]
pub struct FourStepStats {
    /// Wall time of the whole operation, ms (host memory set-up included).
    pub total_ms: f64,
    /// Each step's name and wall time, ms, in order.
    pub steps: Vec<(String, f64)>,
    /// Per device, ms spent moving data between the host arrays and the
    /// device: the host's copies of runs, the writes and the reads.  This is
    /// the exchange of the split: every step's input and output cross it.
    pub transfer_ms: Vec<f64>,
    /// Per device, ms spent waiting for its kernels.
    pub compute_ms: Vec<f64>,
    /// Per device, chunks run.
    pub chunks: Vec<usize>,
    /// Bytes written to and read from the devices, all together.
    pub bytes: u128,
}

/// One device's share of a step.
#[derive(Default)]
struct Share {
    transfer_s: f64,
    compute_s: f64,
    chunks: usize,
    bytes: u128,
}

/// What a chunk's vectors go through on the device: (device index, the
/// step's plan, the chunk's vectors, the global index of its first vector).
type ChunkOp<'o> = dyn Fn(usize, &mut Plan, &mut [DeviceVec], usize) -> Result<()> + Sync + 'o;

/// One step: vectors of 2^log_m elements read from `inputs` (all on the same
/// side), put through `op`, the first vector written to `output`.
struct Step<'a, 'o> {
    name: &'static str,
    log_m: u32,
    inputs: Vec<Host<'a>>,
    side_in: Side,
    output: Host<'a>,
    side_out: Side,
    op: &'o ChunkOp<'o>,
}

/// A transform or product of size N split into column and row transforms that
/// run in chunks on one or several devices (see the module docs).  Made by
/// [`Fft::four_step`] or [`crate::MultiFft::four_step`].
pub struct FourStep {
    ffts: Vec<Fft>,
    prime: Prime,
    log_n: u32,
    log_n1: u32,
    /// Elements per chunk: a power of two, N2 ≤ chunk ≤ N.
    chunk: usize,
    /// N = K·2^log_t; the twiddle tables A (2^(log_t − log_c) entries), B (2^log_c).
    log_t: u32,
    log_c: u32,
    /// Per device: A[u] = ω_N^{u·2^log_c}, B[v] = ω_N^v, digit-major.
    tables: Vec<(Buffer<u64>, Buffer<u64>)>,
    /// Per device: its staging chunk (pinned host memory on NVIDIA), made by its first step and kept.
    staging: Vec<Mutex<Option<Staging>>>,
    stats: Mutex<FourStepStats>,
}

/// The default chunk's size bound: large enough that transfers and launches
/// run at full speed, small enough that each device thread's host staging
/// buffer stays small.
const DEFAULT_CHUNK_BYTES: u128 = 1 << 30;

/// log2 of the smallest N the split takes: N1, N2 ≥ 2 and N ≥ K (so that ω_N^{N/K} = r).
pub(crate) fn min_log_n(prime: &Prime) -> u32 {
    prime.base_size().trailing_zeros().max(2)
}

/// Device memory of a step's chunk of 2^log_e elements: a plan of vectors of
/// 2^log_m elements holding two of them, and the split's twiddle tables.
fn chunk_need(prime: &Prime, variant: Variant, log_m: u32, log_e: u32, table_elements: usize) -> memory::Need {
    let mut need = memory::plan_need(prime, variant, 1u128 << log_m, 1u128 << (log_e - log_m), 2);
    need.device = need.device.saturating_add(memory::element_bytes(prime.k(), table_elements as u128));
    need
}

impl FourStep {
    /// The split of size n over `ffts` (one per device, the same prime and
    /// options), in chunks of at most `chunk` elements (default: the most that
    /// fit every device, leaving an eighth of its memory free, at most
    /// 1 GiB, and at most N / D over D devices so that each has work in every step).
    pub(crate) fn new(ffts: Vec<Fft>, n: usize, chunk: Option<usize>) -> Result<FourStep> {
        let prime = ffts.first().ok_or_else(|| Error::option("the four-step split needs at least one device"))?.prime().clone();
        if let Some(f) = ffts.iter().find(|f| f.prime() != &prime) {
            return Err(Error::option(format!("the four-step split runs one prime: {} and {} given", prime, f.prime())));
        }
        let max_n = Some(BigUint::from(1u32) << prime.two_adicity());
        if !n.is_power_of_two() {
            return Err(Error::size(max_n, format!("N = {n} is not a power of two")));
        }
        let log_n = n.trailing_zeros();
        prime.check_log_size(log_n)?;
        let min = min_log_n(&prime);
        if log_n < min {
            return Err(Error::size(max_n, format!("the four-step split takes N ≥ 2^{min} for {prime}; N = 2^{log_n} fits one plan")));
        }
        let (log_n1, log_n2) = (log_n / 2, log_n - log_n / 2);
        let log_t = log_n - prime.base_size().trailing_zeros();
        let log_c = log_t.div_ceil(2);
        let table_elements = (1usize << (log_t - log_c)) + (1usize << log_c);
        // the chunk: at most N, the caller's bound, and 2^31 elements (the
        // layout changes index words with 32 bits); then halved until it fits
        let mut log_e = log_n.min(31);
        if chunk.is_none() {
            // a chunk of at most DEFAULT_CHUNK_BYTES (its host staging buffer too), and with
            // several devices at most N / D, so that every device gets a chunk of each step
            let cap = (DEFAULT_CHUNK_BYTES / memory::element_bytes(prime.k(), 1)).max(1).ilog2();
            log_e = log_e.min(cap).min(log_n - ffts.len().next_power_of_two().trailing_zeros()).max(log_n2);
        }
        if let Some(c) = chunk {
            if !c.is_power_of_two() || c < 1 << log_n2 {
                return Err(Error::option(format!("the chunk must be a power of two of at least N2 = 2^{log_n2} elements, got {c}")));
            }
            log_e = log_e.min(c.trailing_zeros());
        }
        let fits = |f: &Fft, log_e: u32| {
            let mut room = f.limits();
            room.global_mem_bytes -= room.global_mem_bytes / 8;
            memory::check("", chunk_need(&prime, f.variant(), log_n2, log_e, table_elements), Some(&room), "").is_ok()
        };
        while log_e > log_n2 && !ffts.iter().all(|f| fits(f, log_e)) {
            log_e -= 1;
        }
        for f in &ffts {
            memory::check(
                &format!("the four-step split of N = 2^{log_n} (chunks of 2^{log_e} elements, rows of 2^{log_n2})"),
                chunk_need(&prime, f.variant(), log_n2, log_e, table_elements),
                Some(&f.limits()),
                "",
            )?;
        }
        let w = prime.root_of_unity(log_n)?;
        let field = ffts[0].field();
        let (a, b) = rayon::join(|| powers(field, &w, 0, 1 << log_c, 1 << (log_t - log_c)), || powers(field, &w, 0, 1, 1 << log_c));
        let (a, b) = (crate::layout::to_digit_major(&a?, prime.k()), crate::layout::to_digit_major(&b?, prime.k()));
        let tables = ffts.iter().map(|f| Ok((f.kernels().upload(&a)?, f.kernels().upload(&b)?))).collect::<Result<_>>()?;
        let staging = ffts.iter().map(|_| Mutex::default()).collect();
        Ok(FourStep { ffts, prime, log_n, log_n1, chunk: 1 << log_e, log_t, log_c, tables, staging, stats: Mutex::default() })
    }

    /// The transform size N.
    pub fn n(&self) -> usize {
        1 << self.log_n
    }
    /// (N1, N2): the column transforms' size and the row transforms' size.
    pub fn split(&self) -> (usize, usize) {
        (1 << self.log_n1, 1 << (self.log_n - self.log_n1))
    }
    /// Elements per chunk (a power of two between N2 and N).
    pub fn chunk(&self) -> usize {
        self.chunk
    }
    /// The devices' [`Fft`]s, in order.
    pub fn ffts(&self) -> &[Fft] {
        &self.ffts
    }
    /// Times and traffic of the last [`FourStep::forward_digits`] or [`FourStep::product_digits`].
    pub fn stats(&self) -> FourStepStats {
        self.stats.lock().expect("stats").clone()
    }

    /// Refuses words that are not whole canonical elements, or more than `max` of them.
    fn check_input(&self, what: &str, words: &[u64], max: usize) -> Result<usize> {
        let k = self.prime.k();
        if !words.len().is_multiple_of(k) || words.len() / k > max {
            return Err(Error::input(format!("{what}: {} words are not at most {max} elements of k = {k} digits", words.len())));
        }
        let field = self.ffts[0].field();
        words.par_chunks(k).enumerate().try_for_each(|(i, e)| field.validate(e).map_err(|e| Error::from(e).at_element(i)))?;
        Ok(words.len() / k)
    }

    /// Zeroed host words for `elements` elements, after checking host memory
    /// for `peak` elements in all and every device thread's staging chunk.
    fn host_array(&self, what: &str, elements: usize, peak: usize) -> Result<Vec<u64>> {
        let k = self.prime.k();
        let staging = self.ffts.len() as u128 * self.chunk as u128;
        memory::check_host(what, memory::element_bytes(k, peak as u128 + staging))?;
        Ok(vec![0u64; elements * k])
    }

    /// The forward DFT of `x` (digit words, element after element; fewer than
    /// N elements are padded with zeros), in natural order: the same words as
    /// [`Plan::forward`] of size N gives.
    pub fn forward_digits(&self, x: &[u64]) -> Result<Vec<u64>> {
        let t = Instant::now();
        self.check_input("the input", x, self.n())?;
        let k = self.prime.k();
        let (n1, n2) = self.split();
        let what = format!("the four-step transform of N = 2^{} (two arrays of N elements and a chunk per device)", self.log_n);
        let mut a = self.host_array(&what, self.n(), 2 * self.n())?;
        let mut steps = Vec::new();
        let columns = |dev: usize, plan: &mut Plan, v: &mut [DeviceVec], first: usize| self.columns(dev, plan, v, first);
        steps.push(self.run(Step {
            name: "columns",
            log_m: self.log_n1,
            inputs: vec![Host::read(x, k)],
            side_in: Side::Columns { stride: n2 },
            output: Host::write(&mut a, k),
            side_out: Side::Columns { stride: n2 },
            op: &columns,
        })?);
        let mut out = self.host_array(&what, self.n(), 2 * self.n())?;
        let rows = |_: usize, plan: &mut Plan, v: &mut [DeviceVec], _: usize| plan.forward(&mut v[0]);
        steps.push(self.run(Step {
            name: "rows",
            log_m: self.log_n - self.log_n1,
            inputs: vec![Host::read(&a, k)],
            side_in: Side::Rows { stride: n2 },
            output: Host::write(&mut out, k),
            side_out: Side::Columns { stride: n1 },
            op: &rows,
        })?);
        self.record(t, steps);
        Ok(out)
    }

    /// The product of two polynomials given as digit words (as
    /// [`Fft::poly_mul_digits`]): la + lb − 1 ≤ N coefficients.  Column steps
    /// for both factors, one row step (forward transforms, pointwise product,
    /// inverse), and the inverse column step.
    pub fn product_digits(&self, a: &[u64], b: &[u64]) -> Result<Vec<u64>> {
        let t = Instant::now();
        let k = self.prime.k();
        let n = self.n();
        let la = self.check_input("the first factor", a, n)?;
        let lb = self.check_input("the second factor", b, n)?;
        if la == 0 || lb == 0 || la + lb - 1 > n {
            return Err(Error::input(format!("a product of {la} × {lb} coefficients needs 1 ≤ la + lb − 1 ≤ N = 2^{}", self.log_n)));
        }
        let (_, n2) = self.split();
        let what = format!("the four-step product of N = 2^{} (two arrays of N elements and a chunk per device)", self.log_n);
        let mut fa = self.host_array(&what, n, 2 * n)?;
        let mut fb = self.host_array(&what, n, 2 * n)?;
        let mut steps = Vec::new();
        let columns = |dev: usize, plan: &mut Plan, v: &mut [DeviceVec], first: usize| self.columns(dev, plan, v, first);
        let cols = Side::Columns { stride: n2 };
        for (name, src, dst) in [("columns of A", a, &mut fa), ("columns of B", b, &mut fb)] {
            steps.push(self.run(Step {
                name,
                log_m: self.log_n1,
                inputs: vec![Host::read(src, k)],
                side_in: cols,
                output: Host::write(dst, k),
                side_out: cols,
                op: &columns,
            })?);
        }
        let rows = |_: usize, plan: &mut Plan, v: &mut [DeviceVec], _: usize| {
            let (va, vb) = v.split_at_mut(1);
            plan.forward(&mut va[0])?;
            plan.forward(&mut vb[0])?;
            plan.pointwise_mul(&mut va[0], &vb[0])?;
            plan.inverse(&mut va[0])
        };
        // each chunk reads and writes its own rows of fa (Host's invariant)
        let fa_host = Host::write(&mut fa, k);
        let fa_read = fa_host.reader();
        steps.push(self.run(Step {
            name: "rows (transforms, product, inverse)",
            log_m: self.log_n - self.log_n1,
            inputs: vec![fa_read, Host::read(&fb, k)],
            side_in: Side::Rows { stride: n2 },
            output: fa_host,
            side_out: Side::Rows { stride: n2 },
            op: &rows,
        })?);
        drop(fb);
        let mut out = self.host_array(&what, la + lb - 1, n + la + lb - 1)?;
        let inverse = |dev: usize, plan: &mut Plan, v: &mut [DeviceVec], first: usize| {
            self.twiddle(dev, plan, &v[0], first, true)?;
            plan.inverse(&mut v[0])
        };
        steps.push(self.run(Step {
            name: "inverse columns",
            log_m: self.log_n1,
            inputs: vec![Host::read(&fa, k)],
            side_in: cols,
            output: Host::write(&mut out, k),
            side_out: cols,
            op: &inverse,
        })?);
        self.record(t, steps);
        Ok(out)
    }

    /// The column step's work on a chunk: the transforms of size N1, then the twiddles.
    fn columns(&self, dev: usize, plan: &mut Plan, v: &mut [DeviceVec], first: usize) -> Result<()> {
        plan.forward(&mut v[0])?;
        self.twiddle(dev, plan, &v[0], first, false)
    }

    /// Element i of vector j of `v` (column first + j) times ω_N^{±(first + j)·i}.
    fn twiddle(&self, dev: usize, plan: &Plan, v: &DeviceVec, first: usize, inverse: bool) -> Result<()> {
        let (a, b) = &self.tables[dev];
        let total = plan.total() as u64;
        plan.kernels.fourstep_twiddle(&v.bufs[0], total, (a, b), self.log_t, self.log_c, first as u64, plan.n() as u64, inverse, total)
    }

    fn record(&self, t: Instant, steps: Vec<(String, f64, Vec<Share>)>) {
        let devices = self.ffts.len();
        let mut stats = FourStepStats {
            transfer_ms: vec![0.0; devices],
            compute_ms: vec![0.0; devices],
            chunks: vec![0; devices],
            ..Default::default()
        };
        for (name, ms, shares) in steps {
            stats.steps.push((name, ms));
            for (d, s) in shares.iter().enumerate() {
                stats.transfer_ms[d] += s.transfer_s * 1e3;
                stats.compute_ms[d] += s.compute_s * 1e3;
                stats.chunks[d] += s.chunks;
                stats.bytes += s.bytes;
            }
        }
        stats.total_ms = t.elapsed().as_secs_f64() * 1e3;
        *self.stats.lock().expect("stats") = stats;
    }

    /// Runs a step on every device until its chunks are done: (name, ms, each device's share).
    fn run(&self, step: Step) -> Result<(String, f64, Vec<Share>)> {
        let t = Instant::now();
        let chunks = self.n() / self.chunk;
        let (next, stop) = (AtomicUsize::new(0), AtomicBool::new(false));
        let results: Vec<Result<Share>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..self.ffts.len())
                .map(|dev| {
                    let (step, next, stop) = (&step, &next, &stop);
                    s.spawn(move || {
                        let r = self.worker(dev, step, chunks, next, stop);
                        if r.is_err() {
                            stop.store(true, Ordering::Relaxed);
                        }
                        r
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(Error::internal("a device thread panicked")))).collect()
        });
        let shares = results.into_iter().collect::<Result<Vec<_>>>()?;
        Ok((step.name.to_string(), t.elapsed().as_secs_f64() * 1e3, shares))
    }

    /// One device's loop over a step's chunks.
    fn worker(&self, dev: usize, step: &Step, chunks: usize, next: &AtomicUsize, stop: &AtomicBool) -> Result<Share> {
        let k = self.prime.k();
        let m = 1usize << step.log_m;
        let b = self.chunk / m;
        let mut share = Share::default();
        if next.load(Ordering::Relaxed) >= chunks {
            return Ok(share);
        }
        let mut plan = self.ffts[dev].plan(m, b)?;
        if plan.scratch.len() != 1 {
            return Err(Error::internal("a four-step chunk must fit one buffer"));
        }
        let mut vecs = (0..step.inputs.len()).map(|_| Ok(plan.new_vec(plan.alloc_vec()?))).collect::<Result<Vec<_>>>()?;
        let mut kept = self.staging[dev].lock().expect("staging");
        let staging = kept.get_or_insert_with(|| Staging::new(&self.ffts[dev].session().queue, self.chunk * k));
        let block_bytes = memory::element_bytes(k, self.chunk as u128);
        while !stop.load(Ordering::Relaxed) {
            let c = next.fetch_add(1, Ordering::Relaxed);
            if c >= chunks {
                break;
            }
            let first = c * b;
            let t = Instant::now();
            for (v, src) in vecs.iter_mut().zip(&step.inputs) {
                let (_, run, start, stride) = step.side_in.runs(first, b, m);
                staging.par_chunks_mut(run * k).enumerate().for_each(|(r, dst)| src.get(start + r * stride, dst));
                fill(&mut plan, v, staging, step.side_in.is_columns().then_some((m, b)))?;
            }
            let t1 = Instant::now();
            (step.op)(dev, &mut plan, &mut vecs, first)?;
            plan.finish()?;
            let t2 = Instant::now();
            drain(&mut plan, &mut vecs[0], step.side_out.is_columns().then_some((b, m)), staging)?;
            let (_, run, start, stride) = step.side_out.runs(first, b, m);
            staging.par_chunks(run * k).enumerate().for_each(|(r, src)| step.output.put(start + r * stride, src));
            share.transfer_s += (t1 - t).as_secs_f64() + t2.elapsed().as_secs_f64();
            share.compute_s += (t2 - t1).as_secs_f64();
            share.chunks += 1;
            share.bytes += block_bytes * (step.inputs.len() as u128 + 1);
        }
        Ok(share)
    }
}

impl<'a> Host<'a> {
    /// A read-only second handle on the same array (for a step that reads and writes it; see the invariant).
    fn reader(&self) -> Host<'a> {
        Host { ptr: self.ptr, len: self.len, k: self.k, writable: false, _data: PhantomData }
    }
}

/// A chunk's element-major words into `v`, digit-major; with `Some((rows,
/// cols))` each digit plane, a rows × cols block, is transposed so that the
/// block's columns become the vectors.
fn fill(plan: &mut Plan, v: &mut DeviceVec, words: &[u64], transpose: Option<(usize, usize)>) -> Result<()> {
    let (k, total) = (plan.fft.prime().k(), plan.total());
    let kernels = plan.kernels.clone();
    kernels.write_staged(&plan.scratch[0], words)?;
    kernels.transpose(&plan.scratch[0], &v.bufs[0], total as u32, k as u32, 1)?;
    if let Some((rows, cols)) = transpose {
        kernels.transpose(&v.bufs[0], &plan.scratch[0], rows as u32, cols as u32, k as u32)?;
        std::mem::swap(&mut v.bufs[0], &mut plan.scratch[0]);
    }
    v.order = crate::Order::Natural;
    v.valid = true;
    Ok(())
}

/// The reverse of [`fill`]: with `Some((rows, cols))` each digit plane (rows
/// vectors of cols elements) is transposed first; then the chunk is read back
/// element-major into `words`.
fn drain(plan: &mut Plan, v: &mut DeviceVec, transpose: Option<(usize, usize)>, words: &mut [u64]) -> Result<()> {
    let (k, total) = (plan.fft.prime().k(), plan.total());
    let kernels = plan.kernels.clone();
    if let Some((rows, cols)) = transpose {
        kernels.transpose(&v.bufs[0], &plan.scratch[0], rows as u32, cols as u32, k as u32)?;
        std::mem::swap(&mut v.bufs[0], &mut plan.scratch[0]);
    }
    kernels.transpose(&v.bufs[0], &plan.scratch[0], k as u32, total as u32, 1)?;
    kernels.read_staged(&plan.scratch[0], words)
}

impl Fft {
    /// The four-step split of size n on this device alone, in chunks of at
    /// most `chunk` elements (default: as large as fit): transforms and
    /// products larger than the device, streamed through host memory.
    pub fn four_step(&self, n: usize, chunk: Option<usize>) -> Result<FourStep> {
        FourStep::new(vec![self.clone()], n, chunk)
    }
}
