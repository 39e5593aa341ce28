//! Element files: text (one element per line, decimal or 0x-hex, `#` comments)
//! and binary (k little-endian 64-bit digits per element, the fast path).
//!
//! Files are streamed in blocks: a reader thread reads the next block while
//! every core parses the current one, and output is formatted on every core
//! while a writer thread writes the previous block.  Regular files are written
//! atomically (a temporary file in the same folder, then a rename); anything else
//! that exists (`/dev/null`, a FIFO, a terminal) is written in place.

use std::io::{Read, Write};
use std::ops::Range;
use std::path::Path;
use std::sync::mpsc::sync_channel;

use num_bigint::BigUint;
use rayon::prelude::*;
use srgfn_gen::{Field, Prime};

use crate::error::{Error, Result};

/// Longest accepted text line (an 8192-bit element has under 2500 digits).
pub const MAX_LINE: usize = 1 << 16;

/// Bytes read per block (a block ends at a line end, so it may be a line longer).
const BLOCK_BYTES: usize = 8 << 20;

/// Elements formatted per output block.
const BLOCK_ELEMENTS: usize = 1 << 15;

/// Receives how many more bytes were read or written (called from any thread).
pub type Progress<'a> = &'a (dyn Fn(u64) + Sync);

/// A progress callback that ignores its reports.
pub fn no_progress(_: u64) {}

/// Parses one value written in decimal or 0x-hex.
pub(crate) fn parse_value(s: &str) -> Option<BigUint> {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) if !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()) => BigUint::parse_bytes(h.as_bytes(), 16),
        Some(_) => None,
        None if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => Some(parse_decimal(s.as_bytes())),
        None => None,
    }
}

/// The integer of ASCII decimal digits, 19 digits (one u64 word) per step,
/// with no intermediate allocation but the result's words.
fn parse_decimal(digits: &[u8]) -> BigUint {
    const STEP: usize = 19; // 10^19 < 2^64
    let mut words: Vec<u64> = Vec::with_capacity(digits.len() / STEP + 1); // least significant first
    let mut rest = digits;
    while !rest.is_empty() {
        // the first chunk takes the remainder, so every later one has STEP digits
        let take = match rest.len() % STEP {
            0 => STEP,
            r => r,
        };
        let (chunk, tail) = rest.split_at(take);
        rest = tail;
        let scale = 10u64.pow(take as u32) as u128;
        let mut carry = chunk.iter().fold(0u64, |acc, &d| acc * 10 + u64::from(d - b'0')) as u128;
        for w in words.iter_mut() {
            let t = *w as u128 * scale + carry;
            *w = t as u64;
            carry = t >> 64;
        }
        if carry > 0 {
            words.push(carry as u64);
        }
    }
    BigUint::new(words.iter().flat_map(|&w| [w as u32, (w >> 32) as u32]).collect())
}

fn open(path: &Path) -> Result<std::fs::File> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(format!("cannot open {}", path.display()), e))?;
    if file.metadata().map(|m| m.is_dir()).unwrap_or(false) {
        return Err(Error::input("it is a folder, not a file").in_file(&path.display().to_string()));
    }
    Ok(file)
}

/// Size of a file in bytes (0 when unknown), for progress bars.
pub fn file_len(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

/// Reads the values of a text file (each below p); [`Error::InvalidInput`]
/// names the file and line of the first bad one.
pub fn read_text(path: &Path, prime: &Prime, progress: Progress) -> Result<Vec<BigUint>> {
    read_text_from(open(path)?, &path.display().to_string(), prime, progress)
}

/// What the reader thread hands to the parser.
enum Chunk {
    /// Whole lines (the last one may lack its newline at the end of the input).
    Lines(Vec<u8>),
    /// The next line is longer than [`MAX_LINE`].
    LongLine,
}

/// Reads blocks of whole lines; ends after a [`Chunk::LongLine`] or an error.
fn read_chunks<R: Read>(mut reader: R, mut send: impl FnMut(std::io::Result<Chunk>) -> bool) {
    let mut buf: Vec<u8> = Vec::with_capacity(BLOCK_BYTES + MAX_LINE);
    loop {
        let mut eof = false;
        while buf.len() < BLOCK_BYTES {
            let start = buf.len();
            buf.resize(BLOCK_BYTES, 0);
            match reader.read(&mut buf[start..]) {
                Ok(0) => {
                    buf.truncate(start);
                    eof = true;
                    break;
                }
                Ok(n) => buf.truncate(start + n),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => buf.truncate(start),
                Err(e) => {
                    send(Err(e));
                    return;
                }
            }
        }
        let end = if eof { buf.len() } else { buf.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1) };
        if end == 0 && !eof {
            // a block without a line end: one line of more than BLOCK_BYTES > MAX_LINE bytes
            send(Ok(Chunk::LongLine));
            return;
        }
        let rest = buf.split_off(end);
        let lines = std::mem::replace(&mut buf, rest);
        if (!lines.is_empty() && !send(Ok(Chunk::Lines(lines)))) || eof {
            return;
        }
    }
}

