//! Syntax the macros build around the user's, parsed back without panicking.
//!
//! `syn::parse_quote!` panics when its template does not parse, and a template with the
//! user's tokens spliced in can stop parsing on input nobody thought of (a struct literal
//! where an expression head cannot hold one, a typed pattern in a `match` arm). Every
//! template that interpolates anything goes through [`splice!`], which returns a
//! `syn::Result` whose error points at the user's code; spliced expressions are
//! parenthesised in the template. `parse_quote!` stays for constant templates only, and
//! `tests::spliced_syntax::no_panicking_parse_on_spliced_syntax` holds the rule.

use proc_macro2::{Span, TokenStream};

/// `splice!(span=> template)`: `quote_spanned!(span=> template)` parsed as the type the
/// context asks for, as a `syn::Result` (see [`parse`]).
macro_rules! splice {
    ($span:expr => $($tt:tt)*) => {{
        let span: ::proc_macro2::Span = $span;
        $crate::splice::parse(::quote::quote_spanned!(span=> $($tt)*), span)
    }};
}
pub(crate) use splice;

/// `tokens` parsed as a `T`; a failure is an error at `span` (the user's construct that
/// was being rewritten), never a panic.
pub(crate) fn parse<T: syn::parse::Parse>(tokens: TokenStream, span: Span) -> syn::Result<T> {
    syn::parse2(tokens).map_err(|e| {
        syn::Error::new(
            span,
            format!(
                "fwdad cannot rewrite this code ({e}); this is a bug in fwdad, please report it"
            ),
        )
    })
}

/// What [`fill`] puts in place of a placeholder name.
pub(crate) enum Hole<'a> {
    /// The user's expression, in place of an expression that is the bare placeholder.
    Expr(&'a syn::Expr),
    /// The user's pattern, in place of a pattern that is the bare placeholder.
    Pat(&'a syn::Pat),
}

/// `template` (a constant `parse_quote!`) with each placeholder identifier replaced by
/// the user's syntax tree, node for node: nothing is printed and parsed again, so the
/// result cannot fail to parse, and the user's expression keeps its own precedence.
pub(crate) fn fill(mut template: syn::Expr, holes: &[(&str, Hole<'_>)]) -> syn::Expr {
    struct Fill<'h, 'a>(&'h [(&'h str, Hole<'a>)]);
    impl Fill<'_, '_> {
        fn hole(&self, ident: Option<&syn::Ident>) -> Option<&Hole<'_>> {
            let ident = ident?;
            self.0.iter().find(|(n, _)| ident == n).map(|(_, h)| h)
        }
    }
    impl syn::visit_mut::VisitMut for Fill<'_, '_> {
        fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
            if let syn::Expr::Path(p) = e {
                if let (None, Some(Hole::Expr(user))) = (&p.qself, self.hole(p.path.get_ident())) {
                    *e = (*user).clone();
                    return;
                }
            }
            syn::visit_mut::visit_expr_mut(self, e);
        }
        fn visit_pat_mut(&mut self, p: &mut syn::Pat) {
            if let syn::Pat::Ident(i) = p {
                if let Some(Hole::Pat(user)) = self.hole(Some(&i.ident)) {
                    *p = (*user).clone();
                    return;
                }
            }
            syn::visit_mut::visit_pat_mut(self, p);
        }
    }
    syn::visit_mut::VisitMut::visit_expr_mut(&mut Fill(holes), &mut template);
    template
}

/// The identifier `name` at `span`, where `name` is an identifier's `to_string()`: a raw
/// one (`r#type`) is made raw again, as `Ident::new` panics on its name.
pub(crate) fn ident(name: &str, span: Span) -> syn::Ident {
    match name.strip_prefix("r#") {
        // `r#self`, `r#crate` and the like are not identifiers: never an `Ident`'s name.
        Some(raw) if !matches!(raw, "self" | "Self" | "super" | "crate" | "_") => {
            syn::Ident::new_raw(raw, span)
        }
        Some(raw) => syn::Ident::new(raw, span),
        None => syn::Ident::new(name, span),
    }
}

/// The expression naming `ident` (a generated local).
pub(crate) fn path_expr(ident: &syn::Ident) -> syn::Expr {
    syn::Expr::Path(syn::ExprPath {
        attrs: vec![],
        qself: None,
        path: ident.clone().into(),
    })
}

/// The call `func(args..)`, built as a tree.
pub(crate) fn call_expr(func: syn::Expr, args: impl IntoIterator<Item = syn::Expr>) -> syn::Expr {
    syn::Expr::Call(syn::ExprCall {
        attrs: vec![],
        func: Box::new(func),
        paren_token: Default::default(),
        args: args.into_iter().collect(),
    })
}

/// `(e)`.
pub(crate) fn paren(e: syn::Expr) -> syn::Expr {
    syn::Expr::Paren(syn::ExprParen {
        attrs: vec![],
        paren_token: Default::default(),
        expr: Box::new(e),
    })
}
