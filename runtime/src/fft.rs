//! FFTs, inverse FFTs and polynomial products on an OpenCL device.
//!
//! ```
//! use num_bigint::BigUint;
//! use srgfn::{Fft, Session};
//! use srgfn_gen::Prime;
//!
//! let session = Session::open(None)?;                   // first GPU, else PoCL
//! let prime = Prime::parse("(2^63+2^34)^8+1")?;
//! let fft = Fft::new(&session, &prime)?;
//! let mut plan = fft.plan(1 << 10, 1)?;                 // N = 1024, one vector
//! let x: Vec<BigUint> = (0u32..1024).map(BigUint::from).collect();
//! let mut v = plan.upload(&x)?;                         // digit-major on the device
//! plan.forward(&mut v)?;                                // X_j = Σ x_i ω^{ij}
//! plan.inverse(&mut v)?;                                // back to x
//! assert_eq!(plan.download(&v)?, x);
//! # Ok::<(), anyhow::Error>(())
//! ```

use std::sync::Arc;

use anyhow::{bail, Context as _, Result};
use num_bigint::BigUint;
use ocl::Buffer;
use rayon::prelude::*;
use srgfn_gen::emit::{self, Variant};
use srgfn_gen::plan::PlanShape;
use srgfn_gen::rules::Radix;
use srgfn_gen::{Digits, Field, Prime};

use crate::kernels::FieldKernels;
use crate::session::Session;

/// The kernels of one prime on one device; cheap to clone (shared).
#[derive(Clone)]
pub struct Fft {
    kernels: Arc<FieldKernels>,
    field: Arc<Field>,
    variant: Variant,
}

/// Options of an [`Fft`]: the base-case radix and variant.
#[derive(Clone, Copy, Debug, Default)]
pub struct FftOptions {
    /// Radix of the DFT_K expansion (default 2).
    pub radix: Option<Radix>,
    /// Base-case variant (default: "private" for k ≤ 16, else "workgroup").
    pub variant: Option<Variant>,
}

impl Fft {
    pub fn new(session: &Session, prime: &Prime) -> Result<Fft> {
        Self::with_options(session, prime, FftOptions::default())
    }

    pub fn with_options(session: &Session, prime: &Prime, opts: FftOptions) -> Result<Fft> {
        let radix = opts.radix.unwrap_or(Radix::R2);
        let kernels = FieldKernels::new(session, prime, radix)?;
        let variants = emit::variants_for(prime);
        let variant = opts.variant.unwrap_or(variants[0]);
        if !variants.contains(&variant) {
            bail!("variant {variant:?} is not emitted for k = {} (available: {variants:?})", prime.k());
        }
        Ok(Fft { kernels: Arc::new(kernels), field: Arc::new(Field::new(prime)), variant })
    }

    pub fn prime(&self) -> &Prime {
        &self.kernels.prime
    }
    pub fn field(&self) -> &Field {
        &self.field
    }
    pub fn session(&self) -> &Session {
        &self.kernels.session
    }
    pub fn kernels(&self) -> &FieldKernels {
        &self.kernels
    }
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Compiles (or loads from the cache) every kernel a transform of size n needs.
    pub fn prepare(&self, n: usize) -> Result<()> {
        let shape = PlanShape::new(self.prime(), n.trailing_zeros(), 1)?;
        self.kernels.prepare(self.variant, &shape.radices())
    }

    /// A plan for `batch` vectors of size `n` (a power of two allowed by the prime).
    pub fn plan(&self, n: usize, batch: usize) -> Result<Plan> {
        if !n.is_power_of_two() {
            bail!("N = {n} is not a power of two");
        }
        Plan::new(self.clone(), n.trailing_zeros(), batch)
    }

