//! Transfers between host and device memory, and allocations: every large
//! write and read goes through the kernels' staging memory (pinned on NVIDIA;
//! `crate::staging`), every refused allocation is an [`Error::OutOfMemory`]
//! that names the device.

use ocl::Buffer;

use super::FieldKernels;
use crate::error::{DeviceContext as _, Error, Result};
use crate::faults::{Fault, Faults};
use crate::memory::{self, Available, Need, Shortfall};

impl FieldKernels {
    /// A device buffer holding `words`.
    pub fn upload(&self, words: &[u64]) -> Result<Buffer<u64>> {
        self.check_alloc(words.len())?;
        Buffer::<u64>::builder()
            .queue(self.session.queue.clone())
            .len(words.len().max(1))
            .copy_host_slice(words)
            .build()
            .map_err(|e| self.alloc_error(words.len(), &e.to_string()))
    }

    /// Overwrites the start of `b` with `words`.
    pub fn write(&self, b: &Buffer<u64>, words: &[u64]) -> Result<()> {
        if !words.is_empty() {
            self.stage.write(&self.session.queue, b, words).or_device(|| "cannot write to the device".into())?;
        }
        Ok(())
    }

    /// An uninitialised device buffer of `len` words.
    pub fn alloc(&self, len: usize) -> Result<Buffer<u64>> {
        self.check_alloc(len)?;
        Buffer::<u64>::builder()
            .queue(self.session.queue.clone())
            .len(len.max(1))
            .build()
            .map_err(|e| self.alloc_error(len, &e.to_string()))
    }

    fn check_alloc(&self, words: usize) -> Result<()> {
        if self.session.faults.hit(Fault::Alloc) {
            return Err(self.alloc_error(words, "injected fault: Alloc"));
        }
        Ok(())
    }

    /// The [`Error::OutOfMemory`] of a buffer of `words` words the driver
    /// refused (`cause` says why).
    fn alloc_error(&self, words: usize, cause: &str) -> Error {
        let bytes = words as u128 * 8;
        let device = &self.session.device;
        Shortfall {
            needed: Need { device: bytes, buffer: bytes, host: 0 },
            available: Available::of(Some(device), None),
            message: format!("cannot allocate {} on {}: {cause}", memory::human(bytes), device.describe()),
        }
        .into_error()
    }

    /// Reads a buffer back (waits for the queue).
    pub fn download(&self, b: &Buffer<u64>) -> Result<Vec<u64>> {
        self.download_prefix(b, b.len())
    }

    /// The start of `b` ← `words`, which is staging memory already (no second copy).
    pub(crate) fn write_staged(&self, b: &Buffer<u64>, words: &[u64]) -> Result<()> {
        if !words.is_empty() {
            b.write(words).enq().or_device(|| "cannot write to the device".into())?;
        }
        Ok(())
    }

    /// `out` (staging memory already) ← the start of `b` (waits for the queue).
    pub(crate) fn read_staged(&self, b: &Buffer<u64>, out: &mut [u64]) -> Result<()> {
        if self.session.faults.hit(Fault::Read) {
            return Err(Faults::error(Fault::Read, "read from the device"));
        }
        if !out.is_empty() {
            b.read(out).enq().or_device(|| "cannot read results back from the device".into())?;
        }
        Ok(())
    }

    /// Reads the first `out.len()` words of a buffer into `out` (waits for the queue).
    pub fn read_into(&self, b: &Buffer<u64>, out: &mut [u64]) -> Result<()> {
        if self.session.faults.hit(Fault::Read) {
            return Err(Faults::error(Fault::Read, "read from the device"));
        }
        if !out.is_empty() {
            self.stage.read(&self.session.queue, b, out).or_device(|| "cannot read results back from the device".into())?;
        }
        Ok(())
    }

    /// Reads the first `len` words of a buffer back (waits for the queue).
    pub fn download_prefix(&self, b: &Buffer<u64>, len: usize) -> Result<Vec<u64>> {
        if self.session.faults.hit(Fault::Read) {
            return Err(Faults::error(Fault::Read, "read from the device"));
        }
        let mut v = crate::staging::host_words(len.min(b.len()));
        self.stage.read(&self.session.queue, b, &mut v).or_device(|| "cannot read results back from the device".into())?;
        Ok(v)
    }
}
