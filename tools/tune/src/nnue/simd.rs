//! The training's inner loops compiled a second time for wide vector
//! registers, chosen when the processor running the tuner has them.
//!
//! A release build targets the baseline x86-64 processor, whose vector
//! registers hold four `f32`s; nearly every processor that trains a network
//! today has AVX2, with eight. The loops over the hidden layer are plain
//! element-wise sums and products that the compiler vectorises by itself,
//! so compiling the same code again with AVX2 enabled roughly halves the
//! time of an epoch without a line of hand-written vector code. The numbers
//! are the same either way, bit for bit: Rust never fuses a multiply and an
//! add, nor reorders a sum, behind the program's back, so a wider register
//! only does more of the same operations at once (the tuner's tests compare
//! a network trained on each path byte for byte).

/// Defines a function whose body is compiled twice, as the baseline
/// build compiles it and with AVX2 enabled, and which runs the AVX2 copy
/// where the processor has it (checked at run time on every call: callers
/// hand over a chunk of work, not one position).
///
/// The body and what it calls must be inlined into the copies for the
/// wide one to cover them: the network's forward and backward passes are
/// marked `#[inline(always)]` for that reason (the optimiser's step is a
/// wide function of its own, over one span of parameters).
macro_rules! wide_fn {
    ($(#[$meta:meta])* fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? $body:block) => {
        $(#[$meta])*
        fn $name($($arg: $ty),*) $(-> $ret)? {
            #[inline(always)]
            fn body($($arg: $ty),*) $(-> $ret)? $body

            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2")]
            fn avx2($($arg: $ty),*) $(-> $ret)? {
                body($($arg),*)
            }

            #[cfg(target_arch = "x86_64")]
            if $crate::nnue::simd::wide_allowed() && std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: `avx2` only needs the processor to have AVX2,
                // which was just checked.
                return unsafe { avx2($($arg),*) };
            }
            body($($arg),*)
        }
    };
}
pub(super) use wide_fn;

/// Whether the wide path may be taken: always, except while a test that
/// compares it with the baseline path has turned it off.
#[cfg(not(test))]
pub(super) fn wide_allowed() -> bool {
    true
}

/// Set by a test to run the baseline path (on every thread: the training
/// runs on rayon's).
#[cfg(test)]
pub(super) static BASELINE_ONLY: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

#[cfg(test)]
pub(super) fn wide_allowed() -> bool {
    !BASELINE_ONLY.load(std::sync::atomic::Ordering::SeqCst)
}
