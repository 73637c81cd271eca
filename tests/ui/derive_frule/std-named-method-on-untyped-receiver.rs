// A method of the user's named like a `std` method that has a rule on duals (`get`,
// `iter`, `len`, ...), on a receiver whose type the macro cannot see (a field, a local a
// function returned): the call is read as the `std` method; the first error names the
// user's type and says to bind the receiver with its type written first.
use fwdad::prelude::*;

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Table {
    pub scale: f64,
}

#[derive_frule]
impl Table {
    pub fn get(&self, x: f64) -> f64 {
        self.scale * x
    }

    pub fn len(&self) -> f64 {
        self.scale
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Model {
    pub table: Table,
}

#[derive_frule]
fn table(k: f64) -> Table {
    Table { scale: k }
}

#[derive_frule]
fn lookup(m: &Model, x: f64) -> f64 {
    m.table.get(x)
}

#[derive_frule]
fn size(k: f64) -> f64 {
    let t = table(k);
    t.len()
}

fn main() {}
