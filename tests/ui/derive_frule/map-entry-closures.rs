// The entry API's closures on a map of floats are rewritten when the map is a variable or
// a field and the closure has no `return` or `?` (tests/derive_map_entry_closures.rs);
// a closure that returns early is not.
use fwdad::prelude::*;
use std::collections::HashMap;

#[derive_frule]
fn memo(x: &[f64]) -> f64 {
    let mut cache: HashMap<usize, f64> = HashMap::new();
    for i in 0..x.len() {
        *cache.entry(i % 3).or_insert_with(|| {
            if x[i] < 0.0 {
                return 0.0;
            }
            x[i].sqrt()
        }) += x[i];
    }
    cache[&0]
}

fn main() {}
