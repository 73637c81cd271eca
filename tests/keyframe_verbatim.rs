//! keyframe 1.1.1 (MIT, Copyright (c) 2019 Hannes Mann, <https://github.com/HannesMann/keyframe>):
//! easing between two values, `ease(EaseInOut, from, to, time)`, generic over the value
//! (`V: CanTween`), the time (`T: Float`) and the easing function (`F: EasingFunction`,
//! passed as `impl Borrow<F>`), with eighteen easing functions (unit structs implementing
//! `EasingFunction::y(&self, x: f64) -> f64`) and `Keyframes`, a sampled curve read by
//! linear interpolation. Copied as the crate builds with `default-features = false` (its
//! embedded configuration: no `alloc`, no `mint_types`, so `Keyframe`, `AnimationSequence`,
//! the mint impls and `BezierCurve` are compiled out, as there): `src/lib.rs`'s items,
//! `src/easing.rs` and `src/functions/` as inline modules, as the crate formats them (hard
//! tabs, `#[rustfmt::skip]`), with `#[fwdad::derive_frule]` on `as_f64(value: impl Float)
//! -> f64`, on the trait `EasingFunction` and on its nineteen `impl`s, and
//! `fwdad::Differentiable` added to the derive lists of the easing functions and
//! `Keyframes`.
//!
//! What this found: `value: impl Float` was rejected as an `impl Trait` parameter; on a free
//! function it is now the float type parameter it stands for (`as_f64`'s rule takes an
//! `f64` or `f32` dual).
//!
//! Left plain, each an entry of `docs/limits.md` (the attribute on them is an error): the
//! trait `CanTween` (`fn ease(from: Self, to: Self, time: impl Float) -> Self`, an `impl
//! Trait` parameter of a trait method) with its `impl`s for `f32` and `f64`; `as_t<T:
//! Float>(value: f64) -> T`, which `CanTween`'s `impl`s call (a type parameter only in the
//! result, E0207); `impl<T: CanTween, const N: usize> CanTween for
//! [T; N]` (an `impl` for an array type); and `ease`, `ease_with_scaled_time` and
//! `ease_with_unbounded_time` (`function: impl Borrow<F>`, `time: impl Float`). So the
//! crate's `ease(EaseInOut, a, b, t)` has no rule: what is differentiated here is each
//! easing curve, as a caller reaches it (by value, through `F: EasingFunction` and through
//! `&dyn EasingFunction`). `Keyframes` (its table a private field filled from an
//! `AnimationSequence`, compiled out) has its rule but cannot be built here.
//!
//! Checked: `as_f64` on `f64` and `f32` duals; every easing function's `y` and its
//! derivative against the formula the crate documents, inside, at and outside [0, 1], the
//! values bit for bit against the published crate; the same through a generic parameter
//! and a trait object; a curve built from three of them in every mode against central
//! differences.

// `cfg(feature = "alloc")` and `cfg(feature = "mint_types")`: features this test crate does
// not have, so it compiles as the crate does without them. The crate's `pub use
// num_traits;` beside `pub(crate) use crate::*;` in `easing` is rustc's
// `ambiguous_import_visibilities` (a future-incompatibility warning, the crate's own); its
// `[T; N]` impl forgets an array of `MaybeUninit`s.
#![allow(
    unexpected_cfgs,
    dead_code,
    unused_imports,
    ambiguous_import_visibilities,
    clippy::forget_non_drop
)]

mod common;

// ---- keyframe 1.1.1, src/lib.rs (its crate documentation is not repeated) ----

// #![no_std] (crate-level, left out)
#[cfg(feature = "mint_types")]
pub use mint;
pub use num_traits;

#[cfg(feature = "mint_types")]
pub(crate) use mint::{Point2, Point3, Vector2, Vector3, Vector4};
pub(crate) use num_traits::Float;

// #[cfg(feature = "alloc")]
// extern crate alloc;
// (off in this configuration: left out)

#[rustfmt::skip]
#[fwdad::derive_frule]
pub(crate) fn as_f64(value: impl Float) -> f64 {
	value.to_f64().expect("Value not representable in f64")
}
#[rustfmt::skip]
pub(crate) fn as_t<T: Float>(value: f64) -> T {
	match value {
		_ if value > as_f64(T::max_value()) => T::max_value(),
		_ if value < as_f64(T::min_value()) => T::min_value(),
		#[cfg(feature = "alloc")]
		_ => T::from(value).unwrap_or_else(|| panic!("{} not representable in chosen float type", value)),
		#[cfg(not(feature = "alloc"))]
		_ => T::from(value).expect("value not representable in chosen float type"),
	}
}

