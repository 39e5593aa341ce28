//! The "small primes" baseline on the device (thesis ch. 7): s NTTs of size n
//! over 32-bit Fourier primes in fused radix-256 Stockham passes, all s
//! primes in each launch, then the Garner recombination into integers below
//! q_0 ⋯ q_{s−1} (design: `srgfn_gen::smallprimes`).

use ocl::{Buffer, Event, Kernel, SpatialDims};
use srgfn_gen::emit::emit_small_primes;
use srgfn_gen::smallprimes::{NttPlan, SmallPrimeError, SmallPrimeProgram, SmallPrimes};

use crate::error::{DeviceContext as _, Error, Result};
use crate::kernels::Recording;
use crate::session::Session;

/// Work-items of a recombination work-group (one per element).
const RECOMBINE_GROUP: usize = 128;

/// Whether the set of s primes exists and covers transforms of size n; the
/// error says where the set stops.
pub fn check_coverage(s: usize, n: usize) -> Result<(), SmallPrimeError> {
    SmallPrimes::new(s)?.check_size(n).map(|_| ())
}

/// The s NTTs of size n and the recombination on a device, with their
/// buffers: upload residues, run [`SmallPrimeFft::forward`] and
/// [`SmallPrimeFft::recombine`], read the results back.
pub struct SmallPrimeFft {
    session: Session,
    primes: SmallPrimes,
    plan: NttPlan,
    /// Pass k reads `buffers[k % 2]` and writes `buffers[(k + 1) % 2]`.
    passes: Vec<Kernel>,
    recombine: Kernel,
    buffers: [Buffer<u32>; 2],
    z: Buffer<u32>,
}

impl SmallPrimeFft {
    /// Kernels and buffers for s transforms of size n; n must be a power of two
    /// the prime set covers (2 ≤ n ≤ 2^E, E in the set's doc), else
    /// [`Error::UnsupportedSize`] with 2^E.
    pub fn new(session: &Session, s: usize, n: usize) -> Result<SmallPrimeFft> {
        let primes = SmallPrimes::new(s)?;
        let plan = NttPlan::new(primes.check_size(n)?);
        let program = session.program(&format!("smallprimes_s{s}_n{n}"), &emit_small_primes(&primes, SmallPrimeProgram::Ntt(&plan))?)?;
        let recombination =
            session.program(&format!("smallprimes_s{s}_recombine"), &emit_small_primes(&primes, SmallPrimeProgram::Recombination)?)?;
        let q = session.queue.clone();
        let buf = |len: usize| {
            Buffer::<u32>::builder()
                .queue(q.clone())
                .len(len)
                .build()
                .or_device(|| format!("cannot allocate {} MiB for the residues", (len * 4) >> 20))
        };
        let tables = Buffer::<u32>::builder()
            .queue(q.clone())
            .len(primes.tables.len())
            .copy_host_slice(&primes.tables)
            .build()
            .or_device(|| "cannot upload the small primes' tables".into())?;
        let buffers = [buf(s * n)?, buf(s * n)?];
        let z = buf(s * n)?;
        let mut passes = Vec::new();
        for (k, pass) in plan.passes.iter().enumerate() {
            let gs = pass.group_size();
            let kernel = Kernel::builder()
                .program(&program)
                .name(format!("sp_pass{k}"))
                .queue(q.clone())
                .global_work_size(SpatialDims::Two(pass.groups() * gs, s))
                .local_work_size(SpatialDims::Two(gs, 1))
                .arg(&buffers[k % 2])
                .arg(&buffers[(k + 1) % 2])
                .arg(&tables)
                .build()
                .or_device(|| format!("cannot set up small-prime pass {k}"))?;
            passes.push(kernel);
        }
        let recombine = Kernel::builder()
            .program(&recombination)
            .name("sp_recombine")
            .queue(q.clone())
            .global_work_size(n)
            .local_work_size(RECOMBINE_GROUP.min(n))
            .arg(&buffers[plan.passes.len() % 2])
            .arg(&z)
            .arg(n as u32)
            .build()
            .or_device(|| "cannot set up the recombination".into())?;
        Ok(SmallPrimeFft { session: session.clone(), primes, plan, passes, recombine, buffers, z })
    }

