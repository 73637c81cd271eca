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

use crate::constant::ArgTangent;
use crate::real::Real;
use crate::tangent::{Fused, ScalarTangent};
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
/// `#![forbid(unsafe_code)]` can derive rules), with its arguments as a tuple. Not for
/// other callers: `f`'s only requirement must be those two features, and they must be
/// present.
///
/// The arguments reach `f` one by one ([`WideFn`]), not as one tuple in memory: a
/// reference among them stays an argument of the call, so that LLVM may pass, in place of
/// a copy the caller made just before the call, the memory it was copied from (a float's
/// tangent the caller built by value from a tangent it holds).
#[doc(hidden)]
#[inline(always)]
pub fn call_wide<F: WideFn<A>, A>(f: F, args: A) -> F::Output {
    debug_assert!(wide());
    // SAFETY: the generated caller checked `wide()`, and `f` requires only AVX2 and FMA
    // (the contract above).
    unsafe { f.call(args) }
}

/// An `unsafe fn` pointer called with its arguments from a tuple ([`call_wide`]).
#[doc(hidden)]
pub trait WideFn<A> {
    /// The function's result.
    type Output;
    /// Calls `self` with the tuple's elements as its arguments.
    ///
    /// # Safety
    ///
    /// The function's own requirements (for a wide entry: AVX2 and FMA).
    unsafe fn call(self, args: A) -> Self::Output;
}

macro_rules! wide_fn {
    ($($a:ident),*) => {
        #[allow(non_snake_case)]
        impl<R, $($a,)*> WideFn<($($a,)*)> for unsafe fn($($a),*) -> R {
            type Output = R;
            #[inline(always)]
            unsafe fn call(self, ($($a,)*): ($($a,)*)) -> R {
                // SAFETY: the caller's contract.
                unsafe { self($($a),*) }
            }
        }
    };
}

wide_fn!(A0);
wide_fn!(A0, A1);
wide_fn!(A0, A1, A2);
wide_fn!(A0, A1, A2, A3);
wide_fn!(A0, A1, A2, A3, A4);
wide_fn!(A0, A1, A2, A3, A4, A5);
wide_fn!(A0, A1, A2, A3, A4, A5, A6);
wide_fn!(A0, A1, A2, A3, A4, A5, A6, A7);
wide_fn!(A0, A1, A2, A3, A4, A5, A6, A7, A8);
wide_fn!(A0, A1, A2, A3, A4, A5, A6, A7, A8, A9);
wide_fn!(A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10);
wide_fn!(A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11);
wide_fn!(A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12);
wide_fn!(A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13);
wide_fn!(A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14);
wide_fn!(A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14, A15);

/// Tangents seen as [`Fused`] ones (`Fused` is `repr(transparent)`: the same layout).
#[inline(always)]
pub fn fused_slice<T>(t: &[T]) -> &[Fused<T>] {
    // SAFETY: `Fused<T>` is `repr(transparent)` over `T`; same length, same lifetime.
    unsafe { core::slice::from_raw_parts(t.as_ptr().cast(), t.len()) }
}

/// A tangent seen as a [`Fused`] one, in place.
#[inline(always)]
pub fn fused_ref<T>(t: &T) -> &Fused<T> {
    // SAFETY: `Fused<T>` is `repr(transparent)` over `T`; same lifetime.
    unsafe { &*(t as *const T).cast::<Fused<T>>() }
}

/// The tangent of a float a rule's wide entry takes by reference (issue 30): the entry is
/// compiled for other target features than its caller, so it is called, not inlined, and
/// a float's dual passed by value would be copied into the call's argument memory by the
/// caller's (two-lane) stores and read back on entry by the entry's four-lane loads, which
/// straddle those stores (a failed store-to-load forwarding per vector) and keep the lanes
/// live, spilled, across the whole body. Borrowed, its lanes are loaded where the body
/// uses them ([`ArgTangent::tangent`]), long after the caller stored them.
#[doc(hidden)]
#[derive(Debug)]
#[repr(transparent)]
pub struct TangentRef<'a, T>(pub &'a T);

impl<T> Clone for TangentRef<'_, T> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for TangentRef<'_, T> {}

impl<'a, F: Real, T: ScalarTangent<F>> ArgTangent<F, T> for TangentRef<'a, T> {
    const ACTIVE: bool = true;
    #[inline(always)]
    fn tangent(self) -> T {
        *self.0
    }
    type __Fused = TangentRef<'a, Fused<T>>;
    #[inline(always)]
    fn __fused(self) -> TangentRef<'a, Fused<T>> {
        TangentRef(fused_ref(self.0))
    }
    #[inline(always)]
    fn __fused_slice(t: &[Self]) -> &[TangentRef<'a, Fused<T>>] {
        // SAFETY: `TangentRef` and `Fused` are `repr(transparent)`: a slice of references
        // to `T` as one of references to `Fused<T>`, same length, same lifetime.
        unsafe { core::slice::from_raw_parts(t.as_ptr().cast(), t.len()) }
    }
    type __FusedRef<'b>
        = TangentRef<'a, Fused<T>>
    where
        Self: 'b;
    #[inline(always)]
    fn __fused_ref(t: &Self) -> TangentRef<'a, Fused<T>> {
        TangentRef(fused_ref(t.0))
    }
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
