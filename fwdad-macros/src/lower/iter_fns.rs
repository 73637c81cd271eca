//! The free iterator constructors of `std::iter`, written as the method chains they are
//! before lowering, so the chain lowering reads them as it reads any chain:
//!
//! ```text
//! iter::zip(a, b)        (a).into_iter().zip(b)
//! iter::once(v)          [v].into_iter()   (also a bare `once(v)` as `chain`'s argument)
//! iter::repeat(v)        [v].into_iter().cycle()
//! iter::repeat_n(v, n)   [v].into_iter().cycle().take(n)
//! iter::successors(a, f) (0usize..).scan(a, |next, _| {
//!                            let item = *next;
//!                            if let Some(v) = item { let f = f; *next = f(&v); }
//!                            item
//!                        })
//! iter::from_fn(|| body) (0usize..).map_while(|_| body)
//! ..(gen).take(n)        the same with the range 0usize..n
//! ```
//!
//! Each yields the same items in the same order (`repeat` clones its value, as cycling a
//! one-element array does), so primals are unchanged. `successors` reads its state by
//! copy, so its items must be `Copy` (floats, tuples and arrays of them), and calls its
//! function as a closure bound with `let`, in which `return` and `?` leave that function
//! as they do in `std`'s; `from_fn`'s closure keeps its own body (and `move`), taking an
//! ignored index. With a `take(n)` folded into the range, `n` is evaluated before the
//! generator's arguments rather than after (the same values unless they have effects).

use crate::callee::{Adaptor, IterFn, Itertools};
use crate::splice::{fill, Hole};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;

/// The name of the index the chain of a `successors` or `from_fn` passes its closure (a
/// closure of this template's, or the user's `from_fn` closure given it), by which the
/// lowering tells such a chain it could not read from a `scan` the user wrote.
pub(crate) const GENERATOR_INDEX: &str = "__fwdad_generator_index";

/// The error for an adaptor that needs the items' positions (`zip`, `chain`) after the
/// chain of a `successors` or `from_fn`.
pub(crate) const GENERATOR_POSITIONS: &str = "`#[derive_frule]` reads `std::iter::successors` and `std::iter::from_fn` as chains ended by a `take(n)` right after them (or after `map`s), by `take_while`, or by their own `None`; an adaptor that needs the items' positions after them (`chain`, `cycle`, `rev`) is not supported (`skip`, `step_by`, `take`, `enumerate`, `zip` are): take the items first (`let mut xs: Vec<f64> = successors(..).take(n).collect();`) and extend them (`xs.extend_from_slice(w)`)";

/// `block` with every call of such a constructor written as its chain.
pub(super) fn iter_fns_as_chains(block: &syn::Block) -> syn::Block {
    let mut block = block.clone();
    let mut chains = Chains { bare_zip: false };
    chains.visit_block_mut(&mut block);
    if chains.bare_zip {
        AllowUnused.visit_block_mut(&mut block);
    }
    block
}

struct Chains {
    /// Whether a bare `zip(a, b)` or `successors(a, f)` was rewritten: its
    /// `use std::iter::zip;` in the body is then unused in the rule.
    bare_zip: bool,
}

/// Marks the body's `use` items that import a `zip` or `successors`
/// `#[allow(unused_imports)]`.
struct AllowUnused;

