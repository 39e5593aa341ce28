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

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::{bail, Context as _, Result};
use num_bigint::BigUint;
use ocl::Buffer;
use rayon::prelude::*;
use srgfn_gen::emit::{self, MulForm, Variant};
use srgfn_gen::plan::PlanShape;
use srgfn_gen::rules::Radix;
use srgfn_gen::{Digits, Field, Prime};

use crate::kernels::FieldKernels;
use crate::memory::{self, Need};
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
    /// Base-case variant (default: the first of [`emit::variants_for`]).
    pub variant: Option<Variant>,
    /// Multiplication form (default: [`crate::kernels::default_mul`]).
    pub mul: Option<MulForm>,
}

impl Fft {
    pub fn new(session: &Session, prime: &Prime) -> Result<Fft> {
        Self::with_options(session, prime, FftOptions::default())
    }

    pub fn with_options(session: &Session, prime: &Prime, opts: FftOptions) -> Result<Fft> {
        let radix = opts.radix.unwrap_or(Radix::R2);
        let mul = match opts.mul {
            Some(m) => m,
            None => crate::kernels::default_mul(session, prime)?,
        };
        let kernels = FieldKernels::with_mul(session, prime, radix, mul)?;
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
        if !n.is_power_of_two() {
            bail!("N = {n} is not a power of two");
        }
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
    /// The values are converted to and from base r on the device.
    pub fn poly_mul(&self, a: &[BigUint], b: &[BigUint]) -> Result<Vec<BigUint>> {
        self.product(a.len(), b.len(), |plan, first| plan.upload_padded(if first { a } else { b }), |plan, v, len| plan.download_prefix(v, len))
    }

    /// Product of two polynomials given as canonical digit vectors stored
    /// element after element (k words per coefficient, least significant digit
    /// first, as `srgfn fft --format bin`); returns the la + lb − 1
    /// coefficients in the same layout.  No base conversion: the fastest path.
    pub fn poly_mul_digits(&self, a: &[u64], b: &[u64]) -> Result<Vec<u64>> {
        let k = self.prime().k();
        if !a.len().is_multiple_of(k) || !b.len().is_multiple_of(k) {
            bail!("digit vectors of {} and {} words are not whole elements of k = {k} digits", a.len(), b.len());
        }
        let (la, lb) = (a.len() / k, b.len() / k);
        self.product(la, lb, |plan, first| plan.upload_digit_words(if first { a } else { b }), |plan, v, len| plan.download_digit_words(v, len))
    }

    /// The product driver: uploads both factors (padded to N ≥ la + lb − 1),
    /// two forward transforms, the pointwise product, one inverse, and the
    /// download of the first la + lb − 1 elements; `SRGFN_TRACE` prints the phases.
    fn product<T>(
        &self,
        la: usize,
        lb: usize,
        upload: impl Fn(&mut Plan, bool) -> Result<DeviceVec>,
        download: impl FnOnce(&mut Plan, &DeviceVec, usize) -> Result<T>,
    ) -> Result<T> {
        if la == 0 || lb == 0 {
            bail!("polynomial product of an empty polynomial: give at least one coefficient each");
        }
        let len = la + lb - 1;
        let n = len.next_power_of_two().max(2);
        // two data vectors besides the plan's scratch and table
        let need = memory::plan_need(self.prime(), n as u128, 1, 2);
        memory::check(&format!("a product of {la} × {lb} coefficients (N = {n})"), need, Some(&self.session().device), "")?;
        let mut t = std::time::Instant::now();
        let mut phase = |name: &str| {
            trace_phase(&format!("poly_mul {name}"), t);
            t = std::time::Instant::now();
        };
        let mut plan = self.plan(n, 1).context("the product is too long for this prime or device")?;
        phase("plan (twiddle table)");
        let mut va = upload(&mut plan, true)?;
        let mut vb = upload(&mut plan, false)?;
        plan.finish()?;
        phase("upload (conversion, transfer, layout)");
        plan.forward(&mut va)?;
        plan.forward(&mut vb)?;
        plan.pointwise_mul(&mut va, &vb)?;
        drop(vb);
        plan.inverse(&mut va)?;
        plan.finish()?;
        phase("transforms and product");
        let out = download(&mut plan, &va, len)?;
        phase("download (layout, transfer, conversion)");
        Ok(out)
    }
}

/// Elements resident on the device in the digit-major layout.  A vector
/// belongs to the plan that made it: every operation checks its prime, N,
/// batch, OpenCL context and plan, and refuses a vector made for another.
pub struct DeviceVec {
    /// N · batch · k words (invariant, checked on every use).
    buf: Buffer<u64>,
    owner: Owner,
    /// False after an operation on it failed part-way: its contents are then
    /// undefined, and every later use is refused rather than computing on them.
    valid: bool,
}

/// What a vector was made for; all of it must match the plan that uses it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Owner {
    plan: u64,
    session: u64,
    prime: String,
    k: usize,
    n: usize,
    batch: usize,
}