    /// Product of two polynomials mod p (coefficients lowest degree first).
    pub fn poly_mul(&self, a: &[BigUint], b: &[BigUint]) -> Result<Vec<BigUint>> {
        if a.is_empty() || b.is_empty() {
            bail!("polynomial product of an empty polynomial: give at least one coefficient each");
        }
        let len = a.len() + b.len() - 1;
        let n = len.next_power_of_two().max(2);
        let trace = std::env::var_os("SRGFN_TRACE").is_some();
        let mut t = std::time::Instant::now();
        let mut phase = |name: &str| {
            if trace {
                eprintln!("srgfn trace: poly_mul {name}: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
            }
            t = std::time::Instant::now();
        };
        let mut plan = self.plan(n, 1).context("the product is too long for this prime or device")?;
        phase("plan (twiddle table)");
        let mut va = plan.upload_padded(a)?;
        let mut vb = plan.upload_padded(b)?;
        plan.finish()?;
        phase("upload (conversion, transfer, layout)");
        plan.forward(&mut va)?;
        plan.forward(&mut vb)?;
        plan.pointwise_mul(&mut va, &vb)?;
        drop(vb);
        plan.inverse(&mut va)?;
        plan.finish()?;
        phase("transforms and product");
        let out = plan.download_prefix(&va, len)?;
        phase("download (layout, transfer, conversion)");
        Ok(out)
    }
}

/// Elements resident on the device in the digit-major layout.
pub struct DeviceVec {
    buf: Buffer<u64>,
    /// N · batch elements.
    len: usize,
    /// False after an operation on it failed part-way: its contents are then
    /// undefined, and every later use is refused rather than computing on them.
    valid: bool,
}

impl DeviceVec {
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn buffer(&self) -> &Buffer<u64> {
        &self.buf
    }
}

/// A planned transform of size N on `batch` vectors: its launches, one
/// scratch buffer and the twiddle table, allocated once.
pub struct Plan {
    fft: Fft,
    shape: PlanShape,
    scratch: Buffer<u64>,
    /// W[t] = ω_N^t, t < N/K (one dummy element when N ≤ K).
    table: Buffer<u64>,
    n_inv: Buffer<u64>,
}

impl Plan {
    fn new(fft: Fft, log_n: u32, batch: usize) -> Result<Plan> {
        if batch == 0 {
            bail!("batch must be at least 1");
        }
        let prime = fft.prime().clone();
        let shape = PlanShape::new(&prime, log_n, batch)?;
        check_memory(&fft, &shape)?;
        let k = prime.k();
        let total = shape.n * batch;
        let kernels = fft.kernels.clone();
        kernels.prepare(fft.variant, &shape.radices())?;
        let scratch = kernels.alloc(total * k)?;
        let table = if shape.table_len > 0 { kernels.upload(&twiddle_table(&fft.field, &shape)?)? } else { kernels.upload(&vec![0; k])? };
        let n_inv = kernels.upload(&fft.field.inv_u64(shape.n as u64)?)?;
        Ok(Plan { fft, shape, scratch, table, n_inv })
    }

    pub fn shape(&self) -> &PlanShape {
        &self.shape
    }
    pub fn n(&self) -> usize {
        self.shape.n
    }
    pub fn batch(&self) -> usize {
        self.shape.batch
    }
    fn total(&self) -> usize {
        self.shape.n * self.shape.batch
    }

    /// Uploads N·batch values (< p each, vector after vector).
    pub fn upload(&mut self, values: &[BigUint]) -> Result<DeviceVec> {
        self.check_len(values.len())?;
        self.upload_padded(values)
    }

    /// Uploads `values` followed by zeros up to N·batch elements.  The
    /// conversion to digits runs in parallel straight into the element-major
    /// words (no per-element allocation); the layout change runs on the device.
    pub fn upload_padded(&mut self, values: &[BigUint]) -> Result<DeviceVec> {
        let total = self.total();
        if values.len() > total {
            bail!("mismatched sizes: {} values do not fit a plan of {} elements", values.len(), total);
        }
        let k = self.fft.prime().k();
        let field = self.fft.field.clone();
        let mut words = vec![0u64; total * k];
        words[..values.len() * k]
            .par_chunks_mut(k)
            .zip(values.par_iter())
            .enumerate()
            .try_for_each(|(i, (dst, v))| -> Result<()> {
                dst.copy_from_slice(&field.from_biguint(v).with_context(|| format!("element {i}"))?);
                Ok(())
            })?;
        self.upload_words(words)
    }

    /// Uploads element-major words (k per element, already canonical).
    fn upload_words(&mut self, words: Vec<u64>) -> Result<DeviceVec> {
        let k = self.fft.prime().k();
        let kernels = &self.fft.kernels;
        kernels.write(&self.scratch, &words)?;
        let buf = kernels.alloc(words.len())?;
        kernels.transpose(&self.scratch, &buf, self.total() as u32, k as u32, 1)?;
        Ok(DeviceVec { buf, len: self.total(), valid: true })
    }

    /// Uploads N·batch elements given as canonical digit vectors; the layout
    /// change to digit-major runs on the device.
    pub fn upload_digits(&mut self, elems: &[Digits]) -> Result<DeviceVec> {
        self.check_len(elems.len())?;
        for (i, e) in elems.iter().enumerate() {
            self.fft.field.validate(e).with_context(|| format!("element {i}"))?;
        }
        self.upload_words(elems.iter().flatten().copied().collect())
    }

    /// Element-major words of a vector (layout change on the device).
    fn download_words(&mut self, v: &DeviceVec) -> Result<Vec<u64>> {
        self.check_vec(v)?;
        let k = self.fft.prime().k();
        let kernels = &self.fft.kernels;
        kernels.transpose(&v.buf, &self.scratch, k as u32, self.total() as u32, 1)?;
        kernels.download(&self.scratch)
    }

    /// Reads a vector back as digit vectors.
    pub fn download_digits(&mut self, v: &DeviceVec) -> Result<Vec<Digits>> {
        let k = self.fft.prime().k();
        Ok(self.download_words(v)?.chunks(k).map(<[u64]>::to_vec).collect())
    }

    /// Reads a vector back as values (converted in parallel).
    pub fn download(&mut self, v: &DeviceVec) -> Result<Vec<BigUint>> {
        self.download_prefix(v, self.total())
    }

