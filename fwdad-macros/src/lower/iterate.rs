//! `for` over slices and iterator adaptors, as a counted loop.
//!
//! `for pat in <chain> { body }`, where `<chain>` is built from a slice source (`x.iter()`,
//! `x.iter_mut()`, `&x`, `&mut x`, a slice-typed local `x`) and the adaptors `enumerate`,
//! `zip`, `rev`, `skip`, `take`, `step_by`, `copied`, `cloned`, becomes
//!
//! ```text
//! for k in 0..len { let pat = elem(k); body }
//! ```
//!
//! where `len` and `elem(k)` follow the adaptors (`rev`: `elem(len - 1 - k)`, `skip(n)`:
//! `elem(k + n)`, `zip`: `(a(k), b(k))` with `len = min(..)`, ...) and a slice element is a
//! borrowed element `&x[k]` ([`InstKind::ElemRef`]), or `x[k]` by value after `copied`.
//! The rule then visits the same elements in the same order as the primal, reads them in
//! place (no copied vectors), and writes through `iter_mut` elements. The sources and
//! adaptor arguments are evaluated once, before the loop, as Rust evaluates them.
//! Chains without a slice source (`(0..n).rev()`) stay ordinary `for` loops. After the
//! index adaptors, `filter`, `take_while`, `inspect` and `scan` wrap the rest of the body
//! in an `if` (`take_while`'s `else`, `scan`'s `None`, break the loop) or a call. An
//! unbounded range (`(1..)`) counts up to `usize::MAX` (saturating under `chain`, rounded
//! up under `step_by`), so it is ended by a `take`, a `zip`, a `take_while`/`scan`, or a
//! `break`.

use super::place::strip;
use super::Lowerer;
use crate::callee::{Adaptor, Consumer, MethodCallee, PathCallee, Rewrite, StdMacro, StdMethod};
use crate::ir::{BinOp, InstKind, Value, ValueDef};
use crate::splice::{fill, path_expr, splice, Hole};
use crate::types::TypeHint;
use proc_macro2::Span;
use syn::spanned::Spanned;

