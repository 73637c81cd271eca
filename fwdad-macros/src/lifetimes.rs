//! Naming lifetimes in signatures: a rule's `Frule` impl must name every lifetime of its
//! argument types (`&[f64]` → `&'a [f64]`), and its output's elided lifetimes follow Rust's
//! elision rule. Shared by `#[derive_frule]` and `#[primitive]`.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;

/// Names every elided lifetime in parameter types (`&[f64]` → `&'a [f64]`), with names not
/// already declared by the function.
#[derive(Default)]
pub(crate) struct LifetimeNamer {
    pub(crate) declared: Vec<syn::Lifetime>,
    /// Names bound by higher-ranked bounds (`for<'a> Sum<&'a T>`): not declared by the
    /// function, but a fresh name must not shadow them.
    pub(crate) reserved: Vec<syn::Lifetime>,
    pub(crate) fresh: Vec<syn::Lifetime>,
}

impl LifetimeNamer {
    fn next(&mut self, span: Span) -> syn::Lifetime {
        let taken = |n: &str| {
            self.declared
                .iter()
                .chain(&self.reserved)
                .chain(&self.fresh)
                .any(|l| l.ident == n)
        };
        let mut i = 0usize;
        let name = loop {
            let n = if i < 26 {
                ((b'a' + i as u8) as char).to_string()
            } else {
                format!("l{i}")
            };
            if !taken(&n) {
                break n;
            }
            i += 1;
        };
        let l = syn::Lifetime::new(&format!("'{name}"), span);
        self.fresh.push(l.clone());
        l
    }
}

impl VisitMut for LifetimeNamer {
    fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
        match &r.lifetime {
            None => r.lifetime = Some(self.next(r.and_token.span)),
            Some(l) if l.ident == "_" => r.lifetime = Some(self.next(l.span())),
            Some(_) => {}
        }
        // `&mut dyn Body`: the object's lifetime named apart from the borrow's
        // (`&'a mut (dyn Body + 'b)`), as Rust's unsizing coercion at a call shortens it,
        // so a parameter passed on (`advance(b, dt)`) is reborrowed, not held for `'a`.
        if r.mutability.is_some() {
            if let syn::Type::TraitObject(t) = &*r.elem {
                let has_lifetime =
                    (t.bounds.iter()).any(|b| matches!(b, syn::TypeParamBound::Lifetime(_)));
                if !has_lifetime {
                    let mut t = t.clone();
                    t.bounds
                        .push(syn::TypeParamBound::Lifetime(self.next(t.span())));
                    *r.elem = syn::Type::Paren(syn::TypeParen {
                        paren_token: Default::default(),
                        elem: Box::new(syn::Type::TraitObject(t)),
                    });
                }
            }
        }
        syn::visit_mut::visit_type_reference_mut(self, r);
    }
    fn visit_lifetime_mut(&mut self, l: &mut syn::Lifetime) {
        if l.ident == "_" {
            *l = self.next(l.span());
        }
    }
    /// `Data` of the file's `struct Data<'a>`, its lifetime elided (`d: &Data`): named,
    /// `Data<'b>`, which an `impl` header must write (rustc's E0726 otherwise).
    fn visit_type_path_mut(&mut self, p: &mut syn::TypePath) {
        syn::visit_mut::visit_type_path_mut(self, p);
        let std_path = (p.path.segments.first())
            .is_some_and(|s| s.ident == "std" || s.ident == "core" || s.ident == "alloc");
        if p.qself.is_some() || std_path {
            return;
        }
        let Some(last) = p.path.segments.last_mut() else {
            return;
        };
        let written = match &last.arguments {
            syn::PathArguments::None => false,
            syn::PathArguments::AngleBracketed(a) => {
                (a.args.iter()).any(|g| matches!(g, syn::GenericArgument::Lifetime(_)))
            }
            syn::PathArguments::Parenthesized(_) => return,
        };
        let n = match written {
            true => 0,
            false => crate::source::struct_lifetimes(&last.ident.to_string()),
        };
        if n == 0 {
            return;
        }
        let span = last.ident.span();
        let fresh: Vec<syn::Lifetime> = (0..n).map(|_| self.next(span)).collect();
        let mut args = match std::mem::replace(&mut last.arguments, syn::PathArguments::None) {
            syn::PathArguments::AngleBracketed(a) => a,
            _ => syn::AngleBracketedGenericArguments {
                colon2_token: None,
                lt_token: syn::Token![<](span),
                args: syn::punctuated::Punctuated::new(),
                gt_token: syn::Token![>](span),
            },
        };
        let rest = std::mem::take(&mut args.args);
        args.args = (fresh.into_iter().map(syn::GenericArgument::Lifetime))
            .chain(rest)
            .collect();
        last.arguments = syn::PathArguments::AngleBracketed(args);
    }
}