/// Definitions for various easing functions
///
/// <div class="function-preview" data-function="t" data-struct="Linear"></div>
/// <div class="function-preview" data-function="Math.sin((t - 1) * Math.PI / 2) + 1" data-struct="EaseIn"></div>
/// <div class="function-preview" data-function="Math.sin(t * Math.PI / 2)" data-struct="EaseOut"></div>
/// <div class="function-preview" data-function=".5 * (1 - Math.cos(t * Math.PI))" data-struct="EaseInOut"></div>
// ---- src/functions/mod.rs ----
pub mod functions {
    // ---- src/functions/static_functions.rs ----
    #[rustfmt::skip]
mod static_functions {
	use crate::easing::*;

	// Based on https://gist.githubusercontent.com/gre/1650294/raw/01bf897e14c41f90c8fcda739fdc793790138446/easing.js
	//      and https://github.com/warrenm/AHEasing/blob/master/AHEasing/easing.c

	/// Linear interpolation from point A to point B
	///
	/// <div class="function-preview" data-function="t"></div>
	#[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
	pub struct Linear;
	#[fwdad::derive_frule]
	impl EasingFunction for Linear {
		#[inline]
		fn y(&self, x: f64) -> f64 {
			x
		}
	}

	/// Step function, returns the closest to either point A or B
	///
	/// <div class="function-preview" data-function="Math.round(t)"></div>
	#[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
	pub struct Step;
	#[fwdad::derive_frule]
	impl EasingFunction for Step {
		#[inline]
		fn y(&self, x: f64) -> f64 {
			x.round()
		}
	}

	/// Hold function, always returns A
	///
	/// <div class="function-preview" data-function="0"></div>
	#[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
	pub struct Hold;
	#[fwdad::derive_frule]
	impl EasingFunction for Hold {
		#[inline]
		fn y(&self, _x: f64) -> f64 {
			0.0
		}
	}

	/// Accelerating quadratically from point A to point B
	///
	/// <div class="function-preview" data-function="t * t"></div>
	#[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
	pub struct EaseInQuad;
	#[fwdad::derive_frule]
	impl EasingFunction for EaseInQuad {
		#[inline]
		fn y(&self, x: f64) -> f64 {
			x * x
		}
	}

	/// Decelerating quadratically from point A to point B
	///
	/// <div class="function-preview" data-function="t * (2-t)"></div>
	#[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
	pub struct EaseOutQuad;
	#[fwdad::derive_frule]
	impl EasingFunction for EaseOutQuad {
		#[inline]
		fn y(&self, x: f64) -> f64 {
			x * (2.0 - x)
		}
	}

	/// Accelerating then decelerating quadratically from point A to point B
	///
	/// <div class="function-preview" data-function="t<.5 ? 2*t*t : -1+(4-2*t)*t"></div>
	#[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
	pub struct EaseInOutQuad;
	#[fwdad::derive_frule]
	impl EasingFunction for EaseInOutQuad {
		#[inline]
		fn y(&self, x: f64) -> f64 {
			if x < 0.5 {
				2.0 * x * x
			} else {
				-1.0 + (4.0 - 2.0 * x) * x
			}
		}
	}

	/// Accelerating cubically from point A to point B
	///
	/// <div class="function-preview" data-function="t * t * t"></div>
	#[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
	pub struct EaseInCubic;
	#[fwdad::derive_frule]
	impl EasingFunction for EaseInCubic {
		#[inline]
		fn y(&self, x: f64) -> f64 {
			x * x * x
		}
	}

	/// Decelerating cubically from point A to point B
	///
	/// <div class="function-preview" data-function="(--t) * t * t + 1"></div>
	#[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
	pub struct EaseOutCubic;
	#[fwdad::derive_frule]
	impl EasingFunction for EaseOutCubic {
		#[inline]
		fn y(&self, x: f64) -> f64 {
			let x_minus_one = x - 1.0;
			1.0 + x_minus_one * x_minus_one * x_minus_one
		}
	}

	/// Accelerating then decelerating cubically from point A to point B
	///
	/// <div class="function-preview" data-function="t<.5 ? 4*t*t*t : (t-1)*(2*t-2)*(2*t-2)+1"></div>
	#[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
	pub struct EaseInOutCubic;
	#[fwdad::derive_frule]
	impl EasingFunction for EaseInOutCubic {
		#[inline]
		fn y(&self, x: f64) -> f64 {
			if x < 0.5 {
				4.0 * x * x * x
			} else {
				let x_minus_one = x - 1.0;
				x_minus_one * (2.0 * x - 2.0) * (2.0 * x - 2.0) + 1.0
			}
		}
	}

