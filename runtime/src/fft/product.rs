//! Polynomial products mod p: the size a product needs, on the device
//! whole or streamed through host memory (`fourstep.rs`).

use num_bigint::BigUint;
use rayon::prelude::*;

use super::{fourstep, trace_phase, Fft, FourStep, Plan};
use crate::device_vec::DeviceVec;
use crate::error::{Error, Result};
use crate::memory;

impl Fft {
    /// Product of two polynomials mod p (coefficients lowest degree first,
    /// each below p): the la + lb − 1 coefficients.  The values are converted
    /// to and from base r on the device.  A product that does not fit the
    /// device whole streams through host memory ([`FourStep`]).
    /// [`Error::InvalidInput`] for an empty factor or a value ≥ p;
    /// [`Error::UnsupportedSize`] or [`Error::OutOfMemory`] when the product
    /// is too long for the prime, or fits neither the device nor the split.
    pub fn poly_mul(&self, a: &[BigUint], b: &[BigUint]) -> Result<Vec<BigUint>> {
        let n = self.product_n(a.len(), b.len())?;
        if let Some(split) = self.streamed(a.len(), b.len(), n)? {
            let k = self.prime().k();
            let words = |v: &[BigUint]| -> Result<Vec<u64>> {
                let digits = v
                    .par_iter()
                    .enumerate()
                    .map(|(i, x)| self.field.from_biguint(x).map_err(|e| Error::from(e).at_element(i)))
                    .collect::<Result<Vec<_>>>()?;
                Ok(digits.concat())
            };
            let c = split.product_digits(&words(a)?, &words(b)?)?;
            return c.par_chunks(k).map(|w| self.field.to_biguint(w).map_err(Error::from)).collect();
        }
        self.product(
            a.len(),
            b.len(),
            n,
            |plan, first| plan.upload_padded(if first { a } else { b }),
            |plan, v, len| plan.download_prefix(v, len),
        )
    }

    /// Product of two polynomials given as canonical digit vectors stored
    /// element after element (k words per coefficient, least significant digit
    /// first, as `srgfn fft --format bin`); returns the la + lb − 1
    /// coefficients in the same layout.  No base conversion: the fastest path.
    /// Streams through host memory where the product does not fit the device.
    pub fn poly_mul_digits(&self, a: &[u64], b: &[u64]) -> Result<Vec<u64>> {
        let k = self.prime().k();
        if !a.len().is_multiple_of(k) || !b.len().is_multiple_of(k) {
            return Err(Error::input(format!(
                "digit vectors of {} and {} words are not whole elements of k = {k} digits",
                a.len(),
                b.len()
            )));
        }
        let (la, lb) = (a.len() / k, b.len() / k);
        let n = self.product_n(la, lb)?;
        if let Some(split) = self.streamed(la, lb, n)? {
            return split.product_digits(a, b);
        }
        self.product(
            la,
            lb,
            n,
            |plan, first| plan.upload_digit_words(if first { a } else { b }),
            |plan, v, len| plan.download_digit_words(v, len),
        )
    }

    /// The transform size of a product of la × lb coefficients: the power of
    /// two N ≥ la + lb − 1 (at least 2); refused when empty or beyond the prime.
    fn product_n(&self, la: usize, lb: usize) -> Result<usize> {
        if la == 0 || lb == 0 {
            return Err(Error::input("polynomial product of an empty polynomial: give at least one coefficient each"));
        }
        let len = la + lb - 1;
        let n = len.checked_next_power_of_two().unwrap_or(0).max(2);
        if n < len || n.trailing_zeros() > self.prime().two_adicity() {
            return Err(Error::size(
                self.max_n(),
                format!(
                    "a product of {la} × {lb} coefficients needs N ≥ {len}, beyond the largest N of {}: 2^{}",
                    self.prime(),
                    self.prime().two_adicity()
                ),
            ));
        }
        Ok(n)
    }

    /// None when a product of size n fits the device whole (two data vectors
    /// besides the plan's scratch and table); else the four-step split that
    /// streams it through host memory, when the device is what is short.
    fn streamed(&self, la: usize, lb: usize, n: usize) -> Result<Option<FourStep>> {
        let need = memory::plan_need_split(self.prime(), self.variant_for(n.trailing_zeros()), n as u128, 1, 2, self.max_buffer).0;
        match memory::check(&format!("a product of {la} × {lb} coefficients (N = {n})"), need, Some(&self.limits()), "") {
            Ok(()) => Ok(None),
            Err(Error::OutOfMemory(s)) if s.device_short() && n.trailing_zeros() >= fourstep::min_log_n(self.prime()) => {
                self.four_step(n, None).map(Some)
            }
            Err(e) => Err(e),
        }
    }

    /// The product driver: uploads both factors (padded to N ≥ la + lb − 1),
    /// two forward transforms, the pointwise product, one inverse, and the
    /// download of the first la + lb − 1 elements; `SRGFN_TRACE` prints the phases.
    fn product<T>(
        &self,
        la: usize,
        lb: usize,
        n: usize,
        upload: impl Fn(&mut Plan, bool) -> Result<DeviceVec>,
        download: impl FnOnce(&mut Plan, &DeviceVec, usize) -> Result<T>,
    ) -> Result<T> {
        let len = la + lb - 1;
        let mut t = std::time::Instant::now();
        let mut phase = |name: &str| {
            trace_phase(&format!("poly_mul {name}"), t);
            t = std::time::Instant::now();
        };
        // every program first, the inverse's and the products' beside the passes'
        self.prepare(n)?;
        let mut plan = self.plan(n, 1)?;
        phase("plan (programs, twiddle table)");
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
