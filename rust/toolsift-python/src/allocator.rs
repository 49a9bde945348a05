//! The extension's global allocator: mimalloc, reached through its plain entry points for
//! the alignments every block already has.
//!
//! The `mimalloc` crate sends every request to `mi_malloc_aligned`, whose fast path only
//! covers blocks up to 1 KiB; a larger `String` or `Vec<u8>` (an encoded text, a segment's
//! raw text, a file's content) took the aligned generic path, which over-allocates and looks
//! its page up again: callgrind put 4.8% of a sentinel batch in `mi_malloc_aligned`.
//! `mi_malloc` hands out blocks at multiples of 8 bytes (every size class is a multiple of the
//! word), so an alignment of at most 8 needs no more; larger ones still go the aligned way.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys::{
    mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned, mi_zalloc,
    mi_zalloc_aligned,
};

/// The alignment of every block `mi_malloc` returns: its pointer size.
const WORD: usize = size_of::<usize>();

pub(crate) struct Mimalloc;

// SAFETY: each method hands mimalloc exactly the request Rust made and returns its block
// (null on failure); blocks of either entry point are freed and resized by `mi_free` and
// `mi_realloc*`, which accept both. An alignment above `WORD` always takes the aligned entry.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= WORD {
            mi_malloc(layout.size()).cast()
        } else {
            mi_malloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= WORD {
            mi_zalloc(layout.size()).cast()
        } else {
            mi_zalloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        mi_free(ptr.cast::<c_void>());
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= WORD {
            mi_realloc(ptr.cast::<c_void>(), new_size).cast()
        } else {
            mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every size a small or large block takes, at every alignment up to a page: the block is
    /// aligned, writable over its size, and keeps its bytes when grown.
    #[test]
    fn blocks_are_aligned_and_keep_their_bytes() {
        let sizes = (1..=80).chain([127, 128, 1000, 1024, 1025, 4096, 70_000, 1 << 21]);
        for size in sizes {
            for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: `layout` has a non-zero size; each block is used within its size
                // and freed once, with the layout it was made with.
                unsafe {
                    for zeroed in [false, true] {
                        let p = if zeroed {
                            Mimalloc.alloc_zeroed(layout)
                        } else {
                            Mimalloc.alloc(layout)
                        };
                        assert!(!p.is_null());
                        assert_eq!(p as usize % align, 0, "size {size} align {align}");
                        if zeroed {
                            assert!((0..size).all(|k| *p.add(k) == 0));
                        }
                        for k in 0..size {
                            *p.add(k) = (k % 251) as u8;
                        }
                        let q = Mimalloc.realloc(p, layout, size * 3);
                        assert!(!q.is_null());
                        assert_eq!(q as usize % align, 0, "grown: size {size} align {align}");
                        assert!((0..size).all(|k| *q.add(k) == (k % 251) as u8));
                        let grown = Layout::from_size_align(size * 3, align).unwrap();
                        Mimalloc.dealloc(q, grown);
                    }
                }
            }
        }
    }
}