    /// The first `len` elements of a vector as values.
    pub fn download_prefix(&mut self, v: &DeviceVec, len: usize) -> Result<Vec<BigUint>> {
        let k = self.fft.prime().k();
        let words = self.download_words(v)?;
        let field = self.fft.field.clone();
        words[..len.min(self.total()) * k]
            .par_chunks(k)
            .map(|d| field.to_biguint(d).context("the device returned a non-canonical element"))
            .collect()
    }

    fn check_vec(&self, v: &DeviceVec) -> Result<()> {
        if !v.valid {
            bail!("this device vector's contents are undefined after an operation on it failed; upload it again");
        }
        self.check_len(v.len)
    }

    fn check_len(&self, len: usize) -> Result<()> {
        if len != self.total() {
            bail!(
                "mismatched sizes: the plan is for {} vector(s) of N = {} ({} elements), got {len}",
                self.shape.batch,
                self.shape.n,
                self.total()
            );
        }
        Ok(())
    }

    /// Runs the plan's passes; the result is in `v` (buffers are swapped, not copied).
    fn run(&mut self, v: &mut DeviceVec) -> Result<()> {
        self.check_vec(v)?;
        v.valid = false;
        let kernels = self.fft.kernels.clone();
        let (n, total) = (self.shape.n as u64, self.total() as u64);
        let log_t = self.shape.table_len.max(1).trailing_zeros();
        for pass in &self.shape.passes {
            let r = pass.radix as u64;
            let tw_shift = (n / (r * pass.p as u64)).trailing_zeros();
            kernels.pass(self.fft.variant, pass.radix, &v.buf, &self.scratch, &self.table, total, n, pass.p as u64, log_t, tw_shift, total / r)?;
            std::mem::swap(&mut v.buf, &mut self.scratch);
        }
        v.valid = true;
        Ok(())
    }

    /// Forward DFT of every vector: X_j = Σ_i x_i ω^{ij}, ω = `srgfn roots` of N.
    pub fn forward(&mut self, v: &mut DeviceVec) -> Result<()> {
        self.run(v)
    }

    /// Inverse DFT: the DFT at ω^{-1}, scaled by 1/N (x_j = (1/N)·X_{−j} of the forward DFT).
    pub fn inverse(&mut self, v: &mut DeviceVec) -> Result<()> {
        self.run(v)?;
        let total = self.total() as u64;
        v.valid = false;
        self.fft.kernels.reverse_scale(&v.buf, &self.scratch, &self.n_inv, total, self.shape.n as u64, total)?;
        std::mem::swap(&mut v.buf, &mut self.scratch);
        v.valid = true;
        Ok(())
    }

    /// a ← a · b element-wise.
    pub fn pointwise_mul(&self, a: &mut DeviceVec, b: &DeviceVec) -> Result<()> {
        self.check_vec(a)?;
        self.check_vec(b)?;
        let total = self.total() as u64;
        a.valid = false;
        self.fft.kernels.pointwise("mul", &a.buf, &b.buf, &a.buf, total, total)?;
        a.valid = true;
        Ok(())
    }

    /// Waits for every queued launch.
    pub fn finish(&self) -> Result<()> {
        self.fft.session().queue.finish().context("the device queue failed")
    }
}

/// W[t] = ω_N^t for t < N/K, digit-major (computed on the host in parallel chunks).
fn twiddle_table(field: &Field, shape: &PlanShape) -> Result<Vec<u64>> {
    let prime = field.prime();
    let p = prime.modulus();
    let w = prime.root_of_unity(shape.log_n)?;
    let len = shape.table_len;
    const CHUNK: usize = 4096;
    let elems: Vec<Digits> = (0..len.div_ceil(CHUNK))
        .into_par_iter()
        .flat_map_iter(|c| {
            let start = c * CHUNK;
            let mut acc = w.modpow(&BigUint::from(start as u64), p);
            let mut out = Vec::with_capacity(CHUNK);
            for _ in start..(start + CHUNK).min(len) {
                out.push(field.from_biguint(&acc).expect("below p"));
                acc = acc * &w % p;
            }
            out
        })
        .collect();
    Ok(crate::layout::to_digit_major(&elems, prime.k()))
}

/// Refuses a plan whose buffers do not fit the device, before allocating.
fn check_memory(fft: &Fft, shape: &PlanShape) -> Result<()> {
    let dev = &fft.session().device;
    let need = shape.device_bytes();
    let buffer = (shape.n * shape.batch * shape.k * 8) as u64;
    let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
    if dev.global_mem_bytes > 0 && need > dev.global_mem_bytes {
        bail!(
            "N = {} × batch {} needs {:.2} GiB of device memory (data, scratch, twiddles) but {} has {:.2} GiB",
            shape.n,
            shape.batch,
            gib(need),
            dev.name.trim(),
            gib(dev.global_mem_bytes)
        );
    }
    if dev.max_alloc_bytes > 0 && buffer > dev.max_alloc_bytes {
        bail!(
            "N = {} × batch {} needs buffers of {:.2} GiB but {} allows at most {:.2} GiB per buffer",
            shape.n,
            shape.batch,
            gib(buffer),
            dev.name.trim(),
            gib(dev.max_alloc_bytes)
        );
    }
    Ok(())
}