/// Values of one piece of a block, or the first bad line in it.
struct Piece {
    values: Vec<BigUint>,
    lines: usize,
    /// (0-based line within the piece, what is wrong with it).
    error: Option<(usize, String)>,
}

fn parse_piece(bytes: &[u8], prime: &Prime) -> Piece {
    let p = prime.modulus();
    // a decimal longer than p (without leading zeros) is not below p: refused unparsed
    let p_digits = p.to_string().len();
    let mut piece = Piece { values: Vec::new(), lines: 0, error: None };
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    if bytes.is_empty() {
        return piece;
    }
    for (i, line) in body.split(|&b| b == b'\n').enumerate() {
        piece.lines = i + 1;
        let fail = |msg: String| Some((i, msg));
        if line.len() > MAX_LINE {
            piece.error = fail(format!("line longer than {MAX_LINE} bytes"));
            break;
        }
        let Ok(text) = std::str::from_utf8(line) else {
            piece.error = fail("not UTF-8 text".into());
            break;
        };
        let text = text.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        let significant = text.trim_start_matches('0').len();
        let value = if significant > p_digits && text.bytes().all(|b| b.is_ascii_digit()) { Some(p.clone()) } else { parse_value(text) };
        match value {
            None => piece.error = fail(format!("cannot read '{}' as a decimal or 0x-hex integer", shorten(text))),
            Some(v) if &v >= p => piece.error = fail(format!("value {} is not below p = {prime}", shorten(text))),
            Some(v) => {
                piece.values.push(v);
                continue;
            }
        }
        break;
    }
    piece
}

/// Splits `bytes` into about `parts` ranges that end at line ends.
fn line_ranges(bytes: &[u8], parts: usize) -> Vec<Range<usize>> {
    let step = bytes.len().div_ceil(parts.max(1)).max(1);
    let mut ranges = Vec::with_capacity(parts);
    let mut start = 0;
    while start < bytes.len() {
        let guess = (start + step).min(bytes.len());
        let end = bytes[guess..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |i| guess + i + 1);
        ranges.push(start..end);
        start = end;
    }
    ranges
}

/// Lines with something besides blanks before any `#` (at most one element
/// each, the reader's rule), counted in blocks of whole lines on every core
/// as the reader reads them.  A line longer than [`MAX_LINE`] ends the count
/// (the reader refuses the file there).
pub(crate) fn count_element_lines(path: &Path) -> Result<u128> {
    let name = path.display().to_string();
    let (tx, rx) = sync_channel::<std::io::Result<Chunk>>(2);
    let reader = open(path)?;
    std::thread::scope(|s| -> Result<u128> {
        s.spawn(move || read_chunks(reader, |chunk| tx.send(chunk).is_ok()));
        let mut count = 0u128;
        for chunk in rx {
            let Chunk::Lines(bytes) = chunk.map_err(|e| Error::io(format!("cannot read {name}"), e))? else { break };
            count += line_ranges(&bytes, 4 * rayon::current_num_threads())
                .into_par_iter()
                .map(|r| bytes[r].split(|&b| b == b'\n').filter(|line| holds_element(line)).count() as u128)
                .sum::<u128>();
        }
        Ok(count)
    })
}

/// Whether a line has something besides blanks before any `#`.
fn holds_element(line: &[u8]) -> bool {
    line.iter().take_while(|&&b| b != b'#').any(|b| !b.is_ascii_whitespace())
}

