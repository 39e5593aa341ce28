//! The "small primes" baseline on the device (thesis ch. 7): s NTTs of size n
//! over 32-bit Fourier primes, Stockham passes of radix 16 (and a smaller last
//! one), then the Garner recombination into integers below q_0 ⋯ q_{s−1}.

use anyhow::{bail, Context as _, Result};
use ocl::{Buffer, Kernel, Program, SpatialDims};
use srgfn_gen::emit::emit_small_primes;
use srgfn_gen::smallprimes::{SmallPrimes, SMALL_PRIME_TWO_ADICITY};

use crate::session::Session;

/// Builds a kernel with its arguments, enqueues it, and returns its event.
macro_rules! launch {
    ($self:ident, $name:expr, $gws:expr, [$($arg:expr),*]) => {{
        let mut b = Kernel::builder();
        b.program(&$self.program).name($name).queue($self.session.queue.clone()).global_work_size($gws);
        $( b.arg($arg); )*
        let k = b.build().with_context(|| format!("cannot set up {}", $name))?;
        let mut ev = ocl::Event::empty();
        // SAFETY: arguments match the kernel's parameters; buffers outlive the in-order queue's use.
        unsafe { k.cmd().enew(&mut ev).enq() }.with_context(|| format!("cannot enqueue {}", $name))?;
        ev
    }};
}

pub struct SmallPrimeFft {
    session: Session,
    pub primes: SmallPrimes,
    program: Program,
    n: usize,
    /// (radix, p) of each pass.
    passes: Vec<(usize, usize)>,
    tables: Buffer<u32>,
    x: Buffer<u32>,
    y: Buffer<u32>,
    z: Buffer<u32>,
}

impl SmallPrimeFft {
    /// Kernels and buffers for s transforms of size n (a power of two, 2 ≤ n ≤ 2^24).
    pub fn new(session: &Session, s: usize, n: usize) -> Result<SmallPrimeFft> {
        if !n.is_power_of_two() || n < 2 || n > 1 << SMALL_PRIME_TWO_ADICITY {
            bail!("small-prime transforms need a power of two 2 ≤ n ≤ 2^{SMALL_PRIME_TWO_ADICITY}, got {n}");
        }
        let primes = SmallPrimes::new(s);
        let source = emit_small_primes(&primes)?;
        let program = session.program(&format!("smallprimes_s{s}"), &source)?;
        let mut passes = Vec::new();
        let (mut rest, mut p) = (n, 1);
        while rest > 1 {
            let r = if rest >= 16 { 16 } else { rest };
            passes.push((r, p));
            p *= r;
            rest /= r;
        }
        let mut table = Vec::with_capacity(s * n);
        for j in 0..s {
            table.extend(primes.twiddles(j, n));
        }
        let q = session.queue.clone();
        let buf = |len: usize| Buffer::<u32>::builder().queue(q.clone()).len(len).build();
        let tables = Buffer::<u32>::builder().queue(q.clone()).len(table.len()).copy_host_slice(&table).build()?;
        Ok(SmallPrimeFft { session: session.clone(), primes, program, n, passes, tables, x: buf(s * n)?, y: buf(s * n)?, z: buf(s * n)? })
    }

    /// Loads s planes of n residues (plane j reduced mod q_j).
    pub fn upload(&mut self, residues: &[u32]) -> Result<()> {
        if residues.len() != self.primes.s() * self.n {
            bail!("expected {} residues", self.primes.s() * self.n);
        }
        self.x.write(residues).enq().context("cannot upload residues")?;
        Ok(())
    }

    /// The s forward NTTs (result in place of the input); returns the events.
    pub fn forward(&mut self) -> Result<Vec<ocl::Event>> {
        let (n, s) = (self.n as u64, self.primes.s());
        let mut evs = Vec::new();
        for &(r, p) in &self.passes.clone() {
            let tw_shift = (n / (r as u64 * p as u64)).trailing_zeros();
            let name = format!("sp_pass{r}");
            evs.push(launch!(self, &name, SpatialDims::Two(self.n / r, s), [&self.x, &self.y, &self.tables, n, p as u64, tw_shift]));
            std::mem::swap(&mut self.x, &mut self.y);
        }
        Ok(evs)
    }

    /// Garner recombination of every element's s residues; returns its event.
    pub fn recombine(&mut self) -> Result<ocl::Event> {
        let n = self.n as u64;
        Ok(launch!(self, "sp_recombine", SpatialDims::One(self.n), [&self.x, &self.z, n]))
    }

    /// The transformed residues (s planes).
    pub fn read_transformed(&self) -> Result<Vec<u32>> {
        let mut v = vec![0u32; self.x.len()];
        self.x.read(&mut v).enq()?;
        Ok(v)
    }

    /// The recombined integers as s 32-bit word planes (word w of element e at w·n + e).
    pub fn read_recombined(&self) -> Result<Vec<u32>> {
        let mut v = vec![0u32; self.z.len()];
        self.z.read(&mut v).enq()?;
        Ok(v)
    }
}
