//! `#[derive_frule(alias(State = SVector<f64, 3>))]`: the user's type aliases of library
//! types, replaced by what they stand for in the function the passes see (the primal keeps
//! the user's names). Library types are recognised by their names (`libtypes`), which an
//! alias hides; the macro cannot see the `type` item itself.

use syn::visit_mut::VisitMut;

/// `func` with each alias written out: a type `State` (`x: &State`, `let s: State`,
/// `Vec<State>`) becomes `SVector<f64, 3>`, a path `State::new` becomes
/// `SVector::<f64, 3>::new`.
pub fn substitute(func: &syn::ItemFn, aliases: &[(syn::Ident, syn::Type)]) -> syn::ItemFn {
    let mut func = func.clone();
    if !aliases.is_empty() {
        Substitute(aliases).visit_item_fn_mut(&mut func);
    }
    func
}

struct Substitute<'a>(&'a [(syn::Ident, syn::Type)]);

impl Substitute<'_> {
    fn target(&self, segment: &syn::PathSegment) -> Option<&syn::Type> {
        if !matches!(segment.arguments, syn::PathArguments::None) {
            return None;
        }
        self.0
            .iter()
            .find(|(name, _)| *name == segment.ident)
            .map(|(_, ty)| ty)
    }
}

impl VisitMut for Substitute<'_> {
    fn visit_type_mut(&mut self, ty: &mut syn::Type) {
        if let syn::Type::Path(p) = ty {
            if p.qself.is_none() && p.path.segments.len() == 1 {
                if let Some(t) = self.target(&p.path.segments[0]) {
                    *ty = t.clone();
                    return;
                }
            }
        }
        syn::visit_mut::visit_type_mut(self, ty);
    }

    /// `State::new(..)`, `Cov::identity()`: the alias's path with its arguments as a
    /// turbofish (`SVector::<f64, 3>::new`).
    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        if path.leading_colon.is_none() && path.segments.len() >= 2 {
            if let Some(syn::Type::Path(t)) = self.target(&path.segments[0]) {
                if t.qself.is_none() {
                    let mut head = t.path.clone();
                    for s in head.segments.iter_mut() {
                        if let syn::PathArguments::AngleBracketed(a) = &mut s.arguments {
                            a.colon2_token.get_or_insert_with(Default::default);
                        }
                    }
                    let rest: Vec<_> = path.segments.iter().skip(1).cloned().collect();
                    head.segments.extend(rest);
                    *path = head;
                }
            }
        }
        syn::visit_mut::visit_path_mut(self, path);
    }
}
