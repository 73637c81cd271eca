//! The point of the one-shot [`gradient`](super::gradient) and the gradient it returns:
//! a slice or a `Vec` gives a `Vec<f64>`, an array `[f64; N]` (or a reference to one) an
//! array of the same length, on the stack, as num-dual's `gradient` of an `SVector` does.
//!
//! Also the gradient without kept buffers: unit seeds from tables built at compile time
//! (one pass's, and every chunk's as a window of one table), so that a gradient of up to
//! 64 inputs reads no thread-local buffers and (for an array) allocates nothing once its
//! plan is settled.

use super::{FlatOutput, ScalarOutput, SliceRule};
use fwdad_runtime::{Batch, JacobianSink, Lanes, MaybeZero, Mode};

/// A point [`gradient`](super::gradient) differentiates at, and the type of the gradient
/// it returns: `Vec<f64>` for `&[f64]` and `&Vec<f64>`, `[f64; N]` for `&[f64; N]` and
/// `[f64; N]`.
///
/// ```
/// use fwdad::prelude::*;
///
/// #[derive_frule]
/// fn norm2(x: &[f64]) -> f64 {
///     x.iter().map(|v| v * v).sum()
/// }
///
/// // An array in, an array out (no allocation).
/// let (_, g): (f64, [f64; 3]) = gradient(norm2 {}, &[1.0, 2.0, 3.0]);
/// assert_eq!(g, [2.0, 4.0, 6.0]);
/// // A slice or a `Vec` in, a `Vec` out.
/// let x = vec![1.0, 2.0, 3.0];
/// let (_, g): (f64, Vec<f64>) = gradient(norm2 {}, &x);
/// assert_eq!(g, [2.0, 4.0, 6.0]);
/// let (_, g): (f64, Vec<f64>) = gradient(norm2 {}, &x[1..]);
/// assert_eq!(g, [4.0, 6.0]);
/// ```
///
/// It only names what `gradient` accepts; there is nothing to implement (it is sealed).
#[diagnostic::on_unimplemented(
    message = "`gradient` takes the point as `&[f64]`, `&Vec<f64>`, `&[f64; N]` or `[f64; N]`, not `{Self}`",
    label = "the point the gradient is taken at",
    note = "pass a slice (`&x[..]`, `x.as_slice()`) for a gradient in a `Vec<f64>`, or an array for a gradient in an array of the same length"
)]
pub trait GradientPoint: sealed::Point {
    /// The gradient: `Vec<f64>` for a slice or a `Vec`, `[f64; N]` for an array.
    type Gradient: sealed::Gradient;
    /// The point's coordinates.
    #[doc(hidden)]
    fn coordinates(&self) -> &[f64];
}

impl sealed::Point for &[f64] {}
impl GradientPoint for &[f64] {
    type Gradient = Vec<f64>;
    #[inline(always)]
    fn coordinates(&self) -> &[f64] {
        self
    }
}

impl sealed::Point for &Vec<f64> {}
impl GradientPoint for &Vec<f64> {
    type Gradient = Vec<f64>;
    #[inline(always)]
    fn coordinates(&self) -> &[f64] {
        self
    }
}

impl<const N: usize> sealed::Point for &[f64; N] {}
impl<const N: usize> GradientPoint for &[f64; N] {
    type Gradient = [f64; N];
    #[inline(always)]
    fn coordinates(&self) -> &[f64] {
        &self[..]
    }
}

impl<const N: usize> sealed::Point for [f64; N] {}
impl<const N: usize> GradientPoint for [f64; N] {
    type Gradient = [f64; N];
    #[inline(always)]
    fn coordinates(&self) -> &[f64] {
        &self[..]
    }
}

pub(super) mod sealed {
    use fwdad_runtime::Lanes;

    /// Seal of [`GradientPoint`](super::GradientPoint).
    pub trait Point {}

