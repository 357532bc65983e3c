//! A cache hint for the per-cell tables of large maps (reservation holds,
//! claim bits, landmark rows): a search names every successor's entries
//! before it checks any, so their cache misses overlap instead of queueing
//! one behind the other.

/// Hints the CPU to start loading the cache line that holds `value`.
/// Changes nothing the program can observe; a no-op off x86-64.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it never faults and changes no
    // state the program can observe; the pointer comes from a live reference.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (value as *const T).cast::<i8>(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