/// Reads the values of a text stream on every core; errors name `name` and the line.
pub fn read_text_from<R: Read + Send>(reader: R, name: &str, prime: &Prime, progress: Progress) -> Result<Vec<BigUint>> {
    let mut values = Vec::new();
    let mut lines_before = 0usize;
    let (tx, rx) = sync_channel::<std::io::Result<Chunk>>(2);
    std::thread::scope(|s| -> Result<()> {
        s.spawn(move || read_chunks(reader, |chunk| tx.send(chunk).is_ok()));
        // returning early drops rx, which stops the reader at its next block
        for chunk in rx {
            let bytes = match chunk.map_err(|e| Error::io(format!("cannot read {name}"), e))? {
                Chunk::LongLine => return Err(bad_line(name, lines_before + 1, format!("line longer than {MAX_LINE} bytes"))),
                Chunk::Lines(bytes) => bytes,
            };
            let pieces: Vec<Piece> =
                line_ranges(&bytes, 4 * rayon::current_num_threads()).into_par_iter().map(|r| parse_piece(&bytes[r], prime)).collect();
            for piece in pieces {
                if let Some((line, msg)) = piece.error {
                    return Err(bad_line(name, lines_before + line + 1, msg));
                }
                lines_before += piece.lines;
                values.extend(piece.values);
            }
            progress(bytes.len() as u64);
        }
        Ok(())
    })?;
    if values.is_empty() {
        return Err(Error::input("contains no elements").in_file(name));
    }
    Ok(values)
}

/// The [`Error::InvalidInput`] of line `line` (1-based) of `name`.
fn bad_line(name: &str, line: usize, reason: String) -> Error {
    Error::InvalidInput { file: Some(name.to_string()), line: Some(line as u64), element: None, reason }
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Reads a binary file of k little-endian digits per element, as digit words
/// (element after element); every element is validated.
pub fn read_bin(path: &Path, field: &Field, progress: Progress) -> Result<Vec<u64>> {
    let mut bytes = Vec::new();
    open(path)?.read_to_end(&mut bytes).map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
    progress(bytes.len() as u64);
    parse_bin(&bytes, &path.display().to_string(), field)
}

/// Parses k little-endian words per element, validating every element in parallel.
pub fn parse_bin(bytes: &[u8], name: &str, field: &Field) -> Result<Vec<u64>> {
    let k = field.k();
    if bytes.is_empty() {
        return Err(Error::input("contains no elements").in_file(name));
    }
    if !bytes.len().is_multiple_of(8 * k) {
        let reason = format!("{} bytes is not a whole number of elements ({} bytes each: k = {k} words)", bytes.len(), 8 * k);
        return Err(Error::input(reason).in_file(name));
    }
    let words: Vec<u64> = bytes.par_chunks(8).map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes"))).collect();
    // the first bad element in file order, whichever thread finds one
    let bad = words.par_chunks(k).position_first(|e| field.validate(e).is_err());
    if let Some(i) = bad {
        let err = field.validate(&words[i * k..(i + 1) * k]).expect_err("found invalid");
        return Err(Error::from(err).in_file(name).at_element(i));
    }
    Ok(words)
}

/// Text of values, one per line, formatted in parallel.
pub fn text_of(values: &[BigUint]) -> Vec<u8> {
    let pieces: Vec<Vec<u8>> = values
        .par_chunks(256)
        .map(|chunk| {
            let mut s = Vec::with_capacity(chunk.len() * 160);
            for v in chunk {
                writeln!(s, "{v}").expect("writing to memory");
            }
            s
        })
        .collect();
    pieces.concat()
}

/// Bytes of digit words (little-endian).
pub fn bin_of(words: &[u64]) -> Vec<u8> {
    words.par_iter().flat_map_iter(|w| w.to_le_bytes()).collect()
}

/// Writes values as text, one per line (to standard output when `path` is None).
pub fn write_text(path: Option<&Path>, values: &[BigUint], progress: Progress) -> Result<()> {
    let blocks = values.chunks(BLOCK_ELEMENTS).map(text_of);
    write_blocks(path, blocks, progress)
}

/// Writes digit words as binary (to standard output when `path` is None).
pub fn write_bin(path: Option<&Path>, words: &[u64], progress: Progress) -> Result<()> {
    write_blocks(path, words.chunks(BLOCK_ELEMENTS * 8).map(bin_of), progress)
}

/// Writes blocks made on the calling thread (each on every core) while a
/// writer thread writes the previous one; atomic for files.
fn write_blocks(path: Option<&Path>, blocks: impl Iterator<Item = Vec<u8>>, progress: Progress) -> Result<()> {
    let Some(path) = path else {
        return write_stream(std::io::stdout(), blocks, progress).or_else(|e| match e.kind() {
            // a closed pipe (`| head`) is the reader's choice, not an error
            std::io::ErrorKind::BrokenPipe => Ok(()),
            _ => Err(Error::io("cannot write to standard output", e)),
        });
    };
    let result = match destination(path) {
        Destination::InPlace => std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .and_then(|file| write_stream(file, blocks, progress)),
        Destination::Replace(target) => {
            let tmp = temporary_path(&target);
            let result = std::fs::File::create(&tmp).and_then(|mut file| {
                write_stream(&mut file, blocks, progress)?;
                // no fsync: the rename makes the write atomic for a failed or killed
                // run, and syncing hundreds of MB would dominate large outputs
                std::fs::rename(&tmp, &target)
            });
            if result.is_err() {
                let _ = std::fs::remove_file(&tmp);
            }
            result
        }
    };
    result.map_err(|e| Error::io(format!("cannot write {}", path.display()), e))
}

/// How a write to a path lands.
#[derive(Debug, PartialEq)]
enum Destination {
    /// A regular file, existing or new: replaced atomically by renaming a temporary file
    /// onto this path (a symbolic link's target, so the link stays a link).
    Replace(std::path::PathBuf),
    /// Something else that exists (`/dev/null`, a FIFO, a terminal) or a dangling link:
    /// opened and written in place.  A rename would replace the device node or pipe itself
    /// (as root, a rename onto `/dev/null` leaves a regular file there).
    InPlace,
}

fn destination(path: &Path) -> Destination {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => Destination::Replace(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())),
        Ok(_) => Destination::InPlace,
        Err(_) if std::fs::symlink_metadata(path).is_ok() => Destination::InPlace,
        Err(_) => Destination::Replace(path.to_path_buf()),
    }
}

