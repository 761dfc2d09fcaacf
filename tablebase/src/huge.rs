//! Large zero-filled arrays for random access: whole tables in memory and
//! transposition tables of several GiB. On Linux they are mapped directly
//! (anonymous `mmap`, aligned to 2 MiB) and marked for transparent huge
//! pages, so a random probe costs one TLB entry per 2 MiB instead of per
//! 4 KiB, and [`HugeArray::prefault`] touches every page with a write up
//! front (no copy-on-write faults of the shared zero page, each flushing
//! every core's TLB, in the middle of a parallel search). Elsewhere they
//! are ordinary zeroed allocations.

use rayon::prelude::*;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8};

/// Types for which all-zero bytes are a valid value.
///
/// # Safety
/// Implement only for types whose all-zero bit pattern is a valid value.
pub unsafe trait Zeroed: Sized {}

// SAFETY: integers and atomic integers are valid when all bits are zero.
unsafe impl Zeroed for u8 {}
unsafe impl Zeroed for u16 {}
unsafe impl Zeroed for u32 {}
unsafe impl Zeroed for u64 {}
unsafe impl Zeroed for AtomicU8 {}
unsafe impl Zeroed for AtomicU16 {}
unsafe impl Zeroed for AtomicU32 {}
unsafe impl Zeroed for AtomicU64 {}
// SAFETY: an array of zero-valid values is zero-valid.
unsafe impl<T: Zeroed, const N: usize> Zeroed for [T; N] {}

/// Huge-page size and alignment.
const HUGE: usize = 2 << 20;

/// A fixed-length zero-initialised array (see the module comment).
pub struct HugeArray<T: Zeroed> {
    ptr: NonNull<T>,
    len: usize,
    /// Start and length of the whole mapping (or allocation).
    base: *mut u8,
    bytes: usize,
}

// SAFETY: the array owns its memory like a Box<[T]>.
unsafe impl<T: Zeroed + Send> Send for HugeArray<T> {}
// SAFETY: shared access gives &[T] only.
unsafe impl<T: Zeroed + Sync> Sync for HugeArray<T> {}

impl<T: Zeroed> HugeArray<T> {
    /// `len` zero values. Aborts like `Vec` if memory is exhausted.
    pub fn zeroed(len: usize) -> HugeArray<T> {
        let size = len
            .checked_mul(std::mem::size_of::<T>())
            .expect("array size overflows");
        if size == 0 {
            return HugeArray {
                ptr: NonNull::dangling(),
                len,
                base: std::ptr::null_mut(),
                bytes: 0,
            };
        }
        let (base, bytes, ptr) = Self::map(size);
        HugeArray {
            ptr: NonNull::new(ptr.cast()).expect("mapping is not null"),
            len,
            base,
            bytes,
        }
    }

    #[cfg(target_os = "linux")]
    fn map(size: usize) -> (*mut u8, usize, *mut u8) {
        let bytes = size + HUGE;
        // SAFETY: a fresh private anonymous mapping; checked for failure.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            std::alloc::handle_alloc_error(
                std::alloc::Layout::from_size_align(size, HUGE).expect("layout"),
            );
        }
        let base = base.cast::<u8>();
        let start = base.wrapping_add(base.align_offset(HUGE));
        // SAFETY: the range lies inside the mapping. Huge pages are only a
        // hint; if refused the array works with small pages.
        unsafe { libc::madvise(start.cast(), size, libc::MADV_HUGEPAGE) };
        (base, bytes, start)
    }

    #[cfg(not(target_os = "linux"))]
    fn map(size: usize) -> (*mut u8, usize, *mut u8) {
        let layout = std::alloc::Layout::from_size_align(size, std::mem::align_of::<T>().max(64))
            .expect("layout");
        // SAFETY: non-zero size.
        let p = unsafe { std::alloc::alloc_zeroed(layout) };
        if p.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        (p, size, p)
    }

    /// Write every page once, in parallel, so that no page faults later.
    pub fn prefault(&mut self) {
        let page = (4096 / std::mem::size_of::<T>()).max(1);
        let base = self.ptr.as_ptr() as usize;
        let len = self.len;
        (0..len.div_ceil(page)).into_par_iter().for_each(|p| {
            // SAFETY: index p * page < len; the value written is zero, what
            // the page already reads as; writing makes the kernel back it.
            unsafe {
                let at = (base as *mut T).add(p * page).cast::<u8>();
                std::ptr::write_volatile(at, 0);
            }
        });
    }
}