    /// The transform size n.
    pub fn n(&self) -> usize {
        self.plan.n()
    }

    /// The s primes q_j and their tables.
    pub fn primes(&self) -> &SmallPrimes {
        &self.primes
    }

    /// The passes of the NTTs.
    pub fn plan(&self) -> &NttPlan {
        &self.plan
    }

    /// Loads s planes of n residues, plane j below q_j, as the input of [`Self::forward`].
    pub fn upload(&mut self, residues: &[u32]) -> Result<()> {
        let (s, n) = (self.primes.s(), self.n());
        if residues.len() != s * n {
            return Err(Error::input(format!("expected {s} planes of {n} residues ({} values), got {}", s * n, residues.len())));
        }
        for (j, plane) in residues.chunks(n).enumerate() {
            if let Some(e) = plane.iter().position(|&v| v >= self.primes.q[j]) {
                return Err(Error::input(format!("residue {} is not below q_{j} = {}", plane[e], self.primes.q[j])).at_element(e));
            }
        }
        self.buffers[0].write(residues).enq().or_device(|| "cannot upload residues".into())?;
        Ok(())
    }

    /// The s forward NTTs of the uploaded residues (which they overwrite); returns each pass's event.
    pub fn forward(&mut self) -> Result<Vec<Event>> {
        self.forward_recording(Recording::Every)
    }

    /// [`Self::forward`], returning the events `recording` names: each pass's,
    /// or the first and the last pass's ([`Recording::Ends`], as light on the
    /// host as the NTTs outside a benchmark).
    pub fn forward_recording(&mut self, recording: Recording) -> Result<Vec<Event>> {
        let mut events = Vec::with_capacity(self.passes.len());
        let last = self.passes.len().saturating_sub(1);
        for (k, kernel) in self.passes.iter().enumerate() {
            if recording == Recording::Ends && k != 0 && k != last {
                // SAFETY: as below.
                unsafe { kernel.cmd().enq() }.or_device(|| format!("cannot enqueue small-prime pass {k}"))?;
                continue;
            }
            let mut ev = Event::empty();
            // SAFETY: the arguments were set at build time and match the kernel's parameters.
            unsafe { kernel.cmd().enew(&mut ev).enq() }.or_device(|| format!("cannot enqueue small-prime pass {k}"))?;
            events.push(ev);
        }
        Ok(events)
    }

    /// Garner recombination of every element's s transformed residues; returns its event.
    pub fn recombine(&mut self) -> Result<Event> {
        let mut ev = Event::empty();
        // SAFETY: as in `forward`.
        unsafe { self.recombine.cmd().enew(&mut ev).enq() }.or_device(|| "cannot enqueue the recombination".into())?;
        Ok(ev)
    }

    /// The transformed residues (s planes).
    pub fn read_transformed(&self) -> Result<Vec<u32>> {
        let mut v = vec![0u32; self.primes.s() * self.n()];
        self.buffers[self.passes.len() % 2].read(&mut v).enq().or_device(|| "cannot read the transformed residues".into())?;
        Ok(v)
    }

    /// The recombined integers as s 32-bit word planes (word w of element e at w·n + e).
    pub fn read_recombined(&self) -> Result<Vec<u32>> {
        let mut v = vec![0u32; self.primes.s() * self.n()];
        self.z.read(&mut v).enq().or_device(|| "cannot read the recombined integers".into())?;
        self.session.queue.finish().or_device(|| "the device queue failed".into())?;
        Ok(v)
    }

    /// Bytes pass k moves: it reads and writes the s·n residues once and reads
    /// at most the table words it can touch (`Pass::table_words_read`, a few
    /// KiB per prime, mostly served by the caches).
    pub fn pass_bytes(&self, k: usize) -> u64 {
        let s = self.primes.s();
        8 * (s * self.n()) as u64 + 4 * (s * self.plan.passes[k].table_words_read(&self.primes)) as u64
    }

    /// Bytes the recombination moves: s residues read and s words written per element.
    pub fn recombine_bytes(&self) -> u64 {
        8 * (self.primes.s() * self.n()) as u64
    }
}
