#!/usr/bin/env python3
"""The PTX text of one srgfn program-cache entry (NVIDIA's OpenCL program binary is PTX).

usage: cache_ptx.py ENTRY.bin OUT.ptx

An entry (runtime/src/cache.rs) is a magic line, the key, the SHA-256 of the binary and the
binary; NVIDIA's binary is PTX text ending in a NUL byte.  Exits 1, writing nothing, for a file
that is not such an entry or whose checksum does not match.
"""
import hashlib
import sys

MAGIC = b"srgfn-program-binary v1\n"


def ptx_of(data: bytes) -> bytes:
    if not data.startswith(MAGIC):
        raise ValueError("no srgfn-program-binary v1 magic line")
    rest = data[len(MAGIC):]
    key_end = rest.index(b"\n")
    rest = rest[key_end + 1:]
    sum_end = rest.index(b"\n")
    checksum, binary = rest[:sum_end], rest[sum_end + 1:]
    if hashlib.sha256(binary).hexdigest().encode() != checksum:
        raise ValueError("the binary does not match its SHA-256")
    return binary.rstrip(b"\0")


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        ptx = ptx_of(open(sys.argv[1], "rb").read())
    except (OSError, ValueError) as e:
        print(f"{sys.argv[1]}: {e}", file=sys.stderr)
        return 1
    with open(sys.argv[2], "wb") as out:
        out.write(ptx)
    return 0


if __name__ == "__main__":
    sys.exit(main())
