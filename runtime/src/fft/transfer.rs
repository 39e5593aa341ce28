//! A plan's transfers: uploads (values, digit vectors, digit words) converted
//! and laid out digit-major on the device, and downloads back, one segment
//! at a time where the plan's vectors are split; host and device memory
//! checked before anything is allocated.

use num_bigint::BigUint;
use ocl::Buffer;
use rayon::prelude::*;
use srgfn_gen::{Digits, FieldError};

use super::{trace_phase, Plan};
use crate::device_vec::{DeviceVec, Order};
use crate::error::{DeviceContext as _, Error, Result};
use crate::memory::{self, Need};

impl Plan {
    /// Checks, before allocating, that a new vector fits (on a CPU device its
    /// buffer is host memory) besides `host` bytes of host memory.
    fn check_new_vector(&self, host: u128) -> Result<()> {
        let k = self.fft.prime().k();
        let need =
            Need { device: memory::element_bytes(k, self.total() as u128), buffer: memory::element_bytes(k, self.seg as u128), host };
        memory::check(&format!("uploading {} elements", self.total()), need, Some(&self.fft.limits()), "")
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

    pub(super) fn new_vec(&self, bufs: Vec<Buffer<u64>>) -> DeviceVec {
        DeviceVec::new(bufs, self.owner.clone())
    }

    /// A new vector's segments, uninitialised.
    pub(super) fn alloc_vec(&self) -> Result<Vec<Buffer<u64>>> {
        (0..self.scratch.len()).map(|_| self.kernels.alloc(self.seg * self.fft.prime().k())).collect()
    }

    /// Segment s's share of the first `len` elements: (its first element, how
    /// many; 0 for a segment wholly past `len`).
    fn segment_share(&self, s: usize, len: usize) -> (usize, usize) {
        let start = s * self.seg;
        (start, len.saturating_sub(start).min(self.seg))
    }

    /// Uploads N·batch values (< p each, vector after vector).
    /// [`Error::InvalidInput`] for another count or a value ≥ p (naming the element).
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
            return Err(Error::input(format!("mismatched sizes: {} values do not fit a plan of {} elements", values.len(), total)));
        }
        let prime = self.fft.prime().clone();
        let (k, p) = (prime.k(), prime.modulus());
        self.check_new_vector(memory::element_bytes(k, values.len() as u128))?;
        let mut words = vec![0u64; values.len() * k];
        words.par_chunks_mut(k).zip(values.par_iter()).enumerate().try_for_each(|(i, (dst, v))| -> Result<()> {
            if v >= p {
                return Err(Error::from(FieldError::Value { value: v.to_string(), prime: prime.to_string() }).at_element(i));
            }
            dst.iter_mut().zip(v.iter_u64_digits()).for_each(|(d, w)| *d = w);
            Ok(())
        })?;
        let bufs = self.alloc_vec()?;
        let kernels = &self.kernels;
        for (s, (scratch, buf)) in self.scratch.iter().zip(&bufs).enumerate() {
            // segment s: its values' binary words, converted and zero-padded on the device
            let (start, count) = self.segment_share(s, values.len());
            if count > 0 {
                kernels.write(scratch, &words[start * k..(start + count) * k])?;
            }
            kernels.from_binary(scratch, buf, self.seg as u64, count as u64, self.seg as u64)?;
        }
        self.ordered_vec(bufs)
    }

    /// A new vector of `bufs` (natural order), in the plan's input order ([`Plan::input_order`]).
    fn ordered_vec(&mut self, bufs: Vec<Buffer<u64>>) -> Result<DeviceVec> {
        let mut v = self.new_vec(bufs);
        let order = self.input_order();
        self.reorder(&mut v, order)?;
        Ok(v)
    }

    /// The first `len` elements of a vector in `order` as element-major words
    /// in the natural order, where `read(m)` reads its first m positions: a
    /// vector in the superblock order is read whole and put in order on the host.
    fn natural_words(&self, order: Order, len: usize, read: impl FnOnce(usize) -> Result<Vec<u64>>) -> Result<Vec<u64>> {
        let k = self.fft.prime().k();
        match order {
            Order::Natural => read(len),
            Order::Superblocks { r2 } => {
                let bytes = memory::element_bytes(k, self.total() as u128);
                memory::check_host(&format!("reading back {} elements in the superblock order", self.total()), bytes.saturating_mul(2))?;
                let all = read(self.total())?;
                let n = self.shape.n as u64;
                let mut out = crate::staging::host_words(len * k);
                out.par_chunks_mut(k).enumerate().for_each(|(i, dst)| {
                    let pos = srgfn_gen::maps::superblock_position(i as u64, n, r2 as u64) as usize;
                    dst.copy_from_slice(&all[pos * k..(pos + 1) * k]);
                });
                Ok(out)
            }
        }
    }

    /// Uploads element-major words (k per element, already canonical),
    /// zero-padded to N·batch elements; the layout change runs on the device.
    fn upload_words(&mut self, words: &[u64]) -> Result<DeviceVec> {
        let (k, seg) = (self.fft.prime().k(), self.seg);
        check_transposable(seg)?;
        self.check_new_vector(0)?;
        let bufs = self.alloc_vec()?;
        let kernels = &self.kernels;
        for (s, (scratch, buf)) in self.scratch.iter().zip(&bufs).enumerate() {
            let (start, count) = self.segment_share(s, words.len() / k);
            if count > 0 {
                kernels.write(scratch, &words[start * k..(start + count) * k])?;
            }
            if count < seg {
                scratch.cmd().offset(count * k).fill(0, Some((seg - count) * k)).enq().or_device(|| "cannot clear device memory".into())?;
            }
            kernels.transpose(scratch, buf, seg as u32, k as u32, 1)?;
        }
        self.ordered_vec(bufs)
    }

    /// Uploads canonical digit vectors stored element after element (k words
    /// each, at most N·batch elements, zero-padded); checked in parallel.
    pub fn upload_digit_words(&mut self, words: &[u64]) -> Result<DeviceVec> {
        let k = self.fft.prime().k();
        if !words.len().is_multiple_of(k) || words.len() > self.total() * k {
            return Err(Error::input(format!(
                "mismatched sizes: {} words are not at most {} elements of k = {k} digits",
                words.len(),
                self.total()
            )));
        }
        let field = &self.fft.field;
        words.par_chunks(k).enumerate().try_for_each(|(i, e)| field.validate(e).map_err(|e| Error::from(e).at_element(i)))?;
        self.upload_words(words)
    }

    /// The first `len` elements of a vector as digit words, element after element.
    pub fn download_digit_words(&mut self, v: &DeviceVec, len: usize) -> Result<Vec<u64>> {
        self.check_vec(v)?;
        check_transposable(self.seg)?;
        let len = len.min(self.total());
        self.check_download(len, 0)?;
        let k = self.fft.prime().k();
        let kernels = &self.kernels;
        self.natural_words(v.order, len, |len| {
            let mut out = crate::staging::host_words(len * k);
            for (s, (buf, scratch)) in v.bufs.iter().zip(&self.scratch).enumerate() {
                let (start, count) = self.segment_share(s, len);
                if count > 0 {
                    kernels.transpose(buf, scratch, k as u32, self.seg as u32, 1)?;
                    kernels.read_into(scratch, &mut out[start * k..(start + count) * k])?;
                }
            }
            Ok(out)
        })
    }

    /// Uploads N·batch elements given as canonical digit vectors; the layout
    /// change to digit-major runs on the device.
    pub fn upload_digits(&mut self, elems: &[Digits]) -> Result<DeviceVec> {
        self.check_len(elems.len())?;
        let k = self.fft.prime().k();
        if let Some(i) = elems.iter().position(|e| e.len() != k) {
            return Err(Error::from(FieldError::Length { got: elems[i].len(), k }).at_element(i));
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
        let kernels = &self.kernels;
        let t = std::time::Instant::now();
        let words = self.natural_words(v.order, len, |len| {
            let mut words = crate::staging::host_words(len * k);
            for (s, (buf, scratch)) in v.bufs.iter().zip(&self.scratch).enumerate() {
                let (start, count) = self.segment_share(s, len);
                if count > 0 {
                    kernels.to_binary(buf, scratch, self.seg as u64, count as u64)?;
                    kernels.read_into(scratch, &mut words[start * k..(start + count) * k])?;
                }
            }
            Ok(words)
        })?;
        trace_phase("download: to_binary and read", t);
        let t = std::time::Instant::now();
        let p = self.fft.prime().modulus();
        let out = words
            .par_chunks(k)
            .map(|w| {
                let v = crate::layout::biguint_from_words(w);
                if &v >= p {
                    return Err(Error::device(format!("the device returned a value ≥ p ({v})")));
                }
                Ok(v)
            })
            .collect();
        trace_phase("download: integers", t);
        out
    }
}

/// The layout change of digit uploads and downloads (`transpose`) indexes
/// elements with 32 bits: more elements are refused, never wrapped.
fn check_transposable(elements: usize) -> Result<()> {
    if elements > u32::MAX as usize {
        return Err(Error::size(
            Some(BigUint::from(u32::MAX)),
            format!("{elements} elements: digit uploads and downloads take at most 2^32 − 1 elements per plan (values have no such limit)"),
        ));
    }
    Ok(())
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
