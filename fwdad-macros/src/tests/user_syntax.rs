//! The user's syntax in every position a template or a name of the macro's may hold it:
//! raw identifiers (`r#type`), lifetimes, macro calls in type position, `impl Trait` and
//! `dyn A + B` types, `Self` paths, odd literals, through every entry point and with odd
//! attribute arguments. None may make the macro panic (`docs/notes/parse-quote-audit.md`).
//! The cases that once did are in `ONCE_PANICKED`, with what they give now.

use proc_macro2::TokenStream;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// An attribute macro's `expand`.
type Expand = fn(TokenStream, TokenStream) -> TokenStream;

/// Items, each through `#[derive_frule]`, `#[primitive]` and `#[non_differentiable]`
/// with each of `ARGS`. Many are not valid Rust, or not supported: only panics count.
const ITEMS: &[&str] = &[
    // Raw identifiers.
    "fn r#type(r#in: f64) -> f64 { r#in * 2.0 }",
    "fn f(x: f64) -> f64 { let r#loop = x.sin(); r#loop * 2.0 }",
    "fn f(x: f64) -> f64 { let r#fn = |r#as: f64| r#as * x; r#fn(2.0) }",
    "fn f(x: f64) -> f64 { let r#ref = x; let g = || r#ref * 2.0; g() }",
    "fn f(x: f64) -> f64 { let r#ref = x; let g = move |y: f64| r#ref * y; g(3.0) }",
    "fn f(x: f64) -> f64 { let r#ref = x; println!(\"{}\", r#ref); r#ref }",
    "fn f(x: f64) -> f64 { let r#ref = x; let s = format!(\"{r#ref}\"); r#ref }",
    "fn f(p: &P) -> f64 { p.r#type * 2.0 }",
    "fn f(p: &P) -> f64 { p.r#type() * 2.0 }",
    "fn f(x: f64) -> f64 { r#type(x) * 2.0 }",
    "fn f(x: f64) -> f64 { P { r#type: x }.r#type }",
    "fn f(x: f64) -> f64 { let P { r#type, .. } = P { r#type: x }; r#type }",
    "fn f(x: &[f64]) -> f64 { x.iter().map(|r#in| r#in * 2.0).sum() }",
    "fn f(x: &[f64]) -> f64 { let mut r#acc = 0.0; for r#v in x { r#acc += r#v; } r#acc }",
    "fn f(x: &[f64]) -> f64 { x.iter().fold(0.0, |r#a, r#b| r#a + r#b) }",
    "fn f(x: &[f64]) -> f64 { x.iter().skip(1).step_by(2).map(|r#v| r#v.sin()).sum() }",
    "fn f(x: f64) -> f64 { 'r#a: loop { break 'r#a x; } }",
    "fn f<r#T: Copy>(x: f64, t: r#T) -> f64 { x }",
    "fn f(x: f64) -> f64 { r#mod::g(x) }",
    "fn f(x: f64) -> r#f64 { x }",
    "fn f(x: r#f64) -> f64 { x.r#sin() }",
    "fn f(x: f64) -> f64 { x.r#sin() + f64::r#cos(x) }",
    "fn f(x: f64) -> f64 { let v: Vec<r#f64> = vec![x]; v[0] }",
    "fn f(x: f64) -> f64 { let mut r#k = 0; let mut r#s = x; while r#k < 3 { r#s = r#s.sin(); r#k += 1; } r#s }",
    "fn f(x: f64) -> f64 { let mut r#s = x; loop { r#s *= 0.5; if r#s < 1.0 { break; } } r#s }",
    "fn f(x: &[f64]) -> f64 { let mut r#s = 0.0; for (r#i, r#v) in x.iter().enumerate() { r#s += r#v * r#i as f64; } r#s }",
    "fn f(x: &[f64]) -> f64 { let mut r#it = x.iter().peekable(); let mut s = 0.0; while let Some(v) = r#it.next() { if let Some(w) = r#it.peek() { s += v * *w; } } s }",
    "fn f(x: f64) -> f64 { match x { r#v if r#v > 0.0 => r#v.sqrt(), r#w => -r#w } }",
    "fn f(x: Option<f64>) -> f64 { let Some(r#v) = x else { return 0.0 }; r#v * 2.0 }",
    "fn f(x: f64) -> f64 { let r#c = 2.0; let mut r#acc = x; for _ in 0..3 { let r#g = |y: f64| y * r#c; r#acc = r#g(r#acc); } r#acc }",
    "fn f(x: &[f64]) -> f64 { let r#c = 2.0; x.iter().map(|v| v * r#c).filter(|v| *v > r#c).sum() }",
    "fn f(x: &[f64]) -> f64 { let r#n = x.len(); x.iter().take(r#n - 1).skip(1).sum() }",
    "fn f(x: &[f64]) -> f64 { x.iter().scan(0.0, |r#st, &r#a| { *r#st += r#a; Some(*r#st) }).sum() }",
    "fn f(x: &mut [f64]) { for r#v in x.iter_mut() { *r#v = r#v.sin(); } }",
    "fn f(x: &mut Vec<f64>, r#k: f64) { x.push(r#k * 2.0); }",
    "fn f<r#T: num_traits::Float>(x: r#T) -> r#T { x.sin() * r#T::one() }",
    "fn f<T: num_traits::Float>(r#x: T) -> T { r#x.sin() * T::one() }",
    "fn f(x: f64, r#g: impl Fn(f64) -> f64) -> f64 { r#g(x) }",
    "fn f(x: f64, r#g: &dyn Fn(f64) -> f64) -> f64 { r#g(x) * 2.0 }",
    "fn f(x: f64) -> f64 { let r#g = |r#y: f64| -> f64 { let r#z = r#y.sin(); r#z * 2.0 }; r#g(x) + r#g(2.0 * x) }",
    "fn f(x: f64) -> f64 { let r#v = [x, 2.0 * x]; let [r#a, r#b] = r#v; r#a * r#b }",
    "fn f(x: f64) -> (f64, f64) { let r#t = (x, x * 2.0); (r#t.1, r#t.0) }",
    "fn f(x: &std::collections::HashMap<usize, f64>) -> f64 { let mut r#s = 0.0; for (_, r#v) in x { r#s += r#v; } r#s }",
    "fn f(x: f64) -> f64 { let r#s = format!(\"{x:.2}\"); let w = 3; println!(\"{x:w$}\"); x }",
    "fn f(x: f64) -> f64 { #[allow(unused)] let r#u = 1; x }",
    "impl P { fn r#type(&self, x: f64) -> f64 { x * self.r#in } fn g(&self, x: f64) -> f64 { self.r#type(x) * 2.0 } }",
    "impl P { fn f(&mut self, r#dt: f64) { self.r#pos += self.r#vel * r#dt; } }",
    "impl A for P { fn r#fn(&self, r#x: f64) -> f64 { r#x * self.a } }",
    "trait A { fn r#fn(&self, x: f64) -> f64; fn twice(&self, x: f64) -> f64 { self.r#fn(x) * 2.0 } }",
    "trait r#Tr { fn g(&self, x: f64) -> f64 { x } }",
    "impl<r#T: A> B for P<r#T> { fn f(&self, x: f64) -> f64 { self.t.g(x) } }",
    "impl<T: A> B for T { fn f(&self, r#x: f64) -> f64 { self.g(r#x) } }",
    "impl<r#T: A> B for r#T { fn f(&self, x: f64) -> f64 { self.g(x) } }",
    "impl std::ops::Add for r#V { type Output = r#V; fn add(self, r#o: r#V) -> r#V { r#V { r#x: self.r#x + r#o.r#x } } }",
    "impl<'a> std::ops::Add<&'a r#V> for &'a r#V { type Output = r#V; fn add(self, o: &'a r#V) -> r#V { r#V { x: self.x + o.x } } }",
    // Odd literals, macros in type and pattern position.
    "fn f(x: f64) -> f64 { x * -0x1F as f64 + -0b101 as f64 + -1_000i64 as f64 }",
    "fn f(x: f64) -> f64 { x * -1e300_f64 + -2.5e-3 + -1f64 + -0.0 }",
    "fn f(x: f64) -> f64 { let k = -1u8 as f64; x * k }",
    "fn f(x: f64) -> f64 { match 3 { m!() => x, _ => -x } }",
    "fn f(x: f64) -> f64 { let m!() = x; x }",
    "fn f(x: f64) -> f64 { let g = for<'a> |y: &'a f64| -> f64 { *y * 2.0 }; g(&x) }",
    "fn f<const N: usize>(x: [f64; N]) -> f64 { x.iter().sum() }",
    "fn f(x: [f64; { 1 + 2 }]) -> f64 { x[0] }",
    "fn f(x: [f64; m!()]) -> f64 { x[0] }",
    "fn f(x: f64) -> [f64; m!()] { [x; m!()] }",
    "fn f(x: f64) -> f64 { let v = [x; m!()]; v[0] }",
    "fn f(x: f64) -> f64 { let t: (m!(), f64) = (1.0, x); t.1 }",
    "fn f(x: f64) -> f64 { let v: <m!() as A>::T = x; v }",
    "fn f(x: f64) -> f64 { <f64 as m!()>::sin(x) }",
    "fn f(x: f64) -> f64 { let g: fn(m!()) -> f64 = h; g(x) }",
    "fn f(x: f64) -> f64 { x.sin::<m!()>() }",
    "fn f(x: &[f64]) -> f64 { x.iter().map(|v: &m!()| *v).sum() }",
    "fn f(x: &[f64]) -> f64 { x.iter().copied().collect::<Vec<m!()>>()[0] }",
    "fn f(x: &[f64]) -> f64 { x.iter().copied().sum::<m!()>() }",
    "fn f(x: &[f64]) -> f64 { let s: Box<dyn Fn(f64) -> f64 + 'static> = Box::new(|v| v); s(x[0]) }",
    "fn f(x: f64) -> f64 { let s: &(dyn A + Send + 'static) = &P; x }",
    "fn f(x: f64) -> f64 { let b: Box<dyn A + B> = Box::new(P { x }); b.g(x) }",
    "fn f(x: f64) -> f64 { let b: impl A = P { x }; b.g(x) }",
    "fn f(x: f64) -> f64 { let v: Vec<Box<dyn A + B>> = vec![]; v.iter().map(|b| b.g(x)).sum() }",
    "fn f(x: f64) -> f64 { P::<m!()>::new(x).g() }",
    "fn f(x: f64) -> f64 { <P<m!()>>::new(x).g() }",
    "fn f(x: f64) -> f64 { <P as m!()>::g(x) }",
    "fn f(x: f64) -> f64 { Self::new(x).g() }",
    "fn f(x: f64) -> f64 { let p = Self { x }; p.x }",
    "fn f(x: f64) -> f64 { match P { x } { Self { x } => x } }",
    "impl P { fn f(&self, x: f64) -> f64 { let q = Self { a: x, ..*self }; q.a } }",
    "impl P { fn f(&self, x: f64) -> f64 { match *self { Self { a } => a * x } } }",
    "impl P { fn f(&self, x: f64) -> f64 { let v: Vec<Self> = vec![]; v.iter().map(|p| p.a * x).sum() } }",
    "impl P { fn f(&self, x: f64) -> f64 { <Self>::g(self, x) } }",
    "impl P { fn f(&self, x: f64) -> f64 { Self::C * x } }",
    "impl P { fn f(&self, x: f64) -> f64 { let g = |s: &Self| s.a * x; g(self) } }",
    "impl P { fn f(&self, x: Self::T) -> f64 { x } }",
    "impl P { fn f(&self, x: f64) -> <Self as A>::T { x } }",
    "impl P { fn f(&self, x: f64) -> f64 { m!(self, x) } }",
    "impl P { fn f(&self, x: f64) -> f64 { self.m!() } }",
    "impl P { m!(); fn f(&self, x: f64) -> f64 { x } }",
    "impl P { const C: f64 = 2.0; type T = f64; fn f(&self, x: f64) -> f64 { x * Self::C } }",
    "impl P { fn f(self: &Self, x: f64) -> f64 { x * self.a } }",
    "impl P { fn f(self: &mut Self, x: f64) { self.a *= x; } }",
    "impl P { fn f(mut self, x: f64) -> Self { self.a *= x; self } }",
    "impl P { fn f<'a>(&'a self, x: &'a f64) -> &'a f64 { x } }",
    "impl<'a> A for &'a P { fn f(&self, x: f64) -> f64 { x } }",
    "impl A for Box<dyn B> { fn f(&self, x: f64) -> f64 { x } }",
    "impl A for dyn B + Send { fn f(&self, x: f64) -> f64 { x } }",
    "impl<T: ?Sized + A> B for Box<T> { fn f(&self, x: f64) -> f64 { (**self).g(x) } }",
    "impl<F: Fn(f64) -> f64> A for F { fn f(&self, x: f64) -> f64 { self(x) } }",
    "impl<const N: usize> A for [f64; N] { fn f(&self, x: f64) -> f64 { x } }",
    "impl<const N: usize> A for P<N> { fn f(&self, x: f64) -> f64 { x * self.a[0] } }",
    "impl std::ops::Mul<f64> for P { type Output = Self; fn mul(self, k: f64) -> Self { Self { a: self.a * k } } }",
    "impl std::ops::Mul<P> for f64 { type Output = P; fn mul(self, p: P) -> P { P { a: self * p.a } } }",
    "impl std::ops::Mul<m!()> for P { type Output = P; fn mul(self, p: m!()) -> P { self } }",
    "impl std::ops::Neg for &P { type Output = P; fn neg(self) -> P { P { a: -self.a } } }",
    "impl std::ops::Index<usize> for P { type Output = f64; fn index(&self, i: usize) -> &f64 { &self.a[i] } }",
    "impl std::ops::IndexMut<usize> for P { fn index_mut(&mut self, i: usize) -> &mut f64 { &mut self.a[i] } }",
    "impl From<m!()> for P { fn from(x: m!()) -> Self { P { a: x } } }",
    "impl From<(f64, f64)> for P { fn from((a, b): (f64, f64)) -> Self { P { a: a * b } } }",
    "impl From<[f64; 2]> for P { fn from(v: [f64; 2]) -> Self { P { a: v[0] } } }",
    "impl From<&[f64]> for P { fn from(v: &[f64]) -> Self { P { a: v[0] } } }",
    "impl From<Box<dyn A + Send>> for P { fn from(v: Box<dyn A + Send>) -> Self { P { a: 1.0 } } }",
    "impl From<fn(f64) -> f64> for P { fn from(v: fn(f64) -> f64) -> Self { P { a: v(1.0) } } }",
    "impl std::iter::Sum for P { fn sum<I: Iterator<Item = Self>>(it: I) -> Self { it.fold(P { a: 0.0 }, |s, p| P { a: s.a + p.a }) } }",
    "impl<'a> std::iter::Sum<&'a P> for P { fn sum<I: Iterator<Item = &'a P>>(it: I) -> Self { it.fold(P { a: 0.0 }, |s, p| P { a: s.a + p.a }) } }",
    // Lifetimes.
    "fn f<'a>(x: &'a f64) -> f64 { *x * 2.0 }",
    "fn f<'a>(x: &'a [f64]) -> &'a f64 { &x[0] }",
    "fn f<'a, 'b: 'a>(x: &'a f64, y: &'b f64) -> f64 { x * y }",
    "fn f(x: &'static f64) -> f64 { *x }",
    "fn f(x: &'_ f64) -> f64 { *x }",
    "fn f(x: f64) -> f64 { let y: &'static str = \"a\"; x }",
    // Macros in type position.
    "fn f(x: m!()) -> f64 { x }",
    "fn f(x: f64) -> m!() { x }",
    "fn f(x: f64) -> f64 { let y: m!() = x; y }",
    "fn f(x: &[m!()]) -> f64 { x[0] }",
    "fn f(x: f64) -> f64 { let v: Vec<m!(f64)> = vec![x]; v[0] }",
    "fn f(x: f64) -> f64 { x as m!() }",
    "fn f(x: f64) -> f64 { <m!()>::sin(x) }",
    "fn f(x: f64) -> f64 { m!(x) }",
    // `impl Trait` and `dyn` types.
    "fn f(x: impl Fn(f64) -> f64, y: f64) -> f64 { x(y) }",
    "fn f(x: f64, g: &dyn Fn(f64) -> f64) -> f64 { g(x) }",
    "fn f(x: f64, g: &(dyn Fn(f64) -> f64 + Send)) -> f64 { g(x) }",
    "fn f(x: f64, g: &(dyn A + B)) -> f64 { x }",
    "fn f(x: f64, g: Box<dyn A + B>) -> f64 { x }",
    "fn f(x: f64) -> f64 { let g: &dyn Fn(f64) -> f64 = &|y| y; g(x) }",
    "fn f(x: f64) -> f64 { let g: Box<dyn Fn(f64) -> f64 + Send> = Box::new(|y| y); g(x) }",
    "fn f(x: f64) -> f64 { let g: impl Fn(f64) -> f64 = |y| y; g(x) }",
    "fn f(x: f64) -> impl Into<f64> { x }",
    "fn f(x: &impl Copy) -> f64 { 1.0 }",
    "fn f<T: A + B + ?Sized>(x: &T, y: f64) -> f64 { y }",
    "fn f(x: f64) -> f64 { let y = x as dyn A; 1.0 }",
    "fn f(x: f64) -> f64 { <dyn A>::g(x) }",
    "fn f(x: f64) -> f64 { <impl A>::g(x) }",
    // `Self` paths.
    "fn f(x: f64) -> Self { Self(x) }",
    "fn f(x: f64) -> f64 { Self::g(x) }",
    "fn f(x: Self) -> f64 { 1.0 }",
    "fn f(x: f64) -> f64 { let s: Self = Self { x }; s.x }",
    "fn f(x: f64) -> f64 { <Self as A>::g(x) }",
    "impl P { fn f(&self, x: f64) -> Self { Self { a: x * self.a } } }",
    "impl P { fn f(&self, x: f64) -> f64 { Self::g(x) * self.a } }",
    "impl P { fn f(self: Box<Self>, x: f64) -> f64 { x } }",
    "impl P { fn f(&self, x: f64) -> f64 { <Self as A>::g(self, x) } }",
    "impl P { fn f(x: Self) -> f64 { x.a } }",
    "impl P { fn r#type(&self, x: f64) -> f64 { x * self.r#in } }",
    "impl r#P { fn f(&self, x: f64) -> f64 { x * self.a } }",
    "impl<'a> P<'a> { fn f(&self, x: f64) -> f64 { x * self.a[0] } }",
    "impl P<m!()> { fn f(&self, x: f64) -> f64 { x } }",
    "impl m!() { fn f(&self, x: f64) -> f64 { x } }",
    "impl dyn A { fn f(&self, x: f64) -> f64 { x } }",
    "impl dyn A + Send { fn f(&self, x: f64) -> f64 { x } }",
    "impl A for dyn B { fn f(&self, x: f64) -> f64 { x } }",
    "impl A for m!() { fn f(&self, x: f64) -> f64 { x } }",
    "impl A for [f64; 3] { fn f(&self, x: f64) -> f64 { x * self[0] } }",
    "impl A for (f64, f64) { fn f(&self, x: f64) -> f64 { x * self.0 } }",
    "impl A for &P { fn f(&self, x: f64) -> f64 { x } }",
    "impl A for fn(f64) -> f64 { fn f(&self, x: f64) -> f64 { self(x) } }",
    "impl<T> A for T { fn f(&self, x: f64) -> f64 { x } }",
    "impl r#A for P { fn r#fn(&self, x: f64) -> f64 { x } }",
    "impl A<m!()> for P { fn f(&self, x: f64) -> f64 { x } }",
    "impl<T: m!()> A for P<T> { fn f(&self, x: f64) -> f64 { x } }",
    "trait r#A { fn r#type(&self, x: f64) -> f64; }",
    "trait A { fn f(&self, x: m!()) -> f64; }",
    "trait A { fn f(&self, x: f64) -> Self; }",
    "trait A { fn f(&self, x: impl Fn(f64) -> f64) -> f64; }",
    "trait A { fn f(&self, x: &dyn B) -> f64; }",
    "trait A<'a> { fn f(&'a self, x: f64) -> f64; }",
    "trait A: B + m!() { fn f(&self, x: f64) -> f64; }",
    "trait A { type T: m!(); fn f(&self, x: f64) -> f64; }",
    "trait A { fn f(&self, x: f64) -> f64 { x } fn r#g(&mut self, r#in: f64) -> f64 { r#in } }",
    // Format strings whose inline names are no identifiers (rustc rejects them; the
    // macro once panicked first: `Ident::new("x²")`, a slice inside `€`), and keywords.
    "fn f(x: f64) -> f64 { println!(\"{x²}\"); x }",
    "fn f(x: f64) -> f64 { let s = format!(\"{x:x²$}\"); x }",
    "fn f(x: f64) -> f64 { let w = 3; println!(\"{:€w$}\", x); x }",
    "fn f(x: f64) -> f64 { let w = 3; println!(\"{:€<w$} {:é$}\", x, x); x }",
    "fn f(x: f64) -> f64 { println!(\"{self} {type} {_} {r#x}\"); x }",
    "fn f(x: f64) -> f64 { assert!(x > 0.0, \"{x²} {:€w$}\"); x }",
    // Qualified paths `<T as Tr>::X` where a path, a type or a pattern goes.
    "fn f(x: <f64 as A>::T) -> f64 { x }",
    "fn f(x: f64) -> <P as A>::T { x }",
    "fn f(x: f64) -> f64 { <P as A>::T { a: x }.a }",
    "fn f(x: f64) -> f64 { let <P as A>::T { a } = P { a: x }; a }",
    "fn f(x: f64) -> f64 { match x { <P as A>::C => 1.0, _ => x } }",
    "fn f(x: &[<P as A>::T]) -> f64 { x.iter().map(|v| v.a).sum() }",
    "fn f(x: f64) -> f64 { let v: Vec<<P as A>::T> = vec![]; v.len() as f64 * x }",
    "fn f(x: f64) -> f64 { x * <f64 as A>::C }",
    "fn f(x: f64) -> f64 { <<P as A>::T as B>::g(x) }",
    // Operators of types that are no plain path.
    "impl std::ops::Mul<f64> for <P as A>::T { type Output = f64; fn mul(self, k: f64) -> f64 { k } }",
    "impl std::ops::Add for (f64, f64) { type Output = f64; fn add(self, o: (f64, f64)) -> f64 { self.0 + o.0 } }",
    "impl std::ops::Add for [f64; 3] { type Output = f64; fn add(self, o: Self) -> f64 { self[0] + o[0] } }",
    "impl std::ops::Add<m!()> for V { type Output = V; fn add(self, o: m!()) -> V { self } }",
    "impl std::ops::Add for m!() { type Output = f64; fn add(self, o: Self) -> f64 { 1.0 } }",
    "impl std::ops::Add for dyn A { type Output = f64; fn add(self, o: Self) -> f64 { 1.0 } }",
    "impl std::ops::Add for Box<dyn A + Send> { type Output = f64; fn add(self, o: Self) -> f64 { 1.0 } }",
    "impl std::ops::Neg for &'static V { type Output = V; fn neg(self) -> V { V { x: -self.x } } }",
    "impl<T: A + B> std::ops::Add for W<T> { type Output = Self; fn add(self, o: Self) -> Self { self } }",
    "impl std::ops::Add<impl A> for V { type Output = V; fn add(self, o: impl A) -> V { self } }",
    "impl std::ops::Index<usize> for r#V { type Output = f64; fn index(&self, r#i: usize) -> &f64 { &self.r#x } }",
    "impl std::ops::Mul<<P as A>::T> for V { type Output = V; fn mul(self, k: <P as A>::T) -> V { self } }",
    "impl std::ops::AddAssign<&'static [f64]> for V { fn add_assign(&mut self, o: &'static [f64]) { self.x += o[0]; } }",
    // An expression where a pattern goes, a pattern where an expression goes.
    "fn f(x: f64) -> f64 { if let 1.0 + 2.0 = x { x } else { 0.0 } }",
    "fn f(x: f64) -> f64 { let _ = x..; (..) ; x }",
    "fn f(x: f64) -> f64 { let a @ 0.0..=1.0 = x else { return 0.0 }; a }",
    "fn f(x: f64) -> f64 { matches!(x, m!()) as i32 as f64 * x }",
    "fn f(x: f64) -> f64 { let y = if matches!(x, a if a > m!()) { x } else { 1.0 }; y }",
    // Lifetimes where names go, labels and closures.
    "fn f<'a>(x: &'a f64) -> f64 { let g = |y: &'a f64| *y * 2.0; g(x) }",
    "fn f(x: &[f64]) -> f64 { let mut s = 0.0; 'outer: for v in x { 'inner: loop { s += v; break 'outer; } } s }",
    "fn f(x: f64) -> f64 { let r: &'static f64 = &2.0; let g = move || x * *r; g() }",
    "fn f<'a, T: A + 'a>(x: &'a T, y: f64) -> f64 { y }",
    // Mistakes newcomers make (tests/ui/derive_frule): only panics count here.
    "fn f(m: f64, v: f64) -> f64 { 0.5 * m * v ^ 2.0 }",
    "fn f(x: f64) -> f64 { x ^ 2 }",
    "fn f(x: f64) -> f64 { let mut y = x; y ^= 2.0; y }",
    "fn f(x: f64) -> f64 { x * x * x - 3 * x + 1.0 }",
    "fn f(y: f64, t: f64) -> f64 { (y - t).pow(2) }",
    "fn f(x: f64) -> f64 { if x > 0 { x } else { 0.0 } }",
    "fn f(x: Dual<f64>) -> Dual<f64> { x * x }",
    "fn f(x: fwdad::Dual<f64, f64>) -> f64 { x.primal }",
    "fn f(x: f64) -> f64 { let d = Dual::new(x, 1.0); (1.0 + d.exp()).ln() }",
    "fn f(k: f64, x: f64) -> f64 { 0.5 * k * x.powi(2.0) }",
    "fn f(x: f64) -> f64 { square_frule(x) + 1.0 }",
    "fn f(x: f64) { 0.5 * x * x }",
    "fn f(r: f64) -> f64 { f64::PI * r * r }",
    "fn f(x: &[f64]) -> f64 { let s = x.iter().sum(); s / x.len() as f64 }",
    "fn f(m: f64) -> f64 { (1.0 - m).max(0) }",
    "fn f(x: f64, n: usize) -> f64 { x / n.sqrt() }",
];

