//! Transform plans for any N = 2^m: a list of kernel launches, pure data.
//!
//! N = m_0 · m_1 ⋯ m_{L−1} with m_ℓ = K = 2k except possibly a last m < K
//! (sizes that are not powers of K).  With S_ℓ = m_ℓ ⋯ m_{L−1} and
//! J_ℓ = S_ℓ / m_ℓ, each level uses the transposed Cooley–Tukey rule
//!   DFT_S = L^S_J (I_m ⊗ DFT_J) D_{m,J} (DFT_m ⊗ I_J),
//! so the compute passes are I_{B_ℓ} ⊗ DFT_{m_ℓ} ⊗ I_{J_ℓ} (strided, coalesced,
//! no transpose) followed by the twiddles I_{B_ℓ} ⊗ D_{m_ℓ,J_ℓ}, and the
//! stride permutations I_{B_ℓ} ⊗ L^{S_ℓ}_{J_ℓ} are applied at the end,
//! innermost first, to return the output in natural order.
//! Twiddles use one table: W[t] = ω_N^t for t < N/K, with ω_N^{N/K} = r.

use serde::Serialize;

use crate::error::SizeError;
use crate::prime::Prime;
use crate::spl::Spl;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Step {
    /// I_blocks ⊗ DFT_m ⊗ I_j (blocks counts every vector of the batch).
    Dft { m: usize, blocks: usize, j: usize },
    /// I_blocks ⊗ D_{m,j} with ω_{mj} = ω_N^{step}.
    Twiddle { m: usize, blocks: usize, j: usize, step: u64 },
    /// I_blocks ⊗ L^{m·j}_j on every digit plane (a transpose of m × j).
    Permute { m: usize, blocks: usize, j: usize },
}

#[derive(Clone, Debug, Serialize)]
pub struct PlanShape {
    pub prime: String,
    pub log_n: u32,
    pub n: usize,
    pub batch: usize,
    pub k: usize,
    /// m_0, m_1, …: the radix of each level.
    pub radices: Vec<usize>,
    pub steps: Vec<Step>,
    /// Elements in the twiddle table (N/K, or 0 when N ≤ K).
    pub table_len: usize,
}

impl PlanShape {
    /// The plan of a forward DFT of size 2^log_n on `batch` vectors.
    pub fn new(prime: &Prime, log_n: u32, batch: usize) -> Result<PlanShape, SizeError> {
        prime.check_log_size(log_n)?;
        if log_n >= usize::BITS - 1 {
            return Err(SizeError::OutOfRange { log_n, min: 1, max: usize::BITS - 2, prime: prime.to_string() });
        }
        let n = 1usize << log_n;
        let kk = prime.base_size();
        let mut radices = Vec::new();
        let mut rest = n;
        while rest >= kk {
            radices.push(kk);
            rest /= kk;
        }
        if rest > 1 {
            radices.push(rest);
        }
        let mut steps = Vec::new();
        let mut perms = Vec::new();
        let mut s = n;
        for &m in &radices {
            let j = s / m;
            let blocks = (n / s) * batch;
            steps.push(Step::Dft { m, blocks, j });
            if j > 1 {
                steps.push(Step::Twiddle { m, blocks, j, step: (n / s) as u64 });
                perms.push(Step::Permute { m, blocks, j });
            }
            s = j;
        }
        steps.extend(perms.into_iter().rev());
        let table_len = if n > kk { n / kk } else { 0 };
        Ok(PlanShape { prime: prime.to_string(), log_n, n, batch, k: prime.k(), radices, steps, table_len })
    }

    /// Device bytes the plan needs: data, one scratch buffer of the same size,
    /// the twiddle table and the 1/N constant.
    pub fn device_bytes(&self) -> u64 {
        let words = 2 * (self.n * self.batch * self.k) as u64 + (self.table_len * self.k) as u64 + self.k as u64;
        words * 8
    }

    /// The plan as a formula over one vector (for the SPIRAL check on small N).
    pub fn to_spl(&self) -> Spl {
        let mut factors = Vec::new();
        for st in self.steps.iter().rev() {
            let per_vec = |blocks: usize| blocks / self.batch;
            factors.push(match *st {
                Step::Dft { m, blocks, j } => Spl::i_tensor(per_vec(blocks), Spl::tensor_i(Spl::dft(m), j)),
                Step::Twiddle { m, blocks, j, .. } => Spl::i_tensor(per_vec(blocks), Spl::twiddle(m, j)),
                Step::Permute { m, blocks, j } => Spl::i_tensor(per_vec(blocks), Spl::stride_perm(m * j, j)),
            });
        }
        Spl::compose(factors)
    }

    /// One line per launch, for `srgfn plan`.
    pub fn describe(&self) -> String {
        let mut s = format!(
            "forward DFT of N = 2^{} = {} over {} (batch {}), levels {:?}, twiddle table {} elements\n",
            self.log_n, self.n, self.prime, self.batch, self.radices, self.table_len
        );
        for (i, st) in self.steps.iter().enumerate() {
            let line = match *st {
                Step::Dft { m, blocks, j } => format!("dft      I_{blocks} ⊗ DFT_{m} ⊗ I_{j}   ({} transforms of size {m})", blocks * j),
                Step::Twiddle { m, blocks, j, step } => format!("twiddle  I_{blocks} ⊗ D_{{{m},{j}}}   (ω_{{{}}} = ω_N^{step})", m * j),
                Step::Permute { m, blocks, j } => format!("permute  I_{blocks} ⊗ L^{}_{j}   (transpose {m} × {j} on each digit plane)", m * j),
            };
            s.push_str(&format!("{:>3}. {line}\n", i + 1));
        }
        s.push_str(&format!("device memory: {:.1} MiB (data, one scratch buffer, table)\n", self.device_bytes() as f64 / (1 << 20) as f64));
        s
    }
}
