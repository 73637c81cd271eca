use fwdad::prelude::*;

#[derive_frule]
fn f(x: &Vec<f64>) -> f64 {
    let (head, _) = x.split_first().unwrap();
    *head
}

fn main() {}
