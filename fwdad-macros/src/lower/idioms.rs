//! `std` idioms written out as the Rust that lowering already handles: `sort_by` as a
//! stable merge sort of indices, `last`/`find`/`partition`/`try_fold` of an iterator
//! chain as loops, `extend` of a chain as a `push` loop, `chunks_exact(n)`'s `remainder()` as a sub-slice,
//! `slice.try_into()` of a written array type as an array literal, and destructuring
//! assignment of arrays as element assignments; the combinators of `Option` and `Result`
//! are in `combinators`.
//!
//! Each rewrite is a template ([`fill`]) whose holes take the user's syntax trees as they
//! are, so spans stay the user's. A rewrite applies only where its receiver is of the
//! kind it assumes (an iterator chain for `last`, no array or iterator for `map`, a place
//! for `sort_by`); elsewhere the call is lowered as before and meets the registry's
//! message.
//!
//! Before / after (`v.sort_by(|a, b| a.total_cmp(b))`):
//! ```text
//! { let cmp = |a, b| a.total_cmp(b); let n = v.len(); let mut idx = (0..n).collect();
//!   /* bottom-up merge of index runs, comparing cmp(&v[idx[j]], &v[idx[i]]) */
//!   let old = v.to_vec(); for k in 0..n { v[k] = old[idx[k]].clone(); } }
//! ```
//! The comparator reads the elements (on primals, as every comparison does), the indices
//! are plain `usize`, and the gather clones each primal with its tangent (elements need
//! not be `Copy`: `(f64, Vec<f64>)` pairs sort too). A stable sort
//! has one result, so the primal is `std`'s `sort_by`'s bit for bit; for
//! `sort_unstable_by` it differs from `std`'s only in the order of elements that compare
//! equal (`0.0` and `-0.0` under `partial_cmp`).

use super::place::strip;
use super::Lowerer;
use crate::callee::{Adaptor, Rewrite, StdMethod, StdType};
use crate::splice::{fill, Hole};
use crate::types::TypeHint;
use syn::spanned::Spanned;

/// Whether `e` may be an iterator chain (a method of [`Adaptor`], a range, or a call by
/// path such as `std::iter::zip(a, b)`), as opposed to an `Option`, a `Result`, a slice or
/// a value of the user's. An adaptor `Option` and `Result` have too (`map`, `filter`,
/// `copied`, ...) is an iterator's only on an iterator: `r.map(f).unwrap_or_else(g)` is
/// no chain.
pub(super) fn is_iterator(e: &syn::Expr) -> bool {
    match strip(e) {
        syn::Expr::MethodCall(m) => match Adaptor::from_name(&m.method.to_string()) {
            Some(
                Adaptor::Map
                | Adaptor::Filter
                | Adaptor::Copied
                | Adaptor::Cloned
                | Adaptor::Zip
                | Adaptor::Inspect
                | Adaptor::Flatten,
            ) => is_iterator(&m.receiver),
            Some(_) => true,
            None => false,
        },
        syn::Expr::Range(_) => true,
        // `std::iter::zip(a, b)`, `repeat(x)`, ...; any other call (a function of the user's,
        // which can return an `Option` but no iterator a derived body could take) is not.
        syn::Expr::Call(c) => match strip(&c.func) {
            syn::Expr::Path(p) => p.path.segments.last().is_some_and(|s| {
                matches!(
                    s.ident.to_string().as_str(),
                    "zip"
                        | "repeat"
                        | "repeat_n"
                        | "repeat_with"
                        | "once"
                        | "once_with"
                        | "successors"
                        | "from_fn"
                        | "empty"
                )
            }),
            _ => true,
        },
        _ => false,
    }
}

/// Whether a written type is an `Option` or a `Result` (behind references), by its name
/// (`Option<f64>`, `std::result::Result<f64, E>`, an alias named `Result`).
fn is_fallible_type(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Reference(r) => is_fallible_type(&r.elem),
        syn::Type::Paren(p) => is_fallible_type(&p.elem),
        syn::Type::Path(p) => matches!(
            StdType::of_path(&p.path),
            Some(StdType::Option | StdType::Result)
        ),
        _ => false,
    }
}

/// Whether `ty` is a `Result` (or a reference to one).
fn is_result_type(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Reference(r) => is_result_type(&r.elem),
        syn::Type::Paren(p) => is_result_type(&p.elem),
        syn::Type::Path(p) => matches!(StdType::of_path(&p.path), Some(StdType::Result)),
        _ => false,
    }
}

/// Whether `e` names a place without side effects (`v`, `self.v`, `s.a.b`), which a
/// template may read more than once.
fn is_pure_place(e: &syn::Expr) -> bool {
    match strip(e) {
        syn::Expr::Path(p) => p.qself.is_none() && p.path.get_ident().is_some(),
        syn::Expr::Field(f) => is_pure_place(&f.base),
        _ => false,
    }
}

/// `(&mut v[range])` (a sub-slice receiver as `autoref` borrows it) of a place `v`: the
/// place and the range.
fn sorted_sub_slice(e: &syn::Expr) -> Option<(&syn::Expr, &syn::ExprRange)> {
    let syn::Expr::Reference(r) = strip(e) else {
        return None;
    };
    r.mutability?;
    let ix = super::place::sub_slice(&r.expr)?;
    let syn::Expr::Range(range) = strip(&ix.index) else {
        return None;
    };
    is_pure_place(&ix.expr).then_some((&*ix.expr, range))
}

/// Whether `e` may be evaluated more than once with the same result: a place or a literal.
/// Why `sort_unstable_by` with a comparator on part of each element is refused.
const SORT_UNSTABLE_BY_KEY: &str = "`#[derive_frule]` does not support `sort_unstable_by` with a comparator on part of each element (a key such as `a.0`, `a.t` or `f(a)`): `std` orders elements with equal keys its own way, which the rule cannot reproduce, so the sorted order and your function's result could differ; write `sort_by` (a stable sort: elements with equal keys keep their order, which the rule reproduces exactly). A comparator of whole elements (`|a, b| a.partial_cmp(b).unwrap()`, `a.total_cmp(b)`) is supported";

/// Whether `cmp` (`sort_unstable_by`'s comparator) orders whole elements: a function
/// by path (`f64::total_cmp`), or a closure `|a, b| a.partial_cmp(b)` (or `total_cmp`,
/// either order, through `*`/`&`, followed by `unwrap`, `expect`, `unwrap_or` or
/// `reverse`). Two elements it calls equal are then equal values (but `0.0` and `-0.0`
/// under `partial_cmp`), so a stable sort leaves the order an unstable one leaves.
fn compares_whole_elements(cmp: &syn::Expr) -> bool {
    fn name(e: &syn::Expr) -> Option<String> {
        match strip(e) {
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => name(&u.expr),
            syn::Expr::Reference(r) => name(&r.expr),
            syn::Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
            _ => None,
        }
    }
    fn param(p: &syn::Pat) -> Option<String> {
        match p {
            syn::Pat::Ident(i) => Some(i.ident.to_string()),
            syn::Pat::Reference(r) => param(&r.pat),
            syn::Pat::Type(t) => param(&t.pat),
            _ => None,
        }
    }
    let c = match strip(cmp) {
        syn::Expr::Path(_) => return true,
        syn::Expr::Closure(c) => c,
        _ => return false,
    };
    let params: Vec<Option<String>> = c.inputs.iter().map(param).collect();
    let [Some(a), Some(b)] = &params[..] else {
        return false;
    };
    let mut body = strip(&c.body);
    loop {
        match body {
            syn::Expr::Block(blk) if blk.block.stmts.len() == 1 => match &blk.block.stmts[0] {
                syn::Stmt::Expr(e, None) => body = strip(e),
                _ => return false,
            },
            syn::Expr::MethodCall(m) => match StdMethod::from_name(&m.method.to_string()) {
                Some(
                    StdMethod::Unwrap
                    | StdMethod::Expect
                    | StdMethod::UnwrapOr
                    | StdMethod::Reverse,
                ) => body = strip(&m.receiver),
                Some(StdMethod::PartialCmp | StdMethod::TotalCmp) if m.args.len() == 1 => {
                    let (x, y) = (name(&m.receiver), name(&m.args[0]));
                    return matches!((x, y), (Some(x), Some(y))
                        if (x == *a && y == *b) || (x == *b && y == *a));
                }
                _ => return false,
            },
            _ => return false,
        }
    }
}