	/// Accelerating quartically from point A to point B
	///
	/// <div class="function-preview" data-function="t*t*t*t"></div>
	#[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
	pub struct EaseInQuart;
	#[fwdad::derive_frule]
	impl EasingFunction for EaseInQuart {
		#[inline]
		fn y(&self, x: f64) -> f64 {
			x * x * x * x
		}
	}

	/// Decelerating quartically from point A to point B
	///
	/// <div class="function-preview" data-function="1-(--t)*t*t*t"></div>
	#[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
	pub struct EaseOutQuart;
	#[fwdad::derive_frule]
	impl EasingFunction for EaseOutQuart {
		#[inline]
		fn y(&self, x: f64) -> f64 {
			let x_minus_one = x - 1.0;
			1.0 - x_minus_one * x_minus_one * x_minus_one * x_minus_one
		}
	}

	/// Accelerating then decelerating quartically from point A to point B
	///
	/// <div class="function-preview" data-function="t<.5 ? 8*t*t*t*t : 1-8*(--t)*t*t*t"></div>
	#[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
	pub struct EaseInOutQuart;
	#[fwdad::derive_frule]
	impl EasingFunction for EaseInOutQuart {
		#[inline]
		fn y(&self, x: f64) -> f64 {
			if x < 0.5 {
				8.0 * x * x * x * x
			} else {
				let x_minus_one = x - 1.0;
				1.0 - 8.0 * x_minus_one * x_minus_one * x_minus_one * x_minus_one
			}
		}
	}

	/// Accelerating quintically from point A to point B
	///
	/// <div class="function-preview" data-function="t*t*t*t*t"></div>
	#[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
	pub struct EaseInQuint;
	#[fwdad::derive_frule]
	impl EasingFunction for EaseInQuint {
		#[inline]
		fn y(&self, x: f64) -> f64 {
			x * x * x * x * x
		}
	}

	/// Decelerating quintically from point A to point B
	///
	/// <div class="function-preview" data-function="1+(--t)*t*t*t*t"></div>
	#[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
	pub struct EaseOutQuint;
	#[fwdad::derive_frule]
	impl EasingFunction for EaseOutQuint {
		#[inline]
		fn y(&self, x: f64) -> f64 {
			let x_minus_one = x - 1.0;
			1.0 + x_minus_one * x_minus_one * x_minus_one * x_minus_one * x_minus_one
		}
	}

	/// Accelerating then decelerating quintically from point A to point B
	///
	/// <div class="function-preview" data-function="t<.5 ? 16*t*t*t*t*t : 1+16*(--t)*t*t*t*t"></div>
	#[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
	pub struct EaseInOutQuint;
	#[fwdad::derive_frule]
	impl EasingFunction for EaseInOutQuint {
		#[inline]
		fn y(&self, x: f64) -> f64 {
			if x < 0.5 {
				16.0 * x * x * x * x * x
			} else {
				let x_minus_one = x - 1.0;
				1.0 + 16.0 * x_minus_one * x_minus_one * x_minus_one * x_minus_one * x_minus_one
			}
		}
	}

	/// Accelerating on 1/4 of a sine wave from point A to point B
	///
	/// <div class="function-preview" data-function="Math.sin((t - 1) * Math.PI / 2) + 1"></div>
	#[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
	pub struct EaseIn;
	#[fwdad::derive_frule]
	impl EasingFunction for EaseIn {
		#[inline]
		fn y(&self, x: f64) -> f64 {
			((x - 1.0) * core::f64::consts::FRAC_PI_2).sin() + 1.0
		}
	}

	/// Decelerating on 1/4 of a sine wave from point A to point B
	///
	/// <div class="function-preview" data-function="Math.sin(t * Math.PI / 2)"></div>
	#[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
	pub struct EaseOut;
	#[fwdad::derive_frule]
	impl EasingFunction for EaseOut {
		#[inline]
		fn y(&self, x: f64) -> f64 {
			(x * core::f64::consts::FRAC_PI_2).sin()
		}
	}

	/// Accelerating then decelerating on 1/2 of a sine wave from point A to point B
	///
	/// <div class="function-preview" data-function=".5 * (1 - Math.cos(t * Math.PI))"></div>
	#[derive(Copy, Clone, Debug, Default, fwdad::Differentiable)]
	pub struct EaseInOut;
	#[fwdad::derive_frule]
	impl EasingFunction for EaseInOut {
		#[inline]
		fn y(&self, x: f64) -> f64 {
			0.5 * (1.0 - (x * core::f64::consts::PI).cos())
		}
	}
}
    pub use static_functions::*;