impl VisitMut for AllowUnused {
    fn visit_item_mut(&mut self, item: &mut syn::Item) {
        if let syn::Item::Use(u) = item {
            if quote::ToTokens::to_token_stream(&u.tree)
                .to_string()
                .contains("zip")
                || quote::ToTokens::to_token_stream(&u.tree)
                    .to_string()
                    .contains("successors")
            {
                u.attrs.push(syn::parse_quote!(#[allow(unused_imports)]));
            }
        }
    }
}

impl VisitMut for Chains {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        // itertools' `izip!(a, b, c)` and `a.iter().tuple_windows()`, as their `std` chains.
        if let Some(chain) = izip_chain(e) {
            *e = chain;
        }
        tuple_windows_as_windows(e);
        // `successors(..).take(n)` and `from_fn(..).take(n)`, also with `map`s between
        // (`from_fn(..).map(f).take(n)`, each item mapped once): the count becomes the
        // range's end, `(0usize..n).scan(..)`, which yields the same items (the stage is
        // called once per item pulled), where a `take` after `scan` or `map_while` is not
        // a chain the lowering reads. The `take` is dropped and the whole visited again:
        // the rewritten chain holds no generator call, so nothing is rewritten twice.
        if let syn::Expr::MethodCall(m) = e {
            if Adaptor::from_name(&m.method.to_string()) == Some(Adaptor::Take) && m.args.len() == 1
            {
                let count = m.args[0].clone();
                if let Some(base) = generator_under_maps(&mut m.receiver) {
                    if let syn::Expr::Call(c) = &*base {
                        if let Some(chain) = self.chain(c, Some(&count)) {
                            *base = chain;
                            *e = (*m.receiver).clone();
                            self.visit_expr_mut(e);
                            return;
                        }
                    }
                }
            }
        }
        // `a.chain(once(v))`: a bare `once` there is `std::iter::once`.
        if let syn::Expr::MethodCall(m) = e {
            if Adaptor::from_name(&m.method.to_string()) == Some(Adaptor::Chain)
                && m.args.len() == 1
            {
                if let syn::Expr::Call(c) = &m.args[0] {
                    let once = matches!(&*c.func, syn::Expr::Path(p)
                        if p.qself.is_none() && IterFn::of_chain_argument(&p.path) == Some(IterFn::Once));
                    if once && c.args.len() == 1 {
                        let template =
                            syn::parse_quote_spanned!(c.func.span()=> [__fwdad_a].into_iter());
                        m.args[0] = fill(template, &[("__fwdad_a", Hole::Expr(&c.args[0]))]);
                    }
                }
            }
        }
        syn::visit_mut::visit_expr_mut(self, e);
        if let syn::Expr::Call(c) = e {
            if let Some(chain) = self.chain(c, None) {
                *e = chain;
            }
        }
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

/// itertools' `izip!(a, b, ..)` as the `std` chain it expands to: `(a).into_iter()` for one
/// argument, `.zip(b)` for each further one, and for three or more a `map` that flattens
/// the nested pairs into one tuple (`|((a, b), c)| (a, b, c)`), as `izip!` does.
fn izip_chain(e: &syn::Expr) -> Option<syn::Expr> {
    let syn::Expr::Macro(m) = e else {
        return None;
    };
    Itertools::of_macro(&m.mac.path)?;
    let args = m
        .mac
        .parse_body_with(syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated)
        .ok()?;
    let span = m.mac.path.span();
    let mut args = args.into_iter();
    let first = args.next()?;
    let mut chain = fill(
        syn::parse_quote_spanned!(span=> (__fwdad_a).into_iter()),
        &[("__fwdad_a", Hole::Expr(&first))],
    );
    let mut count = 1;
    for next in args {
        chain = fill(
            syn::parse_quote_spanned!(span=> __fwdad_it.zip(__fwdad_b)),
            &[
                ("__fwdad_it", Hole::Expr(&chain)),
                ("__fwdad_b", Hole::Expr(&next)),
            ],
        );
        count += 1;
    }
    if count >= 3 {
        let names: Vec<String> = (0..count).map(|k| format!("__fwdad_z{k}")).collect();
        let mut nested = format!("({}, {})", names[0], names[1]);
        for name in &names[2..] {
            nested = format!("({nested}, {name})");
        }
        let flat = names.join(", ");
        let closure: syn::Expr = syn::parse_str(&format!("|{nested}| ({flat})")).ok()?;
        chain = fill(
            syn::parse_quote_spanned!(span=> __fwdad_it.map(__fwdad_f)),
            &[
                ("__fwdad_it", Hole::Expr(&chain)),
                ("__fwdad_f", Hole::Expr(&closure)),
            ],
        );
    }
    Some(chain)
}

/// itertools' `x.iter().tuple_windows()`, whose items are tuples of `k` neighbouring
/// elements' references, as `x.windows(k).map(|w| (&w[0], .., &w[k - 1]))`: the same items
/// in the same order. `k` is the arity of the turbofish's tuple
/// (`tuple_windows::<(_, _)>()`), of the tuple pattern of the closure the next adaptor
/// takes (`.map(|(&a, &b)| b - a)`) or of a `for` loop's pattern, and otherwise 2.
fn tuple_windows_as_windows(e: &mut syn::Expr) {
    let tuple_arity = |p: Option<&syn::Pat>| match p {
        Some(syn::Pat::Tuple(t)) => Some(t.elems.len()),
        _ => None,
    };
    match e {
        // The arity from the closure the adaptor after `tuple_windows` takes.
        syn::Expr::MethodCall(outer) => {
            let from_closure = match outer.args.first() {
                Some(syn::Expr::Closure(c)) => tuple_arity(c.inputs.first()),
                _ => None,
            };
            if from_closure.is_some() {
                rewrite_tuple_windows(&mut outer.receiver, from_closure);
            }
        }
        // `for (a, b) in x.iter().tuple_windows()`: from the loop's pattern.
        syn::Expr::ForLoop(f) => {
            let from_pattern = tuple_arity(Some(&f.pat));
            if from_pattern.is_some() {
                rewrite_tuple_windows(&mut f.expr, from_pattern);
            }
        }
        _ => {}
    }
    // Anywhere else (an argument of `zip` or `izip!`), from its turbofish or pairs; the
    // cases above come first, the visit being from the outside in.
    rewrite_tuple_windows(e, None);
}

/// `receiver` rewritten as in [`tuple_windows_as_windows`] if it is a `tuple_windows()`
/// call on `x.iter()`, with `arity` what the code after it says.
fn rewrite_tuple_windows(receiver: &mut syn::Expr, arity: Option<usize>) {
    let from_closure = arity;
    let syn::Expr::MethodCall(tw) = &mut *receiver else {
        return;
    };
    if Itertools::of_method(&tw.method).is_none() || !tw.args.is_empty() {
        return;
    }
    let from_turbofish = tw.turbofish.as_ref().and_then(|t| match t.args.first() {
        Some(syn::GenericArgument::Type(syn::Type::Tuple(t))) => Some(t.elems.len()),
        _ => None,
    });
    // Pairs otherwise, the common case: where rustc infers another arity from later code
    // (`izip!(a.iter().tuple_windows(), ..)` in a loop over triples), the pairs' type
    // mismatch is its error, never other items.
    let Some(k) = from_turbofish
        .or(from_closure)
        .or(Some(2))
        .filter(|k| *k >= 2)
    else {
        return;
    };
    // `x.iter().map(f).tuple_windows()`: the maps' closures, innermost first.
    let mut maps: Vec<&syn::ExprClosure> = Vec::new();
    let mut at = &*tw.receiver;
    while let Some(c) = pure_map(at) {
        maps.push(c.1);
        at = c.0;
    }
    maps.reverse();
    let syn::Expr::MethodCall(iter) = at else {
        return;
    };
    if Adaptor::from_name(&iter.method.to_string()) != Some(Adaptor::Iter) || !iter.args.is_empty()
    {
        return;
    }
    let span = tw.method.span();
    let closure = match maps.is_empty() {
        true => {
            let refs: Vec<String> = (0..k).map(|i| format!("&__fwdad_w[{i}]")).collect();
            let Ok(closure) =
                syn::parse_str::<syn::Expr>(&format!("|__fwdad_w| ({})", refs.join(", ")))
            else {
                return;
            };
            closure
        }
        false => match mapped_windows(&maps, k) {
            Some(c) => c,
            None => return,
        },
    };
    let iter = match at {
        syn::Expr::MethodCall(iter) => iter,
        _ => return,
    };
    let len = syn::Expr::Lit(syn::ExprLit {
        attrs: Vec::new(),
        lit: syn::Lit::Int(syn::LitInt::new(&k.to_string(), span)),
    });
    *receiver = fill(
        syn::parse_quote_spanned!(span=> __fwdad_x.windows(__fwdad_k).map(__fwdad_f)),
        &[
            ("__fwdad_x", Hole::Expr(&iter.receiver)),
            ("__fwdad_k", Hole::Expr(&len)),
            ("__fwdad_f", Hole::Expr(&closure)),
        ],
    );
}

/// `inner.map(|v| ..)` with a closure that assigns nothing (it may be called again on the
/// same item with the same result): `inner` and the closure.
fn pure_map(e: &syn::Expr) -> Option<(&syn::Expr, &syn::ExprClosure)> {
    use syn::visit::Visit;
    struct Writes(bool, Vec<syn::Ident>);
    impl<'a> Visit<'a> for Writes {
        fn visit_expr_assign(&mut self, _: &'a syn::ExprAssign) {
            self.0 = true;
        }
        fn visit_expr_binary(&mut self, b: &'a syn::ExprBinary) {
            use syn::BinOp::*;
            if matches!(
                b.op,
                AddAssign(_)
                    | SubAssign(_)
                    | MulAssign(_)
                    | DivAssign(_)
                    | RemAssign(_)
                    | BitXorAssign(_)
                    | BitAndAssign(_)
                    | BitOrAssign(_)
                    | ShlAssign(_)
                    | ShrAssign(_)
            ) {
                self.0 = true;
            }
            syn::visit::visit_expr_binary(self, b);
        }
        fn visit_expr_reference(&mut self, r: &'a syn::ExprReference) {
            self.0 |= r.mutability.is_some();
            syn::visit::visit_expr_reference(self, r);
        }
        fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
            // A method of a capture may write it (`rng.next()`); one of the item
            // (`v.sin()`) or of a value computed in the closure cannot.
            let mut r = &*m.receiver;
            while let syn::Expr::Paren(p) = r {
                r = &p.expr;
            }
            if let syn::Expr::Path(p) = r {
                if !p
                    .path
                    .get_ident()
                    .is_some_and(|i| self.1.iter().any(|n| n == i))
                {
                    self.0 = true;
                }
            }
            syn::visit::visit_expr_method_call(self, m);
        }
        fn visit_macro(&mut self, _: &'a syn::Macro) {
            self.0 = true;
        }
    }
    let syn::Expr::MethodCall(m) = e else {
        return None;
    };
    if Adaptor::from_name(&m.method.to_string()) != Some(Adaptor::Map) || m.args.len() != 1 {
        return None;
    }
    let syn::Expr::Closure(c) = &m.args[0] else {
        return None;
    };
    if c.inputs.len() != 1 || c.asyncness.is_some() {
        return None;
    }
    let mut params = super::PatIdents::default();
    for p in &c.inputs {
        params.visit_pat(p);
    }
    let mut w = Writes(false, params.0.into_iter().map(|p| p.ident).collect());
    w.visit_expr(&c.body);
    (!w.0).then_some((&*m.receiver, c))
}

/// `|w| { let f0 = ..; let f1 = ..; (f1(f0(&w[0])), .., f1(f0(&w[k - 1]))) }`: the items
/// `tuple_windows` gives after the maps `f0`, `f1`, .. (each item mapped once per window
/// it is in: the closures write nothing, so the values are the same).
fn mapped_windows(maps: &[&syn::ExprClosure], k: usize) -> Option<syn::Expr> {
    let names: Vec<String> = (0..maps.len()).map(|i| format!("__fwdad_f{i}")).collect();
    let item = |i: usize| {
        let mut e = format!("&__fwdad_w[{i}]");
        for n in &names {
            e = format!("{n}({e})");
        }
        e
    };
    let items: Vec<String> = (0..k).map(item).collect();
    let lets: Vec<String> = names
        .iter()
        .map(|n| format!("let {n} = __fwdad_c_{n};"))
        .collect();
    let template: syn::Expr = syn::parse_str(&format!(
        "|__fwdad_w| {{ {} ({}) }}",
        lets.join(" "),
        items.join(", ")
    ))
    .ok()?;
    let closures: Vec<syn::Expr> = maps
        .iter()
        .map(|c| syn::Expr::Closure((*c).clone()))
        .collect();
    let holes: Vec<(String, &syn::Expr)> = names
        .iter()
        .zip(&closures)
        .map(|(n, c)| (format!("__fwdad_c_{n}"), c))
        .collect();
    let holes: Vec<(&str, Hole<'_>)> = holes
        .iter()
        .map(|(n, c)| (n.as_str(), Hole::Expr(c)))
        .collect();
    Some(fill(template, &holes))
}

/// The call of `successors` or `from_fn` that `e` is, or that `e` maps item by item
/// (`gen.map(f)`, `gen.map(f).map(g)`): a `take` after it ends its range.
fn generator_under_maps(e: &mut syn::Expr) -> Option<&mut syn::Expr> {
    let is_generator = match &*e {
        syn::Expr::Call(c) => matches!(&*c.func, syn::Expr::Path(p) if matches!(
            IterFn::of_path(&p.path),
            Some(IterFn::Successors | IterFn::FromFn)
        )),
        _ => false,
    };
    if is_generator {
        return Some(e);
    }
    match e {
        syn::Expr::MethodCall(m)
            if Adaptor::from_name(&m.method.to_string()) == Some(Adaptor::Map)
                && m.args.len() == 1 =>
        {
            generator_under_maps(&mut m.receiver)
        }
        syn::Expr::Paren(p) => generator_under_maps(&mut p.expr),
        _ => None,
    }
}

impl Chains {
    /// The chain the call `c` of a `std::iter` constructor is, if it is one; `count` is
    /// the argument of a `take` that follows a generator (`successors`, `from_fn`).
    fn chain(&mut self, c: &syn::ExprCall, count: Option<&syn::Expr>) -> Option<syn::Expr> {
        let syn::Expr::Path(p) = &*c.func else {
            return None;
        };
        let f = IterFn::of_path(&p.path).filter(|f| f.arity() == c.args.len())?;
        if p.qself.is_some() {
            return None;
        }
        let generator = matches!(f, IterFn::Successors | IterFn::FromFn);
        if count.is_some() && !generator {
            return None;
        }
        let span = c.func.span();
        let range: syn::Expr = match count {
            Some(n) => fill(
                syn::parse_quote_spanned!(span=> (0usize..__fwdad_n)),
                &[("__fwdad_n", Hole::Expr(n))],
            ),
            None => syn::parse_quote_spanned!(span=> (0usize..)),
        };
        let template: syn::Expr = match f {
            IterFn::Zip => syn::parse_quote_spanned!(span=> (__fwdad_a).into_iter().zip(__fwdad_b)),
            IterFn::Once => syn::parse_quote_spanned!(span=> [__fwdad_a].into_iter()),
            IterFn::Repeat => syn::parse_quote_spanned!(span=> [__fwdad_a].into_iter().cycle()),
            IterFn::RepeatN => {
                syn::parse_quote_spanned!(span=> [__fwdad_a].into_iter().cycle().take(__fwdad_b))
            }
            // A function by name (or a closure bound with `let`) is called as it is; a
            // closure written in place is bound with `let` where it is called, so that
            // its `return` and `?` leave it; anything else is left for the error.
            IterFn::Successors if matches!(c.args[1], syn::Expr::Path(_)) => {
                syn::parse_quote_spanned!(span=> __fwdad_r.scan(__fwdad_a, |__fwdad_next, __fwdad_generator_index| {
                    let __fwdad_item = *__fwdad_next;
                    if let ::core::option::Option::Some(__fwdad_v) = __fwdad_item {
                        *__fwdad_next = __fwdad_b(&__fwdad_v);
                    }
                    __fwdad_item
                }))
            }
            IterFn::Successors if matches!(c.args[1], syn::Expr::Closure(_)) => {
                syn::parse_quote_spanned!(span=> __fwdad_r.scan(__fwdad_a, |__fwdad_next, __fwdad_generator_index| {
                    let __fwdad_item = *__fwdad_next;
                    if let ::core::option::Option::Some(__fwdad_v) = __fwdad_item {
                        let __fwdad_succ = __fwdad_b;
                        *__fwdad_next = __fwdad_succ(&__fwdad_v);
                    }
                    __fwdad_item
                }))
            }
            IterFn::Successors => return None,
            // The closure keeps its body (and `move`), taking the range's index unused.
            IterFn::FromFn => match &c.args[0] {
                syn::Expr::Closure(g) if g.inputs.is_empty() => {
                    let mut g = g.clone();
                    g.inputs
                        .push(syn::parse_quote_spanned!(span=> __fwdad_generator_index));
                    let g = syn::Expr::Closure(g);
                    let template = syn::parse_quote_spanned!(span=> __fwdad_r.map_while(__fwdad_a));
                    return Some(fill(
                        template,
                        &[
                            ("__fwdad_r", Hole::Expr(&range)),
                            ("__fwdad_a", Hole::Expr(&g)),
                        ],
                    ));
                }
                syn::Expr::Path(_) => {
                    syn::parse_quote_spanned!(span=> __fwdad_r.map_while(|__fwdad_generator_index| __fwdad_a()))
                }
                _ => return None,
            },
        };
        self.bare_zip |= p.path.segments.len() == 1;
        let mut holes = vec![
            ("__fwdad_r", Hole::Expr(&range)),
            ("__fwdad_a", Hole::Expr(&c.args[0])),
        ];
        if let Some(b) = c.args.get(1) {
            holes.push(("__fwdad_b", Hole::Expr(b)));
        }
        Some(fill(template, &holes))
    }
}