fn is_pure(e: &syn::Expr) -> bool {
    matches!(strip(e), syn::Expr::Lit(_)) || is_pure_place(e)
}

/// If `arg` is a function path, removes the template's top-level `let local = ..;` and
/// returns the hole calling the path by name in its place.
pub(super) fn call_by_name<'a>(
    template: &mut syn::Expr,
    local: &'a str,
    arg: &'a syn::Expr,
) -> Option<(&'a str, Hole<'a>)> {
    if !matches!(strip(arg), syn::Expr::Path(_)) {
        return None;
    }
    let syn::Expr::Block(b) = template else {
        return None;
    };
    let before = b.block.stmts.len();
    b.block.stmts.retain(|s| {
        !matches!(s, syn::Stmt::Local(l)
            if matches!(&l.pat, syn::Pat::Ident(p) if p.ident == local))
    });
    (b.block.stmts.len() < before).then_some((local, Hole::Expr(arg)))
}

/// The literal `k` (an index), as an expression.
fn index_lit(k: usize, span: proc_macro2::Span) -> syn::Expr {
    syn::Expr::Lit(syn::ExprLit {
        attrs: vec![],
        lit: syn::Lit::Int(syn::LitInt::new(&k.to_string(), span)),
    })
}

/// Whether the closure `f` returns an `Option` or a `Result`, as the constructors its body
/// names tell (`Some`/`None` or `Ok`/`Err`, not both); `None` when they do not tell.
fn fallible_kind(f: &syn::Expr) -> Option<StdType> {
    struct Variants(Vec<StdType>);
    impl<'a> syn::visit::Visit<'a> for Variants {
        fn visit_path(&mut self, p: &'a syn::Path) {
            self.0.extend(crate::callee::variant_type(p));
            syn::visit::visit_path(self, p);
        }
        // A nested closure's constructors are its own.
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
    }
    let syn::Expr::Closure(c) = strip(f) else {
        return None;
    };
    let mut found = Variants(Vec::new());
    syn::visit::Visit::visit_expr(&mut found, &c.body);
    let first = *found.0.first()?;
    found.0.iter().all(|t| *t == first).then_some(first)
}

