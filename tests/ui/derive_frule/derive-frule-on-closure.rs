// `#[derive_frule]` on a closure: an attribute macro applies to items; write the closure
// as a function with the attribute.
use fwdad::prelude::*;

fn main() {
    let square = #[derive_frule]
    |x: f64| x * x;
    println!("{}", square(3.0));
}