    /// A gradient [`gradient`](crate::drivers::gradient) returns, `n` long: `Vec<f64>` or
    /// `[f64; n]`.
    pub trait Gradient: Sized {
        /// Whether the length is a constant (an array).
        const FIXED: bool;
        /// Nothing allocated: an empty `Vec`, an array of zeros.
        fn empty() -> Self;
        /// `n` zeros (a `Vec` allocated, an array filled).
        fn zero(&mut self, n: usize);
        /// The entries.
        fn entries(&mut self) -> &mut [f64];
        /// The first `n` lanes of `t` (`n ≤ S::LANES`).
        fn from_lanes<S: Lanes<f64>>(t: &S, n: usize) -> Self;
        /// Room for `lanes` entries, none written: a `Vec` of capacity `lanes`, allocated
        /// before a pass so that its lanes go straight into it after
        /// ([`Gradient::put_lanes`]).
        fn room(lanes: usize) -> Self;
        /// The first `n` lanes of `t` written into [`Gradient::room`]`(S::LANES)`.
        fn put_lanes<S: Lanes<f64>>(&mut self, t: &S, n: usize);
        /// A copy of `g`.
        fn from_slice(g: &[f64]) -> Self;
    }

    impl Gradient for Vec<f64> {
        const FIXED: bool = false;
        #[inline(always)]
        fn empty() -> Self {
            Vec::new()
        }
        #[inline(always)]
        fn zero(&mut self, n: usize) {
            self.clear();
            self.resize(n, 0.0);
        }
        #[inline(always)]
        fn entries(&mut self) -> &mut [f64] {
            self
        }
        #[inline(always)]
        fn from_lanes<S: Lanes<f64>>(t: &S, n: usize) -> Self {
            // A loop of fixed trip count, element by element as the lanes were written:
            // a `memcpy` would read them 64 bytes at a time, waiting for the 8-byte
            // stores to retire (6 % of a 10-input gradient).
            let mut v = Vec::with_capacity(n);
            for lane in 0..S::LANES {
                if lane < n {
                    v.push(t.lane(lane));
                }
            }
            v
        }
        #[inline(always)]
        fn room(lanes: usize) -> Self {
            Vec::with_capacity(lanes)
        }
        #[inline(always)]
        fn put_lanes<S: Lanes<f64>>(&mut self, t: &S, n: usize) {
            assert!(n <= S::LANES && self.is_empty());
            // Every lane, a trip count known at compile time, into the room of `S::LANES`
            // entries (a capacity check LLVM folds), then the length cut to `n`: a load and
            // a store per lane, where `n` lanes took a compare and a branch more each
            // (Ackley, 10 inputs: 87 → 43 instructions in `one_pass`, callgrind).
            self.extend((0..S::LANES).map(|lane| t.lane(lane)));
            self.truncate(n);
        }
        #[inline(always)]
        fn from_slice(g: &[f64]) -> Self {
            g.to_vec()
        }
    }

    impl<const N: usize> Gradient for [f64; N] {
        const FIXED: bool = true;
        #[inline(always)]
        fn empty() -> Self {
            [0.0; N]
        }
        #[inline(always)]
        fn zero(&mut self, n: usize) {
            debug_assert_eq!(n, N);
            *self = [0.0; N];
        }
        #[inline(always)]
        fn entries(&mut self) -> &mut [f64] {
            self
        }
        #[inline(always)]
        fn from_lanes<S: Lanes<f64>>(t: &S, n: usize) -> Self {
            debug_assert!(n == N && N <= S::LANES);
            core::array::from_fn(|lane| t.lane(lane))
        }
        #[inline(always)]
        fn room(_lanes: usize) -> Self {
            [0.0; N]
        }
        #[inline(always)]
        fn put_lanes<S: Lanes<f64>>(&mut self, t: &S, n: usize) {
            debug_assert!(n == N && N <= S::LANES);
            *self = core::array::from_fn(|lane| t.lane(lane));
        }
        #[inline(always)]
        fn from_slice(g: &[f64]) -> Self {
            let mut a = [0.0; N];
            a.copy_from_slice(g);
            a
        }
    }
}

/// The unit directions of `W` lanes, `e_k` in lane `k`: the seeds of a one-pass gradient,
/// built at compile time and read from static memory.
pub(super) struct UnitSeeds<const W: usize>;

impl<const W: usize> UnitSeeds<W> {
    pub(super) const SEEDS: [Batch<f64, W>; W] = {
        let mut seeds = [Batch([0.0; W]); W];
        let mut k = 0;
        while k < W {
            seeds[k].0[k] = 1.0;
            k += 1;
        }
        seeds
    };
}

/// How many inputs a pass seeded from a [`WindowSeeds`] table may have.
pub(super) const WINDOW_INPUTS: usize = 64;

