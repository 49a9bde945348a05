//! Asking the cache for a helper thread's parse results before the calling thread builds
//! objects from them (see `pyschedule`), and for the next text before a thread parses it
//! (see [`text`]).
//!
//! Those results were written on another core: each block the build reads is a miss served
//! by that core's cache, and in this VM's slow phases each such miss costs more. The build
//! reads them as a chain of pointers (a text's ends, a call's name and arguments, each
//! argument's key and value), so the prefetches are staged: each stage reads only what an
//! earlier stage already asked for.
#![allow(unsafe_code)]

use toolsift_core::stream::oneshot::{End, Lean};

/// Asks for the cache line at `p`. A hint: it never faults, whatever `p` is.
#[inline]
fn line<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `prefetcht0` is a hint that reads nothing the program sees and never faults,
    // whatever the address (SSE is part of the x86-64 baseline).
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// The first `bytes` bytes at `p`, at most `cap`, a line at a time.
#[inline]
fn lines_up_to<T>(p: *const T, bytes: usize, cap: usize) {
    let p = p.cast::<u8>();
    for at in (0..bytes.min(cap)).step_by(64) {
        line(p.wrapping_add(at));
    }
}

/// The first `bytes` bytes of a parse result's block, at most four lines.
#[inline]
fn lines<T>(p: *const T, bytes: usize) {
    lines_up_to(p, bytes, 256);
}

/// A text of `bytes` bytes the engine reads next (up to its first 4 KB), asked for while it
/// parses the one before. The texts are separate `str` objects, away from each other, so
/// the hardware's stream prefetcher meets each one cold: encoding a non-ASCII text's code
/// points was 16% of the samples of a 1-worker sentinel pass, against 10% of its
/// instructions. With the next text asked for whole, the median pass went 3.02 -> 2.81 ms
/// (1,000 replies; the median of five alternating runs of 40 passes, faster in four); with
/// its first 256 bytes only, about half of that.
pub(crate) fn text(p: *const u8, bytes: usize) {
    lines_up_to(p, bytes, 4096);
}

/// Called before building text `k` of `results`: asks for what building texts `k + 1` to
/// `k + 3` will read, each a stage further along its chain of pointers.
pub(crate) fn ahead(results: &[Lean], k: usize) {
    if let Some(later) = results.get(k + 3) {
        lines(
            later.ends.as_ptr(),
            std::mem::size_of_val(later.ends.as_slice()),
        );
    }
    if let Some(next) = results.get(k + 2) {
        // The content the engine joined, or its ranges (read to count their characters).
        if let Some(content) = &next.content {
            line(content.as_ptr());
        }
        if let Some(runs) = &next.content_runs {
            lines(runs.as_ptr(), std::mem::size_of_val(runs.as_slice()));
        }
        for end in &next.ends {
            calls(end);
        }
    }
    if let Some(next) = results.get(k + 1) {
        for end in &next.ends {
            if let Some(pairs) = end.call.as_ref().and_then(|c| c.string_arguments.as_ref()) {
                for (key, value) in pairs {
                    line(key.as_ptr());
                    line(value.as_ptr());
                }
            }
        }
    }
}

/// Drops `results` one text at a time, asking for what dropping the next ones reads the way
/// [`ahead`] does: a helper thread frees its results after the calling thread read (and
/// partly wrote) them, so they are in that thread's cache.
pub(crate) fn drop_all(mut results: Vec<Lean>) {
    for k in 0..results.len() {
        ahead(&results, k);
        if let Some(one) = results.get_mut(k) {
            drop(std::mem::take(one));
        }
    }
}

/// The blocks an end's call and issue point to.
fn calls(end: &End) {
    line(end.id.as_ptr());
    if let Some(issue) = &end.issue {
        line(issue.message.as_ptr());
    }
    if let Some(call) = &end.call {
        line(call.name.as_ptr());
        line(call.raw.as_ptr());
        lines(call.arguments.as_ptr(), call.arguments.len());
        if let Some(pairs) = &call.string_arguments {
            lines(pairs.as_ptr(), std::mem::size_of_val(pairs.as_slice()));
        }
    }
}
