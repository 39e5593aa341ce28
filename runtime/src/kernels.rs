//! The generated kernels of one prime and radix, built on a session, with a
//! typed launcher per kernel (work sizes chosen as the manifest states).

use std::collections::BTreeMap;

use anyhow::{Context as _, Result};
use ocl::{Buffer, Kernel, Program, SpatialDims};
use srgfn_gen::emit::{self, KernelSet, Variant, TILE};
use srgfn_gen::rules::Radix;
use srgfn_gen::Prime;

use crate::session::Session;

/// Work-group size for the non-cooperative kernels.
const WG: usize = 64;

fn round_up(n: usize, m: usize) -> usize {
    n.div_ceil(m).max(1) * m
}

/// Compiled programs of a [`KernelSet`].
pub struct FieldKernels {
    pub session: Session,
    pub set: KernelSet,
    programs: BTreeMap<String, Program>,
    /// Build logs of successful builds (warnings), by file.
    pub build_logs: BTreeMap<String, String>,
}

impl FieldKernels {
    /// Emits and builds every kernel file for `prime` and `radix`.
    pub fn build(session: &Session, prime: &Prime, radix: Radix) -> Result<FieldKernels> {
        let set = emit::emit(prime, radix)?;
        let mut programs = BTreeMap::new();
        let mut build_logs = BTreeMap::new();
        for f in set.files.iter().filter(|f| f.name != "field.cl") {
            let (prog, log) = session.build(&format!("{}_{}", prime.slug(), f.name.trim_end_matches(".cl")), &f.source)?;
            programs.insert(f.name.clone(), prog);
            build_logs.insert(f.name.clone(), log);
        }
        Ok(FieldKernels { session: session.clone(), set, programs, build_logs })
    }

    pub fn k(&self) -> usize {
        self.set.manifest.k
    }
    pub fn base_size(&self) -> usize {
        self.set.program.size
    }
    pub fn variants(&self) -> Vec<Variant> {
        [Variant::Private, Variant::Workgroup].into_iter().filter(|v| self.set.dft_file(*v).is_some()).collect()
    }

    fn program(&self, file: &str) -> Result<&Program> {
        self.programs.get(file).with_context(|| format!("kernel file {file} was not built"))
    }

    fn kernel(&self, file: &str, name: &str, gws: SpatialDims, lws: Option<SpatialDims>) -> Result<ocl::builders::KernelBuilder<'_>> {
        let mut b = Kernel::builder();
        b.program(self.program(file)?).name(name).queue(self.session.queue.clone()).global_work_size(gws);
        if let Some(l) = lws {
            b.local_work_size(l);
        }
        Ok(b)
    }

    /// I_B ⊗ DFT_K ⊗ I_J on `count` = B·J transforms: X → Y.  The workgroup
    /// variant overwrites X and needs Y ≠ X; the private one may run in place.
    pub fn dft(&self, variant: Variant, x: &Buffer<u64>, y: &Buffer<u64>, plane: u64, j: u32, count: u32) -> Result<()> {
        let name = emit::dft_name(&self.set.program, variant);
        let file = format!("{name}.cl");
        let (gws, lws) = match variant {
            Variant::Private => (round_up(count as usize, WG), Some(WG)),
            Variant::Workgroup => {
                let wg = (self.base_size() / 2).min(self.session.device.max_work_group_size).max(1);
                (count as usize * wg, Some(wg))
            }
        };
        let k = self
            .kernel(&file, &name, gws.into(), lws.map(Into::into))?
            .arg(x)
            .arg(y)
            .arg(plane)
            .arg(j)
            .arg(count)
            .build()
            .with_context(|| format!("cannot set up kernel {name}"))?;
        unsafe { k.enq() }.with_context(|| format!("cannot enqueue {name}"))
    }

    /// Multiplies element (b, i, j) of X by ω_{KJ}^{i·j} = w^{step·i·j}, with W[t] = w^t, t < 2^log_t, w^{2^log_t} = r.
    #[allow(clippy::too_many_arguments)]
    pub fn twiddle(&self, x: &Buffer<u64>, plane: u64, w: &Buffer<u64>, log_t: u32, j: u32, step: u64, count: u64) -> Result<()> {
        let k = self
            .kernel("twiddle.cl", "twiddle", round_up(count as usize, WG).into(), Some(WG.into()))?
            .arg(x)
            .arg(plane)
            .arg(w)
            .arg(log_t)
            .arg(j)
            .arg(step)
            .arg(count)
            .build()?;
        unsafe { k.enq() }.context("cannot enqueue twiddle")
    }

    /// Y_b = X_b^T for `batch` row-major rows × cols matrices of words.
    pub fn transpose(&self, x: &Buffer<u64>, y: &Buffer<u64>, rows: u32, cols: u32, batch: u32) -> Result<()> {
        let gws = SpatialDims::Three(round_up(cols as usize, TILE), round_up(rows as usize, TILE), batch as usize);
        let k = self
            .kernel("transpose.cl", "transpose", gws, Some(SpatialDims::Three(TILE, TILE, 1)))?
            .arg(x)
            .arg(y)
            .arg(rows)
            .arg(cols)
            .build()?;
        unsafe { k.enq() }.context("cannot enqueue transpose")
    }

    /// Z = X op Y element-wise, op ∈ {mul, add, sub}.
    pub fn pointwise(&self, op: &str, x: &Buffer<u64>, y: &Buffer<u64>, z: &Buffer<u64>, plane: u64, n: u64) -> Result<()> {
        let name = format!("pointwise_{op}");
        let k = self
            .kernel("pointwise.cl", &name, round_up(n as usize, WG).into(), Some(WG.into()))?
            .arg(x)
            .arg(y)
            .arg(z)
            .arg(plane)
            .arg(n)
            .build()?;
        unsafe { k.enq() }.with_context(|| format!("cannot enqueue {name}"))
    }

    /// X = c · X for a constant element c (a buffer of k digits).
    pub fn scale(&self, x: &Buffer<u64>, c: &Buffer<u64>, plane: u64, n: u64) -> Result<()> {
        let k = self
            .kernel("pointwise.cl", "scale", round_up(n as usize, WG).into(), Some(WG.into()))?
            .arg(x)
            .arg(c)
            .arg(plane)
            .arg(n)
            .build()?;
        unsafe { k.enq() }.context("cannot enqueue scale")
    }

    /// X = r^s · X.
    pub fn shift_by(&self, x: &Buffer<u64>, s: u32, plane: u64, n: u64) -> Result<()> {
        let k = self
            .kernel("pointwise.cl", "shift_by", round_up(n as usize, WG).into(), Some(WG.into()))?
            .arg(x)
            .arg(s)
            .arg(plane)
            .arg(n)
            .build()?;
        unsafe { k.enq() }.context("cannot enqueue shift_by")
    }

    /// A device buffer holding `words`.
    pub fn upload(&self, words: &[u64]) -> Result<Buffer<u64>> {
        Ok(Buffer::<u64>::builder().queue(self.session.queue.clone()).len(words.len().max(1)).copy_host_slice(words).build()?)
    }

    /// An uninitialised device buffer of `len` words.
    pub fn alloc(&self, len: usize) -> Result<Buffer<u64>> {
        Ok(Buffer::<u64>::builder().queue(self.session.queue.clone()).len(len.max(1)).build()?)
    }

    /// Reads a buffer back (waits for the queue).
    pub fn download(&self, b: &Buffer<u64>) -> Result<Vec<u64>> {
        let mut v = vec![0u64; b.len()];
        b.read(&mut v).enq()?;
        Ok(v)
    }
}