impl Lowerer<'_> {
    /// Whether `e` is a local or parameter whose type hint is an array or slice (or a
    /// reference to one), an array literal, or the `map` of one (`q.map(f64::cos)`, also
    /// where a `let` used once was folded into its use): `p.map(..)` there is
    /// `[T; N]::map`, not `Option::map`.
    pub(super) fn is_sequence(&self, e: &syn::Expr) -> bool {
        let p = match strip(e) {
            syn::Expr::Array(_) | syn::Expr::Repeat(_) => return true,
            syn::Expr::MethodCall(m) => {
                return Adaptor::from_name(&m.method.to_string()) == Some(Adaptor::Map)
                    && m.args.len() == 1
                    && self.is_sequence(&m.receiver);
            }
            syn::Expr::Path(p) => p,
            _ => return false,
        };
        let Some(v) = p
            .path
            .get_ident()
            .and_then(|id| self.lookup(&id.to_string()))
        else {
            return false;
        };
        match &self.func.values[v].ty {
            TypeHint::Seq(_) => true,
            TypeHint::Ref(inner) => matches!(**inner, TypeHint::Seq(_)),
            _ => false,
        }
    }

    /// Whether `e` may be an `Option` or a `Result` for their combinators' rewrites: no
    /// iterator chain, and no local or parameter of array or slice type, or whose written
    /// type is another (a library's, whose `map` meets the message for closures passed to
    /// methods, or the user's, whose own `map` it is).
    pub(super) fn may_be_fallible(&self, e: &syn::Expr) -> bool {
        let other_type = self.written_type(e).is_some_and(|ty| !is_fallible_type(ty));
        !is_iterator(e)
            && !self.is_sequence(e)
            && !other_type
            && array_field_type(e).is_none()
            && self.array_call_result(e).is_none()
    }

    /// The written type of the local or parameter `e` names, if any.
    pub(super) fn written_type(&self, e: &syn::Expr) -> Option<&syn::Type> {
        let syn::Expr::Path(p) = strip(e) else {
            return None;
        };
        let v = self.lookup(&p.path.get_ident()?.to_string())?;
        match self.func.values[v].def {
            crate::ir::ValueDef::Param(i) => Some(&self.func.params[i].ty),
            _ => self.func.annotations.get(&v),
        }
    }

    /// Whether `e` names a local or parameter whose written type is an `Option` or a
    /// `Result` (`let mut pending: Option<f64> = None;`).
    fn written_fallible(&self, e: &syn::Expr) -> bool {
        self.written_type(e).is_some_and(is_fallible_type)
    }

    /// Whether `e` is surely an `Option` or a `Result` rather than an iterator: a call's
    /// result (no function a derived body calls returns an iterator) or a local typed one.
    pub(super) fn is_option_source(&self, e: &syn::Expr) -> bool {
        matches!(strip(e), syn::Expr::Call(_)) || self.written_fallible(e)
    }

    /// Whether `o.as_mut()` / `o.as_ref()` is `Option`'s (or `Result`'s, by its written
    /// type): not of a sequence, an iterator, or a library's or the user's type, whose
    /// own `as_mut` it would be.
    fn option_view(&self, recv: &syn::Expr) -> bool {
        self.may_be_fallible(recv)
            && !self.is_written_lib_receiver(recv)
            && !self.is_written_user_receiver(recv)
    }

    /// Whether `e` is a place holding an `Option` for `take`, `replace` and
    /// `get_or_insert_with`: a local whose written type is one, or a field (a struct's
    /// cache, `self.cache`), whose type the macro does not see but whose methods of these
    /// names and arities only `Option` has among the types a derived body reads.
    fn option_place(&self, e: &syn::Expr) -> bool {
        is_pure_place(e)
            && (self.written_fallible(e)
                || matches!(strip(e), syn::Expr::Field(_)) && self.may_be_fallible(e))
    }

    /// Whether `e` is a local bound without a written type (`let mut c = None;`) that
    /// nothing shows to be a sequence, an iterator, a library's or the user's value:
    /// `get_or_insert_with`, `get_or_insert`, `take()` and `replace(v)` of it are
    /// `Option`'s, the only type a derived body reads with methods of those names.
    fn untyped_option_local(&self, e: &syn::Expr) -> bool {
        let syn::Expr::Path(p) = strip(e) else {
            return false;
        };
        let Some(v) = p
            .path
            .get_ident()
            .and_then(|id| self.lookup(&id.to_string()))
        else {
            return false;
        };
        !matches!(self.func.values[v].def, crate::ir::ValueDef::Param(_))
            && !self.func.annotations.contains_key(&v)
            && !self.user.contains_key(&v)
            && !self.is_written_lib(v)
            && self.may_be_fallible(e)
    }

    /// The rewrite of a method call written with one of the idioms, or `None`.
    pub(crate) fn desugar_idiom(&mut self, m: &syn::ExprMethodCall) -> Option<syn::Expr> {
        if let Some(e) = desugar_entry_closures(m, false) {
            return Some(e);
        }
        let (recv, span) = (&*m.receiver, m.method.span());
        let args: Vec<&syn::Expr> = m.args.iter().collect();
        let rewrite = Rewrite::from_name(&m.method.to_string())?;
        if let Some(e) = self.desugar_combinator(m, rewrite) {
            return Some(e);
        }
        if let (Rewrite::SortUnstableBy, [cmp]) = (rewrite, &args[..]) {
            if !compares_whole_elements(cmp) {
                self.diag.error(span, SORT_UNSTABLE_BY_KEY);
            }
        }
        let template: syn::Expr = match (rewrite, &args[..]) {
            // Also of a local bound without a type (`let mut prev = Some(x0);`).
            (Rewrite::OptionTake, [])
                if self.option_place(recv) || self.untyped_option_local(recv) =>
            {
                syn::parse_quote_spanned!(span=>
                    ::core::mem::replace(&mut __fwdad_recv, ::core::option::Option::None)
                )
            }
            (Rewrite::OptionReplace, [_])
                if self.option_place(recv) || self.untyped_option_local(recv) =>
            {
                syn::parse_quote_spanned!(span=>
                    ::core::mem::replace(&mut __fwdad_recv, ::core::option::Option::Some(__fwdad_arg0))
                )
            }
            // The closure runs only when the place is empty, as `std` runs it.
            (Rewrite::GetOrInsertWith, [_])
                if self.option_place(recv) || self.untyped_option_local(recv) =>
            {
                syn::parse_quote_spanned!(span=> {
                    if let ::core::option::Option::None = __fwdad_recv {
                        let __fwdad_f = __fwdad_arg0;
                        __fwdad_recv = ::core::option::Option::Some(__fwdad_f());
                    }
                    match &mut __fwdad_recv {
                        ::core::option::Option::Some(__fwdad_v) => __fwdad_v,
                        ::core::option::Option::None => ::core::unreachable!(),
                    }
                })
            }
            (Rewrite::GetOrInsert, [_])
                if self.option_place(recv) || self.untyped_option_local(recv) =>
            {
                syn::parse_quote_spanned!(span=> {
                    let __fwdad_value = __fwdad_arg0;
                    if let ::core::option::Option::None = __fwdad_recv {
                        __fwdad_recv = ::core::option::Option::Some(__fwdad_value);
                    }
                    match &mut __fwdad_recv {
                        ::core::option::Option::Some(__fwdad_v) => __fwdad_v,
                        ::core::option::Option::None => ::core::unreachable!(),
                    }
                })
            }
            (Rewrite::CloneFrom, [_]) if is_pure_place(recv) => {
                syn::parse_quote_spanned!(span=> __fwdad_recv = ::core::clone::Clone::clone(__fwdad_arg0))
            }
            (Rewrite::OptionFlatten, []) if !is_iterator(recv) && self.option_view(recv) => {
                syn::parse_quote_spanned!(span=>
                    match __fwdad_recv {
                        ::core::option::Option::Some(__fwdad_inner) => __fwdad_inner,
                        ::core::option::Option::None => ::core::option::Option::None,
                    }
                )
            }
            (Rewrite::OptionAsMut | Rewrite::OptionAsRef, []) if self.option_view(recv) => {
                let result = self.written_type(recv).is_some_and(is_result_type);
                match (rewrite, result) {
                    (Rewrite::OptionAsMut, false) => syn::parse_quote_spanned!(span=>
                        match &mut __fwdad_recv {
                            ::core::option::Option::Some(__fwdad_v) => ::core::option::Option::Some(__fwdad_v),
                            ::core::option::Option::None => ::core::option::Option::None,
                        }
                    ),
                    (Rewrite::OptionAsMut, true) => syn::parse_quote_spanned!(span=>
                        match &mut __fwdad_recv {
                            ::core::result::Result::Ok(__fwdad_v) => ::core::result::Result::Ok(__fwdad_v),
                            ::core::result::Result::Err(__fwdad_e) => ::core::result::Result::Err(__fwdad_e),
                        }
                    ),
                    (_, false) => syn::parse_quote_spanned!(span=>
                        match &__fwdad_recv {
                            ::core::option::Option::Some(__fwdad_v) => ::core::option::Option::Some(__fwdad_v),
                            ::core::option::Option::None => ::core::option::Option::None,
                        }
                    ),
                    (_, true) => syn::parse_quote_spanned!(span=>
                        match &__fwdad_recv {
                            ::core::result::Result::Ok(__fwdad_v) => ::core::result::Result::Ok(__fwdad_v),
                            ::core::result::Result::Err(__fwdad_e) => ::core::result::Result::Err(__fwdad_e),
                        }
                    ),
                }
            }
            (Rewrite::Last, []) if is_iterator(recv) => syn::parse_quote_spanned!(span=> {
                let mut __fwdad_last = ::core::option::Option::None;
                for __fwdad_item in __fwdad_recv {
                    __fwdad_last = ::core::option::Option::Some(__fwdad_item);
                }
                __fwdad_last
            }),
            // `chain.nth(k)` (other than `x.iter().nth(k)`, which is `x.get(k)`) and
            // `chain.next()`: the loop that skips `k` items and takes the next one.
            (Rewrite::Nth, [_]) if is_iterator(recv) => syn::parse_quote_spanned!(span=> {
                let mut __fwdad_skip: usize = __fwdad_arg0;
                let mut __fwdad_found = ::core::option::Option::None;
                for __fwdad_item in __fwdad_recv {
                    if __fwdad_skip == 0 {
                        __fwdad_found = ::core::option::Option::Some(__fwdad_item);
                        break;
                    }
                    __fwdad_skip -= 1;
                }
                __fwdad_found
            }),
            (Rewrite::Next, []) if is_iterator(recv) => syn::parse_quote_spanned!(span=> {
                let mut __fwdad_found = ::core::option::Option::None;
                for __fwdad_item in __fwdad_recv {
                    __fwdad_found = ::core::option::Option::Some(__fwdad_item);
                    break;
                }
                __fwdad_found
            }),
            (Rewrite::Unzip, []) if is_iterator(recv) => syn::parse_quote_spanned!(span=> {
                let mut __fwdad_left = ::std::vec::Vec::new();
                let mut __fwdad_right = ::std::vec::Vec::new();
                for (__fwdad_l, __fwdad_r) in __fwdad_recv {
                    __fwdad_left.push(__fwdad_l);
                    __fwdad_right.push(__fwdad_r);
                }
                (__fwdad_left, __fwdad_right)
            }),
            (Rewrite::Partition, [_]) if is_iterator(recv) => {
                syn::parse_quote_spanned!(span=> {
                    let __fwdad_f = __fwdad_fn;
                    let mut __fwdad_yes = ::std::vec::Vec::new();
                    let mut __fwdad_no = ::std::vec::Vec::new();
                    for __fwdad_item in __fwdad_recv {
                        if __fwdad_f(&__fwdad_item) {
                            __fwdad_yes.push(__fwdad_item.clone());
                        } else {
                            __fwdad_no.push(__fwdad_item.clone());
                        }
                    }
                    (__fwdad_yes, __fwdad_no)
                })
            }
            (Rewrite::TryFold, [_, f]) if is_iterator(recv) => match fallible_kind(f) {
                Some(StdType::Option) => syn::parse_quote_spanned!(span=> {
                    let __fwdad_f = __fwdad_fn;
                    let mut __fwdad_acc = __fwdad_arg0;
                    let mut __fwdad_stopped = false;
                    for __fwdad_item in __fwdad_recv {
                        match __fwdad_f(__fwdad_acc, __fwdad_item) {
                            ::core::option::Option::Some(__fwdad_next) => __fwdad_acc = __fwdad_next,
                            ::core::option::Option::None => {
                                __fwdad_stopped = true;
                                break;
                            }
                        }
                    }
                    if __fwdad_stopped {
                        ::core::option::Option::None
                    } else {
                        ::core::option::Option::Some(__fwdad_acc)
                    }
                }),
                Some(StdType::Result) => syn::parse_quote_spanned!(span=> {
                    let __fwdad_f = __fwdad_fn;
                    let mut __fwdad_acc = __fwdad_arg0;
                    let mut __fwdad_err = ::core::option::Option::None;
                    for __fwdad_item in __fwdad_recv {
                        match __fwdad_f(__fwdad_acc, __fwdad_item) {
                            ::core::result::Result::Ok(__fwdad_next) => __fwdad_acc = __fwdad_next,
                            ::core::result::Result::Err(__fwdad_e) => {
                                __fwdad_err = ::core::option::Option::Some(__fwdad_e);
                                break;
                            }
                        }
                    }
                    match __fwdad_err {
                        ::core::option::Option::Some(__fwdad_e) => ::core::result::Result::Err(__fwdad_e),
                        ::core::option::Option::None => ::core::result::Result::Ok(__fwdad_acc),
                    }
                }),
                _ => return None,
            },
            (Rewrite::Find, [p]) if is_iterator(recv) => {
                syn::parse_quote_spanned!(span=> {
                    let __fwdad_f = __fwdad_fn;
                    let mut __fwdad_found = ::core::option::Option::None;
                    for __fwdad_item in __fwdad_recv {
                        if __fwdad_f(&__fwdad_item) {
                            __fwdad_found = ::core::option::Option::Some(__fwdad_item);
                            break;
                        }
                    }
                    __fwdad_found
                })
            }
            (Rewrite::FindMap, [_]) if is_iterator(recv) => {
                syn::parse_quote_spanned!(span=> {
                    let __fwdad_f = __fwdad_fn;
                    let mut __fwdad_found = ::core::option::Option::None;
                    for __fwdad_item in __fwdad_recv {
                        if let ::core::option::Option::Some(__fwdad_v) = __fwdad_f(__fwdad_item) {
                            __fwdad_found = ::core::option::Option::Some(__fwdad_v);
                            break;
                        }
                    }
                    __fwdad_found
                })
            }
            (Rewrite::UnwrapOrDefault, []) if self.may_be_fallible(recv) => {
                syn::parse_quote_spanned!(span=>
                    __fwdad_recv.unwrap_or_else(::core::default::Default::default)
                )
            }
            (Rewrite::Extend, [it]) if is_iterator(it) && is_pure_place(recv) => {
                syn::parse_quote_spanned!(span=> {
                    for __fwdad_item in __fwdad_arg0 {
                        __fwdad_recv.push(__fwdad_item);
                    }
                })
            }
            // `v.extend(w)`, `v.extend(&w)`, `v.extend(layer(x))` of a collection: its
            // items pushed by value (a borrowed item cloned, as `Extend<&T>` copies it).
            // Not glam's `p.extend(1.0)` (a `Vec4` from a `Vec3`), nor a type's own `extend`.
            (Rewrite::Extend, [arg])
                if is_pure_place(recv)
                    && !matches!(strip(arg), syn::Expr::Lit(_))
                    && !self.is_written_lib_receiver(recv)
                    && !self.is_written_user_receiver(recv) =>
            {
                syn::parse_quote_spanned!(span=> {
                    for __fwdad_item in __fwdad_arg0 {
                        __fwdad_recv.push(__fwdad_item.clone());
                    }
                })
            }
            (Rewrite::Remainder, []) => {
                let syn::Expr::MethodCall(c) = strip(recv) else {
                    return None;
                };
                let [n] = c.args.iter().collect::<Vec<_>>()[..] else {
                    return None;
                };
                let chunks = Adaptor::from_name(&c.method.to_string());
                if chunks != Some(Adaptor::ChunksExact) || !is_pure(&c.receiver) || !is_pure(n) {
                    return None;
                }
                let template = syn::parse_quote_spanned!(span=>
                    &__fwdad_s[__fwdad_s.len() - __fwdad_s.len() % __fwdad_n..]
                );
                return Some(fill(
                    template,
                    &[
                        ("__fwdad_s", Hole::Expr(&c.receiver)),
                        ("__fwdad_n", Hole::Expr(n)),
                    ],
                ));
            }
            (Rewrite::Append, [other]) if is_pure_place(recv) => {
                // `w.append(&mut v)`: `v`'s elements moved to the end of `w`, `v` left empty.
                let syn::Expr::Reference(r) = strip(other) else {
                    return None;
                };
                if r.mutability.is_none() || !is_pure_place(&r.expr) {
                    return None;
                }
                if !self.is_sequence(recv) && !self.is_sequence(&r.expr) {
                    return None;
                }
                let template = syn::parse_quote_spanned!(span=> {
                    __fwdad_recv.extend_from_slice(&__fwdad_v);
                    __fwdad_v.clear();
                });
                return Some(fill(
                    template,
                    &[
                        ("__fwdad_recv", Hole::Expr(recv)),
                        ("__fwdad_v", Hole::Expr(&r.expr)),
                    ],
                ));
            }
            // Of a `Vec` local, by a closure of one parameter (a map's `retain` takes two).
            (Rewrite::Retain, [syn::Expr::Closure(c)])
                if c.inputs.len() == 1 && is_pure_place(recv) && self.is_sequence(recv) =>
            {
                syn::parse_quote_spanned!(span=> {
                    let __fwdad_f = __fwdad_arg0;
                    let __fwdad_all = ::core::clone::Clone::clone(&__fwdad_recv);
                    __fwdad_recv.clear();
                    for __fwdad_x in __fwdad_all.iter() {
                        if __fwdad_f(__fwdad_x) {
                            __fwdad_recv.push(::core::clone::Clone::clone(__fwdad_x));
                        }
                    }
                })
            }
            (Rewrite::DedupBy, [syn::Expr::Closure(c)])
                if c.inputs.len() == 2 && is_pure_place(recv) && self.is_sequence(recv) =>
            {
                syn::parse_quote_spanned!(span=> {
                    let mut __fwdad_f = __fwdad_arg0;
                    let __fwdad_all = ::core::clone::Clone::clone(&__fwdad_recv);
                    __fwdad_recv.clear();
                    for __fwdad_x in __fwdad_all.iter() {
                        let mut __fwdad_a = ::core::clone::Clone::clone(__fwdad_x);
                        let __fwdad_k = __fwdad_recv.len();
                        if __fwdad_k == 0 || !__fwdad_f(&mut __fwdad_a, &mut __fwdad_recv[__fwdad_k - 1]) {
                            __fwdad_recv.push(__fwdad_a);
                        }
                    }
                })
            }
            (Rewrite::SortBy | Rewrite::SortUnstableBy, [cmp])
                if sorted_sub_slice(recv).is_some() =>
            {
                // `v[a..b].sort_by(cmp)` (borrowed `&mut` by `autoref`): the part copied out,
                // sorted, and copied back, the bounds evaluated once, in order.
                let (place, range) = sorted_sub_slice(recv)?;
                let zero: syn::Expr = syn::parse_quote_spanned!(span=> 0usize);
                let len: syn::Expr = syn::parse_quote_spanned!(span=> __fwdad_place.len());
                let len = fill(len, &[("__fwdad_place", Hole::Expr(place))]);
                let lo = range.start.as_deref().unwrap_or(&zero);
                let hi = range.end.as_deref().unwrap_or(&len);
                let template = match range.limits {
                    syn::RangeLimits::HalfOpen(_) => syn::parse_quote_spanned!(span=> {
                        let __fwdad_lo: usize = __fwdad_start;
                        let __fwdad_hi: usize = __fwdad_end;
                        let mut __fwdad_part = (&__fwdad_place[__fwdad_lo..__fwdad_hi]).to_vec();
                        __fwdad_part.sort_by(__fwdad_cmp);
                        (&mut __fwdad_place[__fwdad_lo..__fwdad_hi]).copy_from_slice(&__fwdad_part);
                    }),
                    syn::RangeLimits::Closed(_) => syn::parse_quote_spanned!(span=> {
                        let __fwdad_lo: usize = __fwdad_start;
                        let __fwdad_hi: usize = __fwdad_end + 1;
                        let mut __fwdad_part = (&__fwdad_place[__fwdad_lo..__fwdad_hi]).to_vec();
                        __fwdad_part.sort_by(__fwdad_cmp);
                        (&mut __fwdad_place[__fwdad_lo..__fwdad_hi]).copy_from_slice(&__fwdad_part);
                    }),
                };
                return Some(fill(
                    template,
                    &[
                        ("__fwdad_start", Hole::Expr(lo)),
                        ("__fwdad_end", Hole::Expr(hi)),
                        ("__fwdad_place", Hole::Expr(place)),
                        ("__fwdad_cmp", Hole::Expr(cmp)),
                    ],
                ));
            }
            (Rewrite::SortBy | Rewrite::SortUnstableBy, [cmp]) if is_pure_place(recv) => {
                syn::parse_quote_spanned!(span=> {
                    let __fwdad_f = __fwdad_fn;
                    let __fwdad_n = __fwdad_recv.len();
                    let mut __fwdad_idx: ::std::vec::Vec<usize> = (0..__fwdad_n).collect();
                    let mut __fwdad_buf: ::std::vec::Vec<usize> = ::std::vec![0usize; __fwdad_n];
                    // Up to 20 elements `std`'s sorts, stable and unstable, are insertion
                    // sorts: the same comparisons in the same order give `std`'s order
                    // even for a comparator that is no total order (NaN sent to `Equal`)
                    // and for equal elements that differ (`0.0` and `-0.0`).
                    if __fwdad_n <= 20 {
                        for __fwdad_i in 1..__fwdad_n {
                            let __fwdad_t = __fwdad_idx[__fwdad_i];
                            let mut __fwdad_j = __fwdad_i;
                            while __fwdad_j > 0
                                && match __fwdad_f(
                                    &__fwdad_recv[__fwdad_t],
                                    &__fwdad_recv[__fwdad_idx[__fwdad_j - 1]],
                                ) {
                                    ::core::cmp::Ordering::Less => true,
                                    _ => false,
                                }
                            {
                                __fwdad_idx[__fwdad_j] = __fwdad_idx[__fwdad_j - 1];
                                __fwdad_j -= 1;
                            }
                            __fwdad_idx[__fwdad_j] = __fwdad_t;
                        }
                    }
                    let mut __fwdad_w = if __fwdad_n <= 20 { __fwdad_n } else { 1usize };
                    while __fwdad_w < __fwdad_n {
                        let mut __fwdad_lo = 0usize;
                        while __fwdad_lo < __fwdad_n {
                            let mut __fwdad_mid = __fwdad_lo + __fwdad_w;
                            if __fwdad_mid > __fwdad_n {
                                __fwdad_mid = __fwdad_n;
                            }
                            let mut __fwdad_hi = __fwdad_mid + __fwdad_w;
                            if __fwdad_hi > __fwdad_n {
                                __fwdad_hi = __fwdad_n;
                            }
                            let mut __fwdad_i = __fwdad_lo;
                            let mut __fwdad_j = __fwdad_mid;
                            for __fwdad_k in __fwdad_lo..__fwdad_hi {
                                // The right run's head goes first only if strictly less,
                                // so equal elements keep their order (a stable sort).
                                let __fwdad_right = if __fwdad_j >= __fwdad_hi {
                                    false
                                } else if __fwdad_i >= __fwdad_mid {
                                    true
                                } else {
                                    match __fwdad_f(
                                        &__fwdad_recv[__fwdad_idx[__fwdad_j]],
                                        &__fwdad_recv[__fwdad_idx[__fwdad_i]],
                                    ) {
                                        ::core::cmp::Ordering::Less => true,
                                        _ => false,
                                    }
                                };
                                if __fwdad_right {
                                    __fwdad_buf[__fwdad_k] = __fwdad_idx[__fwdad_j];
                                    __fwdad_j += 1;
                                } else {
                                    __fwdad_buf[__fwdad_k] = __fwdad_idx[__fwdad_i];
                                    __fwdad_i += 1;
                                }
                            }
                            __fwdad_lo = __fwdad_hi;
                        }
                        ::std::mem::swap(&mut __fwdad_idx, &mut __fwdad_buf);
                        __fwdad_w *= 2;
                    }
                    let __fwdad_old = __fwdad_recv.to_vec();
                    for __fwdad_k in 0..__fwdad_n {
                        __fwdad_recv[__fwdad_k] = __fwdad_old[__fwdad_idx[__fwdad_k]].clone();
                    }
                })
            }
            _ => return None,
        };
        let mut template = template;
        let mut holes = vec![("__fwdad_recv", Hole::Expr(recv))];
        if let Some(a) = args.first() {
            // A function path is called by name (a local bound to it could not be
            // called), a closure through a local bound to it.
            holes.extend(call_by_name(&mut template, "__fwdad_g", a));
            holes.push(("__fwdad_arg0", Hole::Expr(a)));
        }
        if let Some(f) = args.last() {
            holes.extend(call_by_name(&mut template, "__fwdad_f", f));
            holes.push(("__fwdad_fn", Hole::Expr(f)));
        }
        Some(fill(template, &holes))
    }

    /// Lowers `stmts` as a block of their own (a rewrite's statements and its value).
    pub(crate) fn lower_stmts_in_scope(
        &mut self,
        stmts: &[syn::Stmt],
        span: proc_macro2::Span,
    ) -> Option<crate::ir::Value> {
        self.push_scope();
        let v = self.lower_block_stmts(stmts, span);
        self.pop_scope();
        v
    }

    /// A chain with a `flat_map(|p| inner)` stage (`(0..n).flat_map(|i| (i + 1..n).map(..))`,
    /// `rows.iter().flat_map(|r| r.iter())`): the statements gathering its items into a
    /// `Vec` by nested loops, and `e` with the stage replaced by `flat.iter().copied()`.
    /// The items are gathered by value (`*item` where the inner chain yields references),
    /// in the order `flat_map` yields them. `None` without such a stage, or when the inner
    /// expression is no chain lowering reads.
    pub(crate) fn desugar_flat_map(&self, e: &syn::Expr) -> Option<(Vec<syn::Stmt>, syn::Expr)> {
        fn stage(e: &mut syn::Expr) -> Option<&mut syn::Expr> {
            let is_flat_map = match &*e {
                syn::Expr::MethodCall(m) => match Adaptor::from_name(&m.method.to_string()) {
                    Some(Adaptor::FlatMap) => true,
                    // `o.flatten()` of an `Option<Option<T>>` is no chain's.
                    Some(Adaptor::Flatten) => m.args.is_empty() && is_iterator(&m.receiver),
                    _ => false,
                },
                _ => false,
            };
            if is_flat_map {
                return Some(e);
            }
            match e {
                syn::Expr::MethodCall(m) => stage(&mut m.receiver),
                syn::Expr::Paren(p) => stage(&mut p.expr),
                _ => None,
            }
        }
        let mut out = e.clone();
        let node = stage(&mut out)?;
        if let syn::Expr::MethodCall(m) = &*node {
            // `rows.iter().flatten()` is `rows.iter().flat_map(|r| r.iter())`.
            if Adaptor::from_name(&m.method.to_string()) == Some(Adaptor::Flatten) {
                let span = m.method.span();
                let template = syn::parse_quote_spanned!(span=>
                    __fwdad_rows.flat_map(|__fwdad_row| __fwdad_row.iter())
                );
                *node = fill(template, &[("__fwdad_rows", Hole::Expr(&m.receiver))]);
            }
        }
        let syn::Expr::MethodCall(fm) = &*node else {
            return None;
        };
        let [f] = fm.args.iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        let syn::Expr::Closure(c) = strip(f) else {
            return None;
        };
        let [pat] = c.inputs.iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        let pat = match pat {
            syn::Pat::Type(pt) => &*pt.pat,
            other => other,
        };
        // A body that is no chain (`|ch| max_pool(ch, 2)`, a `Vec` the closure builds) is
        // iterated as the collection it returns, by value.
        let refs = self.chain_yields_refs(&c.body).unwrap_or(false);
        let span = fm.method.span();
        let gather: syn::Expr = if refs {
            syn::parse_quote_spanned!(span=> {
                let mut __fwdad_flat = ::std::vec::Vec::new();
                for __fwdad_pat in __fwdad_outer {
                    for __fwdad_item in __fwdad_inner {
                        __fwdad_flat.push(*__fwdad_item);
                    }
                }
            })
        } else {
            syn::parse_quote_spanned!(span=> {
                let mut __fwdad_flat = ::std::vec::Vec::new();
                for __fwdad_pat in __fwdad_outer {
                    for __fwdad_item in __fwdad_inner {
                        __fwdad_flat.push(__fwdad_item);
                    }
                }
            })
        };
        let gather = fill(
            gather,
            &[
                ("__fwdad_pat", Hole::Pat(pat)),
                ("__fwdad_outer", Hole::Expr(&fm.receiver)),
                ("__fwdad_inner", Hole::Expr(&c.body)),
            ],
        );
        let syn::Expr::Block(gather) = gather else {
            return None;
        };
        *node = syn::parse_quote_spanned!(span=> __fwdad_flat.iter().copied());
        Some((gather.block.stmts, out))
    }

    /// `for (i, v) in m.values_mut().enumerate() { .. }` (or `m.iter_mut()`) of a map of
    /// floats: a counter beside a loop over `values_mut()` itself, read and advanced at the
    /// top of each iteration (so a `continue` skips nothing), as `enumerate` numbers the
    /// items.
    pub(crate) fn desugar_enumerate_map_mut(&self, f: &syn::ExprForLoop) -> Option<syn::Expr> {
        let syn::Expr::MethodCall(en) = strip(&f.expr) else {
            return None;
        };
        if Adaptor::from_name(&en.method.to_string()) != Some(Adaptor::Enumerate)
            || !en.args.is_empty()
        {
            return None;
        }
        let syn::Expr::MethodCall(src) = strip(&en.receiver) else {
            return None;
        };
        let lends = matches!(
            StdMethod::from_name(&src.method.to_string()),
            Some(StdMethod::ValuesMut | StdMethod::IterMut)
        );
        if !lends || !src.args.is_empty() || !self.names_map(&src.receiver) {
            return None;
        }
        let syn::Pat::Tuple(t) = &*f.pat else {
            return None;
        };
        let [count_pat, item_pat] = t.elems.iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        let span = en.method.span();
        let mut inner = f.clone();
        inner.pat = Box::new(item_pat.clone());
        inner.expr = en.receiver.clone();
        let read: syn::Stmt =
            syn::parse_quote_spanned!(span=> let __fwdad_numbered = __fwdad_count;);
        let read = match read {
            syn::Stmt::Local(mut l) => {
                l.pat = count_pat.clone();
                syn::Stmt::Local(l)
            }
            other => other,
        };
        let advance: syn::Stmt = syn::parse_quote_spanned!(span=> __fwdad_count += 1;);
        inner.body.stmts.insert(0, advance);
        inner.body.stmts.insert(0, read);
        let mut block: syn::ExprBlock = syn::parse_quote_spanned!(span=> {
            let mut __fwdad_count = 0usize;
        });
        block
            .block
            .stmts
            .push(syn::Stmt::Expr(syn::Expr::ForLoop(inner), None));
        Some(syn::Expr::Block(block))
    }

    /// The method (`values_mut` or `iter_mut` of a map of floats) at the source of an
    /// iterator chain with adaptors or a consumer after it
    /// (`m.values_mut().enumerate()`): its values are lent `&mut` one at a time, which
    /// no gathering can do.
    pub(crate) fn map_mut_chain<'e>(&self, e: &'e syn::Expr) -> Option<&'e syn::Ident> {
        let mut at = strip(e);
        let mut depth = 0;
        while let syn::Expr::MethodCall(m) = at {
            let lends = matches!(
                StdMethod::from_name(&m.method.to_string()),
                Some(StdMethod::ValuesMut | StdMethod::IterMut)
            );
            if lends && m.args.is_empty() && self.names_map(&m.receiver) {
                return (depth > 0).then_some(&m.method);
            }
            at = strip(&m.receiver);
            depth += 1;
        }
        None
    }

    /// An iterator chain over a map of floats (`m.values().sum::<f64>()`,
    /// `a.iter().map(|(&i, &v)| v * x[i]).sum()`): the values (and keys) gathered into
    /// `Vec`s first, in the map's order, and the chain run over those (chains index their
    /// source; a map has no positions): `m.values()` becomes the values' `iter()`,
    /// `m.iter()` the keys' `iter()` zipped with the values', which yield what the map's
    /// iterators yield. `None` unless the chain's source is one of those of a local or
    /// parameter typed a map, with an adaptor or consumer after it.
    pub(crate) fn desugar_map_values(&self, e: &syn::Expr) -> Option<(Vec<syn::Stmt>, syn::Expr)> {
        fn source<'a>(
            lw: &Lowerer,
            e: &'a mut syn::Expr,
            depth: usize,
        ) -> Option<(&'a mut syn::Expr, StdMethod)> {
            let of_map = match &*e {
                syn::Expr::MethodCall(m) if lw.names_map(&m.receiver) => {
                    StdMethod::from_name(&m.method.to_string()).filter(|s| match s {
                        StdMethod::Values | StdMethod::Iter => m.args.is_empty(),
                        // A `BTreeMap`'s `range(a..b)`: its entries in that range of keys.
                        StdMethod::Range => m.args.len() == 1,
                        _ => false,
                    })
                }
                _ => None,
            };
            if let Some(method) = of_map {
                return (depth > 0).then_some((e, method));
            }
            match e {
                syn::Expr::MethodCall(m) => source(lw, &mut m.receiver, depth + 1),
                syn::Expr::Paren(p) => source(lw, &mut p.expr, depth),
                _ => None,
            }
        }
        let mut out = e.clone();
        let (node, method) = source(self, &mut out, 0)?;
        let syn::Expr::MethodCall(vm) = &*node else {
            return None;
        };
        let span = vm.method.span();
        let (gather, iter): (syn::Expr, syn::Expr) = match method {
            StdMethod::Values => (
                syn::parse_quote_spanned!(span=> {
                    let mut __fwdad_values = ::std::vec::Vec::new();
                    for __fwdad_value in __fwdad_map.values() {
                        __fwdad_values.push(*__fwdad_value);
                    }
                }),
                syn::parse_quote_spanned!(span=> __fwdad_values.iter()),
            ),
            StdMethod::Range => (
                syn::parse_quote_spanned!(span=> {
                    let mut __fwdad_keys = ::std::vec::Vec::new();
                    let mut __fwdad_values = ::std::vec::Vec::new();
                    for (__fwdad_key, __fwdad_value) in __fwdad_map.range(__fwdad_range) {
                        __fwdad_keys.push(__fwdad_key.clone());
                        __fwdad_values.push(*__fwdad_value);
                    }
                }),
                syn::parse_quote_spanned!(span=> __fwdad_keys.iter().zip(__fwdad_values.iter())),
            ),
            _ => (
                syn::parse_quote_spanned!(span=> {
                    let mut __fwdad_keys = ::std::vec::Vec::new();
                    let mut __fwdad_values = ::std::vec::Vec::new();
                    for (__fwdad_key, __fwdad_value) in __fwdad_map.iter() {
                        __fwdad_keys.push(__fwdad_key.clone());
                        __fwdad_values.push(*__fwdad_value);
                    }
                }),
                syn::parse_quote_spanned!(span=> __fwdad_keys.iter().zip(__fwdad_values.iter())),
            ),
        };
        let mut holes = vec![("__fwdad_map", Hole::Expr(&vm.receiver))];
        if let Some(range) = vm.args.first() {
            holes.push(("__fwdad_range", Hole::Expr(range)));
        }
        let gather = fill(gather, &holes);
        let syn::Expr::Block(gather) = gather else {
            return None;
        };
        *node = iter;
        Some((gather.block.stmts, out))
    }

    /// `[a, b] = [b, a]` (and `[p[0], p[1]] = ..`): the right side evaluated once, then
    /// each element assigned to its place in order, as Rust does; `_` skips one.
    pub(crate) fn desugar_array_assign(
        &self,
        places: &syn::ExprArray,
        right: &syn::Expr,
    ) -> syn::Expr {
        let span = places.span();
        let mut block: syn::ExprBlock = syn::parse_quote_spanned!(span=> {
            let __fwdad_rhs = __fwdad_right;
        });
        for (k, place) in places.elems.iter().enumerate() {
            if matches!(strip(place), syn::Expr::Infer(_)) {
                continue;
            }
            let assign: syn::Expr = syn::parse_quote_spanned!(place.span()=>
                __fwdad_place = __fwdad_rhs[__fwdad_k]
            );
            let k = index_lit(k, place.span());
            let assign = fill(
                assign,
                &[
                    ("__fwdad_place", Hole::Expr(place)),
                    ("__fwdad_k", Hole::Expr(&k)),
                ],
            );
            block
                .block
                .stmts
                .push(syn::Stmt::Expr(assign, Some(Default::default())));
        }
        fill(
            syn::Expr::Block(block),
            &[("__fwdad_right", Hole::Expr(right))],
        )
    }

    /// `let [a, b]: [f64; 2] = x[i..i + 2].try_into().unwrap();` (or `.expect(..)`): the
    /// sub-slice's elements in an array literal of the written length, after the length
    /// check `try_into` makes. `None` if the statement is not of that form.
    pub(crate) fn desugar_try_into_array(
        &self,
        ty: Option<&syn::Type>,
        init: &syn::Expr,
    ) -> Option<syn::Expr> {
        let syn::Type::Array(arr) = ty? else {
            return None;
        };
        let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(n),
            ..
        }) = strip(&arr.len)
        else {
            return None;
        };
        let n: usize = n.base10_parse().ok()?;
        let syn::Expr::MethodCall(unwrap) = strip(init) else {
            return None;
        };
        let method = |m: &syn::ExprMethodCall| StdMethod::from_name(&m.method.to_string());
        if !matches!(method(unwrap), Some(StdMethod::Unwrap | StdMethod::Expect)) {
            return None;
        }
        let syn::Expr::MethodCall(try_into) = strip(&unwrap.receiver) else {
            return None;
        };
        if method(try_into) != Some(StdMethod::TryInto) || !try_into.args.is_empty() || n > 64 {
            return None;
        }
        let src = &*try_into.receiver;
        let span = try_into.method.span();
        let elems = (0..n).map(|k| {
            let template: syn::Expr = syn::parse_quote_spanned!(span=> __fwdad_s[__fwdad_k]);
            fill(template, &[("__fwdad_k", Hole::Expr(&index_lit(k, span)))])
        });
        let elems = syn::Expr::Array(syn::ExprArray {
            attrs: vec![],
            bracket_token: Default::default(),
            elems: elems.collect(),
        });
        let template: syn::Expr = syn::parse_quote_spanned!(span=> {
            let __fwdad_s = &__fwdad_src;
            if __fwdad_s.len() != __fwdad_n {
                ::core::panic!("could not convert slice to array: TryFromSliceError(())");
            }
            __fwdad_elems
        });
        Some(fill(
            template,
            &[
                ("__fwdad_src", Hole::Expr(src)),
                ("__fwdad_n", Hole::Expr(&index_lit(n, span))),
                ("__fwdad_elems", Hole::Expr(&elems)),
            ],
        ))
    }
}