impl<T: Zeroed> HugeArray<T> {
    /// Give the memory under `range` back to the system (Linux; elsewhere
    /// nothing happens): the 4 KiB pages that lie wholly inside it read as
    /// zero afterwards, and the rest of `range` keeps its values. For
    /// copying a large array out piece by piece without holding both.
    pub fn release(&mut self, range: std::ops::Range<usize>) {
        let range = range.start.min(self.len)..range.end.min(self.len);
        if range.is_empty() {
            return;
        }
        #[cfg(target_os = "linux")]
        {
            const PAGE: usize = 4096;
            let size = std::mem::size_of::<T>();
            let start = self.ptr.as_ptr() as usize + range.start * size;
            let end = self.ptr.as_ptr() as usize + range.end * size;
            let (first, last) = (start.next_multiple_of(PAGE), end / PAGE * PAGE);
            if first < last {
                // SAFETY: [first, last) lies inside the mapping, page
                // aligned; a private anonymous page dropped by
                // MADV_DONTNEED reads as zero, a valid T (Zeroed), and we
                // hold the only reference.
                unsafe {
                    libc::madvise(
                        first as *mut libc::c_void,
                        last - first,
                        libc::MADV_DONTNEED,
                    )
                };
            }
        }
    }
}

impl<T: Zeroed> Deref for HugeArray<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: ptr points at len initialised (zero or written) values.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroed> DerefMut for HugeArray<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as above, and we hold the only reference.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroed> Drop for HugeArray<T> {
    fn drop(&mut self) {
        if self.bytes == 0 {
            return;
        }
        // SAFETY: the values need no drop (Zeroed types are plain integers);
        // base/bytes describe exactly what map() obtained.
        #[cfg(target_os = "linux")]
        unsafe {
            libc::munmap(self.base.cast(), self.bytes);
        }
        #[cfg(not(target_os = "linux"))]
        unsafe {
            let layout =
                std::alloc::Layout::from_size_align(self.bytes, std::mem::align_of::<T>().max(64))
                    .expect("layout");
            std::alloc::dealloc(self.base, layout);
        }
    }
}

impl<T: Zeroed + std::fmt::Debug> std::fmt::Debug for HugeArray<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HugeArray").field("len", &self.len).finish()
    }
}

/// Ask the processor to bring the cache line of `value` closer (a hint for
/// random-access loops that know their next addresses early; a no-op on
/// other architectures than x86-64).
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint; it never faults, whatever the address.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn zeroed_writable_and_sized() {
        let mut a: HugeArray<u64> = HugeArray::zeroed(3 << 20);
        assert_eq!(a.len(), 3 << 20);
        assert!(a.iter().step_by(4099).all(|&x| x == 0));
        a.prefault();
        a[12345] = 7;
        a[(3 << 20) - 1] = 9;
        assert_eq!(a.iter().sum::<u64>(), 16);
        let b: HugeArray<AtomicU64> = HugeArray::zeroed(1000);
        b[999].store(5, Relaxed);
        assert_eq!(b[999].load(Relaxed), 5);
        let empty: HugeArray<u8> = HugeArray::zeroed(0);
        assert!(empty.is_empty());
    }

    /// Released pages read as zero; values outside the released range,
    /// and those sharing a page with its ends, keep theirs.
    #[test]
    fn release_zeroes_only_whole_pages_inside() {
        let n = 5 << 20;
        let mut a: HugeArray<u16> = HugeArray::zeroed(n);
        for (i, x) in a.iter_mut().enumerate() {
            *x = (i % 65_521) as u16 + 1;
        }
        // Elements 1000..3_000_000: the pages wholly inside are dropped.
        a.release(1000..3_000_000);
        let per_page = 4096 / 2;
        for i in (0..n)
            .step_by(97)
            .chain([999, 1000, 2047, 2048, 2_999_999, 3_000_000])
        {
            let page_inside =
                i >= 1000_usize.next_multiple_of(per_page) && i < 3_000_000 / per_page * per_page;
            let kept = (i % 65_521) as u16 + 1;
            let expected = if page_inside { 0 } else { kept };
            if cfg!(target_os = "linux") {
                assert_eq!(a[i], expected, "element {i}");
            } else {
                assert_eq!(a[i], kept, "element {i}");
            }
        }
        a.release(n - 10..n + 10);
        assert_eq!(a[n - 1], ((n - 1) % 65_521) as u16 + 1);
    }
}
