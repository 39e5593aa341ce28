//! A model of local-memory bank conflicts on NVIDIA GPUs, to choose the
//! padding of a layout in Rust.
//!
//! Local memory has 32 banks of 4 bytes; a warp's access is served in
//! wavefronts, one per set of words that fall on distinct banks.  A 64-bit
//! access is served per half-warp (16 lanes × 8 bytes = one wavefront at
//! best), word w on the bank pair w mod 16; an 8-bit access in one wavefront
//! for the whole warp at best, byte b in word b / 4 on bank (b / 4) mod 32.
//! Lanes that read the same word share it (a broadcast), so only distinct
//! words on one bank cost more wavefronts.

/// Wavefronts of a warp's 64-bit access, lane i at index `idx[i]` of a
/// `ulong` array (up to 32 lanes).
pub fn wavefronts_u64(idx: &[usize]) -> usize {
    idx.chunks(16).map(|half| most_on_one_bank(half.iter().map(|&w| (w % 16, w)))).sum()
}

/// Wavefronts of a warp's 8-bit access, lane i at index `idx[i]` of a
/// `char` array (up to 32 lanes).
pub fn wavefronts_u8(idx: &[usize]) -> usize {
    most_on_one_bank(idx.iter().map(|&b| ((b / 4) % 32, b / 4)))
}

/// The most distinct words that (bank, word) pairs put on one bank (at least
/// 1).  Without allocating for a warp's 32 lanes (the layout searches call it
/// millions of times).
fn most_on_one_bank(words: impl Iterator<Item = (usize, usize)>) -> usize {
    let mut buf = [(0usize, 0usize); 32];
    let mut heap = Vec::new();
    let mut n = 0;
    for pair in words {
        if n < buf.len() {
            buf[n] = pair;
        } else {
            if heap.is_empty() {
                heap.extend_from_slice(&buf);
            }
            heap.push(pair);
        }
        n += 1;
    }
    let pairs = if heap.is_empty() { &mut buf[..n] } else { &mut heap[..] };
    pairs.sort_unstable();
    // runs of one bank in the sorted pairs, counting distinct words
    let (mut most, mut run) = (0, 0);
    for i in 0..pairs.len() {
        if i > 0 && pairs[i] == pairs[i - 1] {
            continue;
        }
        run = if i > 0 && pairs[i].0 == pairs[i - 1].0 { run + 1 } else { 1 };
        most = most.max(run);
    }
    most.max(1)
}

/// Wavefronts of one lazy digit read or written by a warp: the low word
/// (`ulong`) and the high part (`char`) at the same index of `SL` and `SH`.
pub fn wavefronts_lazy(idx: &[usize]) -> usize {
    wavefronts_u64(idx) + wavefronts_u8(idx)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_words_are_the_fewest_wavefronts() {
        let idx: Vec<usize> = (0..32).collect();
        assert_eq!(wavefronts_u64(&idx), 2);
        assert_eq!(wavefronts_u8(&idx), 1);
        // one word for all: a broadcast
        assert_eq!(wavefronts_u64(&[5; 32]), 2);
        assert_eq!(wavefronts_u8(&[5; 32]), 1);
    }

    #[test]
    fn distinct_words_on_one_bank_serialise() {
        // stride 16 words: every lane of a half-warp on bank pair 0
        let idx: Vec<usize> = (0..32).map(|i| 16 * i).collect();
        assert_eq!(wavefronts_u64(&idx), 32);
        // stride 2 words: two lanes per bank pair
        let idx: Vec<usize> = (0..32).map(|i| 2 * i).collect();
        assert_eq!(wavefronts_u64(&idx), 4);
        // bytes 128 apart: words 32 apart, one bank
        let idx: Vec<usize> = (0..32).map(|i| 128 * i).collect();
        assert_eq!(wavefronts_u8(&idx), 32);
        // odd strides touch every bank pair once
        let idx: Vec<usize> = (0..32).map(|i| 9 * i).collect();
        assert_eq!(wavefronts_u64(&idx), 2);
    }
}