/// Attribute arguments: none, one that does not parse, one of an unknown name, one a
/// newcomer writes (`wrt(x)`).
const ARGS: &[&str] = &["", "r#type", "name = r#type", "wrt(x)"];

/// Types through `#[derive(Differentiable)]`.
const DERIVED: &[&str] = &[
    "struct r#P { r#type: f64 }",
    "struct P(r#f64);",
    "struct P<'a> { a: &'a f64 }",
    "struct P { a: m!() }",
    "struct P { a: Box<dyn A + Send> }",
    "struct P { a: fn(f64) -> f64 }",
    "struct P<T: m!()> { a: T }",
    "enum r#E { r#A { r#type: f64 }, B(f64) }",
    "enum E { A(m!()), B }",
    "struct P { #[differentiable(skip)] r#in: f64, x: f64 }",
    "struct P where Self: Sized { a: f64 }",
    "struct r#V<r#T> { r#x: r#T }",
    "struct V<'a, T: 'a> { x: &'a T }",
    "enum r#E<r#T> { r#A(r#T), B { r#in: r#T } }",
    "struct V { #[differentiable(tangent = r#f64)] x: f64 }",
    "#[differentiable(tangent_name = r#VT)] struct V { x: f64 }",
    "struct P { a: [f64; m!()] }",
    "struct P { a: <Self as A>::T }",
];