/// `let it = <iterator chain>;` followed by uses of `it` that each start a chain
/// (`it.remainder()`, `for v in it`, `it.zip(..)`, `a.iter().zip(it)`): the statements
/// after it with `it` replaced by the chain, so that each use is a chain lowering reads
/// (`chunks_exact(4)` bound to a variable, its `remainder()` taken, then iterated).
/// `None` when the binding is not of that form, `it` is used otherwise, or a name the
/// chain reads is assigned, rebound or borrowed `&mut` in the statements after it (the
/// chain would then read something else where it is used).
pub(crate) fn inline_iterator_binding(
    stmt: &syn::Stmt,
    rest: &[syn::Stmt],
) -> Option<Vec<syn::Stmt>> {
    use syn::visit::Visit;
    let syn::Stmt::Local(local) = stmt else {
        return None;
    };
    let syn::Pat::Ident(pi) = &local.pat else {
        return None;
    };
    let init = local.init.as_ref()?;
    if pi.mutability.is_some() || pi.by_ref.is_some() || init.diverge.is_some() {
        return None;
    }
    let chain = &*init.expr;
    let syn::Expr::MethodCall(head) = strip(chain) else {
        return None;
    };
    // Only chains of adaptors over a slice, evaluated where used: no calls, no macros.
    Adaptor::from_name(&head.method.to_string())?;
    // A closure of the chain (`let b = a.iter().map(|x| x * s);`) runs only when the
    // chain is read, so the chain may move to its one use as long as what the closure reads
    // stays as it was; calls in a closure's body run then too.
    struct Reads {
        names: Vec<String>,
        /// Names a closure of the chain binds (its parameters, its locals).
        bound: Vec<String>,
        impure: bool,
        closures: usize,
        in_closure: usize,
    }
    impl<'ast> Visit<'ast> for Reads {
        fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
            if let Some(id) = p.path.get_ident() {
                self.names.push(id.to_string());
            }
        }
        fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
            if self.in_closure == 0 {
                self.impure = true;
            }
            syn::visit::visit_expr_call(self, c);
        }
        fn visit_expr_macro(&mut self, _: &'ast syn::ExprMacro) {
            self.impure = true;
        }
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            self.bound.push(p.ident.to_string());
            syn::visit::visit_pat_ident(self, p);
        }
        fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
            if c.asyncness.is_some() {
                self.impure = true;
            }
            self.closures += 1;
            self.in_closure += 1;
            syn::visit::visit_expr_closure(self, c);
            self.in_closure -= 1;
        }
        fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
            let name = m.method.to_string();
            if self.in_closure == 0
                && Adaptor::from_name(&name).is_none()
                && StdMethod::from_name(&name) != Some(StdMethod::Len)
            {
                self.impure = true;
            }
            syn::visit::visit_expr_method_call(self, m);
        }
    }
    let mut reads = Reads {
        names: Vec::new(),
        bound: Vec::new(),
        impure: false,
        closures: 0,
        in_closure: 0,
    };
    reads.visit_expr(chain);
    if reads.impure {
        return None;
    }
    // A name both bound in a closure and read is taken as the closure's own.
    let bound = std::mem::take(&mut reads.bound);
    reads.names.retain(|n| !bound.contains(n));
    let name = pi.ident.to_string();
    // What the statements after the binding do with `name` and the names it reads.
    struct Uses<'n> {
        name: &'n str,
        reads: &'n [String],
        ok: bool,
    }
    impl Uses<'_> {
        fn root_is_read(&self, e: &syn::Expr) -> bool {
            let mut cur = strip(e);
            loop {
                match cur {
                    syn::Expr::Field(f) => cur = strip(&f.base),
                    syn::Expr::Index(ix) => cur = strip(&ix.expr),
                    syn::Expr::Path(p) => {
                        return p
                            .path
                            .get_ident()
                            .is_some_and(|id| self.reads.iter().any(|r| id == r))
                    }
                    _ => return false,
                }
            }
        }
        fn is_name(&self, e: &syn::Expr) -> bool {
            matches!(strip(e), syn::Expr::Path(p) if p.path.get_ident().is_some_and(|id| id == self.name))
        }
    }
    impl<'ast> Visit<'ast> for Uses<'_> {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            if p.ident == self.name || self.reads.iter().any(|r| p.ident == r) {
                self.ok = false;
            }
        }
        fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
            if self.root_is_read(&a.left) {
                self.ok = false;
            }
            syn::visit::visit_expr_assign(self, a);
        }
        fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
            let compound = matches!(
                b.op,
                syn::BinOp::AddAssign(_)
                    | syn::BinOp::SubAssign(_)
                    | syn::BinOp::MulAssign(_)
                    | syn::BinOp::DivAssign(_)
                    | syn::BinOp::RemAssign(_)
            );
            if compound && self.root_is_read(&b.left) {
                self.ok = false;
            }
            syn::visit::visit_expr_binary(self, b);
        }
        fn visit_expr_reference(&mut self, r: &'ast syn::ExprReference) {
            if r.mutability.is_some() && self.root_is_read(&r.expr) {
                self.ok = false;
            }
            syn::visit::visit_expr_reference(self, r);
        }
        fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
            let method = m.method.to_string();
            if StdMethod::from_name(&method).is_some_and(StdMethod::writes)
                && self.root_is_read(&m.receiver)
            {
                self.ok = false;
            }
            // `it.adaptor(..)`, `it.remainder()`, `x.zip(it)`: uses that start a chain.
            if self.is_name(&m.receiver) {
                for a in &m.args {
                    self.visit_expr(a);
                }
                return;
            }
            if matches!(
                crate::callee::Adaptor::from_name(&method),
                Some(crate::callee::Adaptor::Zip | crate::callee::Adaptor::Chain)
            ) && m.args.iter().any(|a| self.is_name(a))
            {
                self.visit_expr(&m.receiver);
                return;
            }
            syn::visit::visit_expr_method_call(self, m);
        }
        fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
            if !self.is_name(&f.expr) {
                self.visit_expr(&f.expr);
            }
            self.visit_pat(&f.pat);
            self.visit_block(&f.body);
        }
        fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
            // Any other use of the iterator (passed on, returned, `it.len()` counted).
            if p.path.get_ident().is_some_and(|id| id == self.name) {
                self.ok = false;
            }
        }
    }
    let mut uses = Uses {
        name: &name,
        reads: &reads.names,
        ok: true,
    };
    for s in rest {
        uses.visit_stmt(s);
    }
    if !uses.ok {
        return None;
    }
    struct Subst<'a> {
        name: &'a str,
        chain: &'a syn::Expr,
        count: usize,
    }
    impl syn::visit_mut::VisitMut for Subst<'_> {
        fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
            if let syn::Expr::Path(p) = e {
                if p.path.get_ident().is_some_and(|id| id == self.name) {
                    *e = crate::splice::paren(self.chain.clone());
                    self.count += 1;
                    return;
                }
            }
            syn::visit_mut::visit_expr_mut(self, e);
        }
    }
    let mut subst = Subst {
        name: &name,
        chain,
        count: 0,
    };
    let out = rest
        .iter()
        .map(|s| {
            let mut s = s.clone();
            syn::visit_mut::VisitMut::visit_stmt_mut(&mut subst, &mut s);
            s
        })
        .collect();
    // A chain with closures runs them once, where it is read: one use only.
    (reads.closures == 0 || subst.count == 1).then_some(out)
}