    // ---- src/functions/dynamic_functions.rs ----
    #[rustfmt::skip]
mod dynamic_functions {
	use crate::*;
	pub(crate) const SAMPLE_TABLE_SIZE: usize = 20;

	#[cfg(feature = "mint_types")]
	mod bezier {
		use crate::functions::dynamic_functions::*;

		const NEWTON_ITERTIONS: usize = 4;
		const NEWTON_MIN_SLOPE: f32 = 0.001;
		const SUBDIVISION_PRECISION: f32 = 0.0000001;
		const SUBDIVISION_MAX_ITERATIONS: usize = 10;

		/// User-defined cubic Bézier curve
		#[derive(Copy, Clone, Debug)]
		pub struct BezierCurve {
			sample_table: [f32; SAMPLE_TABLE_SIZE],
			p1: Vector2<f32>,
			p2: Vector2<f32>,
		}

		// Directly translated from https://github.com/gre/bezier-easing
		impl BezierCurve {
			#[inline]
			fn a(x1: f32, x2: f32) -> f32 {
				1.0 - 3.0 * x2 + 3.0 * x1
			}
			#[inline]
			fn b(x1: f32, x2: f32) -> f32 {
				3.0 * x2 - 6.0 * x1
			}
			#[inline]
			fn c(x1: f32) -> f32 {
				3.0 * x1
			}

			#[inline]
			fn at(t: f32, x1: f32, x2: f32) -> f32 {
				((Self::a(x1, x2) * t + Self::b(x1, x2)) * t + Self::c(x1)) * t
			}
			#[inline]
			fn slope(t: f32, x1: f32, x2: f32) -> f32 {
				3.0 * Self::a(x1, x2) * t * t + 2.0 * Self::b(x1, x2) * t + Self::c(x1)
			}

			fn newton_raphson(x: f32, guess: f32, x1: f32, x2: f32) -> f32 {
				let mut guess = guess;

				for _ in 0..NEWTON_ITERTIONS {
					let current_slope = Self::slope(guess, x1, x2);
					if current_slope == 0.0 {
						break;
					}

					let current_x = Self::at(guess, x1, x2) - x;
					guess -= current_x / current_slope;
				}

				guess
			}

			fn binary_subdivide(x: f32, mut a: f32, mut b: f32, x1: f32, x2: f32) -> f32 {
				let mut current_x = 0.0;
				let mut current_t = 0.0;
				let mut i = 0;

				let mut has_run_once = false;
				while !has_run_once || current_x.abs() > SUBDIVISION_PRECISION && i + 1 < SUBDIVISION_MAX_ITERATIONS {
					has_run_once = true;
					current_t = a + (b - a) / 2.0;
					current_x = Self::at(current_t, x1, x2) - x;

					if current_x > 0.0 {
						b = current_t;
					} else {
						a = current_t;
					}

					i += 1;
				}

				current_t
			}

			fn t_for_x(&self, x: f32) -> f32 {
				let mut interval_start = 0.0;
				let mut current_sample = 1;
				let last_sample = SAMPLE_TABLE_SIZE - 1;
				let sample_step_size = 1.0 / (SAMPLE_TABLE_SIZE as f32 - 1.0);

				while current_sample != last_sample && self.sample_table[current_sample] <= x {
					interval_start += sample_step_size;
					current_sample += 1;
				}
				current_sample -= 1;

				let dist = (x - self.sample_table[current_sample])
					/ (self.sample_table[current_sample + 1] - self.sample_table[current_sample]);
				let guess_for_t = interval_start + dist * sample_step_size;

				match Self::slope(guess_for_t, self.p1.x, self.p2.x) {
					inital_slope if inital_slope >= NEWTON_MIN_SLOPE => {
						Self::newton_raphson(x, guess_for_t, self.p1.x, self.p2.x)
					}
					inital_slope if inital_slope == 0.0 => guess_for_t,
					_ => Self::binary_subdivide(
						x,
						interval_start,
						interval_start + sample_step_size,
						self.p1.x,
						self.p2.x,
					),
				}
			}

			fn convert_vector(c: Vector2<impl Float>) -> Vector2<f32> {
				Vector2::<f32> {
					x: as_t::<f32>(as_f64(c.x)),
					y: as_t::<f32>(as_f64(c.y)),
				}
			}

