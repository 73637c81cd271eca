// `[T; N]::map` with a closure: a copy of the array mapped element by element in a
// counted loop (the closure bound once and inlined per element).
fn mapped<T: Float>(p: &[T; 2], s: T) -> T {
    let [a, b] = p.map(|v| v * s + T::one());
    a * b
}
