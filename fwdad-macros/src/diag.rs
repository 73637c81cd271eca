//! Diagnostics: collect every error with its span, report them together.
//!
//! Modeled on serde's `Ctxt`: passes call [`Diagnostics::error`] and keep going (lowering
//! emits a poison value), so one compile shows every unsupported construct in a function.
//! `finish` must be called; dropping an unfinished collector is a bug in the macro (it
//! would lose errors), caught in debug builds.

use proc_macro2::Span;
use std::fmt::Display;

/// An error collector.
#[must_use]
#[derive(Default)]
pub struct Diagnostics {
    errors: Vec<syn::Error>,
    finished: bool,
}

impl Diagnostics {
    /// An empty collector.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records an error at `span`.
    pub fn error(&mut self, span: Span, msg: impl Display) {
        self.errors.push(syn::Error::new(span, msg));
    }

    /// Records an error spanning all the tokens of `node` (on stable, a `Span` from
    /// `node.span()` covers only its first token).
    pub fn error_spanned(&mut self, node: &dyn quote::ToTokens, msg: impl Display) {
        self.errors
            .push(syn::Error::new_spanned(node.to_token_stream(), msg));
    }

    /// Records `result`'s error, if any, and passes its value on.
    pub fn handle<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        match result {
            Ok(t) => Some(t),
            Err(e) => {
                self.errors.push(e);
                None
            }
        }
    }

    /// Whether anything was recorded.
    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }

    /// All errors, combined into one.
    pub fn finish(mut self) -> syn::Result<()> {
        self.finished = true;
        let mut errors = std::mem::take(&mut self.errors).into_iter();
        match errors.next() {
            None => Ok(()),
            Some(mut first) => {
                for e in errors {
                    first.combine(e);
                }
                Err(first)
            }
        }
    }
}

impl Drop for Diagnostics {
    fn drop(&mut self) {
        if !self.finished && !std::thread::panicking() {
            debug_assert!(
                self.errors.is_empty(),
                "Diagnostics dropped without `finish`"
            );
        }
    }
}