/// An iterator chain, as written.
enum Chain<'e> {
    /// `inner.map(f)`: index-transparent, `f` applied to each element.
    Map(Box<Chain<'e>>, Func<'e>),
    /// `x.windows(n)`: the sub-slices `&x[k..k + n]`.
    Windows(&'e syn::Expr, &'e syn::Expr),
    /// `x.chunks(n)`: the sub-slices `&x[k·n..min((k + 1)·n, len)]`.
    /// `chunks(n)`, or `chunks_exact(n)` (the last short chunk dropped) with the first
    /// flag; `chunks_mut`/`chunks_exact_mut` (`&mut` sub-slices) with the second.
    Chunks(&'e syn::Expr, &'e syn::Expr, bool, bool),
    /// `a.chain(b)`: `a`'s elements, then `b`'s.
    Concat(Box<Chain<'e>>, Box<Chain<'e>>),
    Slice(&'e syn::Expr, Access),
    /// `start..end`, or `start..=end` when the flag is set; `start..` without an end.
    Range(&'e syn::Expr, Option<&'e syn::Expr>, bool),
    Enumerate(Box<Chain<'e>>),
    Zip(Box<Chain<'e>>, Box<Chain<'e>>),
    Rev(Box<Chain<'e>>),
    Skip(Box<Chain<'e>>, &'e syn::Expr),
    Take(Box<Chain<'e>>, &'e syn::Expr),
    StepBy(Box<Chain<'e>>, &'e syn::Expr),
    Copied(Box<Chain<'e>>),
    /// `inner.cycle()`.
    Cycle(Box<Chain<'e>>),
}

/// How a slice source yields its elements.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Ref,
    RefMut,
}

/// An iterator chain with its operands evaluated.
enum Seq<'e> {
    Map(Box<Seq<'e>>, Func<'e>),
    /// Base slice and window size.
    Windows(Value, Value),
    /// Base slice, chunk size, base length, and whether the chunks are `&mut`.
    Chunks(Value, Value, Value, bool),
    /// First, second, and the first's length.
    Concat(Box<Seq<'e>>, Box<Seq<'e>>, Value),
    Slice(Value, Access),
    /// The start, and whether the range is unbounded (`start..`).
    Range(Value, bool),
    Enumerate(Box<Seq<'e>>),
    Zip(Box<Seq<'e>>, Box<Seq<'e>>),
    /// The inner sequence and its length.
    Rev(Box<Seq<'e>>, Value),
    Skip(Box<Seq<'e>>, Value),
    Take(Box<Seq<'e>>),
    StepBy(Box<Seq<'e>>, Value),
    Copied(Box<Seq<'e>>),
    /// The inner sequence and its length.
    Cycle(Box<Seq<'e>>, Value),
}

/// A function argument of an adaptor or consumer.
#[derive(Clone)]
enum Func<'e> {
    /// Written in place: `|v| v * v`.
    Lambda(&'e syn::ExprClosure),
    /// Bound by `let f = |..| ..;`.
    Bound(std::rc::Rc<super::ClosureDef>),
    /// A function by path: `f64::max`, `square`.
    Path(&'e syn::Path),
}

/// Element-wise stages from the first `filter`, `take_while`, `inspect` or `scan` on
/// (indices no longer follow the source there, or the stage has effects).
enum Tail<'e> {
    Map(Func<'e>),
    Filter(Func<'e>),
    /// `take_while(p)`: the loop ends at the first item `p` rejects.
    TakeWhile(Func<'e>),
    /// `inspect(f)`: `f(&item)`, the item passed on.
    Inspect(Func<'e>),
    /// `filter_map(f)` (`ends: false`) and `map_while(f)` (`ends: true`): `f(item)`'s
    /// `Some(b)` passes `b` on; `None` drops the item or ends the loop.
    Unwrapping {
        f: Func<'e>,
        ends: bool,
    },
    /// `scan(init, |state, item| ..)`: the closure's `Some(b)` passes `b` on, `None` ends
    /// the loop. `state` names the loop-carried variable holding the state, bound before
    /// the loop by [`Lowerer::start_tail_state`].
    Scan {
        init: &'e syn::Expr,
        f: &'e syn::ExprClosure,
        state: std::cell::OnceCell<syn::Ident>,
    },
    /// `skip_while(p)`: `state` names the loop-carried flag "still skipping", `true`
    /// before the loop; while it holds, each item sets it to `p(&item)` and is dropped if
    /// it still holds.
    SkipWhile {
        f: Func<'e>,
        state: std::cell::OnceCell<syn::Ident>,
    },
    /// `skip(n)` after a stage, or after a `map` whose closure has effects (`std` runs it
    /// on the items it skips: a chain advanced by `|_| { x = step(x); x }` burnt in by
    /// `skip`): `state` names the loop-carried count still to drop, `n` before the loop.
    Skip {
        n: &'e syn::Expr,
        state: std::cell::OnceCell<syn::Ident>,
    },
    /// `step_by(step)` there: the first item passed on, then every `step`-th. `state`
    /// names the loop-carried count of items to drop before the next one, `0` before
    /// the loop, and holds `step - 1`, evaluated once (a zero step panics there, as
    /// `step_by(0)` does).
    StepBy {
        step: &'e syn::Expr,
        state: std::cell::OnceCell<(syn::Ident, Value)>,
    },
    /// `take(n)` after a stage: `state` names the loop-carried count still to pass on,
    /// `n` before the loop. Each item that reaches it counts down; the loop ends, before
    /// it pulls another item from the source, once the count is zero (`std`'s `Take`
    /// stops pulling then, so the closures before it see no further item).
    Take {
        n: &'e syn::Expr,
        state: std::cell::OnceCell<syn::Ident>,
    },
    /// `enumerate()` after a stage: `state` names the loop-carried count of the items
    /// passed on so far, `0` before the loop; each item goes on as `(count, item)`.
    Enumerate {
        state: std::cell::OnceCell<syn::Ident>,
    },
    /// `copied()` or `cloned()` after a stage (`x.iter().filter(..).copied()`): the item,
    /// a reference, read through.
    Copied,
    /// `zip(other)` after a stage, `other` an indexed chain: `state` holds `other`
    /// evaluated before the loop, its length and the name of the loop-carried count of
    /// the items zipped so far; an item arriving when `other` is spent ends the loop, as
    /// `std`'s `Zip` ends (the item taken, nothing more pulled).
    Zip {
        other: std::cell::RefCell<Option<Chain<'e>>>,
        state: std::cell::OnceCell<(Seq<'e>, Value, syn::Ident)>,
    },
}

impl Tail<'_> {
    /// The adaptor's name, for messages.
    fn name(&self) -> &'static str {
        match self {
            Tail::Map(_) => Adaptor::Map.name(),
            Tail::Filter(_) => Adaptor::Filter.name(),
            Tail::TakeWhile(_) => Adaptor::TakeWhile.name(),
            Tail::Inspect(_) => Adaptor::Inspect.name(),
            Tail::Unwrapping { ends: false, .. } => Adaptor::FilterMap.name(),
            Tail::Unwrapping { ends: true, .. } => Adaptor::MapWhile.name(),
            Tail::Scan { .. } => Adaptor::Scan.name(),
            Tail::SkipWhile { .. } => Adaptor::SkipWhile.name(),
            Tail::Skip { .. } => Adaptor::Skip.name(),
            Tail::StepBy { .. } => Adaptor::StepBy.name(),
            Tail::Take { .. } => Adaptor::Take.name(),
            Tail::Enumerate { .. } => Adaptor::Enumerate.name(),
            Tail::Copied => Adaptor::Copied.name(),
            Tail::Zip { .. } => Adaptor::Zip.name(),
        }
    }
}

/// Whether `m` consumes an iterator (`.sum()`, `.fold(..)`, ...).
pub(crate) fn is_consumer(m: &syn::ExprMethodCall) -> bool {
    Consumer::from_name(&m.method.to_string()).is_some()
}

/// An element: a value, or a tuple of elements not yet built into one value.
pub(crate) enum Shape {
    Val(Value),
    Tuple(Vec<Shape>),
}

impl Chain<'_> {
    /// Whether the elements are borrowed (`&f64`, `&[f64]`, or tuples holding them).
    fn yields_refs(&self) -> bool {
        match self {
            Chain::Map(..) | Chain::Copied(..) | Chain::Range(..) => false,
            Chain::Slice(..) | Chain::Windows(..) | Chain::Chunks(..) => true,
            Chain::Zip(a, b) => a.yields_refs() || b.yields_refs(),
            Chain::Concat(c, _)
            | Chain::Enumerate(c)
            | Chain::Rev(c)
            | Chain::Skip(c, _)
            | Chain::Take(c, _)
            | Chain::StepBy(c, _)
            | Chain::Cycle(c) => c.yields_refs(),
        }
    }

    /// Whether the chain applies a closure (a range chain with `map` needs lowering too).
    fn has_map(&self) -> bool {
        match self {
            Chain::Map(..) => true,
            Chain::Slice(..) | Chain::Range(..) | Chain::Windows(..) | Chain::Chunks(..) => false,
            Chain::Zip(a, b) | Chain::Concat(a, b) => a.has_map() || b.has_map(),
            Chain::Enumerate(c)
            | Chain::Rev(c)
            | Chain::Skip(c, _)
            | Chain::Take(c, _)
            | Chain::StepBy(c, _)
            | Chain::Copied(c)
            | Chain::Cycle(c) => c.has_map(),
        }
    }

    fn has_slice(&self) -> bool {
        match self {
            Chain::Slice(..) | Chain::Windows(..) | Chain::Chunks(..) => true,
            Chain::Range(..) => false,
            Chain::Map(c, _) => c.has_slice(),
            Chain::Concat(a, b) => a.has_slice() || b.has_slice(),
            Chain::Zip(a, b) => a.has_slice() || b.has_slice(),
            Chain::Enumerate(c)
            | Chain::Rev(c)
            | Chain::Skip(c, _)
            | Chain::Take(c, _)
            | Chain::StepBy(c, _)
            | Chain::Copied(c)
            | Chain::Cycle(c) => c.has_slice(),
        }
    }
}

impl Lowerer<'_> {
    /// Reads an iterator pipeline: index-based stages, then (after a `filter`) element-wise
    /// ones. `None` if it is not one this lowering handles.
    fn parse_pipeline<'e>(&self, e: &'e syn::Expr) -> Option<(Chain<'e>, Vec<Tail<'e>>)> {
        if let syn::Expr::MethodCall(m) = strip(e) {
            let adaptor = Adaptor::from_name(&m.method.to_string());
            if adaptor == Some(Adaptor::Scan) && m.args.len() == 2 {
                let (chain, mut tail) = self.parse_pipeline(&m.receiver)?;
                // The closure is inlined with its state parameter bound to `&mut state`.
                let syn::Expr::Closure(f) = strip(&m.args[1]) else {
                    return None;
                };
                if f.inputs.len() != 2 {
                    return None;
                }
                tail.push(Tail::Scan {
                    init: &m.args[0],
                    f,
                    state: Default::default(),
                });
                return Some((chain, tail));
            }
            // `skip(n)`, `step_by(k)` after an element-wise stage, or after a `map` whose
            // closure has effects, drop items the closures before them still see.
            if matches!(adaptor, Some(Adaptor::Skip | Adaptor::StepBy)) && m.args.len() == 1 {
                let (mut chain, mut tail) = self.parse_pipeline(&m.receiver)?;
                if tail.is_empty() {
                    if !self.has_effectful_map(&chain) {
                        return Some((self.parse_chain(e)?, Vec::new()));
                    }
                    // The outer `map`s become stages, run on every item in order, and an
                    // `enumerate` over one a counted stage.
                    loop {
                        match chain {
                            Chain::Map(inner, f) => {
                                tail.insert(0, Tail::Map(f));
                                chain = *inner;
                            }
                            Chain::Enumerate(inner) if self.has_effectful_map(&inner) => {
                                tail.insert(
                                    0,
                                    Tail::Enumerate {
                                        state: Default::default(),
                                    },
                                );
                                chain = *inner;
                            }
                            other => {
                                chain = other;
                                break;
                            }
                        }
                    }
                    if self.has_effectful_map(&chain) {
                        return None;
                    }
                }
                tail.push(match adaptor {
                    Some(Adaptor::Skip) => Tail::Skip {
                        n: &m.args[0],
                        state: Default::default(),
                    },
                    _ => Tail::StepBy {
                        step: &m.args[0],
                        state: Default::default(),
                    },
                });
                return Some((chain, tail));
            }
            if let Some(p) = self.counted_after_stage(m, adaptor) {
                return p;
            }
            let stage = matches!(
                adaptor,
                Some(
                    Adaptor::Map
                        | Adaptor::Filter
                        | Adaptor::TakeWhile
                        | Adaptor::Inspect
                        | Adaptor::SkipWhile
                        | Adaptor::FilterMap
                        | Adaptor::MapWhile
                )
            );
            if stage && m.args.len() == 1 {
                let (chain, mut tail) = self.parse_pipeline(&m.receiver)?;
                let f = self.parse_func(&m.args[0])?;
                match adaptor {
                    Some(Adaptor::Filter) => tail.push(Tail::Filter(f)),
                    Some(Adaptor::TakeWhile) => tail.push(Tail::TakeWhile(f)),
                    Some(Adaptor::Inspect) => tail.push(Tail::Inspect(f)),
                    Some(Adaptor::FilterMap) => tail.push(Tail::Unwrapping { f, ends: false }),
                    Some(Adaptor::MapWhile) => tail.push(Tail::Unwrapping { f, ends: true }),
                    Some(Adaptor::SkipWhile) => tail.push(Tail::SkipWhile {
                        f,
                        state: Default::default(),
                    }),
                    _ if !tail.is_empty() => tail.push(Tail::Map(f)),
                    _ => return Some((Chain::Map(Box::new(chain), f), tail)),
                }
                return Some((chain, tail));
            }
        }
        let chain = self.parse_chain(e)?;
        Some((chain, Vec::new()))
    }

    /// `take(n)`, `enumerate()` and `rev()` after an element-wise stage (`x.iter()
    /// .filter(..).take(2)`): `take` and `enumerate` count the items that reach them
    /// ([`Tail::Take`], [`Tail::Enumerate`]); `rev` over stages that keep or drop each item
    /// on its own (`map`, `filter`, `filter_map`, `inspect`, which `std` runs back to front
    /// under it) reverses the index chain they read. `None` when the receiver has no
    /// stage (the index chain reads it), `Some(None)` for a `rev` over a stage that is not
    /// double-ended (Rust rejects it too).
    #[inline(never)]
    #[allow(clippy::type_complexity)]
    fn counted_after_stage<'e>(
        &self,
        m: &'e syn::ExprMethodCall,
        adaptor: Option<Adaptor>,
    ) -> Option<Option<(Chain<'e>, Vec<Tail<'e>>)>> {
        let counted = matches!(
            (adaptor, m.args.len()),
            (Some(Adaptor::Take | Adaptor::Zip), 1)
                | (
                    Some(Adaptor::Enumerate | Adaptor::Rev | Adaptor::Copied | Adaptor::Cloned),
                    0
                )
        );
        if !counted {
            return None;
        }
        let (chain, mut tail) = self.parse_pipeline(&m.receiver)?;
        if tail.is_empty() {
            return None;
        }
        match adaptor {
            Some(Adaptor::Take) => tail.push(Tail::Take {
                n: &m.args[0],
                state: Default::default(),
            }),
            Some(Adaptor::Enumerate) => tail.push(Tail::Enumerate {
                state: Default::default(),
            }),
            Some(Adaptor::Copied | Adaptor::Cloned) => tail.push(Tail::Copied),
            Some(Adaptor::Zip) => {
                let other = self.zip_operand(&m.args[0])?;
                tail.push(Tail::Zip {
                    other: std::cell::RefCell::new(Some(other)),
                    state: Default::default(),
                });
            }
            _ => {
                let each_on_its_own = tail.iter().all(|t| {
                    matches!(
                        t,
                        Tail::Map(_)
                            | Tail::Filter(_)
                            | Tail::Inspect(_)
                            | Tail::Copied
                            | Tail::Unwrapping { ends: false, .. }
                    )
                });
                if !each_on_its_own {
                    return Some(None);
                }
                return Some(Some((Chain::Rev(Box::new(chain)), tail)));
            }
        }
        Some(Some((chain, tail)))
    }

    /// Reports an adaptor that needs the source's positions (`zip`, `chain`, `cycle`, or
    /// `rev` over a stage that is not double-ended) after an element-wise stage (`x.iter()
    /// .filter(..).zip(w)`), at the adaptor: without this the error would name the
    /// stage's closure. Whether it reported one.
    #[inline(never)]
    fn report_after_stage(&mut self, e: &syn::Expr) -> bool {
        let syn::Expr::MethodCall(m) = strip(e) else {
            return false;
        };
        if self.report_after_stage(&m.receiver) {
            return true;
        }
        let adaptor = Adaptor::from_name(&m.method.to_string());
        let counted = matches!(
            (adaptor, m.args.len()),
            (Some(Adaptor::Skip | Adaptor::StepBy), 1)
        );
        if counted && self.parse_pipeline(e).is_none() {
            let effectful = self
                .parse_pipeline(&m.receiver)
                .is_some_and(|(c, t)| t.is_empty() && self.has_effectful_map(&c));
            if effectful {
                let name = &m.method;
                self.diag.error(
                    name.span(),
                    format!("`#[derive_frule]` does not support `{name}` after a `zip` or `chain` over a `map` whose closure changes a variable it captures (`std` runs that closure on the items `{name}` passes over too): put the `{name}` on the `map`'s own chain before the `zip` (`(0..n).map(|_| step()).{name}(k).zip(w)`), or write the loop and drop the items in its body (`if k < n {{ continue; }}`)"),
                );
                return true;
            }
        }
        let positional = matches!(
            (adaptor, m.args.len()),
            (Some(Adaptor::Zip | Adaptor::Chain), 1) | (Some(Adaptor::Cycle | Adaptor::Rev), 0)
        );
        if !positional || self.parse_pipeline(e).is_some() {
            return false;
        }
        let Some((_, tail)) = self.parse_pipeline(&m.receiver) else {
            return false;
        };
        let Some(stage) = tail.first().map(Tail::name) else {
            return false;
        };
        // The chain of `successors` or `from_fn` (`iter_fns`): in the user's terms.
        let generated = tail.iter().any(|t| {
            let c = match t {
                Tail::Scan { f, .. }
                | Tail::Unwrapping {
                    f: Func::Lambda(f), ..
                } => *f,
                _ => return false,
            };
            c.inputs.iter().any(
                |p| matches!(p, syn::Pat::Ident(i) if i.ident == super::iter_fns::GENERATOR_INDEX),
            )
        });
        if generated {
            let message = super::iter_fns::GENERATOR_POSITIONS;
            self.diag.error(m.method.span(), message);
            return true;
        }
        let name = &m.method;
        let instead = match adaptor {
            Some(Adaptor::Rev) => format!("`rev` needs a chain `std` can read from the back, which `{stage}` is not: reverse before it (`x.iter().rev().{stage}(..)`), or collect the items first (`let kept: Vec<f64> = x.iter().{stage}(..).collect();`, then `kept.iter().rev()`)"),
            Some(Adaptor::Zip) => format!("write `zip` before the `{stage}` (`a.iter().zip(b).{stage}(|(x, _)| ..)`), or collect the items first (`let kept: Vec<f64> = a.iter().copied().{stage}(..).collect();`, then `kept.iter().zip(..)`)"),
            _ => format!("write `{name}` before the `{stage}` (`a.iter().{name}(..).{stage}(..)`), or collect the items first (`let kept: Vec<f64> = a.iter().copied().{stage}(..).collect();`, then `kept.iter().{name}(..)`)"),
        };
        self.diag.error(
            name.span(),
            format!("`#[derive_frule]` does not support `{name}` after `{stage}` in an iterator chain: after `{stage}` the items are no longer at the source's positions; {instead}"),
        );
        true
    }

    /// A closure, a `let`-bound closure, or a function path, as an adaptor's argument.
    fn parse_func<'e>(&self, e: &'e syn::Expr) -> Option<Func<'e>> {
        match strip(e) {
            syn::Expr::Closure(c) => Some(Func::Lambda(c)),
            syn::Expr::Path(p) => match p
                .path
                .get_ident()
                .and_then(|id| self.lookup_closure(&id.to_string()))
            {
                Some(def) => Some(Func::Bound(def)),
                None if p
                    .path
                    .get_ident()
                    .is_some_and(|id| self.lookup(&id.to_string()).is_some()) =>
                {
                    None
                }
                None => Some(Func::Path(&p.path)),
            },
            _ => None,
        }
    }

    /// Whether `e` is an indexed chain lowering reads, and then whether its items are
    /// references.
    pub(super) fn chain_yields_refs(&self, e: &syn::Expr) -> Option<bool> {
        Some(self.parse_chain(e)?.yields_refs())
    }

    /// Reads an index-based iterator chain; `None` if it is not one this lowering handles.
    fn parse_chain<'e>(&self, e: &'e syn::Expr) -> Option<Chain<'e>> {
        match strip(e) {
            syn::Expr::MethodCall(m) => {
                let recv = || self.parse_chain(&m.receiver).map(Box::new);
                let arg = m.args.first();
                // `x.chunks_exact(n).remainder()`: a slice.
                if Rewrite::from_name(&m.method.to_string()) == Some(Rewrite::Remainder) {
                    return Some(Chain::Slice(e, Access::Ref));
                }
                let adaptor = Adaptor::from_name(&m.method.to_string())?;
                match (adaptor, m.args.len()) {
                    (Adaptor::Iter | Adaptor::IterMut | Adaptor::IntoIter, 0)
                        if self.names_non_diff(&m.receiver) || self.names_map(&m.receiver) =>
                    {
                        None
                    }
                    (Adaptor::Iter, 0) => Some(Chain::Slice(&m.receiver, Access::Ref)),
                    (Adaptor::IterMut, 0) => Some(Chain::Slice(&m.receiver, Access::RefMut)),
                    (Adaptor::IntoIter, 0) => self.parse_chain(&m.receiver).or_else(|| {
                        // `p.pts.into_iter()` of a field: Rust moves the field (a
                        // borrowed one would not compile), a `Vec` or array by value; so
                        // is a function's or method's result (`layer.forward(&h)
                        // .into_iter().map(gelu)`), and a local bound without its type
                        // (`let v = mk(x); v.into_iter()`), which is not a map (a map's
                        // type is written or made by `HashMap::new()`).
                        self.owned_sequence(&m.receiver).then(|| {
                            Chain::Copied(Box::new(Chain::Slice(&m.receiver, Access::Ref)))
                        })
                    }),
                    (Adaptor::Enumerate, 0) => Some(Chain::Enumerate(recv()?)),
                    (Adaptor::Rev, 0) => Some(Chain::Rev(recv()?)),
                    (Adaptor::Copied | Adaptor::Cloned, 0) => Some(Chain::Copied(recv()?)),
                    (Adaptor::Map, 1) => Some(Chain::Map(recv()?, self.parse_func(arg?)?)),
                    (Adaptor::Windows, 1) => Some(Chain::Windows(&m.receiver, arg?)),
                    (Adaptor::Chunks, 1) => Some(Chain::Chunks(&m.receiver, arg?, false, false)),
                    (Adaptor::ChunksExact, 1) => {
                        Some(Chain::Chunks(&m.receiver, arg?, true, false))
                    }
                    (Adaptor::ChunksMut, 1) => Some(Chain::Chunks(&m.receiver, arg?, false, true)),
                    (Adaptor::ChunksExactMut, 1) => {
                        Some(Chain::Chunks(&m.receiver, arg?, true, true))
                    }
                    (Adaptor::Chain, 1) => {
                        Some(Chain::Concat(recv()?, Box::new(self.parse_chain(arg?)?)))
                    }
                    (Adaptor::Zip, 1) => {
                        let other = self.zip_operand(arg?);
                        Some(Chain::Zip(recv()?, Box::new(other?)))
                    }
                    // Over a `map` with effects, its closure must run on the items these
                    // drop: element-wise stages ([`Tail::Skip`], [`Tail::StepBy`]).
                    (Adaptor::Skip | Adaptor::StepBy, 1)
                        if recv().is_some_and(|c| self.has_effectful_map(&c)) =>
                    {
                        None
                    }
                    (Adaptor::Skip, 1) => Some(Chain::Skip(recv()?, arg?)),
                    (Adaptor::Take, 1) => Some(Chain::Take(recv()?, arg?)),
                    (Adaptor::StepBy, 1) => Some(Chain::StepBy(recv()?, arg?)),
                    (Adaptor::Cycle, 0) => Some(Chain::Cycle(recv()?)),
                    _ => None,
                }
            }
            syn::Expr::Paren(p) => self.parse_chain(&p.expr),
            // `for (k, v) in &cells` of a map without tangents: its own iterator.
            syn::Expr::Reference(r) if self.names_non_diff(&r.expr) => None,
            // `for (k, v) in &weights` of a map of floats: its own iterator, duals by key.
            syn::Expr::Reference(r) if self.names_map(&r.expr) => None,
            syn::Expr::Reference(r) => {
                let access = if r.mutability.is_some() {
                    Access::RefMut
                } else {
                    Access::Ref
                };
                Some(Chain::Slice(&r.expr, access))
            }
            // `for v in [x, 2.0 * y]`, `for v in vec![..]`: an owned sequence by value.
            syn::Expr::Array(_) => Some(Chain::Copied(Box::new(Chain::Slice(e, Access::Ref)))),
            syn::Expr::Macro(m) if StdMacro::of_path(&m.mac.path) == Some(StdMacro::Vec) => {
                Some(Chain::Copied(Box::new(Chain::Slice(e, Access::Ref))))
            }
            syn::Expr::Range(r) => Some(Chain::Range(
                r.start.as_deref()?,
                r.end.as_deref(),
                matches!(r.limits, syn::RangeLimits::Closed(_)),
            )),
            syn::Expr::Path(p) => {
                let id = p.path.get_ident()?;
                let v = self.lookup(&id.to_string())?;
                let inner = match &self.func.values[v].ty {
                    TypeHint::Ref(inner) => inner,
                    // An owned array or `Vec` iterated by value yields its elements by value.
                    TypeHint::Seq(_) => {
                        return Some(Chain::Copied(Box::new(Chain::Slice(e, Access::Ref))))
                    }
                    _ => return None,
                };
                // A reference to a type not written (`row` of a local `Vec<Vec<f64>>`, bound
                // by `for row in &m`): a sequence, the one thing a `for` over it can be here.
                if !matches!(**inner, TypeHint::Seq(_) | TypeHint::Unknown) {
                    return None;
                }
                let mutable = match self.func.values[v].def {
                    ValueDef::Param(i) => self.func.params[i].is_mut_ref(),
                    _ => false,
                };
                Some(Chain::Slice(
                    e,
                    if mutable { Access::RefMut } else { Access::Ref },
                ))
            }
            _ => None,
        }
    }

    /// The indexed chain `zip(arg)` reads: a chain, or a name bound without a type (`b` of
    /// `if let Some(b) = &self.bias`), a borrowed sequence, the one thing `zip` takes that
    /// the rule can index; `zip(layer.forward(x))` of a call's result: an owned `Vec` or
    /// array, by value.
    fn zip_operand<'e>(&self, arg: &'e syn::Expr) -> Option<Chain<'e>> {
        self.parse_chain(arg).or_else(|| {
            if self.untyped_local(arg) {
                Some(Chain::Slice(arg, Access::Ref))
            } else if self.owned_sequence(arg) {
                Some(Chain::Copied(Box::new(Chain::Slice(arg, Access::Ref))))
            } else {
                None
            }
        })
    }

    /// Whether `e` is a local bound without a type the syntax shows.
    fn untyped_local(&self, e: &syn::Expr) -> bool {
        let syn::Expr::Path(p) = strip(e) else {
            return false;
        };
        p.path
            .get_ident()
            .and_then(|id| self.lookup(&id.to_string()))
            .is_some_and(|v| self.func.values[v].ty == TypeHint::Unknown)
    }

    /// Whether `e`, the receiver of `into_iter()`, is taken for an owned `Vec` or array:
    /// a field, a call's or a method's result that is not itself a chain, or a local of no
    /// written type.
    fn owned_sequence(&self, e: &syn::Expr) -> bool {
        match strip(e) {
            syn::Expr::Field(_) | syn::Expr::Call(_) => true,
            syn::Expr::MethodCall(m) => Adaptor::from_name(&m.method.to_string()).is_none(),
            syn::Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|id| self.lookup(&id.to_string()))
                .is_some_and(|v| self.func.values[v].ty == TypeHint::Unknown),
            _ => false,
        }
    }

    /// Whether an index-transparent `map` of `chain` calls a closure with effects on the
    /// locals in scope (assigning or lending a capture, calling a method of the user's on
    /// one): `std` runs it on every item `skip` and `step_by` pass over.
    fn has_effectful_map(&self, chain: &Chain<'_>) -> bool {
        let mut effects = false;
        for_each_func(chain, &[], &mut |f| {
            let c = match f {
                Func::Lambda(c) => *c,
                Func::Bound(def) => &def.expr,
                Func::Path(_) => return,
            };
            effects |= self
                .closure_assigned(c)
                .into_iter()
                .chain(super::control::closure_effects(c))
                .any(|name| self.lookup(&name).is_some());
        });
        effects
    }

    /// Whether `e` is a local or parameter whose written type carries no tangent.
    fn names_non_diff(&self, e: &syn::Expr) -> bool {
        let syn::Expr::Path(p) = strip(e) else {
            return false;
        };
        p.path
            .get_ident()
            .and_then(|id| self.lookup(&id.to_string()))
            .is_some_and(|v| self.func.values[v].ty == TypeHint::NonDiff)
    }

    /// Whether `e` is a local or parameter whose written type is a map holding floats
    /// (`HashMap<usize, f64>`, `&BTreeMap<i64, f64>`).
    pub(super) fn names_map(&self, e: &syn::Expr) -> bool {
        let syn::Expr::Path(p) = strip(e) else {
            return false;
        };
        p.path
            .get_ident()
            .and_then(|id| self.lookup(&id.to_string()))
            .is_some_and(|v| matches!(self.func.values[v].ty.deref_all_pub(), TypeHint::Map(..)))
    }

    /// `for pat in chain { body }` as a counted loop, if `f.expr` is a chain over a slice.
    pub(crate) fn try_lower_for_chain(&mut self, f: &syn::ExprForLoop) -> Option<Option<Value>> {
        let Some((chain, tail)) = self.parse_pipeline(&f.expr) else {
            if self.report_after_stage(&f.expr) {
                return Some(Some(self.poison(f.span())));
            }
            return None;
        };
        if !chain.has_slice() && !chain.has_map() && tail.is_empty() {
            return None;
        }
        let span = f.span();
        if !lambdas(&chain, &tail)
            .into_iter()
            .all(|c| self.check_closure(c))
        {
            return Some(Some(self.poison(span)));
        }
        Some(self.lower_for_chain(f, chain, tail, span))
    }

    /// Locals assigned inside the closures of a pipeline (an `FnMut` closure such as
    /// `|v| total += v`, or `|_| take(2)` calling a closure in scope that assigns
    /// `offset`): loop-carried values of the lowered loop.
    fn closure_assignments<'e>(
        &self,
        chain: &Chain<'e>,
        tail: &[Tail<'e>],
    ) -> std::collections::HashSet<String> {
        let mut out = std::collections::HashSet::new();
        for_each_func(chain, tail, &mut |f| match f {
            Func::Lambda(c) => out.extend(self.closure_assigned(c)),
            Func::Bound(d) => out.extend(self.closure_assigned(&d.expr)),
            Func::Path(_) => {}
        });
        out
    }

    fn lower_for_chain<'e>(
        &mut self,
        f: &syn::ExprForLoop,
        chain: Chain<'e>,
        tail: Vec<Tail<'e>>,
        span: Span,
    ) -> Option<Value> {
        let mut assigned = self.loop_assigned(&f.body);
        assigned.extend(self.closure_assignments(&chain, &tail));
        let (seq, len) = self.prepare(chain, span)?;
        self.push_scope();
        self.start_tail_state(&tail, &mut assigned, span)?;
        let range = self.counter_range(0, len, span);
        let label = f.label.as_ref().map(|l| l.name.ident.to_string());
        let pat = &*f.pat;
        let v = self.lower_for_over(label, range, assigned, span, |lw, k| {
            let k = k?;
            lw.tail_take_guards(&tail, span)?;
            let shape = lw.elem(&seq, k, false, span)?;
            lw.run_tail(&tail, shape, span, &mut |lw, shape| {
                // In a scope of its own: under a `filter` or `scan` this runs inside an
                // `if`, whose merge would take a pattern shadowing an outer local
                // (`let x = ..; for x in v.iter().filter(..)`) for an assignment of it.
                lw.push_scope();
                lw.bind_shape(pat, shape, span);
                let body = lw.lower_block(&f.body).map(|_| ());
                lw.pop_scope();
                body
            })?;
            Some(lw.unit(span))
        });
        self.pop_scope();
        v
    }

    /// Binds the loop-carried state of the pipeline's `scan`s to their initial values,
    /// evaluated once before the loop as Rust evaluates adaptor arguments.
    fn start_tail_state(
        &mut self,
        tail: &[Tail<'_>],
        assigned: &mut std::collections::HashSet<String>,
        span: Span,
    ) -> Option<()> {
        for t in tail {
            if let Tail::SkipWhile { state, .. } = t {
                let lit = InstKind::Lit(syn::parse_quote_spanned!(span=> true));
                let v = self.push(lit, TypeHint::Bool, span);
                let name = syn::Ident::new(&format!("__fwdad_skipping_{v}"), span);
                self.bind(&name, v);
                assigned.insert(name.to_string());
                if state.set(name).is_err() {
                    self.diag.error(
                        span,
                        "internal error in `#[derive_frule]`: a `skip_while` state started twice",
                    );
                    return None;
                }
            }
            if let Tail::Skip { n, state } = t {
                let v = self.lower_expr(n)?;
                let v = self.push(InstKind::Copy(v), TypeHint::Int, span);
                let name = syn::Ident::new(&format!("__fwdad_skip_{v}"), span);
                self.bind(&name, v);
                assigned.insert(name.to_string());
                if state.set(name).is_err() {
                    self.diag.error(
                        span,
                        "internal error in `#[derive_frule]`: a `skip` state started twice",
                    );
                    return None;
                }
            }
            if let Tail::StepBy { step, state } = t {
                // `step - 1`, evaluated once; `step_by(0)` panics, with `std`'s message.
                let template = syn::parse_quote_spanned!(span=> {
                    let __fwdad_step: usize = __fwdad_arg;
                    ::core::assert!(__fwdad_step != 0, "assertion failed: step != 0");
                    __fwdad_step - 1
                });
                let block = fill(template, &[("__fwdad_arg", Hole::Expr(step))]);
                let stride = self.lower_expr(&block)?;
                let zero = self.push(
                    InstKind::Lit(syn::parse_quote_spanned!(span=> 0usize)),
                    TypeHint::Int,
                    span,
                );
                let name = syn::Ident::new(&format!("__fwdad_step_{zero}"), span);
                self.bind(&name, zero);
                assigned.insert(name.to_string());
                if state.set((name, stride)).is_err() {
                    self.diag.error(
                        span,
                        "internal error in `#[derive_frule]`: a `step_by` state started twice",
                    );
                    return None;
                }
            }
            if let Tail::Take { n, state } = t {
                let v = self.lower_expr(n)?;
                let v = self.push(InstKind::Copy(v), TypeHint::Int, span);
                let name = syn::Ident::new(&format!("__fwdad_take_{v}"), span);
                self.bind(&name, v);
                assigned.insert(name.to_string());
                if state.set(name).is_err() {
                    self.diag.error(
                        span,
                        "internal error in `#[derive_frule]`: a `take` state started twice",
                    );
                    return None;
                }
            }
            if let Tail::Zip { other, state } = t {
                let Some(chain) = other.borrow_mut().take() else {
                    self.diag.error(
                        span,
                        "internal error in `#[derive_frule]`: a `zip` state started twice",
                    );
                    return None;
                };
                let (seq, len) = self.prepare(chain, span)?;
                let zero = self.push(
                    InstKind::Lit(syn::parse_quote_spanned!(span=> 0usize)),
                    TypeHint::Int,
                    span,
                );
                let name = syn::Ident::new(&format!("__fwdad_zipped_{zero}"), span);
                self.bind(&name, zero);
                assigned.insert(name.to_string());
                if state.set((seq, len, name)).is_err() {
                    self.diag.error(
                        span,
                        "internal error in `#[derive_frule]`: a `zip` state started twice",
                    );
                    return None;
                }
            }
            if let Tail::Enumerate { state } = t {
                let zero = self.push(
                    InstKind::Lit(syn::parse_quote_spanned!(span=> 0usize)),
                    TypeHint::Int,
                    span,
                );
                let name = syn::Ident::new(&format!("__fwdad_count_{zero}"), span);
                self.bind(&name, zero);
                assigned.insert(name.to_string());
                if state.set(name).is_err() {
                    self.diag.error(
                        span,
                        "internal error in `#[derive_frule]`: an `enumerate` state started twice",
                    );
                    return None;
                }
            }
            if let Tail::Scan { init, state, .. } = t {
                let v = self.lower_expr(init)?;
                let v = self.push(InstKind::Copy(v), self.func.values[v].ty.clone(), span);
                let name = syn::Ident::new(&format!("__fwdad_scan_{v}"), span);
                self.bind(&name, v);
                assigned.insert(name.to_string());
                if state.set(name).is_err() {
                    self.diag.error(
                        span,
                        "internal error in `#[derive_frule]`: a `scan` state started twice",
                    );
                    return None;
                }
            }
        }
        Some(())
    }

    /// [`Self::run_tail`] as the taken branch of a stage's `if`: its value, `None` if it
    /// diverged (a `break` in the consumer).
    fn run_tail_branch(
        &mut self,
        tail: &[Tail<'_>],
        shape: Shape,
        span: Span,
        consume: &mut dyn FnMut(&mut Self, Shape) -> Option<()>,
    ) -> Option<Value> {
        self.run_tail(tail, shape, span, consume)?;
        (!self.is_dead()).then(|| self.unit(span))
    }

    /// `left > 0` (`op` `Gt`) or `left == 0` (`Eq`) of the countdown `name` of a `skip`
    /// or `step_by`.
    fn countdown_test(&mut self, name: &str, op: BinOp, span: Span) -> Option<Value> {
        let left = self.lookup(name)?;
        let zero = self.push(
            InstKind::Lit(syn::parse_quote_spanned!(span=> 0usize)),
            TypeHint::Int,
            span,
        );
        Some(self.binary(op, left, zero, span))
    }

    /// `left -= 1;` of the countdown `name` of a `skip` or `step_by`: `()`.
    fn count_down(&mut self, name: &str, span: Span) -> Option<Value> {
        let one = self.push(
            InstKind::Lit(syn::parse_quote_spanned!(span=> 1usize)),
            TypeHint::Int,
            span,
        );
        let left = self.lookup(name)?;
        let next = self.binary(BinOp::Sub, left, one, span);
        self.assign(name, next);
        Some(self.unit(span))
    }

    /// Applies the element-wise stages to `shape`, then `consume`s it; a `filter` wraps the
    /// rest in an `if`, `take_while` and `scan` in an `if` whose `else` breaks the loop,
    /// and `inspect` calls its closure first.
    fn run_tail(
        &mut self,
        tail: &[Tail<'_>],
        shape: Shape,
        span: Span,
        consume: &mut dyn FnMut(&mut Self, Shape) -> Option<()>,
    ) -> Option<()> {
        match tail.split_first() {
            None => consume(self, shape),
            Some((Tail::Map(f), rest)) => {
                let v = self.apply(f, vec![shape], span)?;
                self.run_tail(rest, Shape::Val(v), span, consume)
            }
            Some((Tail::Filter(f) | Tail::TakeWhile(f), rest)) => {
                // `filter`'s and `take_while`'s closures take `&item`.
                let item = self.build_shape(shape, span);
                let r = self.borrow(item, false, span);
                let keep = self.apply(f, vec![Shape::Val(r)], span)?;
                let stops = matches!(tail[0], Tail::TakeWhile(_));
                self.lower_branches(
                    keep,
                    span,
                    |lw| lw.run_tail_branch(rest, Shape::Val(item), span, consume),
                    |lw| {
                        if stops {
                            // The chain's own loop, innermost here.
                            lw.break_to(0, None, span);
                            None
                        } else {
                            Some(lw.unit(span))
                        }
                    },
                );
                Some(())
            }
            Some((Tail::Unwrapping { f, ends }, rest)) => {
                let out = self.apply(f, vec![shape], span)?;
                let call = |lw: &mut Self, m: StdMethod, ty| {
                    let kind = InstKind::MethodCall {
                        callee: MethodCallee::Unresolved,
                        receiver: out,
                        method: m.ident(span),
                        turbofish: None,
                        args: vec![],
                    };
                    lw.push(kind, ty, span)
                };
                let some = call(self, StdMethod::IsSome, TypeHint::Bool);
                let ends = *ends;
                self.lower_branches(
                    some,
                    span,
                    |lw| {
                        let b = call(lw, StdMethod::Unwrap, TypeHint::Unknown);
                        lw.run_tail_branch(rest, Shape::Val(b), span, consume)
                    },
                    |lw| {
                        if ends {
                            lw.break_to(0, None, span);
                            None
                        } else {
                            Some(lw.unit(span))
                        }
                    },
                );
                Some(())
            }
            Some((Tail::Inspect(f), rest)) => {
                let item = self.build_shape(shape, span);
                let r = self.borrow(item, false, span);
                self.apply(f, vec![Shape::Val(r)], span)?;
                self.run_tail(rest, Shape::Val(item), span, consume)
            }
            Some((Tail::SkipWhile { f, state }, rest)) => {
                let Some(st) = state.get().cloned() else {
                    self.diag.error(
                        span,
                        "internal error in `#[derive_frule]`: a `skip_while` state used before it was started",
                    );
                    return None;
                };
                let name = st.to_string();
                let item = self.build_shape(shape, span);
                // `if skipping { skipping = p(&item); }`
                let skipping = self.lookup(&name)?;
                self.lower_branches(
                    skipping,
                    span,
                    |lw| {
                        let r = lw.borrow(item, false, span);
                        let still = lw.apply(f, vec![Shape::Val(r)], span)?;
                        lw.assign(&name, still);
                        Some(lw.unit(span))
                    },
                    |lw| Some(lw.unit(span)),
                );
                // `if !skipping { rest }`
                let skipping = self.lookup(&name)?;
                self.lower_branches(
                    skipping,
                    span,
                    |lw| Some(lw.unit(span)),
                    |lw| lw.run_tail_branch(rest, Shape::Val(item), span, consume),
                );
                Some(())
            }
            Some((Tail::Skip { state, .. }, rest)) => {
                let Some(st) = state.get().cloned() else {
                    self.diag.error(
                        span,
                        "internal error in `#[derive_frule]`: a `skip` state used before it was started",
                    );
                    return None;
                };
                let name = st.to_string();
                let item = self.build_shape(shape, span);
                // `if left > 0 { left -= 1; } else { rest }`
                let dropping = self.countdown_test(&name, BinOp::Gt, span)?;
                self.lower_branches(
                    dropping,
                    span,
                    |lw| lw.count_down(&name, span),
                    |lw| lw.run_tail_branch(rest, Shape::Val(item), span, consume),
                );
                Some(())
            }
            Some((Tail::StepBy { state, .. }, rest)) => {
                let Some((st, stride)) = state.get().cloned() else {
                    self.diag.error(
                        span,
                        "internal error in `#[derive_frule]`: a `step_by` state used before it was started",
                    );
                    return None;
                };
                let name = st.to_string();
                let item = self.build_shape(shape, span);
                // `if left == 0 { left = step - 1; rest } else { left -= 1; }`
                let taking = self.countdown_test(&name, BinOp::Eq, span)?;
                self.lower_branches(
                    taking,
                    span,
                    |lw| {
                        lw.assign(&name, stride);
                        lw.run_tail_branch(rest, Shape::Val(item), span, consume)
                    },
                    |lw| lw.count_down(&name, span),
                );
                Some(())
            }
            Some((Tail::Take { state, .. }, rest)) => {
                // `left -= 1; rest`: the loop's head ends it once `left` is zero.
                let name = self.tail_state(state, "take", span)?;
                self.count_down(&name, span)?;
                self.run_tail(rest, shape, span, consume)
            }
            Some((Tail::Zip { state, .. }, rest)) => {
                // `if j < len { let b = other(j); j += 1; rest((item, b)) } else { break }`
                let Some((seq, len, st)) = state.get() else {
                    self.diag.error(
                        span,
                        "internal error in `#[derive_frule]`: a `zip` state used before it was started",
                    );
                    return None;
                };
                let name = st.to_string();
                let j = self.lookup(&name)?;
                let more = self.binary(BinOp::Lt, j, *len, span);
                self.lower_branches(
                    more,
                    span,
                    |lw| {
                        let b = lw.elem(seq, j, false, span)?;
                        let one = lw.push(
                            InstKind::Lit(syn::parse_quote_spanned!(span=> 1usize)),
                            TypeHint::Int,
                            span,
                        );
                        let next = lw.binary(BinOp::Add, j, one, span);
                        lw.assign(&name, next);
                        let pair = Shape::Tuple(vec![shape, b]);
                        lw.run_tail_branch(rest, pair, span, consume)
                    },
                    |lw| {
                        lw.break_to(0, None, span);
                        None
                    },
                );
                Some(())
            }
            Some((Tail::Copied, rest)) => {
                let item = self.build_shape(shape, span);
                let ty = self.func.values[item].ty.deref();
                let op = crate::ir::UnOp::Deref;
                let v = self.push(InstKind::Unary { op, arg: item }, ty, span);
                self.run_tail(rest, Shape::Val(v), span, consume)
            }
            Some((Tail::Enumerate { state }, rest)) => {
                // `let i = count; count += 1; rest((i, item))`.
                let name = self.tail_state(state, "enumerate", span)?;
                let i = self.lookup(&name)?;
                let one = self.push(
                    InstKind::Lit(syn::parse_quote_spanned!(span=> 1usize)),
                    TypeHint::Int,
                    span,
                );
                let next = self.binary(BinOp::Add, i, one, span);
                self.assign(&name, next);
                let pair = Shape::Tuple(vec![Shape::Val(i), shape]);
                self.run_tail(rest, pair, span, consume)
            }
            Some((Tail::Scan { f, state, .. }, rest)) => {
                let Some(st) = state.get().cloned() else {
                    // `start_tail_state` binds it before the loop; a consumer path that
                    // skipped it is a bug here, not in the user's code.
                    self.diag.error(
                        span,
                        "internal error in `#[derive_frule]`: a `scan` state used before it was started",
                    );
                    return None;
                };
                // `{ let s = &mut state; let v = item; body }`: the ordinary lowering of a
                // `&mut` borrow of a local carries the closure's writes to the state.
                let item = self.build_shape(shape, span);
                let item_name = syn::Ident::new(&format!("__fwdad_item_{item}"), span);
                self.push_scope();
                self.bind(&item_name, item);
                let (ps, pv, body) = (&f.inputs[0], &f.inputs[1], &f.body);
                let template = syn::parse_quote_spanned!(span=> {
                    let __fwdad_ps = &mut __fwdad_st;
                    let __fwdad_pv = __fwdad_it;
                    __fwdad_body
                });
                let block = fill(
                    template,
                    &[
                        ("__fwdad_ps", Hole::Pat(ps)),
                        ("__fwdad_st", Hole::Expr(&path_expr(&st))),
                        ("__fwdad_pv", Hole::Pat(pv)),
                        ("__fwdad_it", Hole::Expr(&path_expr(&item_name))),
                        ("__fwdad_body", Hole::Expr(body)),
                    ],
                );
                let out = self.lower_expr(&block);
                self.pop_scope();
                let out = out?;
                let call = |lw: &mut Self, m: StdMethod, ty| {
                    let kind = InstKind::MethodCall {
                        callee: MethodCallee::Unresolved,
                        receiver: out,
                        method: m.ident(span),
                        turbofish: None,
                        args: vec![],
                    };
                    lw.push(kind, ty, span)
                };
                let some = call(self, StdMethod::IsSome, TypeHint::Bool);
                self.lower_branches(
                    some,
                    span,
                    |lw| {
                        let b = call(lw, StdMethod::Unwrap, TypeHint::Unknown);
                        lw.run_tail_branch(rest, Shape::Val(b), span, consume)
                    },
                    |lw| {
                        lw.break_to(0, None, span);
                        None
                    },
                );
                Some(())
            }
        }
    }

    /// The name of a counted stage's loop-carried state, started by
    /// [`Self::start_tail_state`].
    fn tail_state(
        &mut self,
        state: &std::cell::OnceCell<syn::Ident>,
        what: &str,
        span: Span,
    ) -> Option<String> {
        match state.get() {
            Some(st) => Some(st.to_string()),
            None => {
                self.diag.error(
                    span,
                    format!("internal error in `#[derive_frule]`: a `{what}` state used before it was started"),
                );
                None
            }
        }
    }

    /// At the head of a pipeline's loop, before it takes the next item: `if left == 0 {
    /// break; }` for each `take(n)` among its stages, as `std`'s `Take` pulls nothing
    /// once its count is zero (so the closures before it see no further item).
    #[inline(never)]
    fn tail_take_guards(&mut self, tail: &[Tail<'_>], span: Span) -> Option<()> {
        for t in tail {
            if let Tail::Take { state, .. } = t {
                let name = self.tail_state(state, "take", span)?;
                let done = self.countdown_test(&name, BinOp::Eq, span)?;
                self.lower_branches(
                    done,
                    span,
                    |lw| {
                        lw.break_to(0, None, span);
                        None
                    },
                    |lw| Some(lw.unit(span)),
                );
            }
        }
        Some(())
    }

    /// Calls an adaptor's function on element shapes.
    fn apply(&mut self, f: &Func<'_>, args: Vec<Shape>, span: Span) -> Option<Value> {
        match f {
            Func::Lambda(c) => self.inline_closure(c, None, args, span),
            Func::Bound(def) => self.inline_closure(&def.expr, Some(def), args, span),
            // `fold(T::neg_infinity(), T::max)`, `Float::min`: the float method on the
            // first argument, as `T::max(a, b)` written out is.
            Func::Path(p) if self.is_float_method_path(p) => {
                let mut vals: Vec<Value> = args
                    .into_iter()
                    .map(|a| self.build_shape(a, span))
                    .collect();
                if vals.is_empty() {
                    return None;
                }
                let receiver = vals.remove(0);
                let method = p.segments.last()?.ident.clone();
                Some(self.push(
                    InstKind::MethodCall {
                        callee: MethodCallee::Unresolved,
                        receiver,
                        method,
                        turbofish: None,
                        args: vals,
                    },
                    TypeHint::Float,
                    span,
                ))
            }
            Func::Path(p) => {
                let vals = args
                    .into_iter()
                    .map(|a| self.build_shape(a, span))
                    .collect();
                let ty = match crate::callee::float_path_call(p) {
                    Some(_) => TypeHint::Float,
                    None => TypeHint::Unknown,
                };
                Some(self.push(
                    InstKind::Call {
                        callee: PathCallee::Unresolved,
                        func: (*p).clone(),
                        args: vals,
                    },
                    ty,
                    span,
                ))
            }
        }
    }

    /// Inlines a closure's body with its parameters bound to `args` (and, for a `move`
    /// closure bound by `let`, the bindings it captured).
    pub(crate) fn inline_closure(
        &mut self,
        c: &syn::ExprClosure,
        def: Option<&super::ClosureDef>,
        args: Vec<Shape>,
        span: Span,
    ) -> Option<Value> {
        if c.inputs.len() != args.len() {
            self.diag.error_spanned(
                c,
                format!(
                    "this closure takes {} arguments but is called with {}",
                    c.inputs.len(),
                    args.len()
                ),
            );
            return Some(self.poison(span));
        }
        let depth = self.scopes_len();
        // A `move` closure sees the values it captured; one that borrows, the variables
        // it saw where it was written (a literal in a chain is written here).
        match def {
            Some(def) if c.capture.is_some() => self.push_env(&def.env),
            Some(def) => self.push_view(&def.visible),
            None => {}
        }
        self.push_scope();
        for (pat, shape) in c.inputs.iter().zip(args) {
            match pat {
                syn::Pat::Type(pt) => {
                    let v = self.build_shape(shape, span);
                    self.bind_pattern(pat, v, Some(&pt.ty));
                }
                _ => self.bind_shape(pat, shape, span),
            }
        }
        // `return e` and `e?` leave the closure, not the function it is inlined in.
        let v = match self.closure_exits(c) {
            Some(rewritten) => self.lower_expr(&rewritten.body),
            None => self.lower_expr(&c.body),
        };
        self.truncate_scopes(depth);
        v
    }

    /// The closure a call of a closure bound by `let` returns (`let f = make(p[0]);` with
    /// `let make = |k: f64| move |x: f64| k * x * x;`): the outer closure's parameters
    /// are bound to the arguments and its statements before the returned closure run
    /// here, once, and the returned closure is remembered as a `move` closure holding what
    /// it captured then, inlined where it is called as a `let` closure is. `None` when the
    /// call is not one of such a closure; `Some(None)` after an error.
    pub(crate) fn returned_closure(
        &mut self,
        call: &syn::ExprCall,
    ) -> Option<Option<super::ClosureDef>> {
        let syn::Expr::Path(p) = super::place::strip(&call.func) else {
            return None;
        };
        let outer = self.lookup_closure(&p.path.get_ident()?.to_string())?;
        let (stmts, inner) = closure_returned_by(&outer.expr.body)?;
        let span = call.span();
        if outer.expr.inputs.len() != call.args.len() {
            self.diag.error_spanned(
                call,
                format!(
                    "this closure takes {} arguments but is called with {}",
                    outer.expr.inputs.len(),
                    call.args.len()
                ),
            );
            return Some(None);
        }
        let Some(args) = self.lower_exprs(call.args.iter()) else {
            return Some(None);
        };
        let depth = self.scopes_len();
        if outer.expr.capture.is_some() {
            self.push_env(&outer.env);
        } else {
            self.push_view(&outer.visible);
        }
        self.push_scope();
        for (pat, v) in outer.expr.inputs.iter().zip(args) {
            match pat {
                syn::Pat::Type(pt) => self.bind_pattern(pat, v, Some(&pt.ty)),
                _ => self.bind_shape(pat, Shape::Val(v), span),
            }
        }
        let ran = stmts.is_empty() || self.lower_block_stmts(stmts, span).is_some();
        // Its captures are taken when it is made, as Rust's `move` closure takes them (a
        // closure that borrows instead cannot outlive the outer call's parameters); it
        // may not assign what it captured, the outer parameters included (`|mut k|`: it
        // would be `FnMut`, with state to keep from call to call).
        let mut expr = inner.clone();
        expr.capture = Some(syn::Token![move](inner.span()));
        let ok = ran && self.check_closure(&expr);
        let env = self.capture_env();
        self.truncate_scopes(depth);
        if !ok {
            return Some(None);
        }
        Some(Some(super::ClosureDef {
            expr,
            env,
            visible: Vec::new(),
        }))
    }

    /// Rejects what inlining cannot honour: `async` closures, and `move` closures that
    /// assign what they captured. (`return` and `?` leave the inlined body: see
    /// `closure_exits`.)
    pub(crate) fn check_closure(&mut self, c: &syn::ExprClosure) -> bool {
        if c.asyncness.is_some() {
            self.diag
                .error_spanned(c, "`#[derive_frule]` does not support `async` closures");
            return false;
        }
        if c.capture.is_some() {
            // Inlining restarts a `move` closure from the captured values at each call,
            // where Rust keeps the closure's own copy across calls: refuse rather than
            // compute another value.
            let own = closure_own_names(c);
            let mut state: Vec<String> = super::control::assigned_in_closure(c)
                .into_iter()
                .filter(|n| !own.contains(n) && self.lookup(n).is_some())
                .collect();
            state.sort();
            if let Some(name) = state.first() {
                self.diag.error_spanned(c, format!("`#[derive_frule]` does not support a `move` closure that assigns a captured variable (`{name}`): the closure's own copy would have to persist from call to call; drop `move` (the closure then updates `{name}` itself) or pass the state in and out as arguments"));
                return false;
            }
        }
        true
    }

    /// `chain.sum()`, `.product()`, `.fold(init, f)`, `.count()`, `.for_each(f)`,
    /// `.any(p)`, `.all(p)`, `.collect()` as a counted loop with an accumulator, and
    /// `.max_by(cmp)`/`.min_by(cmp)` (see `lower_extremum`). `None`
    /// if the receiver is not a chain this lowering handles.
    pub(crate) fn try_lower_consumer(&mut self, m: &syn::ExprMethodCall) -> Option<Option<Value>> {
        // `line.sum()` on a value whose type is written as the user's: the user's method.
        if self.is_written_user_receiver(&m.receiver) {
            return None;
        }
        // `a.sum()` on a library value (`a: &Array1<f64>`): the library's method.
        if self.is_written_lib_receiver(&m.receiver) {
            return None;
        }
        let name = m.method.to_string();
        let Some((chain, tail)) = self.parse_pipeline(&m.receiver) else {
            if Consumer::from_name(&name).is_some() && self.report_after_stage(&m.receiver) {
                return Some(Some(self.poison(m.span())));
            }
            return None;
        };
        let consumer = Consumer::from_name(&name)?;
        // A bare range with a consumer that takes a closure (`(k..n).max_by(..)` reading
        // active data, a pivot search) is lowered too; `(0..n).sum()` stays plain Rust.
        let takes_closure = consumer.takes_closure();
        if !chain.has_slice() && !chain.has_map() && tail.is_empty() && !takes_closure {
            return None;
        }
        let consumer_fn = match (consumer, m.args.len()) {
            (Consumer::Fold, 2) => Some(self.parse_func(&m.args[1])?),
            (Consumer::ForEach | Consumer::Any | Consumer::All, 1) => {
                Some(self.parse_func(&m.args[0])?)
            }
            // The comparator gets `&Item`s: a closure (a path such as `f64::total_cmp`
            // would be handed values), over a chain whose indices follow its source.
            (Consumer::MaxBy | Consumer::MinBy, 1) => match self.parse_func(&m.args[0])? {
                f @ (Func::Lambda(_) | Func::Bound(_)) => Some(f),
                Func::Path(p) => {
                    self.diag.error_spanned(p, format!("`#[derive_frule]` takes `{name}`'s comparator as a closure: write `|a, b| a.total_cmp(b)` (or `a.partial_cmp(b).unwrap()`)"));
                    return Some(Some(self.poison(m.span())));
                }
            },
            (Consumer::Sum | Consumer::Product | Consumer::Count | Consumer::Collect, 0) => None,
            _ => return None,
        };
        if consumer == Consumer::Collect {
            if let Some(tf) = &m.turbofish {
                let ok = matches!(tf.args.first(), Some(syn::GenericArgument::Type(syn::Type::Path(p))) if crate::callee::is_vec_type(&p.path));
                if !ok {
                    return None;
                }
            }
        }
        let mut written = lambdas(&chain, &tail);
        if let Some(Func::Lambda(c)) = &consumer_fn {
            written.push(c);
        }
        if !written.into_iter().all(|c| self.check_closure(c)) {
            return Some(Some(self.poison(m.span())));
        }
        if matches!(consumer, Consumer::MaxBy | Consumer::MinBy) {
            let cmp = consumer_fn?;
            let mut assigned = self.closure_assignments(&chain, &tail);
            if let Func::Lambda(c) = &cmp {
                assigned.extend(self.closure_assigned(c));
            }
            let span = m.span();
            let (seq, len) = if tail.is_empty() {
                self.prepare(chain, span)?
            } else if chain.yields_refs()
                && !tail.iter().any(|t| {
                    matches!(
                        t,
                        Tail::Map(_) | Tail::Scan { .. } | Tail::Unwrapping { .. } | Tail::Copied
                    )
                })
            {
                let stage = tail[0].name();
                self.diag.error(m.method.span(), format!("`#[derive_frule]` supports `{name}` after `{stage}` on values, not references: add `.copied()` before the `{stage}`"));
                return Some(Some(self.poison(span)));
            } else {
                // After a `filter` the items are not at the source's indices: gather the
                // kept ones first (what `max_by` would see, in order).
                let kept = self.lower_consumer(m, Consumer::Collect, chain, tail, None)?;
                let len = self.push(
                    InstKind::MethodCall {
                        callee: MethodCallee::Unresolved,
                        receiver: kept,
                        method: StdMethod::Len.ident(span),
                        turbofish: None,
                        args: vec![],
                    },
                    TypeHint::Int,
                    span,
                );
                (Seq::Copied(Box::new(Seq::Slice(kept, Access::Ref))), len)
            };
            return Some(self.lower_extremum(span, consumer, seq, len, cmp, assigned));
        }
        Some(self.lower_consumer(m, consumer, chain, tail, consumer_fn))
    }

    /// `chain.max_by(cmp)` / `.min_by(cmp)` as std folds them: the first element, then
    /// `cmp(&best, &item)` for each later one; `max_by` takes the item unless `best` is
    /// greater (ties keep the last), `min_by` only if `best` is greater (ties keep the
    /// first). `None` for an empty chain. The comparator only reads primals, so the
    /// result's tangent is the chosen element's.
    fn lower_extremum(
        &mut self,
        span: Span,
        consumer: Consumer,
        seq: Seq<'_>,
        len: Value,
        cmp: Func<'_>,
        mut assigned: std::collections::HashSet<String>,
    ) -> Option<Value> {
        let zero = self.push(
            InstKind::Lit(syn::parse_quote_spanned!(span=> 0usize)),
            TypeHint::Int,
            span,
        );
        let nonempty = self.binary(BinOp::Gt, len, zero, span);
        let best = syn::Ident::new("__fwdad_best", span);
        let keep_last = consumer == Consumer::MaxBy;
        let join = self.lower_branches(
            nonempty,
            span,
            |lw| {
                lw.push_scope();
                let first = lw.elem(&seq, zero, false, span)?;
                let first = lw.build_shape(first, span);
                let first = lw.push(
                    InstKind::Copy(first),
                    lw.func.values[first].ty.clone(),
                    span,
                );
                lw.bind(&best, first);
                assigned.insert(best.to_string());
                let range = lw.counter_range(1, len, span);
                let best_name = best.to_string();
                lw.lower_for_over(None, range, assigned, span, |lw, k| {
                    let item = lw.elem(&seq, k?, false, span)?;
                    let item = lw.build_shape(item, span);
                    let current = lw.lookup(&best_name)?;
                    // The comparator takes `&Item`s.
                    let args = vec![
                        Shape::Val(lw.borrow(current, false, span)),
                        Shape::Val(lw.borrow(item, false, span)),
                    ];
                    let ord = lw.apply(&cmp, args, span)?;
                    let greater: syn::ExprPath =
                        syn::parse_quote_spanned!(span=> ::core::cmp::Ordering::Greater);
                    let greater = lw.lower_path(&greater);
                    let op = if keep_last { BinOp::Ne } else { BinOp::Eq };
                    let take = lw.binary(op, ord, greater, span);
                    let name = best_name.clone();
                    lw.lower_branches(
                        take,
                        span,
                        |lw| {
                            lw.assign(&name, item);
                            Some(lw.unit(span))
                        },
                        |lw| Some(lw.unit(span)),
                    );
                    Some(lw.unit(span))
                })?;
                let chosen = lw.lookup(&best_name)?;
                let some: syn::Path =
                    syn::parse_quote_spanned!(span=> ::core::option::Option::Some);
                let ty = TypeHint::Unknown;
                let v = lw.push(
                    InstKind::Call {
                        callee: PathCallee::Unresolved,
                        func: some,
                        args: vec![chosen],
                    },
                    ty,
                    span,
                );
                lw.pop_scope();
                Some(v)
            },
            |lw| {
                let none: syn::ExprPath =
                    syn::parse_quote_spanned!(span=> ::core::option::Option::None);
                Some(lw.lower_path(&none))
            },
        );
        let ty = join.ty();
        self.join_value(join, ty)
    }

    fn lower_consumer<'e>(
        &mut self,
        m: &syn::ExprMethodCall,
        consumer: Consumer,
        chain: Chain<'e>,
        tail: Vec<Tail<'e>>,
        f: Option<Func<'_>>,
    ) -> Option<Value> {
        let span = m.span();
        let mut assigned = self.closure_assignments(&chain, &tail);
        if let Some(Func::Lambda(c)) = &f {
            assigned.extend(self.closure_assigned(c));
        }
        if let (Consumer::Sum | Consumer::Product, Some(syn::GenericArgument::Type(ty))) =
            (consumer, m.turbofish.as_ref().and_then(|t| t.args.first()))
        {
            if self.user_shape_of_type(ty) == Some(super::user_ops::UserShape::Value) {
                return match self.user_reduction(m, ty) {
                    Some(e) => self.lower_expr(&e),
                    None => Some(self.poison(span)),
                };
            }
            match self.library_reduction(m, ty) {
                Some(Some(e)) => return self.lower_expr(&e),
                Some(None) => return Some(self.poison(span)),
                None => {}
            }
        }
        let float_elems = !matches!(turbofish_hint(m), Some(TypeHint::Int));
        // In a function generic over a float `T`, a sum or product of `T`s starts from a
        // `T` (`-T::zero()`, `T::one()`), not from a literal (an `f64`).
        let float_param = self.float_param_of(m);
        let reduces = matches!(consumer, Consumer::Sum | Consumer::Product);
        // Only the float type parameters count: a closure's `F: FnMut(f64) -> f64` beside
        // them (gauss-quad's `integrate<F>`) is not what a sum adds.
        if reduces && m.turbofish.is_none() && self.func.float_params.len() > 1 {
            let name = &m.method;
            self.diag.error_spanned(name, format!("`#[derive_frule]` cannot tell the type of this `{name}` in a function with several type parameters: name it, `{name}::<T>()` (or `{name}::<f64>()`)"));
            return Some(self.poison(span));
        }
        let (seq, len) = self.prepare(chain, span)?;
        // The adaptors' arguments (a `scan`'s state) before the consumer's (`fold`'s init).
        self.push_scope();
        self.start_tail_state(&tail, &mut assigned, span)?;
        let lit = |lw: &mut Self, l: syn::Lit, ty: TypeHint| lw.push(InstKind::Lit(l), ty, span);
        // The accumulator's start, as `Sum`/`Product` start (floats: `-0.0` for sums).
        let init = match consumer {
            Consumer::Sum if float_elems => {
                let z = match &float_param {
                    Some(t) => self.type_param_const(t, "zero", span),
                    None => lit(self, syn::parse_quote_spanned!(span=> 0.0), TypeHint::Float),
                };
                Some(self.push(
                    InstKind::Unary {
                        op: crate::ir::UnOp::Neg,
                        arg: z,
                    },
                    TypeHint::Float,
                    span,
                ))
            }
            Consumer::Sum => Some(lit(
                self,
                syn::parse_quote_spanned!(span=> 0),
                TypeHint::Int,
            )),
            Consumer::Product if float_elems => Some(match &float_param {
                Some(t) => self.type_param_const(t, "one", span),
                None => lit(self, syn::parse_quote_spanned!(span=> 1.0), TypeHint::Float),
            }),
            Consumer::Product => Some(lit(
                self,
                syn::parse_quote_spanned!(span=> 1),
                TypeHint::Int,
            )),
            Consumer::Count => Some(lit(
                self,
                syn::parse_quote_spanned!(span=> 0usize),
                TypeHint::Int,
            )),
            Consumer::Any => Some(lit(
                self,
                syn::parse_quote_spanned!(span=> false),
                TypeHint::Bool,
            )),
            Consumer::All => Some(lit(
                self,
                syn::parse_quote_spanned!(span=> true),
                TypeHint::Bool,
            )),
            Consumer::Fold => Some(self.lower_expr(&m.args[0])?),
            Consumer::Collect => {
                let path: syn::Path = syn::parse_quote_spanned!(span=> ::std::vec::Vec::new);
                Some(self.push(
                    InstKind::Call {
                        callee: PathCallee::Unresolved,
                        func: path,
                        args: vec![],
                    },
                    TypeHint::Unknown,
                    span,
                ))
            }
            _ => None,
        };
        let acc_name = syn::Ident::new("__fwdad_acc", span);
        if let Some(init) = init {
            let init = self.push(
                InstKind::Copy(init),
                self.func.values[init].ty.clone(),
                span,
            );
            self.bind(&acc_name, init);
            assigned.insert(acc_name.to_string());
        }
        let range = self.counter_range(0, len, span);
        let acc = acc_name.to_string();
        self.lower_for_over(None, range, assigned, span, |lw, k| {
            let k = k?;
            lw.tail_take_guards(&tail, span)?;
            let shape = lw.elem(&seq, k, false, span)?;
            lw.run_tail(&tail, shape, span, &mut |lw, item| {
                let current = lw.lookup(&acc);
                match consumer {
                    Consumer::Sum | Consumer::Product | Consumer::Count => {
                        let op = if consumer == Consumer::Product {
                            BinOp::Mul
                        } else {
                            BinOp::Add
                        };
                        let rhs = if consumer == Consumer::Count {
                            lw.push(
                                InstKind::Lit(syn::parse_quote_spanned!(span=> 1usize)),
                                TypeHint::Int,
                                span,
                            )
                        } else {
                            lw.build_shape(item, span)
                        };
                        let new = lw.binary(op, current?, rhs, span);
                        lw.assign(&acc, new);
                    }
                    Consumer::Fold => {
                        let new = lw.apply(f.as_ref()?, vec![Shape::Val(current?), item], span)?;
                        lw.assign(&acc, new);
                    }
                    Consumer::ForEach => {
                        lw.apply(f.as_ref()?, vec![item], span)?;
                    }
                    Consumer::Any | Consumer::All => {
                        let p = lw.apply(f.as_ref()?, vec![item], span)?;
                        let stop = if consumer == Consumer::Any {
                            p
                        } else {
                            lw.push(
                                InstKind::Unary {
                                    op: crate::ir::UnOp::Not,
                                    arg: p,
                                },
                                TypeHint::Bool,
                                span,
                            )
                        };
                        let acc2 = acc.clone();
                        lw.lower_branches(
                            stop,
                            span,
                            |lw| {
                                let lit: syn::Lit =
                                    syn::LitBool::new(consumer == Consumer::Any, span).into();
                                let v = lw.push(InstKind::Lit(lit), TypeHint::Bool, span);
                                lw.assign(&acc2, v);
                                lw.break_to(0, None, span);
                                None
                            },
                            |lw| Some(lw.unit(span)),
                        );
                    }
                    Consumer::Collect => {
                        let v = lw.build_shape(item, span);
                        let kind = InstKind::MethodCall {
                            callee: MethodCallee::Unresolved,
                            receiver: current?,
                            method: StdMethod::Push.ident(span),
                            turbofish: None,
                            args: vec![v],
                        };
                        lw.push(kind, TypeHint::NonDiff, span);
                    }
                    _ => {}
                }
                Some(())
            })?;
            Some(lw.unit(span))
        })?;
        let result = match self.lookup(&acc) {
            Some(v) if consumer.accumulates() => v,
            _ => self.unit(span),
        };
        self.pop_scope();
        Some(result)
    }

    /// `base.windows(n)` / `base.chunks(n)`: the base, the size, the base's length and the
    /// literal `1usize`, evaluated in that order.
    fn sized_prologue(
        &mut self,
        base: &syn::Expr,
        n: &syn::Expr,
        mutable: bool,
        span: Span,
    ) -> Option<(Value, Value, Value, Value)> {
        let base = self.lower_place(base, mutable)?;
        let n = self.lower_expr(n)?;
        let len = InstKind::MethodCall {
            callee: MethodCallee::Unresolved,
            receiver: base,
            method: StdMethod::Len.ident(span),
            turbofish: None,
            args: vec![],
        };
        let blen = self.push(len, TypeHint::Int, span);
        let lit = InstKind::Lit(syn::parse_quote_spanned!(span=> 1usize));
        let one = self.push(lit, TypeHint::Int, span);
        Some((base, n, blen, one))
    }

    /// Evaluates a chain's sources and arguments (once, in order) and its length.
    fn prepare<'e>(&mut self, chain: Chain<'e>, span: Span) -> Option<(Seq<'e>, Value)> {
        let int = |lw: &mut Self, kind| lw.push(kind, TypeHint::Int, span);
        let method = |recv: Value, m: StdMethod, args: Vec<Value>| InstKind::MethodCall {
            callee: MethodCallee::Unresolved,
            receiver: recv,
            method: m.ident(span),
            turbofish: None,
            args,
        };
        Some(match chain {
            Chain::Map(c, f) => {
                let (s, len) = self.prepare(*c, span)?;
                (Seq::Map(Box::new(s), f), len)
            }
            Chain::Windows(e, n) => {
                let (base, n, blen, one) = self.sized_prologue(e, n, false, span)?;
                // len - n + 1 windows (none if n > len); `n - 1` panics for n = 0, as
                // `windows(0)` does.
                let nm1 = self.binary(BinOp::Sub, n, one, span);
                let len = int(self, method(blen, StdMethod::SaturatingSub, vec![nm1]));
                (Seq::Windows(base, n), len)
            }
            Chain::Chunks(e, n, exact, mutable) => {
                let (base, n, blen, one) = self.sized_prologue(e, n, mutable, span)?;
                // ceil(len / n), or len / n for `chunks_exact`; a zero size panics here as
                // `chunks(0)` does.
                let len = if exact {
                    self.binary(BinOp::Div, blen, n, span)
                } else {
                    let a = self.binary(BinOp::Add, blen, n, span);
                    let b = self.binary(BinOp::Sub, a, one, span);
                    self.binary(BinOp::Div, b, n, span)
                };
                (Seq::Chunks(base, n, blen, mutable), len)
            }
            Chain::Concat(a, b) => {
                let (sa, la) = self.prepare(*a, span)?;
                let (sb, lb) = self.prepare(*b, span)?;
                // Saturating: either part may be an unbounded range (`usize::MAX`).
                let len = int(self, method(la, StdMethod::SaturatingAdd, vec![lb]));
                (Seq::Concat(Box::new(sa), Box::new(sb), la), len)
            }
            Chain::Slice(e, access) => {
                // A place: `p.v.iter()` borrows the field rather than moving it out;
                // `x[a..].iter()`, `&x[a..b]` borrow the sub-slice.
                let mutable = matches!(access, Access::RefMut);
                let base = match super::place::sub_slice(e) {
                    Some(ix) => self.lower_sub_slice(ix, mutable, e.span())?,
                    None => self.lower_place(e, mutable)?,
                };
                let len = int(self, method(base, StdMethod::Len, vec![]));
                (Seq::Slice(base, access), len)
            }
            Chain::Range(start, end, closed) => {
                let s = self.lower_expr(start)?;
                let e = match end {
                    Some(end) => Some(self.lower_expr(end)?),
                    None => None,
                };
                // `(s..e).size_hint().0`, not `e.saturating_sub(s)`: a method of the
                // integer itself cannot be called on a literal of a type not inferred yet
                // (`(0..3).map(..)`, E0689), a method of `Range` can. `(s..)` has
                // `usize::MAX`: a `take_while`, `zip` or `break` ends it first.
                let range = self.range(s, e, closed, span);
                let hint = self.push(
                    method(range, StdMethod::SizeHint, vec![]),
                    TypeHint::Unknown,
                    span,
                );
                let member = syn::Member::Unnamed(syn::Index { index: 0, span });
                let len = int(self, InstKind::Field { base: hint, member });
                (Seq::Range(s, end.is_none()), len)
            }
            Chain::Enumerate(c) => {
                let (s, len) = self.prepare(*c, span)?;
                (Seq::Enumerate(Box::new(s)), len)
            }
            Chain::Zip(a, b) => {
                let (sa, la) = self.prepare(*a, span)?;
                let (sb, lb) = self.prepare(*b, span)?;
                let len = int(self, method(la, StdMethod::Min, vec![lb]));
                (Seq::Zip(Box::new(sa), Box::new(sb)), len)
            }
            Chain::Rev(c) => {
                let (s, len) = self.prepare(*c, span)?;
                (Seq::Rev(Box::new(s), len), len)
            }
            Chain::Skip(c, n) => {
                let (s, len) = self.prepare(*c, span)?;
                let n = self.lower_expr(n)?;
                let len = int(self, method(len, StdMethod::SaturatingSub, vec![n]));
                (Seq::Skip(Box::new(s), n), len)
            }
            Chain::Take(c, n) => {
                let (s, len) = self.prepare(*c, span)?;
                let n = self.lower_expr(n)?;
                let len = int(self, method(len, StdMethod::Min, vec![n]));
                (Seq::Take(Box::new(s)), len)
            }
            Chain::StepBy(c, st) => {
                let (s, len) = self.prepare(*c, span)?;
                let st = self.lower_expr(st)?;
                // ceil(len / st), without overflow for an unbounded range's `usize::MAX`; a
                // zero step panics here as `step_by(0)` does.
                let len = int(self, method(len, StdMethod::DivCeil, vec![st]));
                (Seq::StepBy(Box::new(s), st), len)
            }
            Chain::Copied(c) => {
                let (s, len) = self.prepare(*c, span)?;
                (Seq::Copied(Box::new(s)), len)
            }
            Chain::Cycle(c) => {
                let (s, inner) = self.prepare(*c, span)?;
                // `usize::MAX` (as an unbounded range's), or 0 for an empty inner chain,
                // which `cycle` ends at once: `min(inner, 1) · MAX`, saturating.
                let max = int(
                    self,
                    InstKind::Const(
                        syn::parse_quote_spanned!(span=> ::core::primitive::usize::MAX),
                    ),
                );
                let lit = InstKind::Lit(syn::parse_quote_spanned!(span=> 1usize));
                let one = int(self, lit);
                let some = int(self, method(inner, StdMethod::Min, vec![one]));
                let len = int(self, method(some, StdMethod::SaturatingMul, vec![max]));
                (Seq::Cycle(Box::new(s), inner), len)
            }
        })
    }

    /// The element at counter `k` (inside the loop body).
    fn elem(&mut self, seq: &Seq<'_>, k: Value, by_value: bool, span: Span) -> Option<Shape> {
        Some(match seq {
            Seq::Map(s, f) => {
                let inner = self.elem(s, k, by_value, span)?;
                Shape::Val(self.apply(f, vec![inner], span)?)
            }
            Seq::Windows(base, n) => {
                let end = self.binary(BinOp::Add, k, *n, span);
                Shape::Val(self.sub_slice(*base, k, end, false, span))
            }
            Seq::Chunks(base, n, blen, mutable) => {
                let start = self.binary(BinOp::Mul, k, *n, span);
                let stop = self.binary(BinOp::Add, start, *n, span);
                let kind = InstKind::MethodCall {
                    callee: MethodCallee::Unresolved,
                    receiver: stop,
                    method: StdMethod::Min.ident(span),
                    turbofish: None,
                    args: vec![*blen],
                };
                let end = self.push(kind, TypeHint::Int, span);
                Shape::Val(self.sub_slice(*base, start, end, *mutable, span))
            }
            Seq::Concat(a, b, la) => {
                // `k < len_a ? a(k) : b(k - len_a)`, as one merged value.
                let in_a = self.binary(BinOp::Lt, k, *la, span);
                let join = self.lower_branches(
                    in_a,
                    span,
                    |lw| {
                        let e = lw.elem(a, k, by_value, span)?;
                        Some(lw.build_shape(e, span))
                    },
                    |lw| {
                        let j = lw.binary(BinOp::Sub, k, *la, span);
                        let e = lw.elem(b, j, by_value, span)?;
                        Some(lw.build_shape(e, span))
                    },
                );
                Shape::Val(join.value?)
            }
            Seq::Slice(base, access) => {
                let elem_ty = self.func.values[*base].ty.element();
                if by_value {
                    Shape::Val(self.push(
                        InstKind::Index {
                            base: *base,
                            index: k,
                        },
                        elem_ty,
                        span,
                    ))
                } else {
                    let mutable = *access == Access::RefMut;
                    let ty = TypeHint::Ref(Box::new(elem_ty));
                    Shape::Val(self.push(
                        InstKind::ElemRef {
                            base: *base,
                            index: k,
                            mutable,
                        },
                        ty,
                        span,
                    ))
                }
            }
            // In the range's own integer type (`(-2i32..=2).map(..)`), not the counter's.
            Seq::Range(start, unbounded) => {
                let rt = &self.rt;
                let func = if *unbounded {
                    splice!(span=> #rt::range_from_at)
                } else {
                    splice!(span=> #rt::range_at)
                };
                let func = match self.diag.handle(func) {
                    Some(func) => func,
                    None => return Some(Shape::Val(self.poison(span))),
                };
                let args = vec![*start, k];
                Shape::Val(self.push(
                    InstKind::Call {
                        func,
                        args,
                        callee: PathCallee::Unresolved,
                    },
                    TypeHint::Int,
                    span,
                ))
            }
            Seq::Enumerate(s) => {
                let inner = self.elem(s, k, by_value, span)?;
                Shape::Tuple(vec![Shape::Val(k), inner])
            }
            Seq::Zip(a, b) => {
                let ea = self.elem(a, k, by_value, span)?;
                let eb = self.elem(b, k, by_value, span)?;
                Shape::Tuple(vec![ea, eb])
            }
            Seq::Rev(s, len) => {
                let one = self.push(
                    InstKind::Lit(syn::parse_quote_spanned!(span=> 1usize)),
                    TypeHint::Int,
                    span,
                );
                let last = self.binary(BinOp::Sub, *len, one, span);
                let j = self.binary(BinOp::Sub, last, k, span);
                return self.elem(s, j, by_value, span);
            }
            Seq::Skip(s, n) => {
                let j = self.binary(BinOp::Add, k, *n, span);
                return self.elem(s, j, by_value, span);
            }
            Seq::Take(s) => return self.elem(s, k, by_value, span),
            Seq::StepBy(s, st) => {
                let j = self.binary(BinOp::Mul, k, *st, span);
                return self.elem(s, j, by_value, span);
            }
            Seq::Copied(s) => return self.elem(s, k, true, span),
            Seq::Cycle(s, inner) => {
                let j = self.binary(BinOp::Rem, k, *inner, span);
                return self.elem(s, j, by_value, span);
            }
        })
    }

    /// Binds `pat` to an element, destructuring tuples without building them.
    fn bind_shape(&mut self, pat: &syn::Pat, shape: Shape, span: Span) {
        match (pat, shape) {
            (syn::Pat::Tuple(pt), Shape::Tuple(parts)) if pt.elems.len() == parts.len() => {
                for (p, s) in pt.elems.iter().zip(parts) {
                    self.bind_shape(p, s, span);
                }
            }
            (syn::Pat::Paren(p), shape) => self.bind_shape(&p.pat, shape, span),
            (pat, shape) => {
                let v = self.build_shape(shape, span);
                self.bind_pattern(pat, v, None);
            }
        }
    }

    /// `start..end` (`start..` without an end) over values already lowered.
    fn range(&mut self, start: Value, end: Option<Value>, closed: bool, span: Span) -> Value {
        let kind = InstKind::Range {
            start: Some(start),
            end,
            closed,
        };
        self.push(kind, TypeHint::Range, span)
    }

    /// `from..len`: the counter of a chain's loop, `from` a `usize` literal.
    fn counter_range(&mut self, from: usize, len: Value, span: Span) -> Value {
        let lit = syn::LitInt::new(&format!("{from}usize"), span);
        let start = self.push(InstKind::Lit(lit.into()), TypeHint::Int, span);
        self.range(start, Some(len), false, span)
    }

    /// `&base[start..end]`, or `&mut base[start..end]`.
    fn sub_slice(
        &mut self,
        base: Value,
        start: Value,
        end: Value,
        mutable: bool,
        span: Span,
    ) -> Value {
        let range = self.range(start, Some(end), false, span);
        let ty = TypeHint::Ref(Box::new(TypeHint::Seq(Box::new(
            self.func.values[base].ty.element(),
        ))));
        self.push(
            InstKind::Slice {
                base,
                range,
                mutable,
            },
            ty,
            span,
        )
    }

    pub(crate) fn build_shape(&mut self, shape: Shape, span: Span) -> Value {
        match shape {
            Shape::Val(v) => v,
            Shape::Tuple(parts) => {
                let vs: Vec<Value> = parts
                    .into_iter()
                    .map(|s| self.build_shape(s, span))
                    .collect();
                let ty =
                    TypeHint::Tuple(vs.iter().map(|v| self.func.values[*v].ty.clone()).collect());
                self.push(InstKind::Tuple(vs), ty, span)
            }
        }
    }
}

impl Lowerer<'_> {
    /// The float type parameter a `sum()`/`product()` adds up: the one its turbofish
    /// names (`sum::<T>()`), or the function's only float type parameter when there is no
    /// turbofish (a closure's `F` beside it does not count). `None` for `sum::<f64>()` and in functions that are not generic (the
    /// start is then a literal), and when two type parameters leave it open.
    ///
    /// ```text
    /// fn f<T: Float + Sum>(x: &[T]) -> T { x.iter().map(|v| v.powi(2)).sum() }
    /// // the accumulator starts from `-T::zero()` (`-0.0`, as `Sum for f64` starts)
    /// ```
    fn float_param_of(&self, m: &syn::ExprMethodCall) -> Option<syn::Ident> {
        let named = match m.turbofish.as_ref().and_then(|t| t.args.first()) {
            Some(syn::GenericArgument::Type(syn::Type::Path(p))) if p.qself.is_none() => {
                p.path.get_ident()?.to_string()
            }
            Some(_) => return None,
            None => match self.func.float_params.as_slice() {
                [only] => only.to_string(),
                _ => return None,
            },
        };
        self.type_params
            .contains(&named)
            .then(|| crate::splice::ident(&named, m.method.span()))
    }

    /// `T::zero()` / `T::one()` of a float type parameter (through its `Float` bound).
    fn type_param_const(&mut self, t: &syn::Ident, name: &str, span: Span) -> Value {
        let mut path = syn::Path::from(t.clone());
        path.segments.push(syn::Ident::new(name, span).into());
        self.push(
            InstKind::Call {
                callee: PathCallee::Unresolved,
                func: path,
                args: vec![],
            },
            TypeHint::Float,
            span,
        )
    }
}

/// `sum::<T>()` / `product::<T>()`: the element type, when given.
fn turbofish_hint(m: &syn::ExprMethodCall) -> Option<TypeHint> {
    match m.turbofish.as_ref()?.args.first()? {
        syn::GenericArgument::Type(t) => Some(TypeHint::from_type(t)),
        _ => None,
    }
}

/// The closures written in a pipeline's adaptors (`map`, `filter`), in the chain and after it.
fn lambdas<'e>(chain: &Chain<'e>, tail: &[Tail<'e>]) -> Vec<&'e syn::ExprClosure> {
    let mut out = Vec::new();
    for_each_func(chain, tail, &mut |f| {
        if let Func::Lambda(c) = f {
            out.push(*c);
        }
    });
    out
}

/// Calls `add` on each adaptor function of a pipeline.
fn for_each_func<'e>(chain: &Chain<'e>, tail: &[Tail<'e>], add: &mut dyn FnMut(&Func<'e>)) {
    fn walk<'e>(c: &Chain<'e>, add: &mut dyn FnMut(&Func<'e>)) {
        match c {
            Chain::Map(inner, f) => {
                add(f);
                walk(inner, add);
            }
            Chain::Zip(a, b) | Chain::Concat(a, b) => {
                walk(a, add);
                walk(b, add);
            }
            Chain::Enumerate(inner)
            | Chain::Rev(inner)
            | Chain::Skip(inner, _)
            | Chain::Take(inner, _)
            | Chain::StepBy(inner, _)
            | Chain::Copied(inner)
            | Chain::Cycle(inner) => walk(inner, add),
            Chain::Slice(..) | Chain::Range(..) | Chain::Windows(..) | Chain::Chunks(..) => {}
        }
    }
    walk(chain, add);
    for t in tail {
        match t {
            Tail::Map(f) | Tail::Filter(f) | Tail::TakeWhile(f) | Tail::Inspect(f) => add(f),
            Tail::Scan { f, .. } => add(&Func::Lambda(f)),
            Tail::SkipWhile { f, .. } | Tail::Unwrapping { f, .. } => add(f),
            Tail::Skip { .. }
            | Tail::StepBy { .. }
            | Tail::Take { .. }
            | Tail::Enumerate { .. }
            | Tail::Copied => {}
            Tail::Zip { other, .. } => {
                if let Some(c) = other.borrow().as_ref() {
                    walk(c, add);
                }
            }
        }
    }
}

/// The names a closure binds itself: its parameters and its `let`s (at any depth).
fn closure_own_names(c: &syn::ExprClosure) -> std::collections::HashSet<String> {
    let mut names = super::PatIdents::default();
    for p in &c.inputs {
        syn::visit::Visit::visit_pat(&mut names, p);
    }
    syn::visit::Visit::visit_expr(&mut names, &c.body);
    names.0.iter().map(|p| p.ident.to_string()).collect()
}

/// `iter.position(p)` and `slice.partition_point(p)`, searches whose predicate reads the
/// inputs but whose result is an index, written out as the loops std runs (a scan; a
/// binary search, same probes in the same order), which lowering handles; `it.reduce(f)`
/// and `x.iter().nth(k)` likewise. `None` for other calls. The user's receiver and
/// argument are put into each template as syntax trees (`fill`), never reparsed.
pub(crate) fn desugar_method(m: &syn::ExprMethodCall) -> Option<syn::Expr> {
    let (recv, span) = (&m.receiver, m.method.span());
    let [pred] = m.args.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    let holes = |template| {
        fill(
            template,
            &[
                ("__fwdad_recv", Hole::Expr(recv)),
                ("__fwdad_arg", Hole::Expr(pred)),
            ],
        )
    };
    match Rewrite::from_name(&m.method.to_string())? {
        // On an iterator (`x.iter().position(..)`), not a user type's method of that name:
        // the first index whose item the predicate takes, or (`rposition`) the last.
        r @ (Rewrite::Position | Rewrite::RPosition)
            if matches!(&**recv, syn::Expr::MethodCall(_)) =>
        {
            let first = syn::Expr::Lit(syn::ExprLit {
                attrs: Vec::new(),
                lit: syn::Lit::Bool(syn::LitBool::new(r == Rewrite::Position, span)),
            });
            let template = syn::parse_quote_spanned!(span=> {
                let __fwdad_pred = __fwdad_arg;
                let mut __fwdad_found = ::core::option::Option::None;
                let mut __fwdad_k = 0usize;
                for __fwdad_item in __fwdad_recv {
                    if __fwdad_pred(__fwdad_item) {
                        __fwdad_found = ::core::option::Option::Some(__fwdad_k);
                        if __fwdad_first {
                            break;
                        }
                    }
                    __fwdad_k += 1;
                }
                __fwdad_found
            });
            Some(fill(
                template,
                &[
                    ("__fwdad_recv", Hole::Expr(recv)),
                    ("__fwdad_arg", Hole::Expr(pred)),
                    ("__fwdad_first", Hole::Expr(&first)),
                ],
            ))
        }
        // std's own loop (`binary_search_by`, Rust 1.95): the same probes, so even a slice
        // the predicate does not partition gives the index the plain function gets (a test
        // compares with std on every pattern up to length 10).
        Rewrite::PartitionPoint => Some(holes(syn::parse_quote_spanned!(span=> {
            let __fwdad_pred = __fwdad_arg;
            let __fwdad_s = &__fwdad_recv[..];
            let mut __fwdad_size = __fwdad_s.len();
            let mut __fwdad_base = 0usize;
            if __fwdad_size == 0 {
                0usize
            } else {
                while __fwdad_size > 1 {
                    let __fwdad_half = __fwdad_size / 2;
                    let __fwdad_mid = __fwdad_base + __fwdad_half;
                    if __fwdad_pred(&__fwdad_s[__fwdad_mid]) {
                        __fwdad_base = __fwdad_mid;
                    }
                    __fwdad_size -= __fwdad_half;
                }
                __fwdad_base + (__fwdad_pred(&__fwdad_s[__fwdad_base]) as usize)
            }
        }))),
        // std's `binary_search_by` (Rust 1.95): the probes of `partition_point` above, with
        // `cmp(x) != Greater` as the predicate, and the answer read from the last probe.
        Rewrite::BinarySearchBy => Some(holes(syn::parse_quote_spanned!(span=> {
            let mut __fwdad_cmp = __fwdad_arg;
            let __fwdad_s = &__fwdad_recv[..];
            let mut __fwdad_size = __fwdad_s.len();
            let mut __fwdad_base = 0usize;
            if __fwdad_size == 0 {
                ::core::result::Result::Err(0usize)
            } else {
                while __fwdad_size > 1 {
                    let __fwdad_half = __fwdad_size / 2;
                    let __fwdad_mid = __fwdad_base + __fwdad_half;
                    if __fwdad_cmp(&__fwdad_s[__fwdad_mid]) != ::core::cmp::Ordering::Greater {
                        __fwdad_base = __fwdad_mid;
                    }
                    __fwdad_size -= __fwdad_half;
                }
                let __fwdad_last = __fwdad_cmp(&__fwdad_s[__fwdad_base]);
                if __fwdad_last == ::core::cmp::Ordering::Equal {
                    ::core::result::Result::Ok(__fwdad_base)
                } else {
                    ::core::result::Result::Err(
                        __fwdad_base + ((__fwdad_last == ::core::cmp::Ordering::Less) as usize),
                    )
                }
            }
        }))),
        // `it.reduce(f)`: the first item, then `f(acc, item)` for each further one.
        Rewrite::Reduce if matches!(&**recv, syn::Expr::MethodCall(_)) => {
            // A function path is called directly, a closure through a local. The
            // accumulator is typed by `unwrap_or(item)` before the function sees it, so
            // a method call on it (`a.min(b)`) needs no annotation on constant data.
            let mut template: syn::Expr = syn::parse_quote_spanned!(span=> {
                let __fwdad_f = __fwdad_arg;
                let mut __fwdad_acc = ::core::option::Option::None;
                for __fwdad_item in __fwdad_recv {
                    let __fwdad_first = __fwdad_acc.is_none();
                    let __fwdad_a = __fwdad_acc.unwrap_or(__fwdad_item);
                    __fwdad_acc = ::core::option::Option::Some(if __fwdad_first {
                        __fwdad_a
                    } else {
                        __fwdad_f(__fwdad_a, __fwdad_item)
                    });
                }
                __fwdad_acc
            });
            if let (syn::Expr::Path(_), syn::Expr::Block(b)) = (pred, &mut template) {
                // A path is called by name: no binding, `__fwdad_f` is the path itself.
                b.block.stmts.remove(0);
                return Some(fill(
                    template,
                    &[
                        ("__fwdad_recv", Hole::Expr(recv)),
                        ("__fwdad_f", Hole::Expr(pred)),
                    ],
                ));
            }
            Some(holes(template))
        }
        // `x.iter().nth(k)` is `x.get(k)`.
        Rewrite::Nth => match &**recv {
            syn::Expr::MethodCall(it)
                if Adaptor::from_name(&it.method.to_string()) == Some(Adaptor::Iter)
                    && it.args.is_empty() =>
            {
                let template = syn::parse_quote_spanned!(span=> __fwdad_slice.get(__fwdad_arg));
                Some(fill(
                    template,
                    &[
                        ("__fwdad_slice", Hole::Expr(&it.receiver)),
                        ("__fwdad_arg", Hole::Expr(pred)),
                    ],
                ))
            }
            _ => None,
        },
        _ => None,
    }
}

/// The closure a closure's body returns, and the statements before it: `move |x| k * x`,
/// or `{ let k2 = k * k; move |x| k2 * x }`.
fn closure_returned_by(body: &syn::Expr) -> Option<(&[syn::Stmt], &syn::ExprClosure)> {
    match super::place::strip(body) {
        syn::Expr::Closure(c) => Some((&[], c)),
        syn::Expr::Block(b) if b.label.is_none() => match b.block.stmts.split_last()? {
            (syn::Stmt::Expr(syn::Expr::Closure(c), None), rest) => Some((rest, c)),
            _ => None,
        },
        _ => None,
    }
}
