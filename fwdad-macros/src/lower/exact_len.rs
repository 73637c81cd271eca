//! `len()` of an iterator chain over a sequence (`ExactSizeIterator`): how many items
//! `xs.iter().step_by(3)`, `xs.chunks(3)` or `a.iter().zip(&b).skip(1)` yields.
//!
//! The count depends only on the lengths and the adaptors' arguments, never on the items,
//! so it is written as the integer arithmetic `std`'s `len` does, and the chain is never
//! built:
//!
//! ```text
//! xs.iter().step_by(3).len()          // xs.len().div_ceil(3)
//! xs.chunks(h).len()                  // xs.len().div_ceil(h)
//! xs.chunks_exact(h).len()            // xs.len() / h
//! xs.windows(k).len()                 // xs.len().saturating_sub(k - 1)
//! a.iter().zip(&b).skip(1).len()      // a.len().min(b.len()).saturating_sub(1)
//! ```
//!
//! The receiver and the adaptors' arguments are evaluated once each, in the order Rust
//! evaluates them; a `map`'s or `inspect`'s closure, which `len` never calls, is dropped.

use super::place::strip;
use super::Lowerer;
use crate::callee::{Adaptor, StdMethod};
use crate::splice::{fill, Hole};

impl Lowerer<'_> {
    /// `m` is `chain.len()` of a chain [`Self::exact_len`] counts: the count, as integer
    /// arithmetic on the sequence's length. `None` for any other call.
    #[inline(never)]
    pub(crate) fn desugar_exact_len(&self, m: &syn::ExprMethodCall) -> Option<syn::Expr> {
        if StdMethod::from_name(&m.method.to_string()) != Some(StdMethod::Len) || !m.args.is_empty()
        {
            return None;
        }
        // A chain with at least one adaptor: `xs.len()` itself is the slice's.
        if !matches!(strip(&m.receiver), syn::Expr::MethodCall(r)
            if Adaptor::from_name(&r.method.to_string()).is_some())
        {
            return None;
        }
        self.exact_len(&m.receiver)
    }

    /// The number of items the iterator `e` yields, when `e` is a chain of adaptors that
    /// keep a known count over a slice, array or `Vec` (`xs.iter()`, `xs.chunks(h)`).
    fn exact_len(&self, e: &syn::Expr) -> Option<syn::Expr> {
        let m = match strip(e) {
            syn::Expr::MethodCall(m) => m,
            // `(a..b).step_by(2)`: a half-open range of integers.
            syn::Expr::Range(r) if matches!(r.limits, syn::RangeLimits::HalfOpen(_)) => {
                let (start, end) = (r.start.as_deref()?, r.end.as_deref()?);
                let span = proc_macro2::Span::call_site();
                return Some(fill(
                    syn::parse_quote_spanned!(span=> {
                        let __fwdad_start = __fwdad_s;
                        let __fwdad_end = __fwdad_e;
                        __fwdad_end.saturating_sub(__fwdad_start)
                    }),
                    &[
                        ("__fwdad_s", Hole::Expr(start)),
                        ("__fwdad_e", Hole::Expr(end)),
                    ],
                ));
            }
            _ => return None,
        };
        let adaptor = Adaptor::from_name(&m.method.to_string())?;
        let span = m.method.span();
        let arg = |k: usize| m.args.iter().nth(k);
        match (adaptor, m.args.len()) {
            // The sequence's own items, or pieces of it.
            (Adaptor::Iter | Adaptor::IterMut, 0) => self.sequence_len(&m.receiver),
            (Adaptor::IntoIter, 0) => self
                .sequence_len(&m.receiver)
                .or_else(|| self.exact_len(&m.receiver)),
            (Adaptor::Chunks | Adaptor::ChunksMut, 1) => {
                let n = self.sequence_len(&m.receiver)?;
                Some(binary(
                    syn::parse_quote_spanned!(span=> __fwdad_n.div_ceil(__fwdad_a)),
                    &n,
                    arg(0)?,
                ))
            }
            (Adaptor::ChunksExact | Adaptor::ChunksExactMut, 1) => {
                let n = self.sequence_len(&m.receiver)?;
                Some(binary(
                    syn::parse_quote_spanned!(span=> __fwdad_n / __fwdad_a),
                    &n,
                    arg(0)?,
                ))
            }
            (Adaptor::Windows, 1) => {
                let n = self.sequence_len(&m.receiver)?;
                Some(binary(
                    syn::parse_quote_spanned!(span=> __fwdad_n.saturating_sub(__fwdad_a - 1)),
                    &n,
                    arg(0)?,
                ))
            }
            // Adaptors that yield one item per item.
            (Adaptor::Rev | Adaptor::Enumerate | Adaptor::Copied | Adaptor::Cloned, 0)
            | (Adaptor::Map | Adaptor::Inspect, 1) => self.exact_len(&m.receiver),
            (Adaptor::Skip, 1) => {
                let n = self.exact_len(&m.receiver)?;
                Some(binary(
                    syn::parse_quote_spanned!(span=> __fwdad_n.saturating_sub(__fwdad_a)),
                    &n,
                    arg(0)?,
                ))
            }
            (Adaptor::Take, 1) => {
                let n = self.exact_len(&m.receiver)?;
                Some(binary(
                    syn::parse_quote_spanned!(span=> __fwdad_n.min(__fwdad_a)),
                    &n,
                    arg(0)?,
                ))
            }
            (Adaptor::StepBy, 1) => {
                let n = self.exact_len(&m.receiver)?;
                Some(binary(
                    syn::parse_quote_spanned!(span=> __fwdad_n.div_ceil(__fwdad_a)),
                    &n,
                    arg(0)?,
                ))
            }
            (Adaptor::Zip, 1) => {
                let n = self.exact_len(&m.receiver)?;
                let other = arg(0)?;
                let o = self
                    .collection_len(other, true)
                    .or_else(|| self.exact_len(other))?;
                Some(binary(
                    syn::parse_quote_spanned!(span=> __fwdad_n.min(__fwdad_a)),
                    &n,
                    &o,
                ))
            }
            _ => None,
        }
    }

    /// `s.len()` for the receiver `s` of `iter()`, `chunks(h)`, `windows(k)` (a local, a
    /// parameter, a field, `&v`, `&v[a..b]`: a collection, whose iterator yields `len()`
    /// items), or for the argument of a `zip` the syntax shows is a slice, an array or a
    /// `Vec` (`zip(&b)`). Not a method call: that is an iterator (`zip(b.iter())`),
    /// counted by [`Self::exact_len`].
    fn sequence_len(&self, s: &syn::Expr) -> Option<syn::Expr> {
        self.collection_len(s, false)
    }

    fn collection_len(&self, s: &syn::Expr, zipped: bool) -> Option<syn::Expr> {
        let span = proc_macro2::Span::call_site();
        let seq = match strip(s) {
            syn::Expr::Reference(r) => &*r.expr,
            other => other,
        };
        let known = match strip(seq) {
            syn::Expr::Path(_) if zipped => self.is_sequence(seq),
            syn::Expr::Path(_) | syn::Expr::Field(_) => true,
            syn::Expr::Index(ix) => matches!(strip(&ix.index), syn::Expr::Range(_)),
            syn::Expr::Array(_) => true,
            _ => false,
        };
        if !known {
            return None;
        }
        Some(fill(
            syn::parse_quote_spanned!(span=> __fwdad_s.len()),
            &[("__fwdad_s", Hole::Expr(s))],
        ))
    }
}

/// `template` with the count so far (`__fwdad_n`) and the adaptor's argument
/// (`__fwdad_a`) put in.
fn binary(template: syn::Expr, n: &syn::Expr, a: &syn::Expr) -> syn::Expr {
    fill(
        template,
        &[("__fwdad_n", Hole::Expr(n)), ("__fwdad_a", Hole::Expr(a))],
    )
}