			/// Calculates a new cubic Bézier curve. Mimics `transition-timing-function: cubic-bezier` as defined [here](https://www.w3.org/TR/css-easing-1/#cubic-bezier-easing-functions)
			///
			/// # Arguments
			///
			/// * `p1` - The first of the two control points
			/// * `p2` - The second of the two control points
			pub fn from(p1: Vector2<impl Float>, p2: Vector2<impl Float>) -> Self {
				let p1 = Self::convert_vector(p1);
				let p2 = Self::convert_vector(p2);

				let mut arr = [0.0; SAMPLE_TABLE_SIZE];
				for (i, value) in (0..SAMPLE_TABLE_SIZE)
					.enumerate()
					.map(|x| (x.0, Self::at(x.1 as f32 * SAMPLE_TABLE_SIZE as f32, p1.x, p2.x)))
				{
					arr[i] = value;
				}

				BezierCurve {
					sample_table: arr,
					p1,
					p2,
				}
			}
		}

		impl EasingFunction for BezierCurve {
			#[inline]
			fn y(&self, x: f64) -> f64 {
				match x {
					_ if x == 0.0 => 0.0,
					_ if x == 1.0 => 1.0,
					_ => BezierCurve::at(self.t_for_x(x as f32), self.p1.y, self.p2.y) as f64,
				}
			}
		}
	}

	#[cfg(feature = "mint_types")]
	pub use bezier::*;

	/// User-defined easing function which wraps a normalized [`AnimationSequence<Float>`]
	#[derive(Copy, Clone, Debug, fwdad::Differentiable)]
	pub struct Keyframes([f64; SAMPLE_TABLE_SIZE]);

	impl Keyframes {
		#[cfg(feature = "alloc")]
		pub(crate) fn from_easing_function<T: Float + CanTween + Clone>(mut s: AnimationSequence<T>) -> Self {
			let mut low_point = s.sequence.get(0).and_then(|kf| kf.value().to_f64()).unwrap_or(0.0);
			let mut high_point = s
				.sequence
				.get(s.keyframes() - 1)
				.and_then(|kf| kf.value().to_f64())
				.unwrap_or(1.0);
			let max_time = s.duration();

			if high_point == 0.0 || high_point == low_point {
				low_point = 0.0;
				high_point = 1.0; // no dividing by zero
			}

			let mut sample_table = [0.0; SAMPLE_TABLE_SIZE];

			for (i, item) in sample_table.iter_mut().enumerate() {
				s.advance_to((i as f64 / (SAMPLE_TABLE_SIZE - 1) as f64) * max_time);
				*item = (s.now_strict().and_then(|v| v.to_f64()).unwrap_or(0.5) - low_point) / (high_point - low_point);
			}

			Keyframes(sample_table)
		}
	}

	#[fwdad::derive_frule]
	impl EasingFunction for Keyframes {
		fn y(&self, x: f64) -> f64 {
			let sample_table_size = SAMPLE_TABLE_SIZE as f64 - 1.0;

			let current_sample = (x * sample_table_size).floor() as i64;
			let difference = x * sample_table_size - (x * sample_table_size).floor();
			let next_sample = current_sample + 1;

			if next_sample >= SAMPLE_TABLE_SIZE as i64 {
				self.0[current_sample as usize]
			} else if current_sample < -1 {
				-self.0[0]
			}
			/* same as self.0[0] * -1 */
			else if current_sample < 0 {
				self.0[0] * difference
			} else {
				self.0[current_sample as usize]
					+ (self.0[next_sample as usize] - self.0[current_sample as usize]) * difference
			}
		}
	}
}
    pub use dynamic_functions::*;
}
use functions::*;

// ---- src/easing.rs ----
#[rustfmt::skip]
mod easing {
	use core::borrow::Borrow;
	use core::mem::MaybeUninit;

	pub(crate) use crate::*;

	#[cfg(feature = "mint_types")]
	pub use mint_type_impls::*;

	/// Implementation of a 2D curve function for easing between two points
	#[fwdad::derive_frule]
	pub trait EasingFunction {
		/// For an X position on the curve, calculate the Y position.
		/// 0.0-1.0 is start and end on both axes but values can go out of bounds.
		///
		/// # Note
		///
		/// Because this method has a `&self` argument this trait can be used to both implement a "static" curve function (e.g. a linear interpolation)
		/// or a "dynamic" curve function (e.g. a bezier curve with user defined inputs).
		///
		/// Since a static curve function will have zero size the size of a `dyn EasingFunction` will be the same size as a vtable.
		/// This also means you can specify a static curve function with only the name of the type (e.g. `ease(EaseInOut, 0.0, 1.0, 0.5)`).
		fn y(&self, x: f64) -> f64;
	}