/// `let m: HashMap<usize, f64> = pairs.collect();` (a chain of `(key, value)` pairs,
/// `collect` with or without a turbofish): an empty map of the written type and an
/// `insert` per pair, in the chain's order, as `collect` inserts them.
pub(crate) fn collect_into_map(ty: &syn::Type, init: &syn::Expr) -> Option<syn::Expr> {
    if !matches!(TypeHint::from_type(ty), TypeHint::Map(..)) {
        return None;
    }
    let syn::Expr::MethodCall(m) = strip(init) else {
        return None;
    };
    let is_collect = crate::callee::Consumer::from_name(&m.method.to_string())
        == Some(crate::callee::Consumer::Collect);
    if !is_collect || !m.args.is_empty() {
        return None;
    }
    let syn::Type::Path(tp) = ty else {
        return None;
    };
    // `HashMap::new` (`HashMap::default` with a hasher of the user's).
    let mut path = tp.path.clone();
    let last = path.segments.last_mut()?;
    let with_hasher = matches!(&last.arguments,
        syn::PathArguments::AngleBracketed(a) if a.args.len() > 2);
    last.arguments = syn::PathArguments::None;
    let span = m.method.span();
    let ctor = if with_hasher { "default" } else { "new" };
    path.segments
        .push(syn::PathSegment::from(syn::Ident::new(ctor, span)));
    let new = syn::Expr::Path(syn::ExprPath {
        attrs: Vec::new(),
        qself: None,
        path,
    });
    let template = syn::parse_quote_spanned!(span=> {
        let mut __fwdad_map = __fwdad_new();
        for (__fwdad_key, __fwdad_value) in __fwdad_pairs {
            __fwdad_map.insert(__fwdad_key, __fwdad_value);
        }
        __fwdad_map
    });
    Some(fill(
        template,
        &[
            ("__fwdad_new", Hole::Expr(&new)),
            ("__fwdad_pairs", Hole::Expr(&m.receiver)),
        ],
    ))
}

