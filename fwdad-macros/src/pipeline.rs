//! The pipeline of `#[derive_frule]`, as one flat list of passes:
//!
//! ```text
//! lower → normalize → activity → dual → linear   (then `emit`, in `derive_frule`)
//! ```
//!
//! Production (`derive_frule::expand`), `dump` and the snapshot tests all run this one
//! function; each pass's IR is verified (`ir::verify`) after it, and handed to the
//! `show` callback printed with that pass's annotations.

use crate::activity::{self, Activity};
use crate::diag::Diagnostics;
use crate::dual::{self, DualPlan};
use crate::ir::{self, Function};
use crate::linear::{self, Linear};
use crate::{lower, normalize};
use proc_macro2::TokenStream;

/// A pass, as named in `dump` output and snapshot files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Lower,
    Normalize,
    Activity,
    Dual,
    Linear,
}

impl Stage {
    /// The pass's name.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Lower => "lower",
            Stage::Normalize => "normalize",
            Stage::Activity => "activity",
            Stage::Dual => "dual",
            Stage::Linear => "linear",
        }
    }
}

/// What the passes produce for `emit`.
pub struct Passes {
    pub ir: Function,
    pub active: Activity,
    pub plans: DualPlan,
    pub linear: Option<Linear>,
    /// The one-direction linearisation (`crate::simplify`).
    pub simplified: Option<Linear>,
}

/// Receives each pass's printed IR (`dump`, snapshot tests); `None` in production.
pub type Show<'a> = Option<&'a mut dyn FnMut(Stage, String)>;

/// Runs the passes on `item`; `inactive`: one flag per parameter declared constant (empty:
/// none). `None` when an error was reported (to `diag`).
pub fn run(
    item: &syn::ItemFn,
    inactive: &[bool],
    rt: &TokenStream,
    diag: &mut Diagnostics,
    mut show: Show<'_>,
) -> Option<Passes> {
    let mut emit = |stage: Stage, text: &dyn Fn() -> String| {
        if let Some(show) = show.as_mut() {
            show(stage, text());
        }
    };
    let mut ir = lower::lower_fn(item, rt, diag);
    if diag.has_errors() {
        return None;
    }
    for (p, &flag) in ir.params.iter_mut().zip(inactive) {
        p.inactive = flag;
    }
    checked(&ir, Stage::Lower, item, diag)?;
    emit(Stage::Lower, &|| ir::display_fn(&ir, &|_, _| String::new()));
    normalize::abs_by_bits(&mut ir);
    normalize::remove_dead(&mut ir);
    checked(&ir, Stage::Normalize, item, diag)?;
    emit(Stage::Normalize, &|| {
        ir::display_fn(&ir, &|_, _| String::new())
    });
    let active = activity::analyze(&ir);
    emit(Stage::Activity, &|| {
        ir::display_fn(&ir, &activity::note(&active))
    });
    dual::check(&ir, &active, diag);
    if diag.has_errors() {
        return None;
    }
    let plans = dual::transform(&ir, &active);
    emit(Stage::Dual, &|| {
        ir::display_fn(&ir, &dual::note(&active, &plans))
    });
    let linear = linear::analyze(&ir, &active, &plans);
    emit(Stage::Linear, &|| match &linear {
        Some(lin) => ir::display_fn(&ir, &|f, i| linear::note(lin, f, i)),
        None => "no linearisation: no chain absorbs a value or merges two reads\n".to_string(),
    });
    let simplified = crate::simplify::analyze(&ir, &active, &plans);
    Some(Passes {
        ir,
        active,
        plans,
        linear,
        simplified,
    })
}

/// `ir::verify` after `stage`: a failure is the macro's bug, reported at the function.
fn checked(ir: &Function, stage: Stage, item: &syn::ItemFn, diag: &mut Diagnostics) -> Option<()> {
    match ir::verify(ir) {
        Ok(()) => Some(()),
        Err(e) => {
            diag.error(
                item.sig.ident.span(),
                format!(
                    "internal error in `#[derive_frule]`: invalid IR after `{}`: {e}",
                    stage.name()
                ),
            );
            None
        }
    }
}
