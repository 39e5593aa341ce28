//! A small SPL-like tensor-formula IR (after SPIRAL), as data.
//!
//! Formulas denote N×N matrices over Z/pZ acting on column vectors; a
//! composition `Compose([A, B, C])` is the product A·B·C, so C acts first.
//! Conventions (checked against the thesis's examples by the tests):
//! * `StridePerm { n, m }` is L^n_m: (L^n_m x)[i·(n/m) + j] = x[j·m + i],
//!   i < m, j < n/m, i.e. it reads x at stride m (L^16_2 x = (x0, x2, …, x14, x1, …)).
//! * `TwiddleDiag { m, n }` is D_{m,n} = diag(ω_{mn}^{i·j}) at position i·n + j.
//! * `Dft(n)` is [ω_n^{ij}] with the prime's consistent root ω_n.

use std::fmt;

use num_bigint::BigUint;
use num_traits::One;

use crate::prime::Prime;
use crate::reference::naive_dft_with_root;

/// A tensor formula: an N×N matrix over Z/pZ built from DFTs, identities,
/// stride permutations and twiddle diagonals by tensor products and products.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spl {
    /// DFT_n.
    Dft(usize),
    /// I_n.
    Identity(usize),
    /// L^n_m.
    StridePerm {
        /// The size.
        n: usize,
        /// The stride (m | n).
        m: usize,
    },
    /// D_{m,n} (size m·n).
    TwiddleDiag {
        /// Rows of the implied m × n matrix.
        m: usize,
        /// Its columns.
        n: usize,
    },
    /// A ⊗ B.
    Tensor(Box<Spl>, Box<Spl>),
    /// A·B·…: the last factor acts first.
    Compose(Vec<Spl>),
}

impl Spl {
    /// DFT_n.
    pub fn dft(n: usize) -> Spl {
        Spl::Dft(n)
    }
    /// I_n.
    pub fn identity(n: usize) -> Spl {
        Spl::Identity(n)
    }
    /// L^n_m (panics unless m | n: formulas are built by the rules, not from input).
    pub fn stride_perm(n: usize, m: usize) -> Spl {
        assert!(m > 0 && n.is_multiple_of(m), "L^{n}_{m} needs m | n");
        Spl::StridePerm { n, m }
    }
    /// D_{m,n}.
    pub fn twiddle(m: usize, n: usize) -> Spl {
        Spl::TwiddleDiag { m, n }
    }
    /// A ⊗ B.
    pub fn tensor(a: Spl, b: Spl) -> Spl {
        Spl::Tensor(Box::new(a), Box::new(b))
    }
    /// I_m ⊗ A.
    pub fn i_tensor(m: usize, a: Spl) -> Spl {
        Spl::tensor(Spl::Identity(m), a)
    }
    /// A ⊗ I_n.
    pub fn tensor_i(a: Spl, n: usize) -> Spl {
        Spl::tensor(a, Spl::Identity(n))
    }
    /// The product of `factors` (the last acts first).
    pub fn compose(factors: Vec<Spl>) -> Spl {
        Spl::Compose(factors)
    }

    /// Dimension of the (square) matrix.
    pub fn size(&self) -> usize {
        match self {
            Spl::Dft(n) | Spl::Identity(n) => *n,
            Spl::StridePerm { n, .. } => *n,
            Spl::TwiddleDiag { m, n } => m * n,
            Spl::Tensor(a, b) => a.size() * b.size(),
            Spl::Compose(f) => f.first().map_or(0, Spl::size),
        }
    }

    /// Checks that factor sizes agree; returns the size.
    pub fn check(&self) -> Result<usize, String> {
        match self {
            Spl::Compose(f) => {
                let n = f.first().ok_or("empty composition")?.check()?;
                for g in f {
                    let m = g.check()?;
                    if m != n {
                        return Err(format!("factor {g} has size {m}, expected {n}"));
                    }
                }
                Ok(n)
            }
            Spl::Tensor(a, b) => Ok(a.check()? * b.check()?),
            Spl::StridePerm { n, m } if *m == 0 || n % m != 0 => Err(format!("L^{n}_{m}: m must divide n")),
            other => Ok(other.size()),
        }
    }