/// The seeds of every chunk of a chunked gradient of up to [`WINDOW_INPUTS`] inputs, in
/// one table built at compile time: `WINDOW_INPUTS` zeros, the `LANES` unit directions,
/// then zeros. The seeds of the chunk starting at input `s` are the window of `n`
/// entries starting at `WINDOW_INPUTS - s` (inputs `s..s + LANES` get the unit lanes,
/// the others zeros): nothing to build, clear or keep between calls, so a one-shot
/// gradient needs no per-thread buffers for any plan up to 64 inputs (a table of
/// `MaybeZero<Batch<f64, 32>>` seeds is 50 KB of static data, read `n` entries a pass).
pub(super) trait WindowSeeds: Sized + 'static {
    /// `3 × WINDOW_INPUTS` seeds: zeros, `e_0 .. e_(LANES-1)`, zeros, in static memory.
    fn table() -> &'static [Self; 3 * WINDOW_INPUTS];
}

/// [`WindowSeeds`] of `Batch<f64, W>` and of `MaybeZero<Batch<f64, W>>`, as constants.
struct Window<const W: usize>;

impl<const W: usize> Window<W> {
    const BATCH: [Batch<f64, W>; 3 * WINDOW_INPUTS] = {
        let mut t = [Batch([0.0; W]); 3 * WINDOW_INPUTS];
        let mut k = 0;
        while k < W {
            t[WINDOW_INPUTS + k].0[k] = 1.0;
            k += 1;
        }
        t
    };

    const ZEROS: [MaybeZero<Batch<f64, W>>; 3 * WINDOW_INPUTS] = {
        let mut t = [MaybeZero::<Batch<f64, W>>::__KNOWN_ZERO; 3 * WINDOW_INPUTS];
        let mut k = 0;
        while k < W {
            t[WINDOW_INPUTS + k] = MaybeZero::<Batch<f64, W>>::__unit(k);
            k += 1;
        }
        t
    };
}

impl<const W: usize> WindowSeeds for Batch<f64, W> {
    #[inline(always)]
    fn table() -> &'static [Self; 3 * WINDOW_INPUTS] {
        &Window::<W>::BATCH
    }
}

impl<const W: usize> WindowSeeds for MaybeZero<Batch<f64, W>> {
    #[inline(always)]
    fn table() -> &'static [Self; 3 * WINDOW_INPUTS] {
        &Window::<W>::ZEROS
    }
}

/// The gradient of `f` at `x` (`n ≤ WINDOW_INPUTS` inputs) in ⌈n / LANES⌉ passes of
/// `S`'s lanes, each seeded from its window of [`WindowSeeds::table`], the lanes of each
/// pass written straight into the gradient ([`chunked_into`]): the one-shot gradient's
/// chunked plans up to 64 inputs, with no per-thread buffers, no lookup of them, and no
/// copy of the gradient out of a workspace. A rule with a Jacobian entry writes its
/// coefficients instead.
#[inline(always)]
pub(super) fn chunked<S, F, G>(f: &F, x: &[f64]) -> (f64, G)
where
    S: WindowSeeds + Mode + Lanes<f64>,
    F: SliceRule<S, Output: ScalarOutput<S>>,
    G: sealed::Gradient,
{
    let mut gradient = G::empty();
    gradient.zero(x.len());
    let value = chunked_into::<S, F>(f, x, gradient.entries());
    (value, gradient)
}

/// [`chunked`] into `out` (`n` entries, each written), also for
/// [`GradientWorkspace`](super::GradientWorkspace)'s buffer. One function for both, out of
/// line: with the passes inlined into the one-shot's own function LLVM also inlined the
/// rule there, and Rosenbrock's gradient of 20 inputs in chunks of 8 (`MaybeZero`) took
/// 3 491 instructions against 2 566 here, the rule called (callgrind; 1.01 against 0.67 ×
/// num-dual).
#[inline(never)]
pub(super) fn chunked_into<S, F>(f: &F, x: &[f64], out: &mut [f64]) -> f64
where
    S: WindowSeeds + Mode + Lanes<f64>,
    F: SliceRule<S, Output: ScalarOutput<S>>,
{
    let n = x.len();
    assert!(
        n <= WINDOW_INPUTS && out.len() == n,
        "a windowed gradient of {n} inputs"
    );
    let table = S::table();
    let mut sink = SliceSink { value: 0.0, out };
    if f.eval_jacobian(x, &table[..n], &mut sink) {
        return sink.value;
    }
    chunks(f, x, table, sink.out)
}