impl DeviceVec {
    /// N · batch elements.
    pub fn len(&self) -> usize {
        self.owner.n * self.owner.batch
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The transform size N of the plan that made it.
    pub fn n(&self) -> usize {
        self.owner.n
    }
    /// The number of vectors of size N it holds.
    pub fn batch(&self) -> usize {
        self.owner.batch
    }
    /// The [`Plan::id`] of the plan that made it.
    pub fn plan_id(&self) -> u64 {
        self.owner.plan
    }
    pub fn buffer(&self) -> &Buffer<u64> {
        &self.buf
    }
}

/// Ids of plans, unique in the process.
static NEXT_PLAN_ID: AtomicU64 = AtomicU64::new(1);

/// A planned transform of size N on `batch` vectors: its launches, one
/// scratch buffer and the twiddle table, allocated once.
pub struct Plan {
    fft: Fft,
    shape: PlanShape,
    scratch: Buffer<u64>,
    /// W[t] = ω_N^t, t < N/K (one dummy element when N ≤ K).
    table: Buffer<u64>,
    n_inv: Buffer<u64>,
    /// What its vectors are made for, its id (unique in the process) included.
    owner: Owner,
}

impl Plan {
    fn new(fft: Fft, log_n: u32, batch: usize) -> Result<Plan> {
        if batch == 0 {
            bail!("batch must be at least 1");
        }
        let prime = fft.prime().clone();
        let shape = PlanShape::new(&prime, log_n, batch)?;
        let subject = if batch == 1 { format!("N = 2^{log_n}") } else { format!("N = 2^{log_n} × batch {batch}") };
        let need = memory::plan_need(&prime, shape.n as u128, batch as u128, 1);
        memory::check(&subject, need, Some(&fft.session().device), "")?;
        let k = prime.k();
        let total = shape.n * batch;
        let kernels = fft.kernels.clone();
        kernels.prepare(fft.variant, &shape.radices())?;
        let scratch = kernels.alloc(total * k)?;
        let table = if shape.table_len > 0 { twiddle_table(&kernels, &fft.field, &shape)? } else { kernels.upload(&vec![0; k])? };
        let n_inv = kernels.upload(&fft.field.inv_u64(shape.n as u64)?)?;
        let owner = Owner {
            plan: NEXT_PLAN_ID.fetch_add(1, Ordering::Relaxed),
            session: fft.session().id(),
            prime: prime.to_string(),
            k,
            n: shape.n,
            batch,
        };
        Ok(Plan { fft, shape, scratch, table, n_inv, owner })
    }