	/// Type that can be used with an easing function
	pub trait CanTween {
		/// Returns the interpolated value between `from` and `to` at the specified time.
		///
		/// # Note
		/// This function will always create a new value, so calling it on very large structures is not a good idea.
		fn ease(from: Self, to: Self, time: impl Float) -> Self;
	}

	impl CanTween for f32 {
		#[inline]
		fn ease(from: Self, to: Self, time: impl Float) -> Self {
			as_t(as_f64(from) + as_f64(to - from) * as_f64(time))
		}
	}

	impl CanTween for f64 {
		#[inline]
		fn ease(from: Self, to: Self, time: impl Float) -> Self {
			as_t(as_f64(from) + as_f64(to - from) * as_f64(time))
		}
	}

	impl<T: CanTween, const N: usize> CanTween for [T; N] {
		fn ease(from: Self, to: Self, time: impl Float) -> Self {
			// This is safe, see: https://doc.rust-lang.org/core/mem/union.MaybeUninit.html#initializing-an-array-element-by-element
			let mut result_uninit: [MaybeUninit<T>; N] = unsafe { MaybeUninit::uninit().assume_init() };

			for (i, (f, t)) in IntoIterator::into_iter(from)
				.zip(IntoIterator::into_iter(to))
				.enumerate()
			{
				// Initialize the array while moving elements out of from and to...
				result_uninit[i].write(T::ease(f, t, time));
			}

			unsafe {
				// MaybeUninit<T> is guaranteed to have the same size, alignment, and ABI as T.
				let ptr = result_uninit.as_mut_ptr() as *mut [T; N];
				let result = ptr.read();
				core::mem::forget(result_uninit);

				result
			}
		}
	}

	/// Returns the value at a specified X position on the curve between point A and point B.
	/// The time argument is expected to stay within a range of 0.0 to 1.0 but bounds checking is not enforced.
	#[inline]
	pub fn ease_with_unbounded_time<V: CanTween, F: EasingFunction>(
		function: impl Borrow<F>,
		from: V,
		to: V,
		time: impl Float,
	) -> V {
		V::ease(from, to, function.borrow().y(as_f64(time)))
	}

	/// Returns the value at a specified X position on the curve between point A and point B.
	/// Time is limited to a range between 0.0 and 1.0.
	#[inline]
	pub fn ease<V: CanTween, T: Float, F: EasingFunction>(function: impl Borrow<F>, from: V, to: V, time: T) -> V {
		ease_with_unbounded_time(
			function,
			from,
			to,
			match time {
				_ if time < T::zero() => T::zero(),
				_ if time > T::one() => T::one(),
				_ => time,
			},
		)
	}

	/// Returns the value at a specified X position on the curve between point A and point B.
	/// Time is limited to a range between 0.0 and `max_time`.
	#[inline]
	pub fn ease_with_scaled_time<V: CanTween, T: Float, F: EasingFunction>(
		function: impl Borrow<F>,
		from: V,
		to: V,
		time: T,
		max_time: T,
	) -> V {
		ease(
			function,
			from,
			to,
			match time {
				_ if time < T::zero() => T::zero(),
				_ if time > max_time => T::one(),
				_ => time / max_time,
			},
		)
	}

	#[cfg(feature = "mint_types")]
	mod mint_type_impls {
		use crate::easing::*;

		impl<V: CanTween> CanTween for Vector2<V> {
			#[inline]
			fn ease(from: Self, to: Self, time: impl Float) -> Self {
				Self {
					x: V::ease(from.x, to.x, time),
					y: V::ease(from.y, to.y, time),
				}
			}
		}

		impl<V: CanTween> CanTween for Vector3<V> {
			#[inline]
			fn ease(from: Self, to: Self, time: impl Float) -> Self {
				Self {
					x: V::ease(from.x, to.x, time),
					y: V::ease(from.y, to.y, time),
					z: V::ease(from.z, to.z, time),
				}
			}
		}

		impl<V: CanTween> CanTween for Vector4<V> {
			#[inline]
			fn ease(from: Self, to: Self, time: impl Float) -> Self {
				Self {
					x: V::ease(from.x, to.x, time),
					y: V::ease(from.y, to.y, time),
					z: V::ease(from.z, to.z, time),
					w: V::ease(from.w, to.w, time),
				}
			}
		}