fn tokens(s: &str) -> TokenStream {
    s.parse()
        .unwrap_or_else(|e| panic!("test input {s:?} does not lex: {e}"))
}

#[test]
fn user_syntax_in_every_position_never_panics() {
    let entries: [(&str, Expand); 3] = [
        ("#[derive_frule]", crate::derive_frule::expand),
        ("#[primitive]", crate::primitive::expand),
        (
            "#[non_differentiable]",
            crate::primitive::expand_non_differentiable,
        ),
    ];
    let mut panics = Vec::new();
    for item in ITEMS {
        for (attr, expand) in entries {
            for args in ARGS {
                let run = || expand(tokens(args), tokens(item));
                if catch_unwind(AssertUnwindSafe(run)).is_err() {
                    panics.push(format!("{attr} ({args}) on {item}"));
                }
            }
        }
    }
    for item in DERIVED {
        let run = || crate::differentiable::expand(tokens(item));
        if catch_unwind(AssertUnwindSafe(run)).is_err() {
            panics.push(format!("#[derive(Differentiable)] on {item}"));
        }
    }
    assert!(
        panics.is_empty(),
        "{} panics:\n{}",
        panics.len(),
        panics.join("\n")
    );
}

/// `(what, attribute arguments, item, what the expansion holds now)`: each once made
/// `#[derive_frule]` panic. `None`: it expands without an error.
const ONCE_PANICKED: &[(&str, &str, &str, Option<&str>)] = &[
    (
        "locals carried by a loop, raw identifiers",
        "",
        "fn f(x: &[f64]) -> f64 { let mut r#acc = 0.0; for r#v in x { r#acc += r#v; } r#acc }",
        None,
    ),
    (
        "a raw type parameter",
        "",
        "fn f<r#T: Copy>(x: f64, t: r#T) -> f64 { x }",
        None,
    ),
    (
        "an operator of a raw-named type",
        "",
        "impl std::ops::Add for r#V { type Output = r#V; fn add(self, o: r#V) -> r#V { r#V { x: self.x + o.x } } }",
        None,
    ),
    (
        "a blanket impl with an argument meant for functions",
        "inactive(beta)",
        "impl<T: Float> Smooth for T { fn softplus(self, beta: T) -> T { (beta * self).exp().ln_1p() / beta } }",
        Some("`inactive(..)` is supported on free functions only"),
    ),
    (
        "an impl for an integer type with an argument meant for functions",
        "inactive(rate)",
        "impl Decay for u32 { fn decay(self, rate: f64) -> f64 { (-rate * self as f64).exp() } }",
        Some("`inactive(..)` is supported on free functions only"),
    ),
];

#[test]
fn once_panicking_user_syntax_expands_or_is_reported() {
    for (what, args, item, expect) in ONCE_PANICKED {
        let run = || crate::derive_frule::expand(tokens(args), tokens(item)).to_string();
        let out =
            catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|_| panic!("{what}: panicked"));
        match expect {
            None => assert!(!out.contains("compile_error"), "{what}: {out}"),
            Some(msg) => {
                assert!(out.contains(msg), "{what}: {out}");
                // The item's own error follows the argument's.
                assert!(out.matches("compile_error").count() >= 2, "{what}: {out}");
            }
        }
    }
}
