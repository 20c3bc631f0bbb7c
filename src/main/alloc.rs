//! The process's allocator: mimalloc, called the way Rust's own `System`
//! allocator calls malloc.
//!
//! Building a site allocates millions of small strings across threads, and
//! mimalloc does that markedly faster than glibc malloc (see
//! docs/performance.md). The `mimalloc` crate's allocator sends every
//! request through mimalloc's aligned entry points, which check the
//! alignment, look for a block that happens to be aligned and fall back to
//! over-allocating; but nearly every Rust allocation asks for an alignment
//! that any mimalloc block already has. Those go straight to `mi_malloc`,
//! `mi_zalloc` and `mi_realloc` here, and only larger alignments take the
//! aligned path.

use libmimalloc_sys as mi;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// The alignment every block `mi_malloc` returns has, whatever its size:
/// a machine word (mimalloc's smallest blocks are one word, and every size
/// class is a whole number of words).
const WORD: usize = std::mem::size_of::<usize>();

/// mimalloc, with its plain entry points for word-aligned requests.
pub(crate) struct Mimalloc;

// SAFETY: each method forwards to the mimalloc function that keeps the
// contract GlobalAlloc states: blocks of at least `layout.size()` bytes at
// `layout.align()` (plain calls only when `align <= WORD`, which every
// mimalloc block satisfies), zeroed for `alloc_zeroed`, freed by `mi_free`
// whichever call made them, and `realloc` keeping the alignment it was
// given.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= WORD {
            mi::mi_malloc(layout.size()).cast()
        } else {
            mi::mi_malloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= WORD {
            mi::mi_zalloc(layout.size()).cast()
        } else {
            mi::mi_zalloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        mi::mi_free(ptr.cast::<c_void>());
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= WORD {
            mi::mi_realloc(ptr.cast::<c_void>(), new_size).cast()
        } else {
            mi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
        }
    }
}