    /// y = self · x over Z/pZ, with ω_n the prime's root of unity of size n.
    pub fn apply(&self, prime: &Prime, x: &[BigUint]) -> Vec<BigUint> {
        assert_eq!(x.len(), self.size(), "vector length must equal the formula size");
        let p = prime.modulus();
        match self {
            Spl::Identity(_) => x.to_vec(),
            Spl::Dft(n) => naive_dft_with_root(prime, x, &root(prime, *n)),
            Spl::StridePerm { n, m } => {
                let q = n / m;
                let mut y = vec![BigUint::default(); *n];
                for i in 0..*m {
                    for j in 0..q {
                        y[i * q + j] = x[j * m + i].clone();
                    }
                }
                y
            }
            Spl::TwiddleDiag { m, n } => {
                let w = root(prime, m * n);
                let mut y = x.to_vec();
                for i in 0..*m {
                    for j in 0..*n {
                        let t = w.modpow(&BigUint::from((i * j) as u64), p);
                        y[i * n + j] = &y[i * n + j] * t % p;
                    }
                }
                y
            }
            Spl::Tensor(a, b) => {
                let (ma, nb) = (a.size(), b.size());
                // A ⊗ B = (A ⊗ I_nb)(I_ma ⊗ B)
                let mut y = Vec::with_capacity(x.len());
                for blk in x.chunks(nb) {
                    y.extend(b.apply(prime, blk));
                }
                if matches!(**a, Spl::Identity(_)) {
                    return y;
                }
                let mut z = vec![BigUint::default(); x.len()];
                for j in 0..nb {
                    let col: Vec<BigUint> = (0..ma).map(|i| y[i * nb + j].clone()).collect();
                    for (i, v) in a.apply(prime, &col).into_iter().enumerate() {
                        z[i * nb + j] = v;
                    }
                }
                z
            }
            Spl::Compose(f) => f.iter().rev().fold(x.to_vec(), |v, g| g.apply(prime, &v)),
        }
    }

    /// The matrix of the formula (column c = image of the c-th unit vector).
    pub fn to_matrix(&self, prime: &Prime) -> Vec<Vec<BigUint>> {
        let n = self.size();
        let mut rows = vec![vec![BigUint::default(); n]; n];
        for c in 0..n {
            let mut e = vec![BigUint::default(); n];
            e[c] = BigUint::one();
            for (r, v) in self.apply(prime, &e).into_iter().enumerate() {
                rows[r][c] = v;
            }
        }
        rows
    }
}

/// ω_n, the prime's root of unity of size n (ω_{2k} = r).
pub fn root(prime: &Prime, n: usize) -> BigUint {
    if n == 1 {
        return BigUint::one();
    }
    prime.root_of_unity(n.trailing_zeros()).expect("DFT size divides p - 1")
}

impl fmt::Display for Spl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spl::Dft(n) => write!(f, "DFT_{n}"),
            Spl::Identity(n) => write!(f, "I_{n}"),
            Spl::StridePerm { n, m } => write!(f, "L^{n}_{m}"),
            Spl::TwiddleDiag { m, n } => write!(f, "D_{{{m},{n}}}"),
            Spl::Tensor(a, b) => {
                let wrap = |s: &Spl| match s {
                    Spl::Compose(_) => format!("[{s}]"),
                    _ => s.to_string(),
                };
                write!(f, "({} ⊗ {})", wrap(a), wrap(b))
            }
            Spl::Compose(fs) => {
                let parts: Vec<String> = fs.iter().map(Spl::to_string).collect();
                f.write_str(&parts.join(" · "))
            }
        }
    }
}