/// The passes of [`chunked`], each chunk's lanes written into `out`; the value.
#[inline(always)]
fn chunks<S, F>(f: &F, x: &[f64], table: &'static [S; 3 * WINDOW_INPUTS], out: &mut [f64]) -> f64
where
    S: WindowSeeds + Mode + Lanes<f64>,
    F: SliceRule<S, Output: ScalarOutput<S>>,
{
    let n = x.len();
    let mut value = 0.0;
    let mut start = 0;
    while start < n {
        let at = WINDOW_INPUTS - start;
        let y = f.eval(x, &table[at..at + n]);
        if start == 0 {
            value = y.value(0);
        }
        let t = y.tangent(0);
        let out = &mut out[start..];
        // A trip count known at compile time (unrolled), as `Buffers::gradient`'s copy.
        for lane in 0..S::LANES {
            if let Some(entry) = out.get_mut(lane) {
                *entry = t.lane(lane);
            }
        }
        start += S::LANES;
    }
    value
}

/// The gradient a rule's Jacobian entry writes into a slice ([`chunked_into`]).
struct SliceSink<'a> {
    value: f64,
    out: &'a mut [f64],
}

impl JacobianSink for SliceSink<'_> {
    #[inline]
    fn rows(&mut self, m: usize) {
        debug_assert_eq!(m, 1, "a gradient's rule has one output");
        self.out.fill(0.0);
    }
    #[inline(always)]
    fn value(&mut self, i: usize, v: f64) {
        if i == 0 {
            self.value = v;
        }
    }
    #[inline(always)]
    fn add(&mut self, i: usize, j: usize, d: f64) {
        if i == 0 {
            self.out[j] += d;
        }
    }
}

/// The gradient a rule's Jacobian entry writes (`Frule::chain_jacobian`, one output).
struct GradientSink<G> {
    n: usize,
    value: f64,
    gradient: G,
}

impl<G: sealed::Gradient> JacobianSink for GradientSink<G> {
    #[inline]
    fn rows(&mut self, m: usize) {
        debug_assert_eq!(m, 1, "a gradient's rule has one output");
        self.gradient.zero(self.n);
    }
    #[inline(always)]
    fn value(&mut self, i: usize, v: f64) {
        if i == 0 {
            self.value = v;
        }
    }
    #[inline(always)]
    fn add(&mut self, i: usize, j: usize, d: f64) {
        if i == 0 {
            self.gradient.entries()[j] += d;
        }
    }
}

/// The gradient of `f` at `x` in one pass of `W ≥ x.len()` lanes of `Batch`, seeded from
/// [`UnitSeeds`]: no buffers kept, nothing allocated but a `Vec` result. A rule with a
/// Jacobian entry writes its coefficients instead (no seeded pass). Never inlined, as
/// [`jacobian_into`](super::jacobian_into): beside the tuned path's calls of the rule,
/// LLVM would inline none of them.
#[inline(never)]
pub(super) fn one_pass<const W: usize, F, G>(f: &F, x: &[f64]) -> (f64, G)
where
    F: SliceRule<Batch<f64, W>, Output: ScalarOutput<Batch<f64, W>>>,
    G: sealed::Gradient,
{
    let n = x.len();
    let seeds = match from_jacobian_entry::<W, F, G>(f, x) {
        Ok(done) => return done,
        Err(seeds) => seeds,
    };
    if W <= 16 {
        // The result allocated before the pass: after it, the lanes go from the pass's
        // result straight into the `Vec`, instead of being held on the stack across `malloc`
        // (room for `W` entries, all `W` lanes copied, the length cut to `n`).
        let mut gradient = G::room(W);
        let (t, value) = pass(f, x, seeds);
        gradient.put_lanes(&t, n);
        return (value, gradient);
    }
    // 20 and 32 lanes: the gradient allocated first, the pass writes its lanes into it.
    let mut gradient = G::empty();
    gradient.zero(n);
    let value = pass_into(f, x, seeds, gradient.entries());
    (value, gradient)
}

/// The gradient a rule with a Jacobian entry writes as coefficients (`Ok`), or, for a
/// rule without one, the unit seeds of `x`'s inputs for its seeded pass (`Err`).
#[inline(always)]
fn from_jacobian_entry<const W: usize, F, G>(
    f: &F,
    x: &[f64],
) -> Result<(f64, G), &'static [Batch<f64, W>]>
where
    F: SliceRule<Batch<f64, W>, Output: ScalarOutput<Batch<f64, W>>>,
    G: sealed::Gradient,
{
    let n = x.len();
    let seeds = &UnitSeeds::<W>::SEEDS[..n];
    let mut sink = GradientSink {
        n,
        value: 0.0,
        gradient: G::empty(),
    };
    match f.eval_jacobian(x, seeds, &mut sink) {
        true => Ok((sink.value, sink.gradient)),
        false => Err(seeds),
    }
}

