//! Host staging memory for transfers: buffers the platform allocates in host
//! memory for the device (`CL_MEM_ALLOC_HOST_PTR`, page-locked on NVIDIA), mapped
//! for their life.  Writes from and reads into such memory run by DMA at the
//! bus's speed; from ordinary (pageable) memory the driver copies through a
//! bounce buffer of its own, on one thread (on the H200 machine the four-step
//! split moved its data 2.5× faster once staged: docs/scale.md).

use std::sync::Mutex;

use ocl::{Buffer, Queue};
use rayon::prelude::*;

/// Host memory for transfers: pinned where the platform offers it, else plain.
pub(crate) enum Staging {
    Pinned { map: Box<ocl::MemMap<u64>>, _buf: Buffer<u64> },
    Plain(Vec<u64>),
}

impl Staging {
    /// `len` words of staging memory for `queue`'s device.
    pub(crate) fn new(queue: &Queue, len: usize) -> Staging {
        let pinned = Buffer::<u64>::builder()
            .queue(queue.clone())
            .flags(ocl::flags::MEM_READ_WRITE | ocl::flags::MEM_ALLOC_HOST_PTR)
            .len(len.max(1))
            .build()
            // SAFETY: the only mapping of a buffer its Staging alone holds, unmapped when dropped.
            .and_then(|buf| unsafe { buf.map().flags(ocl::flags::MAP_READ | ocl::flags::MAP_WRITE).enq() }.map(|map| (map, buf)));
        match pinned {
            Ok((map, buf)) => Staging::Pinned { map: Box::new(map), _buf: buf },
            Err(_) => Staging::Plain(vec![0; len]),
        }
    }
}

impl std::ops::Deref for Staging {
    type Target = [u64];
    fn deref(&self) -> &[u64] {
        match self {
            Staging::Pinned { map, .. } => map,
            Staging::Plain(v) => v,
        }
    }
}

impl std::ops::DerefMut for Staging {
    fn deref_mut(&mut self) -> &mut [u64] {
        match self {
            Staging::Pinned { map, .. } => map,
            Staging::Plain(v) => v,
        }
    }
}

/// Words per piece of a staged transfer (64 MiB).
const PIECE: usize = 1 << 23;
/// Transfers shorter than this (1 MiB) go directly: staging would not pay.
const DIRECT: usize = 1 << 17;

/// `len` zeroed words whose pages are faulted in from every core (a single
/// copy into fresh memory would otherwise take them one at a time).
pub(crate) fn host_words(len: usize) -> Vec<u64> {
    let mut v = vec![0u64; len];
    // SAFETY: writes a zero, the value already there, to one word of each chunk.
    v.par_chunks_mut(512).for_each(|c| unsafe { std::ptr::write_volatile(c.as_mut_ptr(), 0) });
    v
}

/// dst ← src on every core.
pub(crate) fn copy(dst: &mut [u64], src: &[u64]) {
    dst.par_chunks_mut(1 << 15).zip(src.par_chunks(1 << 15)).for_each(|(d, s)| d.copy_from_slice(s));
}

/// A transfer's pieces of staging memory, made on first use and kept.
#[derive(Default)]
pub(crate) struct Stage(Mutex<Option<Staging>>);

impl Stage {
    /// The start of `b` ← `words`, through the staging memory piece by piece.
    pub(crate) fn write(&self, queue: &Queue, b: &Buffer<u64>, words: &[u64]) -> ocl::Result<()> {
        if words.len() < DIRECT {
            return b.write(words).enq();
        }
        let mut kept = self.0.lock().expect("staging");
        let st = kept.get_or_insert_with(|| Staging::new(queue, PIECE));
        for (i, piece) in words.chunks(PIECE).enumerate() {
            copy(&mut st[..piece.len()], piece);
            b.write(&st[..piece.len()]).offset(i * PIECE).enq()?;
        }
        Ok(())
    }

    /// `out` ← the start of `b`, through the staging memory piece by piece.
    pub(crate) fn read(&self, queue: &Queue, b: &Buffer<u64>, out: &mut [u64]) -> ocl::Result<()> {
        if out.len() < DIRECT {
            return b.read(out).enq();
        }
        let mut kept = self.0.lock().expect("staging");
        let st = kept.get_or_insert_with(|| Staging::new(queue, PIECE));
        for (i, piece) in out.chunks_mut(PIECE).enumerate() {
            b.read(&mut st[..piece.len()]).offset(i * PIECE).enq()?;
            copy(piece, &st[..piece.len()]);
        }
        Ok(())
    }
}
