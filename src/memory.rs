//! Memory for the large shared tables (the search's transposition table,
//! the perft table): zero-filled arrays whose pages the operating system
//! maps on first write (the search's table has them all mapped before its
//! first search, [`ZeroedArray::new_resident`]), backed by huge pages where
//! the system allows, and the cache prefetch hint both tables use ahead of
//! a probe.
//!
//! Both tables are probed at random addresses, once or more per node. On
//! 4 KiB pages nearly every probe of a table larger than the TLB's reach
//! also misses the TLB, and the page walk comes on top of the cache miss;
//! on 2 MiB pages a 16 MiB table needs eight TLB entries.

/// A type whose all-zero bytes are a valid value (integers, atomics, arrays
/// and `repr(C)` structs of them), so that an array of it may be made by
/// zero-filled allocation without writing a value into each element.
///
/// # Safety
/// An implementor must be valid, and mean "empty", as all-zero bytes.
pub(crate) unsafe trait Zeroable: Sized {}

/// A zero-filled array of `T`, aligned to `T` and, when it is 2 MiB or
/// larger, to a huge page, whose pages the operating system maps on first
/// write.
///
/// Why not `Box<[T]>` or a `Vec`: the standard allocator zero-fills
/// over-aligned allocations (a cache line's 64 bytes) by writing every
/// byte, and a `Vec` filled element by element writes them too, which makes
/// the whole array resident at once (a 1 GiB table costs 1 GiB and a second
/// before its first use). Asking for 8-byte alignment goes through
/// `calloc`, whose large blocks come straight from `mmap` and are zero
/// without being touched; the array is then aligned by hand inside a slack
/// of one alignment, and a large one is offered to the kernel for huge
/// pages (see `advise_huge_pages`).
pub(crate) struct ZeroedArray<T: Zeroable> {
    base: std::ptr::NonNull<u8>,
    layout: std::alloc::Layout,
    offset: usize,
    len: usize,
    _items: std::marker::PhantomData<T>,
}

// SAFETY: the array owns its allocation alone and hands out only `&[T]`, so
// it may move to or be shared with another thread when `T` may.
unsafe impl<T: Zeroable + Send> Send for ZeroedArray<T> {}
// SAFETY: as above.
unsafe impl<T: Zeroable + Sync> Sync for ZeroedArray<T> {}

impl<T: Zeroable> ZeroedArray<T> {
    /// `len` zero values, or `None` when the size overflows or the
    /// allocation fails.
    pub(crate) fn new(len: usize) -> Option<ZeroedArray<T>> {
        let bytes = len.checked_mul(std::mem::size_of::<T>())?;
        let align = if bytes >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<T>()
        };
        let size = bytes.checked_add(align)?;
        let layout = std::alloc::Layout::from_size_align(size, 8).ok()?;
        // SAFETY: `layout` has a non-zero size (at least one alignment).
        let base = std::ptr::NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        let offset = base.as_ptr().align_offset(align);
        if offset >= align {
            // SAFETY: allocated just above with this layout.
            unsafe { std::alloc::dealloc(base.as_ptr(), layout) };
            return None;
        }
        if align == HUGE_PAGE {
            // SAFETY: `base + offset` and the `bytes` after it lie inside
            // the allocation (offset < align, the slack).
            advise_huge_pages(unsafe { base.as_ptr().add(offset) }, bytes);
        }
        Some(ZeroedArray {
            base,
            layout,
            offset,
            len,
            _items: std::marker::PhantomData,
        })
    }

    /// [`ZeroedArray::new`] with every page mapped before it is returned:
    /// one zero byte written per [`SMALL_PAGE`], over a few threads.
    ///
    /// Why: a table the search probes under a clock must not fault its
    /// pages in during the search. Faulting in a gigabyte (and, on huge
    /// pages, the kernel's compaction to find them) took seconds, and the
    /// first moves of a game with `Hash` 1024 overran a 100 ms `movetime`
    /// by up to five seconds. Paid here, the cost falls on `setoption` and
    /// the GUI's `isready` after it, where UCI expects it, as Stockfish
    /// pays it when it clears its table.
    pub(crate) fn new_resident(len: usize) -> Option<ZeroedArray<T>> {
        let array = ZeroedArray::new(len)?;
        let bytes = len * std::mem::size_of::<T>();
        let start = array.base.as_ptr() as usize + array.offset;
        let pages = bytes.div_ceil(SMALL_PAGE);
        let threads = std::thread::available_parallelism()
            .map_or(1, usize::from)
            .clamp(1, MAP_THREADS)
            .min(pages.div_ceil(MAP_PAGES_PER_THREAD).max(1));
        let per = pages.div_ceil(threads);
        std::thread::scope(|s| {
            for t in 0..threads {
                s.spawn(move || {
                    for page in (t * per)..((t + 1) * per).min(pages) {
                        let at = (start + page * SMALL_PAGE) as *mut u8;
                        // SAFETY: `at` lies inside the array's bytes (page <
                        // pages), which no reference reaches yet (the array
                        // is not returned), and writing 0 over a zero byte
                        // changes nothing a `T` holds. Volatile, so the write
                        // that maps the page is not elided.
                        unsafe { std::ptr::write_volatile(at, 0) };
                    }
                });
            }
        });
        Some(array)
    }
}