/// The rule's pass alone, its tangent returned before its value. Not inlined into
/// [`one_pass`], and in this order: with the value first, the `W + 1` words were paired
/// into vector registers one word off (value and lane 0 together), and LLVM kept three of
/// the rule's accumulator pairs on the stack (Rosenbrock, 10 inputs: 53 ns, 45 ns so;
/// through `GradientWorkspace` 36 ns; `perf annotate`). [`pass_into`] cost 64 ns there.
#[inline(never)]
fn pass<const W: usize, F>(f: &F, x: &[f64], seeds: &[Batch<f64, W>]) -> (Batch<f64, W>, f64)
where
    F: SliceRule<Batch<f64, W>, Output: ScalarOutput<Batch<f64, W>>>,
{
    let y = f.eval(x, seeds);
    (y.tangent(0), y.value(0))
}

/// [`pass`], the lanes written into `out` (`out.len() ≤ W`): for 20 lanes, where the rule
/// is not inlined into the pass, a returned tangent was copied twice (a `memcpy` of its
/// 160 bytes, then the lanes into the `Vec`): Rosenbrock, 20 inputs, 1.16 × the
/// workspace, so 1.09 (wall clock under load).
#[inline(never)]
fn pass_into<const W: usize, F>(f: &F, x: &[f64], seeds: &[Batch<f64, W>], out: &mut [f64]) -> f64
where
    F: SliceRule<Batch<f64, W>, Output: ScalarOutput<Batch<f64, W>>>,
{
    let y = f.eval(x, seeds);
    let t = y.tangent(0);
    // A trip count known at compile time (unrolled), as `Buffers::gradient`'s copy.
    for lane in 0..W {
        if let Some(entry) = out.get_mut(lane) {
            *entry = t.0[lane];
        }
    }
    y.value(0)
}

/// [`one_pass`], inlined: for an array, whose length is a constant, the caller keeps the
/// gradient in registers instead of reading it back from the callee's stores.
#[inline(always)]
pub(super) fn one_pass_inline<const W: usize, F, G>(f: &F, x: &[f64]) -> (f64, G)
where
    F: SliceRule<Batch<f64, W>, Output: ScalarOutput<Batch<f64, W>>>,
    G: sealed::Gradient,
{
    let n = x.len();
    let seeds = match from_jacobian_entry::<W, F, G>(f, x) {
        Ok(done) => return done,
        Err(seeds) => seeds,
    };
    let y = f.eval(x, seeds);
    (y.value(0), G::from_lanes(&y.tangent(0), n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fwdad_runtime::Lanes;

    /// Every chunk's window holds `e_0 .. e_(W-1)` at its chunk's inputs and zeros (known
    /// zeros for `MaybeZero`) everywhere else, for every length up to 64.
    fn windows<S: WindowSeeds + Lanes<f64>>(known: impl Fn(&S) -> Option<bool>) {
        let w = S::LANES;
        let table = S::table();
        for n in 1..=WINDOW_INPUTS {
            for start in (0..n).step_by(w) {
                let at = WINDOW_INPUTS - start;
                let seeds = &table[at..at + n];
                for (j, seed) in seeds.iter().enumerate() {
                    let live = (start..start + w).contains(&j);
                    for lane in 0..w {
                        let unit = live && j - start == lane;
                        assert_eq!(seed.lane(lane), if unit { 1.0 } else { 0.0 });
                    }
                    if let Some(k) = known(seed) {
                        assert_eq!(k, !live, "n = {n}, chunk at {start}, input {j}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_chunk_reads_its_unit_seeds_from_the_static_table() {
        windows::<Batch<f64, 8>>(|_| None);
        windows::<Batch<f64, 16>>(|_| None);
        windows::<Batch<f64, 20>>(|_| None);
        windows::<Batch<f64, 32>>(|_| None);
        windows::<MaybeZero<Batch<f64, 8>>>(|s| Some(s.is_known_zero()));
        windows::<MaybeZero<Batch<f64, 16>>>(|s| Some(s.is_known_zero()));
        windows::<MaybeZero<Batch<f64, 32>>>(|s| Some(s.is_known_zero()));
    }
}