		impl<V: CanTween> CanTween for Point2<V> {
			#[inline]
			fn ease(from: Self, to: Self, time: impl Float) -> Self {
				Self {
					x: V::ease(from.x, to.x, time),
					y: V::ease(from.y, to.y, time),
				}
			}
		}

		impl<V: CanTween> CanTween for Point3<V> {
			#[inline]
			fn ease(from: Self, to: Self, time: impl Float) -> Self {
				Self {
					x: V::ease(from.x, to.x, time),
					y: V::ease(from.y, to.y, time),
					z: V::ease(from.z, to.z, time),
				}
			}
		}
	}
}
pub use easing::*;

// #[cfg(feature = "alloc")] mod keyframe; pub use keyframe::*; mod sequence; pub use sequence::*;
// (the feature is off in this configuration: `Keyframe` and `AnimationSequence` left out)

// ---- the checks ----

#[cfg(test)]
mod checks {
    use super::*;
    use core::f64::consts::{FRAC_PI_2, PI};
    use fwdad::prelude::*;

    fn close(got: f64, want: f64, tol: f64, what: &str) {
        assert!(
            (got - want).abs() <= tol * want.abs().max(1.0),
            "{what}: {got}, want {want}"
        );
    }

    /// An easing function's name, its `y` and derivative through the rule derived here, the
    /// published crate's `y`, and the derivative written out from the formula the crate
    /// documents.
    type Row = (
        &'static str,
        fn(f64) -> (f64, f64),
        fn(f64) -> f64,
        fn(f64) -> f64,
    );

    macro_rules! easings {
        ($($ty:ident => $rule:ident, |$x:ident| $dy:expr;)*) => {
            $(
                #[fwdad::derive_frule]
                fn $rule(x: f64) -> f64 {
                    $ty.y(x)
                }
            )*

            fn table() -> Vec<Row> {
                vec![$((
                    stringify!($ty),
                    |x| derivative($rule {}, x),
                    |x| ::keyframe::EasingFunction::y(&::keyframe::functions::$ty, x),
                    |$x: f64| $dy,
                )),*]
            }
        };
    }

    easings! {
        Linear => linear, |x| { let _ = x; 1.0 };
        Step => step, |x| { let _ = x; 0.0 };
        Hold => hold, |x| { let _ = x; 0.0 };
        EaseInQuad => in_quad, |x| 2.0 * x;
        EaseOutQuad => out_quad, |x| 2.0 - 2.0 * x;
        EaseInOutQuad => in_out_quad, |x| if x < 0.5 { 4.0 * x } else { 4.0 - 4.0 * x };
        EaseInCubic => in_cubic, |x| 3.0 * x * x;
        EaseOutCubic => out_cubic, |x| 3.0 * (x - 1.0).powi(2);
        EaseInOutCubic => in_out_cubic, |x| if x < 0.5 { 12.0 * x * x } else { 12.0 * (x - 1.0).powi(2) };
        EaseInQuart => in_quart, |x| 4.0 * x.powi(3);
        EaseOutQuart => out_quart, |x| -4.0 * (x - 1.0).powi(3);
        EaseInOutQuart => in_out_quart, |x| if x < 0.5 { 32.0 * x.powi(3) } else { -32.0 * (x - 1.0).powi(3) };
        EaseInQuint => in_quint, |x| 5.0 * x.powi(4);
        EaseOutQuint => out_quint, |x| 5.0 * (x - 1.0).powi(4);
        EaseInOutQuint => in_out_quint, |x| if x < 0.5 { 80.0 * x.powi(4) } else { 80.0 * (x - 1.0).powi(4) };
        EaseIn => ease_in, |x| FRAC_PI_2 * ((x - 1.0) * FRAC_PI_2).cos();
        EaseOut => ease_out, |x| FRAC_PI_2 * (x * FRAC_PI_2).cos();
        EaseInOut => ease_in_out, |x| 0.5 * PI * (x * PI).sin();
    }

    #[test]
    fn every_easing_function_against_its_formula() {
        // Inside (0, 1), away from the half-way switch, and a little outside (the functions
        // are not clamped).
        for (name, rule, published, dy) in table() {
            for x in [
                0.0, 0.1, 0.25, 0.4, 0.499, 0.501, 0.6, 0.75, 0.93, 1.0, -0.2, 1.3,
            ] {
                let (v, d) = rule(x);
                assert_eq!(v.to_bits(), published(x).to_bits(), "{name}({x})");
                close(d, dy(x), 1e-12, &format!("{name}'({x})"));
            }
        }
    }

