// A map made by `HashMap::new()` (its type not written) keyed by a type of the user's
// whose tangent holds a float: a lookup would drop the key's derivative.
use fwdad::prelude::*;
use std::collections::HashMap;

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
struct Site {
    id: u32,
    height: f64,
}
impl Eq for Site {}
impl std::hash::Hash for Site {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.id.hash(h);
    }
}

#[derive_frule]
fn load(x: &[f64]) -> f64 {
    let mut by_site = HashMap::new();
    by_site.insert(Site { id: 1, height: 2.0 }, x[0]);
    let mut s = 0.0;
    for (site, v) in &by_site {
        s += v * site.height;
    }
    s
}

fn main() {}
