//! Runtime dispatch of large batched rules to code compiled for AVX2 and FMA (issue 30).
//!
//! `#[derive_frule]` gives a large free function of floats and float slices a second entry
//! compiled with `#[target_feature(enable = "avx2,fma")]`, into which the rule's body is
//! inlined in [`Fused`] mode (lane updates by fused multiply-adds, four lanes per
//! instruction). The rule takes that entry for a batch of four lanes or more
//! ([`Mode::__WIDE`](crate::Mode::__WIDE)) when [`wide`] says the CPU has both features;
//! elsewhere, and with the environment variable `FWDAD_NO_DISPATCH` set when first asked,
//! the default-target body. Primals are the same bits either way; tangents agree to
//! rounding (a fused update rounds once).

use crate::tangent::Fused;
use core::sync::atomic::{AtomicU8, Ordering};

/// 0: not asked yet, 1: no, 2: yes.
static WIDE: AtomicU8 = AtomicU8::new(0);

/// Whether this CPU runs AVX2 and FMA and dispatch is not switched off
/// (`FWDAD_NO_DISPATCH`, read once): one relaxed load after the first call.
#[inline(always)]
pub fn wide() -> bool {
    match WIDE.load(Ordering::Relaxed) {
        2 => true,
        1 => false,
        _ => detect(),
    }
}

#[cold]
#[inline(never)]
fn detect() -> bool {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    let yes = std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("fma")
        && std::env::var_os("FWDAD_NO_DISPATCH").is_none();
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    let yes = false;
    WIDE.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
    yes
}

/// Calls a rule's wide entry, `f`, which generated code passes after [`wide`] said yes:
/// a safe function compiled with `#[target_feature(enable = "avx2,fma")]`, coerced to an
/// `unsafe fn` pointer (generated code declares nothing `unsafe`, so that a crate with
/// `#![forbid(unsafe_code)]` can derive rules). Not for other callers: `f`'s only
/// requirement must be those two features, and they must be present.
#[doc(hidden)]
#[inline(always)]
pub fn call_wide<A, R>(f: unsafe fn(A) -> R, args: A) -> R {
    debug_assert!(wide());
    // SAFETY: the generated caller checked `wide()`, and `f` requires only AVX2 and FMA
    // (the contract above).
    unsafe { f(args) }
}

/// Tangents seen as [`Fused`] ones (`Fused` is `repr(transparent)`: the same layout).
#[inline(always)]
pub fn fused_slice<T>(t: &[T]) -> &[Fused<T>] {
    // SAFETY: `Fused<T>` is `repr(transparent)` over `T`; same length, same lifetime.
    unsafe { core::slice::from_raw_parts(t.as_ptr().cast(), t.len()) }
}

/// A tangent of the wide entry's result given back in the caller's mode.
pub trait Unfuse<T> {
    /// `self` without its [`Fused`] wrappers.
    fn unfuse(self) -> T;
}

impl<T> Unfuse<T> for Fused<T> {
    #[inline(always)]
    fn unfuse(self) -> T {
        self.0
    }
}

impl<T, U: Unfuse<T>, const N: usize> Unfuse<[T; N]> for [U; N] {
    #[inline(always)]
    fn unfuse(self) -> [T; N] {
        self.map(U::unfuse)
    }
}