    /// This plan's id, unique in the process (see [`DeviceVec::plan_id`]).
    pub fn id(&self) -> u64 {
        self.owner.plan
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

    /// Checks, before allocating, that a new vector fits (on a CPU device its
    /// buffer is host memory) besides `host` bytes of host memory.
    fn check_new_vector(&self, host: u128) -> Result<()> {
        let buffer = memory::element_bytes(self.fft.prime().k(), self.total() as u128);
        let need = Need { device: buffer, buffer, host };
        memory::check(&format!("uploading {} elements", self.total()), need, Some(&self.fft.session().device), "")
    }

    /// Checks host memory for reading `len` elements back: their words, and
    /// `per_element` more bytes each for the form they are returned in.
    fn check_download(&self, len: usize, per_element: u128) -> Result<()> {
        let words = memory::element_bytes(self.fft.prime().k(), len as u128);
        memory::check_host(&format!("downloading {len} elements"), words.saturating_add(per_element.saturating_mul(len as u128)))
    }

    /// The host bytes of one element as a `Digits` or a `BigUint`.
    fn element_host_bytes(&self) -> u128 {
        memory::element_bytes(self.fft.prime().k(), 1) + 40
    }

    fn new_vec(&self, buf: Buffer<u64>) -> DeviceVec {
        DeviceVec { buf, owner: self.owner.clone(), valid: true }
    }

    /// Uploads N·batch values (< p each, vector after vector).
    pub fn upload(&mut self, values: &[BigUint]) -> Result<DeviceVec> {
        self.check_len(values.len())?;
        self.upload_padded(values)
    }

    /// Uploads `values` followed by zeros up to N·batch elements.  The host
    /// only checks each value against p and copies its binary words (in
    /// parallel); the conversion to base r, the zero padding and the layout
    /// change run on the device (`from_binary`).
    pub fn upload_padded(&mut self, values: &[BigUint]) -> Result<DeviceVec> {
        let total = self.total();
        if values.len() > total {
            bail!("mismatched sizes: {} values do not fit a plan of {} elements", values.len(), total);
        }
        let prime = self.fft.prime().clone();
        let (k, p) = (prime.k(), prime.modulus());
        self.check_new_vector(memory::element_bytes(k, values.len() as u128))?;
        let mut words = vec![0u64; values.len() * k];
        words.par_chunks_mut(k).zip(values.par_iter()).enumerate().try_for_each(|(i, (dst, v))| -> Result<()> {
            if v >= p {
                return Err(srgfn_gen::FieldError::Value { value: v.to_string(), prime: prime.to_string() })
                    .with_context(|| format!("element {i}"));
            }
            dst.iter_mut().zip(v.iter_u64_digits()).for_each(|(d, w)| *d = w);
            Ok(())
        })?;
        let kernels = &self.fft.kernels;
        kernels.write(&self.scratch, &words)?;
        let buf = kernels.alloc(total * k)?;
        kernels.from_binary(&self.scratch, &buf, total as u64, values.len() as u64, total as u64)?;
        Ok(self.new_vec(buf))
    }

    /// Uploads element-major words (k per element, already canonical),
    /// zero-padded to N·batch elements; the layout change runs on the device.
    fn upload_words(&mut self, words: &[u64]) -> Result<DeviceVec> {
        let (k, total) = (self.fft.prime().k(), self.total());
        check_transposable(total)?;
        self.check_new_vector(0)?;
        let kernels = &self.fft.kernels;
        kernels.write(&self.scratch, words)?;
        if words.len() < total * k {
            self.scratch.cmd().offset(words.len()).fill(0, Some(total * k - words.len())).enq().context("cannot clear device memory")?;
        }
        let buf = kernels.alloc(total * k)?;
        kernels.transpose(&self.scratch, &buf, total as u32, k as u32, 1)?;
        Ok(self.new_vec(buf))
    }

    /// Uploads canonical digit vectors stored element after element (k words
    /// each, at most N·batch elements, zero-padded); checked in parallel.
    pub fn upload_digit_words(&mut self, words: &[u64]) -> Result<DeviceVec> {
        let k = self.fft.prime().k();
        if !words.len().is_multiple_of(k) || words.len() > self.total() * k {
            bail!("mismatched sizes: {} words are not at most {} elements of k = {k} digits", words.len(), self.total());
        }
        let field = &self.fft.field;
        words.par_chunks(k).enumerate().try_for_each(|(i, e)| field.validate(e).with_context(|| format!("element {i}")))?;
        self.upload_words(words)
    }

    /// The first `len` elements of a vector as digit words, element after element.
    pub fn download_digit_words(&mut self, v: &DeviceVec, len: usize) -> Result<Vec<u64>> {
        self.check_vec(v)?;
        check_transposable(self.total())?;
        self.check_download(len.min(self.total()), 0)?;
        let k = self.fft.prime().k();
        let kernels = &self.fft.kernels;
        kernels.transpose(&v.buf, &self.scratch, k as u32, self.total() as u32, 1)?;
        kernels.download_prefix(&self.scratch, len.min(self.total()) * k)
    }

    /// Uploads N·batch elements given as canonical digit vectors; the layout
    /// change to digit-major runs on the device.
    pub fn upload_digits(&mut self, elems: &[Digits]) -> Result<DeviceVec> {
        self.check_len(elems.len())?;
        let k = self.fft.prime().k();
        if let Some(i) = elems.iter().position(|e| e.len() != k) {
            return Err(srgfn_gen::FieldError::Length { got: elems[i].len(), k }).with_context(|| format!("element {i}"));
        }
        memory::check_host(&format!("uploading {} elements", elems.len()), memory::element_bytes(k, elems.len() as u128))?;
        self.upload_digit_words(&elems.concat())
    }

    /// Reads a vector back as digit vectors.
    pub fn download_digits(&mut self, v: &DeviceVec) -> Result<Vec<Digits>> {
        self.check_vec(v)?;
        self.check_download(self.total(), self.element_host_bytes())?;
        let k = self.fft.prime().k();
        Ok(self.download_digit_words(v, self.total())?.chunks(k).map(<[u64]>::to_vec).collect())
    }

    /// Reads a vector back as values (converted in parallel).
    pub fn download(&mut self, v: &DeviceVec) -> Result<Vec<BigUint>> {
        self.download_prefix(v, self.total())
    }

    /// The first `len` elements of a vector as values: converted to binary
    /// words on the device (`to_binary`), read back, and wrapped as integers
    /// in parallel.
    pub fn download_prefix(&mut self, v: &DeviceVec, len: usize) -> Result<Vec<BigUint>> {
        self.check_vec(v)?;
        let k = self.fft.prime().k();
        let len = len.min(self.total());
        self.check_download(len, self.element_host_bytes())?;
        let kernels = &self.fft.kernels;
        let t = std::time::Instant::now();
        kernels.to_binary(&v.buf, &self.scratch, self.total() as u64, len as u64)?;
        let words = kernels.download_prefix(&self.scratch, len * k)?;
        trace_phase("download: to_binary and read", t);
        let t = std::time::Instant::now();
        let p = self.fft.prime().modulus();
        let out = words
            .par_chunks(k)
            .map(|w| {
                let v = crate::layout::biguint_from_words(w);
                if &v >= p {
                    bail!("the device returned a value ≥ p ({v})");
                }
                Ok(v)
            })
            .collect();
        trace_phase("download: integers", t);
        out
    }

    /// Refuses a vector made for another session, prime, size, batch or
    /// plan, and one whose contents are undefined.
    fn check_vec(&self, v: &DeviceVec) -> Result<()> {
        let (mine, its) = (&self.owner, &v.owner);
        if its.session != mine.session {
            bail!(
                "this device vector lives in another OpenCL context (session {}) than the plan (session {}): download it with its own plan and upload the values with this one",
                its.session,
                mine.session
            );
        }
        if (&its.prime, its.k) != (&mine.prime, mine.k) {
            bail!("this device vector holds elements of {} (k = {}) but the plan is for {} (k = {})", its.prime, its.k, mine.prime, mine.k);
        }
        if (its.n, its.batch) != (mine.n, mine.batch) {
            bail!(
                "mismatched sizes: this device vector holds {} vector(s) of N = {} but the plan is for {} vector(s) of N = {}",
                its.batch,
                its.n,
                mine.batch,
                mine.n
            );
        }
        if its.plan != mine.plan {
            bail!(
                "this device vector was made by plan {} and this is plan {} (same prime, N and batch): a vector is used only with the plan that made it",
                its.plan,
                mine.plan
            );
        }
        if !v.valid {
            bail!("this device vector's contents are undefined after an operation on it failed; upload it again");
        }
        let words = self.total() * mine.k;
        if v.buf.len() != words {
            bail!("this device vector's buffer holds {} words, the plan's vectors {words}", v.buf.len());
        }
        Ok(())
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

/// The layout change of digit uploads and downloads (`transpose`) indexes
/// elements with 32 bits: more elements are refused, never wrapped.
fn check_transposable(elements: usize) -> Result<()> {
    if elements > u32::MAX as usize {
        bail!("{elements} elements: digit uploads and downloads take at most 2^32 − 1 elements per plan (values have no such limit)");
    }
    Ok(())
}

/// With `SRGFN_TRACE` set, prints the time since `t` for a phase.
fn trace_phase(name: &str, t: std::time::Instant) {
    if std::env::var_os("SRGFN_TRACE").is_some() {
        eprintln!("srgfn trace: {name}: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    }
}

/// Powers w^(start + i·step), i < count, as digit vectors (host products).
pub(crate) fn powers(field: &Field, w: &BigUint, start: usize, step: usize, count: usize) -> Result<Vec<Digits>> {
    let p = field.prime().modulus();
    let mut acc = field.from_biguint(&w.modpow(&BigUint::from(start as u64), p))?;
    let ws = field.from_biguint(&w.modpow(&BigUint::from(step as u64), p))?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let next = field.mul(&acc, &ws);
        out.push(std::mem::replace(&mut acc, next));
    }
    Ok(out)
}

/// The device table W[t] = ω_N^t for t < N/K, digit-major: the host computes
/// the C = 2^⌈log₂(len)/2⌉ powers B[j] = ω^j and the len/C powers A[i] = ω^{iC},
/// and the device forms every W[iC + j] = A[i]·B[j] (`outer_product`).
fn twiddle_table(kernels: &FieldKernels, field: &Field, shape: &PlanShape) -> Result<Buffer<u64>> {
    let k = field.prime().k();
    let len = shape.table_len;
    let w = field.prime().root_of_unity(shape.log_n)?;
    let log_c = len.trailing_zeros().div_ceil(2);
    let c = 1usize << log_c;
    let (a, b) = rayon::join(|| powers(field, &w, 0, c, len / c), || powers(field, &w, 0, 1, c));
    let (a, b) = (kernels.upload(&crate::layout::to_digit_major(&a?, k))?, kernels.upload(&crate::layout::to_digit_major(&b?, k))?);
    let table = kernels.alloc(len * k)?;
    kernels.outer_product(&a, &b, &table, log_c, len as u64)?;
    Ok(table)
}

#[cfg(test)]
mod tests {
    #[test]
    fn digit_layout_changes_refuse_more_than_2_pow_32_elements() {
        assert!(super::check_transposable(u32::MAX as usize).is_ok());
        let err = super::check_transposable(1 << 32).unwrap_err().to_string();
        assert!(err.contains("at most 2^32 − 1 elements"), "{err}");
    }
}
