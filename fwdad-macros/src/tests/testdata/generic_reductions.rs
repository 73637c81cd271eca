// Reductions in a function generic over a float `T`: `sum` starts from `-T::zero()` and
// `product` from `T::one()` (not from a literal), and `fold` takes `T::max` by path, called
// as the float method on the accumulator.
fn stats<T: Float + Sum + Product>(x: &[T]) -> T {
    let m = x.iter().copied().fold(T::neg_infinity(), T::max);
    let s = x.iter().map(|&v| (v - m).exp()).sum::<T>();
    let p = x.iter().copied().product::<T>();
    m + s.ln() + p
}
