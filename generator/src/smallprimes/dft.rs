//! Straight-line DFT_r (r ∈ {1, 2, 4, 8, 16}) over one small prime, as the
//! kernels print it: a radix-2 decimation-in-time network on registers, and
//! the product chains that raise a twiddle base to the powers 2 … r − 1.

use serde::Serialize;

/// Largest DFT a work-item computes in registers.
pub const MAX_DFT: usize = 16;

/// (a, b) ← (a + w·b, a − w·b) on registers a and b, with w = ω_16^root (root 0: w = 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Butterfly {
    pub a: usize,
    pub b: usize,
    pub root: usize,
}

/// DFT_r on registers 0 … r − 1, register t holding x_t on entry: after the
/// butterflies, register `output[m]` holds X_m = Σ_t ω_r^{tm} x_t.
#[derive(Clone, Debug, Serialize)]
pub struct DftProgram {
    pub r: usize,
    pub butterflies: Vec<Butterfly>,
    pub output: Vec<usize>,
}

impl DftProgram {
    /// The iterative radix-2 network: slot k holds register rev(k), so the
    /// bit reversal of the input costs nothing; stage `len` multiplies by
    /// ω_len^h = ω_16^{h·16/len}.
    pub fn new(r: usize) -> DftProgram {
        assert!(r.is_power_of_two() && r <= MAX_DFT, "DFT_{r} is not in 1, 2, 4, 8, 16");
        let bits = r.trailing_zeros();
        let rev = |k: usize| if bits == 0 { 0 } else { k.reverse_bits() >> (usize::BITS - bits) };
        let mut butterflies = Vec::new();
        let mut len = 2;
        while len <= r {
            for start in (0..r).step_by(len) {
                for h in 0..len / 2 {
                    butterflies.push(Butterfly { a: rev(start + h), b: rev(start + h + len / 2), root: h * MAX_DFT / len });
                }
            }
            len *= 2;
        }
        DftProgram { r, butterflies, output: (0..r).map(rev).collect() }
    }

    /// Nontrivial products per DFT (17 for r = 16).
    pub fn products(&self) -> usize {
        self.butterflies.iter().filter(|b| b.root != 0).count()
    }

    /// Runs the program on `v` with `mul(x, root)` = x·ω_16^root and the
    /// field's `add`/`sub` (the host model of the printed code).
    pub fn run(&self, v: &mut [u32], mul: impl Fn(u32, usize) -> u32, add: impl Fn(u32, u32) -> u32, sub: impl Fn(u32, u32) -> u32) -> Vec<u32> {
        for bf in &self.butterflies {
            let t = if bf.root == 0 { v[bf.b] } else { mul(v[bf.b], bf.root) };
            v[bf.b] = sub(v[bf.a], t);
            v[bf.a] = add(v[bf.a], t);
        }
        self.output.iter().map(|&reg| v[reg]).collect()
    }
}

/// d^t = d^a · d^b for t = 2 … r − 1, in an order where d^a and d^b are ready
/// (a the highest power of two below t, or t/2): depth log₂ r instead of a chain of r − 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PowerStep {
    pub t: usize,
    pub a: usize,
    pub b: usize,
}

pub fn power_steps(r: usize) -> Vec<PowerStep> {
    (2..r)
        .map(|t| {
            let high = 1 << (usize::BITS - 1 - t.leading_zeros());
            let a = if high == t { t / 2 } else { high };
            PowerStep { t, a, b: t - a }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn networks_compute_the_dft_over_integers_mod_a_prime() {
        // q = 17: ω_16 = 3 is a primitive 16th root of unity mod 17
        let q = 17u64;
        let w16: Vec<u64> = (0..16).map(|h| (0..h).fold(1, |acc, _| acc * 3 % q)).collect();
        for r in [1usize, 2, 4, 8, 16] {
            let prog = DftProgram::new(r);
            let x: Vec<u32> = (0..r as u32).map(|t| (7 * t + 5) % 17).collect();
            let got = prog.run(
                &mut x.clone(),
                |a, h| (a as u64 * w16[h] % q) as u32,
                |a, b| ((a + b) as u64 % q) as u32,
                |a, b| ((a as u64 + q - b as u64) % q) as u32,
            );
            let want: Vec<u32> = (0..r)
                .map(|m| (0..r).map(|t| x[t] as u64 * w16[(t * m * 16 / r) % 16]).sum::<u64>() % q)
                .map(|v| v as u32)
                .collect();
            assert_eq!(got, want, "DFT_{r}");
        }
        assert_eq!(DftProgram::new(16).products(), 17);
    }

    #[test]
    fn power_steps_use_only_ready_powers() {
        for r in [2usize, 4, 8, 16] {
            let mut ready = vec![false, true];
            for st in power_steps(r) {
                assert_eq!(st.a + st.b, st.t);
                assert!(ready[st.a] && ready[st.b], "d^{} before d^{} and d^{}", st.t, st.a, st.b);
                ready.push(true);
            }
            assert_eq!(ready.len(), r.max(2));
        }
    }
}