    /// A value eased through `f` as a caller of the trait writes it (the crate's `ease`,
    /// which has no rule, computes `from + (to − from)·f.y(t)` through `CanTween`).
    #[fwdad::derive_frule]
    fn eased<F: EasingFunction>(f: &F, from: f64, to: f64, t: f64) -> f64 {
        from + (to - from) * f.y(t)
    }

    /// The same through a trait object, as the crate's `Keyframe` holds its function
    /// (`Arc<dyn EasingFunction + Send + Sync>`).
    #[fwdad::derive_frule]
    fn eased_dyn(f: &dyn EasingFunction, from: f64, to: f64, t: f64) -> f64 {
        from + (to - from) * f.y(t)
    }

    #[test]
    fn through_a_generic_parameter_and_a_trait_object() {
        // ∂/∂t = (to − from)·y'(t), ∂/∂from = 1 − y, ∂/∂to = y.
        type Curve<'a> = (&'a dyn EasingFunction, fn(f64) -> f64);
        let functions: [Curve; 3] = [
            (&EaseInOutCubic, |x| {
                if x < 0.5 {
                    12.0 * x * x
                } else {
                    12.0 * (x - 1.0).powi(2)
                }
            }),
            (&EaseOut, |x| FRAC_PI_2 * (x * FRAC_PI_2).cos()),
            (&EaseOutQuart, |x| -4.0 * (x - 1.0).powi(3)),
        ];
        for (f, dy) in functions {
            for t in [0.2, 0.45, 0.7] {
                let (from, to) = (1.5, -2.0);
                let y = f.y(t);
                let d = eased_dyn_frule(
                    Dual::constant(f),
                    Dual::new(from, 0.0),
                    Dual::new(to, 0.0),
                    Dual::new(t, 1.0),
                );
                assert_eq!(d.primal.to_bits(), (from + (to - from) * y).to_bits());
                close(d.tangent, (to - from) * dy(t), 1e-12, "∂/∂t through dyn");
                let d = eased_dyn_frule(
                    Dual::constant(f),
                    Dual::new(from, 1.0),
                    Dual::new(to, 0.0),
                    Dual::new(t, 0.0),
                );
                close(d.tangent, 1.0 - y, 1e-12, "∂/∂from through dyn");
            }
        }
        for t in [0.2, 0.45, 0.7] {
            let (v, g) = gradient(cubic_from_zero {}, &[3.0, t]);
            assert_eq!(v.to_bits(), (3.0 * EaseInOutCubic.y(t)).to_bits());
            close(g[0], EaseInOutCubic.y(t), 1e-12, "∂/∂to through F");
            let dy = if t < 0.5 {
                12.0 * t * t
            } else {
                12.0 * (t - 1.0).powi(2)
            };
            close(g[1], 3.0 * dy, 1e-12, "∂/∂t through F");
        }
    }

    /// `eased(&EaseInOutCubic, 0.0, to, t)` with `p = [to, t]`: the function passed by
    /// reference to a generic parameter.
    #[fwdad::derive_frule]
    fn cubic_from_zero(p: &[f64]) -> f64 {
        eased(&EaseInOutCubic, 0.0, p[0], p[1])
    }

    #[test]
    fn as_f64_of_an_impl_float() {
        // `as_f64(value: impl Float) -> f64`: the identity on `f64` and `f32` (widened).
        for x in [0.25_f64, -3.5, 1e-300] {
            let d = as_f64_frule(Dual::new(x, 1.0));
            assert_eq!(d.primal.to_bits(), x.to_bits());
            assert_eq!(d.tangent, 1.0);
        }
        let d = as_f64_frule(Dual::new(0.1_f32, 2.0_f32));
        assert_eq!(d.primal, f64::from(0.1_f32));
        assert_eq!(d.tangent, 2.0);
    }

    /// A motion through three easings: in with a quint, out with a sine, a bounce of a
    /// quad, `p = [t, from, to]`.
    #[fwdad::derive_frule]
    fn motion(p: &[f64]) -> f64 {
        let t = p[0];
        let a = p[1] + (p[2] - p[1]) * EaseInOutQuint.y(t);
        let b = EaseInOut.y(a / (1.0 + p[2].abs()));
        a * b + EaseOutQuad.y(t * b)
    }

    #[test]
    fn a_motion_in_every_mode() {
        crate::check_modes!(motion {}, motion, [0.3, 0.5, 2.0]);
        crate::check_modes!(motion {}, motion, [0.8, -1.0, 1.5]);
    }
}
