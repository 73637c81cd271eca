// A pipeline of boxed stages held in a `Vec` field and applied in turn by a method: a list
// of functions in a field is not passed to the methods (one function per field is).
// Instead: build the list in the differentiated function and walk it there (`let stages:
// Vec<Box<dyn Fn(f64) -> f64>> = vec![..]; for s in &stages { y = s(y); }`).
use fwdad::prelude::*;

pub struct Pipeline {
    pub stages: Vec<Box<dyn Fn(f64) -> f64>>,
}

#[derive_frule]
impl Pipeline {
    pub fn run(&self, x: f64) -> f64 {
        let mut y = x;
        for s in &self.stages {
            y = s(y);
        }
        y
    }
}

#[derive_frule]
fn transform(k: f64, x: f64) -> f64 {
    let p = Pipeline {
        stages: vec![Box::new(move |v: f64| v * k), Box::new(|v: f64| v.tanh())],
    };
    p.run(x)
}

fn main() {}