/// The error for an adaptor or consumer after `values_mut()`/`iter_mut()` of a map.
pub(crate) fn map_mut_chain_message(method: &syn::Ident) -> String {
    format!("`#[derive_frule]` does not support an adaptor or consumer after `{method}` of a map (its values are lent `&mut` one at a time): write a `for` loop over it (`for v in m.values_mut() {{ .. }}`, or `for (i, v) in m.values_mut().enumerate() {{ .. }}` to number them)")
}

/// The entry API's closures on a map that is a variable or a field, as the calls that
/// the map's dual has (`contains_key`, `get_mut`, `entry(k).or_insert(v)`), each closure
/// run where and when `std` runs it:
///
/// ```text
/// m.entry(k).or_insert_with(|| e)
/// // { let k0 = k; let v = if m.contains_key(&k0) { m[&k0].clone() } else { e };
/// //   m.entry(k0).or_insert(v) }        (`v` unused when `k0` is present)
/// m.entry(k).and_modify(|t| body).or_insert(d)
/// // { let k0 = k; if let Some(t) = m.get_mut(&k0) { body; }
/// //   m.entry(k0).or_insert(d) }        (also `.or_default()`, `.or_insert_with(..)`)
/// ```
///
/// A closure is one without parameters for `or_insert_with` (or a function by path,
/// `Vec::new`), of one for `and_modify`, neither with `return` or `?` (which would leave
/// the block).
pub(crate) fn desugar_entry_closures(
    m: &syn::ExprMethodCall,
    statement: bool,
) -> Option<syn::Expr> {
    let span = m.method.span();
    let std = |m: &syn::ExprMethodCall| StdMethod::from_name(&m.method.to_string());
    // The tail: what makes the value when the key is absent.
    let (modify, tail_recv) = match strip(&m.receiver) {
        syn::Expr::MethodCall(a) if std(a) == Some(StdMethod::AndModify) && a.args.len() == 1 => {
            (Some(closure_of(&a.args[0], 1)?), &*a.receiver)
        }
        _ => (None, &*m.receiver),
    };
    let syn::Expr::MethodCall(entry) = strip(tail_recv) else {
        return None;
    };
    if std(entry) != Some(StdMethod::Entry)
        || entry.args.len() != 1
        || !is_pure_place(&entry.receiver)
    {
        return None;
    }
    let (map, key) = (&*entry.receiver, &entry.args[0]);
    let insert: syn::Expr = match (std(m)?, m.args.len()) {
        (StdMethod::OrInsertWith, 1) => {
            let value = match strip(&m.args[0]) {
                syn::Expr::Path(p) if p.qself.is_none() => fill(
                    syn::parse_quote_spanned!(span=> __fwdad_f()),
                    &[("__fwdad_f", Hole::Expr(&m.args[0]))],
                ),
                _ => (*closure_of(&m.args[0], 0)?.body).clone(),
            };
            fill(
                syn::parse_quote_spanned!(span=> {
                    let __fwdad_v = if __fwdad_map.contains_key(&__fwdad_k) {
                        __fwdad_map[&__fwdad_k].clone()
                    } else {
                        __fwdad_value
                    };
                    __fwdad_map.entry(__fwdad_k).or_insert(__fwdad_v)
                }),
                &[
                    ("__fwdad_value", Hole::Expr(&value)),
                    ("__fwdad_map", Hole::Expr(map)),
                ],
            )
        }
        (StdMethod::OrInsert, 1) if modify.is_some() => fill(
            syn::parse_quote_spanned!(span=> __fwdad_map.entry(__fwdad_k).or_insert(__fwdad_value)),
            &[
                ("__fwdad_value", Hole::Expr(&m.args[0])),
                ("__fwdad_map", Hole::Expr(map)),
            ],
        ),
        (StdMethod::OrDefault, 0) if modify.is_some() => fill(
            syn::parse_quote_spanned!(span=> __fwdad_map.entry(__fwdad_k).or_default()),
            &[("__fwdad_map", Hole::Expr(map))],
        ),
        _ => return None,
    };
    // As a statement (`m.entry(k).and_modify(..).or_default();`) the reference the
    // entry returns is dropped where it is made, not yielded out of the block.
    let mut modified: syn::Expr = match modify {
        Some(c) => {
            // `|t: &mut f64|`: the pattern without its type, bound by the `if let`.
            let pat = match c.inputs.first()? {
                syn::Pat::Type(t) => &*t.pat,
                p => p,
            };
            fill(
                syn::parse_quote_spanned!(span=> {
                    let __fwdad_k = __fwdad_key;
                    if let ::core::option::Option::Some(__fwdad_pv) = __fwdad_map.get_mut(&__fwdad_k) {
                        __fwdad_body;
                    }
                    __fwdad_insert
                }),
                &[
                    ("__fwdad_key", Hole::Expr(key)),
                    ("__fwdad_pv", Hole::Pat(pat)),
                    ("__fwdad_body", Hole::Expr(&c.body)),
                    ("__fwdad_insert", Hole::Expr(&insert)),
                    ("__fwdad_map", Hole::Expr(map)),
                ],
            )
        }
        None => fill(
            syn::parse_quote_spanned!(span=> {
                let __fwdad_k = __fwdad_key;
                __fwdad_insert
            }),
            &[
                ("__fwdad_key", Hole::Expr(key)),
                ("__fwdad_insert", Hole::Expr(&insert)),
            ],
        ),
    };
    if statement {
        if let syn::Expr::Block(b) = &mut modified {
            if let Some(syn::Stmt::Expr(_, semi @ None)) = b.block.stmts.last_mut() {
                *semi = Some(Default::default());
            }
        }
    }
    Some(modified)
}

/// `e` as a closure of `n` parameters without `return` or `?` (see
/// [`desugar_entry_closures`]).
fn closure_of(e: &syn::Expr, n: usize) -> Option<&syn::ExprClosure> {
    match strip(e) {
        syn::Expr::Closure(c)
            if c.inputs.len() == n
                && c.capture.is_none()
                && c.asyncness.is_none()
                && !super::combinators::has_exits(c) =>
        {
            Some(c)
        }
        _ => None,
    }
}

/// The written type of the field `e` reads (`self.q`) when the source file declares every
/// field of that name an array of one type (`q: [f64; 4]`, `crate::aliases`): its `map`
/// is an array's, not an `Option`'s.
pub(super) fn array_field_type(e: &syn::Expr) -> Option<syn::Type> {
    match strip(e) {
        syn::Expr::Field(f) => match &f.member {
            syn::Member::Named(name) => crate::aliases::source_array_field(&name.to_string()),
            syn::Member::Unnamed(_) => None,
        },
        _ => None,
    }
}