fn write_stream<W: Write + Send>(mut sink: W, blocks: impl Iterator<Item = Vec<u8>>, progress: Progress) -> std::io::Result<()> {
    let (tx, rx) = sync_channel::<Vec<u8>>(1);
    std::thread::scope(|s| {
        let writer = s.spawn(move || -> std::io::Result<()> {
            for block in rx {
                sink.write_all(&block)?;
                progress(block.len() as u64);
            }
            sink.flush()
        });
        for block in blocks {
            // the writer stopped on an error: it is reported by join
            if tx.send(block).is_err() {
                break;
            }
        }
        drop(tx);
        writer.join().expect("the writer thread does not panic")
    })
}

fn temporary_path(path: &Path) -> std::path::PathBuf {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    dir.join(format!(".{name}.tmp-{}", std::process::id()))
}

/// Writes `bytes` to `path`: atomically where it is a regular file or new (temporary file in
/// the same folder, then rename), so an interrupted run leaves no partial file; in place where
/// it is a device or a pipe (`/dev/null`).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_blocks(Some(path), std::iter::once(bytes.to_vec()), &no_progress)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prime() -> Prime {
        Prime::parse("(2^63+2^34)^8+1").unwrap()
    }

    #[test]
    fn line_ranges_cover_the_block_at_line_ends() {
        let text = b"1\n22\n333\n4444\n55555\n";
        for parts in 1..8 {
            let ranges = line_ranges(text, parts);
            assert_eq!(ranges.first().unwrap().start, 0);
            assert_eq!(ranges.last().unwrap().end, text.len());
            for w in ranges.windows(2) {
                assert_eq!(w[0].end, w[1].start);
                assert_eq!(text[w[0].end - 1], b'\n');
            }
        }
    }

    #[test]
    fn element_lines_are_counted_across_blocks_and_pieces() {
        let path = std::env::temp_dir().join(format!("srgfn-count-{}.txt", std::process::id()));
        // more than one block; blank lines, comments, CRLF and a last line without its newline
        let mut text = String::new();
        let mut expected = 0u128;
        for i in 0..BLOCK_BYTES / 5 {
            match i % 7 {
                0 => text.push_str("   \n"),
                1 => text.push_str("# a comment 12\n"),
                2 => text.push_str("  # 12\r\n"),
                _ => {
                    text.push_str(&format!("{i} # trailing\r\n"));
                    expected += 1;
                }
            }
        }
        text.push_str("77");
        std::fs::write(&path, &text).unwrap();
        let counted = count_element_lines(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(counted, expected + 1);
    }

    #[test]
    fn text_reads_in_blocks_and_names_the_line() {
        // more than one block, so lines are counted across blocks and pieces
        let lines = BLOCK_BYTES / 4 + 1000;
        let mut text: Vec<u8> = (0..lines).flat_map(|i| format!("{}\n", i % 1000).into_bytes()).collect();
        let values = read_text_from(&text[..], "t", &prime(), &no_progress).unwrap();
        assert_eq!(values.len(), lines);
        assert_eq!(values[lines - 1], BigUint::from(((lines - 1) % 1000) as u32));
        text.extend_from_slice(b"# comment\n12x\n");
        let err = read_text_from(&text[..], "t", &prime(), &no_progress).unwrap_err().to_string();
        assert_eq!(err, format!("t:{}: cannot read '12x' as a decimal or 0x-hex integer", lines + 2));
        // the last line may lack its newline
        assert_eq!(read_text_from(&b"5\n0x10"[..], "t", &prime(), &no_progress).unwrap(), [BigUint::from(5u32), BigUint::from(16u32)]);
    }

    #[test]
    fn decimals_parse_like_num_bigint() {
        for s in
            ["0", "7", "000123", "18446744073709551615", "18446744073709551616", "10000000000000000000", &"9".repeat(155), &"1".repeat(38)]
        {
            assert_eq!(parse_value(s), BigUint::parse_bytes(s.as_bytes(), 10), "{s}");
        }
        assert_eq!(parse_value("0x1F"), Some(BigUint::from(31u32)));
        for bad in ["", "0x", "1_000", "+5", "12a", "0xg", "1 2"] {
            assert_eq!(parse_value(bad), None, "{bad}");
        }
        // far too long: refused as not below p without parsing
        let long = format!("1{}", "0".repeat(MAX_LINE - 1));
        let err = read_text_from(long.as_bytes(), "t", &prime(), &no_progress).unwrap_err().to_string();
        assert!(err.starts_with("t:1: value 1000") && err.contains("is not below p"), "{err}");
    }

    #[test]
    fn output_round_trips_through_the_reader() {
        let values: Vec<BigUint> = (0..100_000u64).map(|i| BigUint::from(i) << (i % 400)).collect();
        let text = text_of(&values);
        assert_eq!(read_text_from(&text[..], "t", &prime(), &no_progress).unwrap(), values);
    }

    /// A fresh, empty folder for one test.
    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("srgfn-io-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn writes_replace_regular_files_and_follow_links() {
        use std::os::unix::fs::symlink;
        let dir = scratch("links");
        let (file, link) = (dir.join("out.txt"), dir.join("link.txt"));
        write_atomic(&file, b"old").unwrap();
        symlink(&file, &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
        assert_eq!(std::fs::read(&file).unwrap(), b"new");
        assert_eq!(destination(&dir.join("fresh")), Destination::Replace(dir.join("fresh")));
        // a dangling link is written through, creating its target
        let (gone, dangling) = (dir.join("gone.txt"), dir.join("dangling.txt"));
        symlink(&gone, &dangling).unwrap();
        write_atomic(&dangling, b"x").unwrap();
        assert_eq!(std::fs::read(&gone).unwrap(), b"x");
        // a folder is an error naming the path, never replaced
        let err = write_atomic(&dir, b"x").unwrap_err().to_string();
        assert!(err.contains(&dir.display().to_string()), "{err}");
        assert!(dir.is_dir());
        // only the written files are left: no temporary files
        let mut names: Vec<String> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        assert_eq!(names, ["dangling.txt", "gone.txt", "link.txt", "out.txt"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writes_to_pipes_and_devices_go_in_place() {
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch("fifo");
        let fifo = dir.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.map(|s| s.success()).unwrap_or(false) {
            let reader = {
                let fifo = fifo.clone();
                std::thread::spawn(move || std::fs::read(fifo).unwrap())
            };
            write_text(Some(&fifo), &[BigUint::from(3u32), BigUint::from(4u32)], &no_progress).unwrap();
            // checked before joining: a rename over the FIFO would leave the reader waiting
            assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO stays a FIFO");
            assert_eq!(reader.join().unwrap(), b"3\n4\n");
        }
        // /dev/null stays a device (a rename over it, as root, replaced it with a regular file)
        let null = Path::new("/dev/null");
        if std::fs::metadata(null).map(|m| m.file_type().is_char_device()).unwrap_or(false) {
            assert_eq!(destination(null), Destination::InPlace);
            write_atomic(null, b"nothing").unwrap();
            assert!(std::fs::metadata(null).unwrap().file_type().is_char_device());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
