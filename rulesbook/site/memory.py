"""Python's memory as the start-up snapshot ships it: without its pages of zeros.

The build's start-up snapshot (:func:`rulesbook.site.runtime.start_snapshot`) is Python's
WebAssembly memory, about half of it zeros; :func:`sparse` leaves those pages out and
``docs/javascripts/rulesbook-live-core.mjs`` (``unsparse``) puts the rest back in place in a fresh,
zeroed buffer: half the bytes to unpack and hash in the browser.
"""

from __future__ import annotations

__all__ = ["SPARSE_MAGIC", "SPARSE_PAGE", "sparse"]


SPARSE_MAGIC = b"RBSNAP1\0"
SPARSE_PAGE = 4096


def sparse(memory: bytes) -> bytes:
    """Python's memory without its pages of zeros (about half of it): ``RBSNAP1\\0``, the memory's
    size, the page size and the page count (32-bit little-endian each), a bitmap of the pages
    kept, then those pages (``rulesbook-live-core.mjs`` puts them back in place; the rest of a
    fresh buffer is zeros already). Half the bytes to unpack and hash in the browser.

    >>> memory = bytes(4096) + b"x" * 4096 + bytes(100)
    >>> packed = sparse(memory)
    >>> len(packed) < len(memory) and packed[:8] == SPARSE_MAGIC
    True
    """
    pages = -(-len(memory) // SPARSE_PAGE)
    zero = bytes(SPARSE_PAGE)
    kept = [
        i
        for i in range(pages)
        if memory[i * SPARSE_PAGE : (i + 1) * SPARSE_PAGE].ljust(SPARSE_PAGE, b"\0") != zero
    ]
    bitmap = bytearray(-(-pages // 8))
    for i in kept:
        bitmap[i // 8] |= 1 << (i % 8)
    head = SPARSE_MAGIC + b"".join(n.to_bytes(4, "little") for n in (len(memory), SPARSE_PAGE, pages))
    body = b"".join(memory[i * SPARSE_PAGE : (i + 1) * SPARSE_PAGE].ljust(SPARSE_PAGE, b"\0") for i in kept)
    return head + bytes(bitmap) + body
