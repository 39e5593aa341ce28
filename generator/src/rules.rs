//! Breakdown rules, as plain functions from a formula to a rewritten formula.

use crate::spl::Spl;

/// Radix of the leaves of a base-case expansion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Radix {
    /// DFT_2 leaves only.
    R2,
    /// DFT_4 leaves (one r^{k/2} shift inside each), plus one radix-2 step when log2 K is odd.
    R4,
}

impl Radix {
    /// Radix 2 or 4 from its number; an error names the accepted ones.
    pub fn from_number(r: u32) -> Result<Radix, String> {
        match r {
            2 => Ok(Radix::R2),
            4 => Ok(Radix::R4),
            _ => Err(format!("radix {r} is not supported: use 2 or 4")),
        }
    }
    /// 2 or 4.
    pub fn number(self) -> usize {
        match self {
            Radix::R2 => 2,
            Radix::R4 => 4,
        }
    }
}

/// Six-step rule (thesis §6.1):
/// DFT_{mn} = L^{mn}_m (I_n ⊗ DFT_m) L^{mn}_n D_{m,n} (I_m ⊗ DFT_n) L^{mn}_m.
pub fn six_step(m: usize, n: usize, inner: Spl) -> Spl {
    assert_eq!(inner.size(), n);
    let mn = m * n;
    Spl::compose(vec![
        Spl::stride_perm(mn, m),
        Spl::i_tensor(n, Spl::dft(m)),
        Spl::stride_perm(mn, n),
        Spl::twiddle(m, n),
        Spl::i_tensor(m, inner),
        Spl::stride_perm(mn, m),
    ])
}

/// Cooley–Tukey rule: DFT_{mn} = (DFT_m ⊗ I_n) D_{m,n} (I_m ⊗ DFT_n) L^{mn}_m.
pub fn cooley_tukey(m: usize, n: usize) -> Spl {
    Spl::compose(vec![Spl::tensor_i(Spl::dft(m), n), Spl::twiddle(m, n), Spl::i_tensor(m, Spl::dft(n)), Spl::stride_perm(m * n, m)])
}

/// Fully expands DFT_n (n a power of two) into DFT_2 / DFT_4 leaves by the six-step rule.
pub fn expand(n: usize, radix: Radix) -> Spl {
    assert!(n.is_power_of_two() && n >= 2);
    let log = n.trailing_zeros();
    match radix {
        _ if n == 2 => Spl::dft(2),
        Radix::R4 if n == 4 => Spl::dft(4),
        Radix::R2 => six_step(2, n / 2, expand(n / 2, radix)),
        // odd log2: one radix-2 step at the top, then radix 4 all the way down
        Radix::R4 if log % 2 == 1 => six_step(2, n / 2, expand(n / 2, radix)),
        Radix::R4 => six_step(4, n / 4, expand(n / 4, radix)),
    }
}