/// Names the elided lifetimes of `output` as Rust's elision rule does: with the inputs'
/// single lifetime position (inputs already named by `LifetimeNamer`). `Err` carries the
/// span of an elided reference that has no single input to borrow from.
pub(crate) fn name_output(named_inputs: &[syn::Type], output: &mut syn::Type) -> Result<(), Span> {
    let positions: Vec<syn::Lifetime> = named_inputs.iter().flat_map(lifetimes_in).collect();
    let mut namer = OutputLifetimes {
        only: (positions.len() == 1).then(|| positions[0].clone()),
        missing: None,
    };
    namer.visit_type_mut(output);
    match namer.missing {
        Some(span) => Err(span),
        None => Ok(()),
    }
}

/// Gives elided lifetimes in the return type the one input lifetime.
struct OutputLifetimes {
    only: Option<syn::Lifetime>,
    missing: Option<Span>,
}

impl VisitMut for OutputLifetimes {
    fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
        if r.lifetime.as_ref().is_none_or(|l| l.ident == "_") {
            match &self.only {
                Some(l) => r.lifetime = Some(l.clone()),
                None => self.missing = Some(r.span()),
            }
        }
        syn::visit_mut::visit_type_reference_mut(self, r);
    }
    /// `'_` outside a reference: a bound (`impl Fn(f64) -> f64 + '_`) or an argument
    /// (`Window<'_>`).
    fn visit_lifetime_mut(&mut self, l: &mut syn::Lifetime) {
        if l.ident == "_" {
            match &self.only {
                Some(only) => *l = only.clone(),
                None => self.missing = Some(l.span()),
            }
        }
    }
}

/// Every lifetime written in `ty` (after naming), in order: Rust's elision rule counts
/// these positions.
fn lifetimes_in(ty: &syn::Type) -> Vec<syn::Lifetime> {
    struct Collect(Vec<syn::Lifetime>);
    impl<'ast> syn::visit::Visit<'ast> for Collect {
        fn visit_lifetime(&mut self, l: &'ast syn::Lifetime) {
            self.0.push(l.clone());
        }
    }
    let mut c = Collect(Vec::new());
    syn::visit::Visit::visit_type(&mut c, ty);
    c.0
}

/// Every lifetime the generics declare or bind: the parameters' and those of
/// higher-ranked bounds (`where T: for<'a> Sum<&'a T>`), which a fresh name must not
/// shadow.
pub(crate) fn written_in(generics: &syn::Generics) -> Vec<syn::Lifetime> {
    struct Collect(Vec<syn::Lifetime>);
    impl<'ast> syn::visit::Visit<'ast> for Collect {
        fn visit_lifetime(&mut self, l: &'ast syn::Lifetime) {
            if !self.0.iter().any(|k| k.ident == l.ident) {
                self.0.push(l.clone());
            }
        }
    }
    let mut c = Collect(Vec::new());
    syn::visit::Visit::visit_generics(&mut c, generics);
    c.0
}
