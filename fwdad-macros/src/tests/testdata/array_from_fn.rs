// `std::array::from_fn` whose length comes from where the array goes: filled in a loop
// over the runtime's `array_len`, the array promoted when an element is active.
fn rk_stage(c: [f64; 3], k: [f64; 3], h: f64) -> f64 {
    let s: [f64; 3] = std::array::from_fn(|i| c[i] + 0.5 * h * k[i]);
    s[0] * s[1] - s[2]
}