/// The base page size: one write in each maps it (or, on huge pages, the
/// 2 MiB page it lies in).
const SMALL_PAGE: usize = 4096;

/// The most threads that map a table's pages: page faults are the
/// kernel's work, which scales over a few cores and no further.
const MAP_THREADS: usize = 8;

/// The fewest pages worth a thread of their own (16 MiB): a default-sized
/// table is mapped by the calling thread alone.
const MAP_PAGES_PER_THREAD: usize = 4096;

impl<T: Zeroable> std::ops::Deref for ZeroedArray<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `base + offset` is aligned for `T` and followed by at
        // least `len * size_of::<T>()` bytes of the allocation (offset < the
        // alignment, which was allocated as slack beyond them). The bytes
        // are zero, a valid `T` (`Zeroable`), or were written through this
        // slice; only shared references are handed out, so writes go through
        // `T`'s own interior mutability (atomics). The allocation lives as
        // long as `self`.
        unsafe {
            std::slice::from_raw_parts(self.base.as_ptr().add(self.offset).cast::<T>(), self.len)
        }
    }
}

impl<T: Zeroable> Drop for ZeroedArray<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with exactly this layout, freed once.
        unsafe { std::alloc::dealloc(self.base.as_ptr(), self.layout) };
    }
}

/// Ask the CPU to bring the cache line of `item` closer: a hint, which
/// reads nothing, changes no result and does nothing on other targets.
#[inline]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let line = std::ptr::from_ref(item).cast::<i8>();
        // SAFETY: SSE is part of every x86_64 CPU, and a prefetch cannot
        // fault (the address is a live reference anyway).
        unsafe { _mm_prefetch::<_MM_HINT_T0>(line) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// Size of an x86-64 (and common AArch64) huge page.
const HUGE_PAGE: usize = 2 << 20;

/// Ask Linux to back `[start, start + len)` with 2 MiB pages where it can
/// (`madvise(MADV_HUGEPAGE)`; in the kernel's default `madvise` mode of
/// transparent huge pages nothing else gets them). A gigabyte table then
/// costs 512 page faults instead of 262,144, and its random probes miss the
/// TLB far less. Only a hint: refused or unsupported, the table works the
/// same on 4 KiB pages.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, len: usize) {
    // SAFETY: the range is inside one live allocation of ours; the advice
    // changes how pages are backed, never their contents (still zero).
    let _ = unsafe { libc::madvise(start.cast(), len, libc::MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *mut u8, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[repr(C, align(64))]
    struct Line([AtomicU64; 8]);
    // SAFETY: atomics of zero bytes are zero.
    unsafe impl Zeroable for Line {}

    #[test]
    fn arrays_are_zero_aligned_and_writable() {
        // Below and above the huge-page threshold (2 MiB = 32,768 lines).
        for len in [1, 3, 1000, 32_768, 1 << 16] {
            let a = ZeroedArray::<Line>::new(len).expect("allocation");
            assert_eq!(a.len(), len);
            assert_eq!(a.as_ptr() as usize % 64, 0);
            if len >= 32_768 {
                assert_eq!(a.as_ptr() as usize % HUGE_PAGE, 0);
            }
            assert!(a
                .iter()
                .all(|l| l.0.iter().all(|w| w.load(Ordering::Relaxed) == 0)));
            a[len - 1].0[7].store(7, Ordering::Relaxed);
            a[0].0[0].store(1, Ordering::Relaxed);
            assert_eq!(a[len - 1].0[7].load(Ordering::Relaxed), 7);
            assert_eq!(a[0].0[0].load(Ordering::Relaxed), 1);
        }
    }

    /// The pages a table is made with are mapped before it is returned
    /// (`mincore` says which pages are in memory), where the lazy array's
    /// are not: the search does not pay for them.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_resident_array_has_every_page_mapped() {
        let resident_pages = |a: &ZeroedArray<Line>| {
            let bytes = a.len() * 64;
            let pages = bytes.div_ceil(SMALL_PAGE);
            let mut flags = vec![0u8; pages];
            // SAFETY: the range is the array's own, page-aligned (huge-page
            // aligned, being 64 MiB), and `flags` has a byte per page.
            let rc = unsafe { libc::mincore(a.as_ptr() as *mut _, bytes, flags.as_mut_ptr()) };
            assert_eq!(rc, 0, "mincore");
            flags.iter().filter(|f| *f & 1 == 1).count()
        };
        let len = (64 << 20) / 64;
        let lazy = ZeroedArray::<Line>::new(len).expect("allocation");
        assert!(resident_pages(&lazy) < len * 64 / SMALL_PAGE / 2);
        let eager = ZeroedArray::<Line>::new_resident(len).expect("allocation");
        assert_eq!(resident_pages(&eager), len * 64 / SMALL_PAGE);
        assert!(eager
            .iter()
            .all(|l| l.0.iter().all(|w| w.load(Ordering::Relaxed) == 0)));
    }

    #[test]
    fn impossible_sizes_are_refused() {
        assert!(ZeroedArray::<Line>::new(usize::MAX / 32).is_none());
    }
}
