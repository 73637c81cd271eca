//! Values of library types computed by the library's own generic code: nalgebra's
//! matrices and vectors (fixed-size and `DMatrix`/`DVector`) and geometry types
//! (`Point3`, `UnitQuaternion`, `Isometry3`, ...), and num-complex's `Complex`.
//!
//! These libraries are generic over their scalar (`T: RealField`, `T: Float`), and a scalar
//! dual implements those traits (runtime features `nalgebra`; `Float` always). So an active
//! value of such a type is not a `Dual` of the whole value: it is the library's type over
//! dual scalars (`Vector3<Dual<f64, S>>`, `Complex<Dual<f64, S>>`), and every operation on
//! it (`b - a`, `m * v`, `v.norm()`, `m.cholesky()`, `Vector3::new(x, y, z)`, `c.exp()`) is
//! emitted as written, with each operand lifted to that form by the runtime's `lift`
//! (a plain `f64` to a constant dual, a `Vector3<f64>` to a vector of constant duals, a
//! parameter's `Dual<&Vector3<f64>, &Vector3<S>>` to a vector of duals, a lifted value as
//! it is). The library computes the tangents; no rule per method is needed.
//!
//! glam is not generic (a type per scalar): its values are the runtime's mirror types over duals
//! (`fwdad_runtime::glam`), and a call of a glam type's associated function is a call of
//! the mirror's (`DQuat::from_axis_angle` → `glam::DQuat::<S>::from_axis_angle`).
//!
//! The types are recognised with the features of the same names (`fwdad`'s `nalgebra`,
//! `num-complex`, `glam`), so that without them a type of the user's named `Vector3` is
//! theirs.
//! A value is of a library type when the syntax says so: a parameter or `let` whose written
//! type names one (`&Vector3<f64>`, `Matrix3<f64>`, `Complex<f64>`), a call of an
//! associated function of one (`Vector3::new(..)`, `Complex::from_polar(..)`), an operator
//! with such an operand, a method of such a receiver (except the methods that return a
//! scalar: [`SCALAR_METHODS`]), and what those flow into (copies, `if`/`match` results,
//! `Some(x)` bindings of a `match` on one, loop-carried variables, local arrays of them and
//! their elements). Indexing (`v[i]`) and fields (`v.x`, `c.re`) give scalars, but for the
//! fields of a geometry value that hold library values ([`GEOMETRY_VALUE_FIELDS`]).

use crate::ir::entity::SecondaryMap;
use crate::ir::{Function, InstKind, Region, Terminator, UnOp, Value};

/// nalgebra's statically sized matrices and vectors (`ArrayStorage`, `Copy`), by the last
/// segment of their path.
const NALGEBRA_TYPES: &[&str] = &[
    "SMatrix",
    "SVector",
    "RowSVector",
    "Vector1",
    "Vector2",
    "Vector3",
    "Vector4",
    "Vector5",
    "Vector6",
    "RowVector1",
    "RowVector2",
    "RowVector3",
    "RowVector4",
    "RowVector5",
    "RowVector6",
    "Matrix1",
    "Matrix2",
    "Matrix3",
    "Matrix4",
    "Matrix5",
    "Matrix6",
    "Matrix1x2",
    "Matrix1x3",
    "Matrix1x4",
    "Matrix2x1",
    "Matrix2x3",
    "Matrix2x4",
    "Matrix3x1",
    "Matrix3x2",
    "Matrix3x4",
    "Matrix4x1",
    "Matrix4x2",
    "Matrix4x3",
    // Dynamically sized (`VecStorage`, not `Copy`): moved as in plain code.
    "DMatrix",
    "DVector",
    "RowDVector",
];

/// nalgebra's geometry types (points, translations, rotations, unit vectors, quaternions,
/// unit complex numbers, isometries): generic over their scalar as its matrices, so their
/// values over duals are computed by nalgebra's code too, but they are not matrices (no
/// `nalgebra_linalg` operation takes them). The runtime's `nalgebra_geometry` lists the
/// same types with their tangents. By their sized aliases (`Point3`, not `Point<T, 3>`):
/// a `Point`, `Rotation` or `Translation` of the user's own is too common a name to take.
const NALGEBRA_GEOMETRY_TYPES: &[&str] = &[
    "Point1",
    "Point2",
    "Point3",
    "Point4",
    "Point5",
    "Point6",
    "Translation1",
    "Translation2",
    "Translation3",
    "Translation4",
    "Translation5",
    "Translation6",
    "Rotation2",
    "Rotation3",
    "Unit",
    "UnitVector1",
    "UnitVector2",
    "UnitVector3",
    "UnitVector4",
    "UnitVector5",
    "UnitVector6",
    "Quaternion",
    "UnitQuaternion",
    "UnitComplex",
    "Isometry2",
    "Isometry3",
    "IsometryMatrix2",
    "IsometryMatrix3",
    "Similarity2",
    "Similarity3",
    "Perspective3",
    "Orthographic3",
];

fn is_geometry_name(name: &syn::Ident) -> bool {
    cfg!(feature = "nalgebra") && NALGEBRA_GEOMETRY_TYPES.iter().any(|t| name == t)
}

/// Fields of a nalgebra value that hold a library value, not a scalar: a point's or
/// quaternion's `coords`, a translation's `vector`, an isometry's `rotation` and
/// `translation`; a decomposition's factors (`eig.eigenvalues`, `eig.eigenvectors` of
/// `symmetric_eigen()`, `svd.singular_values`, `svd.u`, `svd.v_t`); glam's affine
/// transform's `matrix2`/`matrix3` and `translation`, a glam matrix's columns `x_axis`, ..,
/// `w_axis`. Every other field
/// (`p.x`, `q.w`, `z.re`) is a scalar.
const GEOMETRY_VALUE_FIELDS: &[&str] = &[
    "coords",
    "matrix2",
    "matrix3",
    "x_axis",
    "y_axis",
    "z_axis",
    "w_axis",
    "vector",
    "rotation",
    "translation",
    "eigenvalues",
    "eigenvectors",
    "singular_values",
    "u",
    "v_t",
];

/// num-complex's types.
const COMPLEX_TYPES: &[&str] = &["Complex", "Complex64"];

/// glam's `f64` types: not generic, so mirrored over duals by the runtime's `glam` module,
/// whose associated functions replace glam's in the rule.
const GLAM_TYPES: &[&str] = &[
    "DVec2", "DVec3", "DVec4", "DQuat", "DMat2", "DMat3", "DMat4", "DAffine2", "DAffine3",
];

/// glam's `f32` types, mirrored the same way, with the feature `glam-f32` only: a type of
/// the user's named `Vec3` or `Quat` is far more common than one named `DVec3`.
const GLAM_F32_TYPES: &[&str] = &[
    "Vec2", "Vec3", "Vec3A", "Vec4", "Quat", "Mat3", "Mat4", "Affine3A",
];

fn is_glam_name(name: &syn::Ident) -> bool {
    (cfg!(feature = "glam") && GLAM_TYPES.iter().any(|t| name == t))
        || (cfg!(feature = "glam-f32") && GLAM_F32_TYPES.iter().any(|t| name == t))
}

/// ndarray's owned arrays.
const NDARRAY_TYPES: &[&str] = &["Array", "Array1", "Array2", "Array3"];

/// The value a library type's `Sum` (or `Product`) starts from, as its impl does: for
/// `xs.iter().map(|z| z * w).sum::<Complex64>()` (or `let s: Complex64 = ...sum();`),
/// `Complex64::new(0.0, 0.0)` (num-complex's `Complex::zero()`), glam's `DVec3::ZERO`
/// (`DQuat::IDENTITY`, `DVec3::ONE`, `DMat3::IDENTITY` for a product), nalgebra's `Vector3::zeros()` for a
/// fixed-size matrix. The reduction is then the fold `acc + item` from it, which is what
/// the libraries' `Sum` and `Product` impls compute. `None` for a type whose start needs a
/// size (`DVector`, ndarray's arrays) or that has no such impl.
pub fn reduction_start(ty: &syn::Type, product: bool) -> Option<syn::Expr> {
    let syn::Type::Path(tp) = ty else {
        return None;
    };
    if tp.qself.is_some() {
        return None;
    }
    let last = tp.path.segments.last()?;
    let name = last.ident.to_string();
    let span = last.ident.span();
    let lit = |v: &str| -> syn::Expr {
        syn::Expr::Lit(syn::ExprLit {
            attrs: vec![],
            lit: syn::LitFloat::new(v, span).into(),
        })
    };
    let mut path = tp.path.clone();
    for seg in &mut path.segments {
        if let syn::PathArguments::AngleBracketed(a) = &mut seg.arguments {
            a.colon2_token = Some(Default::default());
        }
    }
    let (item, args): (&str, Option<Vec<syn::Expr>>) =
        if cfg!(feature = "num-complex") && COMPLEX_TYPES.iter().any(|t| name == *t) {
            let one = if product { "1.0" } else { "0.0" };
            ("new", Some(vec![lit(one), lit("0.0")]))
        } else if is_glam_name(&last.ident) {
            match (product, name.ends_with("Quat")) {
                (false, false) => ("ZERO", None),
                (true, true) => ("IDENTITY", None),
                (true, false) if name.contains("Vec") => ("ONE", None),
                (true, false) if name.contains("Mat") => ("IDENTITY", None),
                _ => return None,
            }
        } else if !product
            && is_nalgebra_name(&last.ident)
            && !["DMatrix", "DVector", "RowDVector"]
                .iter()
                .any(|t| name == *t)
        {
            ("zeros", Some(vec![]))
        } else {
            return None;
        };
    path.segments.push(syn::Ident::new(item, span).into());
    let path = syn::Expr::Path(syn::ExprPath {
        attrs: vec![],
        qself: None,
        path,
    });
    Some(match args {
        None => path,
        Some(args) => syn::Expr::Call(syn::ExprCall {
            attrs: vec![],
            func: Box::new(path),
            paren_token: Default::default(),
            args: args.into_iter().collect(),
        }),
    })
}

/// Whether a sum into `ty` starts from its first item, as nalgebra's `Sum` for a matrix
/// of a dynamic number of rows does (`DVector`, `DMatrix`, `RowDVector`: its size is the
/// items'; it panics on no items): `reduction_start` has no start for these.
pub fn sum_from_first(ty: &syn::Type) -> bool {
    let syn::Type::Path(tp) = ty else {
        return false;
    };
    let Some(last) = tp.path.segments.last() else {
        return false;
    };
    tp.qself.is_none()
        && cfg!(feature = "nalgebra")
        && ["DMatrix", "DVector"].iter().any(|t| last.ident == t)
}

/// Whether `name` is a library type of an enabled feature.
pub(crate) fn is_lib_name(name: &syn::Ident) -> bool {
    (cfg!(feature = "nalgebra") && NALGEBRA_TYPES.iter().any(|t| name == t))
        || is_geometry_name(name)
        || (cfg!(feature = "num-complex") && COMPLEX_TYPES.iter().any(|t| name == t))
        || (cfg!(feature = "ndarray") && NDARRAY_TYPES.iter().any(|t| name == t))
        || is_glam_name(name)
}

/// For a call of a glam type's associated function (`DQuat::from_axis_angle`): the type
/// and the function, which the rule calls on the runtime's mirror over duals.
pub fn glam_fn(path: &syn::Path) -> Option<(&syn::Ident, &syn::Ident)> {
    let n = path.segments.len();
    if n < 2 || !is_glam_name(&path.segments[n - 2].ident) {
        return None;
    }
    Some((&path.segments[n - 2].ident, &path.segments[n - 1].ident))
}

/// Whether `v` is a parameter written with one of glam's `f32` type names (`c: Vec3`) in a
/// build without `glam-f32`, where the name is taken for a type of the user's: its
/// method's missing rule then says how to have glam's.
pub fn unrecognised_glam_f32(func: &Function, v: Value) -> bool {
    if cfg!(feature = "glam-f32") || !cfg!(feature = "glam") {
        return false;
    }
    match func.values[v].def {
        crate::ir::ValueDef::Param(i) => names_type(&func.params[i].ty, |n| {
            GLAM_F32_TYPES.iter().any(|t| n == t)
        }),
        crate::ir::ValueDef::Inst(inst, _) => match &func.insts[inst].kind {
            InstKind::Copy(arg)
            | InstKind::Unary {
                op: UnOp::Deref,
                arg,
            } => unrecognised_glam_f32(func, *arg),
            _ => false,
        },
        crate::ir::ValueDef::RegionParam(..) => false,
    }
}

/// glam's free constructors (`vec3(x, y, z)`, `dvec2(x, y)`) as its types' `new`
/// (`Vec3::new`), so that the rest of the pipeline sees a call of a glam type's function.
pub fn glam_ctor_fn(path: &syn::Path) -> Option<syn::Path> {
    const CTORS: &[(&str, &str)] = &[
        ("vec2", "Vec2"),
        ("vec3", "Vec3"),
        ("vec3a", "Vec3A"),
        ("vec4", "Vec4"),
        ("dvec2", "DVec2"),
        ("dvec3", "DVec3"),
        ("dvec4", "DVec4"),
    ];
    let last = path.segments.last()?;
    let prefix_ok =
        path.segments.len() == 1 || (path.segments.len() == 2 && path.segments[0].ident == "glam");
    if !prefix_ok || !last.arguments.is_none() {
        return None;
    }
    let (_, ty) = CTORS.iter().find(|(f, _)| last.ident == f)?;
    let ty = syn::Ident::new(ty, last.ident.span());
    if !is_glam_name(&ty) {
        return None;
    }
    let new = syn::Ident::new("new", last.ident.span());
    let mut ctor = path.clone();
    ctor.segments.pop();
    ctor.segments.push(syn::PathSegment::from(ty));
    ctor.segments.push(syn::PathSegment::from(new));
    Some(ctor)
}

/// Methods of library values that return a scalar.
const SCALAR_METHODS: &[&str] = &[
    "norm",
    "norm_squared",
    "magnitude",
    "magnitude_squared",
    "dot",
    "dotc",
    "trace",
    "determinant",
    "sum",
    "product",
    "max",
    "min",
    "amax",
    "amin",
    "camax",
    "camin",
    "mean",
    "variance",
    "angle",
    "lp_norm",
    "metric_distance",
    "norm_sqr",
    "arg",
    "l1_norm",
    // a library map's reduction, to a scalar in the code we differentiate
    "fold",
    // nalgebra's geometry types
    "angle_to",
    "cos_angle",
    "sin_angle",
    "scalar",
    // glam
    "length",
    "length_squared",
    "length_recip",
    "distance",
    "distance_squared",
    "angle_between",
    "element_sum",
    "element_product",
    "max_element",
    "min_element",
];

/// Methods of a library value that return a matrix or array of its kind (never an
/// `Option`, an iterator or a scalar): `map` on their result is the library's map,
/// `chol.l().diagonal().map(|d| d.ln())`.
const MATRIX_METHODS: &[&str] = &[
    "diagonal",
    "transpose",
    "t",
    "column",
    "row",
    "l",
    "u",
    "q",
    "r",
    "clone",
    "to_owned",
    "view",
    "fixed_rows",
    "fixed_columns",
    "abs",
    "component_mul",
    "component_div",
    "normalize",
    "adjoint",
    "upper_triangle",
    "lower_triangle",
];

/// Whether `method` of a library value returns a matrix or array ([`MATRIX_METHODS`]).
pub fn returns_matrix(method: &syn::Ident) -> bool {
    cfg!(any(feature = "nalgebra", feature = "ndarray"))
        && MATRIX_METHODS.iter().any(|m| method == m)
}

/// Methods of library values that iterate over views of their rows, columns or lanes:
/// nalgebra's `row_iter`, `column_iter` (and `_mut`), ndarray's `rows`, `columns`,
/// `outer_iter`, `axis_iter`, `lanes` (and `_mut`). A loop over one binds library values.
const LANE_ITERATORS: &[&str] = &[
    "row_iter",
    "row_iter_mut",
    "column_iter",
    "column_iter_mut",
    "rows",
    "rows_mut",
    "columns",
    "columns_mut",
    "outer_iter",
    "outer_iter_mut",
    "axis_iter",
    "axis_iter_mut",
    "lanes",
    "lanes_mut",
];

/// The name the view's loop variable has in `for mut row in m.row_iter_mut()` (or `for (i,
/// mut row) in m.row_iter_mut().enumerate()`), when the loop iterates over
/// [`LANE_ITERATORS`] (with the feature of its library).
pub fn lane_view_binding(iter: &syn::Expr, pat: &syn::Pat) -> Option<syn::Ident> {
    if !cfg!(any(feature = "nalgebra", feature = "ndarray")) {
        return None;
    }
    let syn::Expr::MethodCall(m) = strip_expr(iter) else {
        return None;
    };
    let (lanes, pat) = match (m.method.to_string().as_str(), pat) {
        ("enumerate", syn::Pat::Tuple(t)) if t.elems.len() == 2 => (&*m.receiver, &t.elems[1]),
        _ => (iter, pat),
    };
    let syn::Expr::MethodCall(l) = strip_expr(lanes) else {
        return None;
    };
    if !LANE_ITERATORS.iter().any(|n| l.method == n) {
        return None;
    }
    match pat {
        syn::Pat::Ident(i) if i.subpat.is_none() => Some(i.ident.clone()),
        _ => None,
    }
}

/// Methods of library values that return a mutable view of part of them (nalgebra's
/// `row_mut`, `column_mut`, `rows_mut`, `columns_mut`, `fixed_rows_mut`,
/// `fixed_columns_mut`, `view_mut`, `fixed_view_mut`; ndarray's `row_mut`, `column_mut`,
/// `slice_mut`, `view_mut`, `index_axis_mut`, `diag_mut`).
const VIEW_MUT_METHODS: &[&str] = &[
    "row_mut",
    "column_mut",
    "rows_mut",
    "columns_mut",
    "fixed_rows_mut",
    "fixed_columns_mut",
    "view_mut",
    "fixed_view_mut",
    "slice_mut",
    "index_axis_mut",
    "diag_mut",
];

/// Whether `method` (one of [`VIEW_MUT_METHODS`]), with a library feature, returns a
/// mutable view: `let mut r = m.row_mut(0);` binds a view that compound assignment writes
/// through.
pub fn is_view_mut_method(method: &syn::Ident) -> bool {
    cfg!(any(feature = "nalgebra", feature = "ndarray"))
        && VIEW_MUT_METHODS.iter().any(|n| method == n)
}

/// Whether `name` is a view type of a library enabled (nalgebra's `MatrixViewMut`,
/// `DVectorView`, `VectorView3`, `MatrixSliceMut`, ...; ndarray's `ArrayView1`,
/// `ArrayViewMut2`, `RawArrayView`, ...): a borrow of part of a matrix or array, which a
/// rule can neither take nor return.
pub fn is_view_type_name(name: &syn::Ident) -> bool {
    const NALGEBRA_OWNERS: &[&str] = &[
        "Matrix",
        "Vector",
        "DMatrix",
        "DVector",
        "SMatrix",
        "SVector",
        "RowVector",
        "RowDVector",
        "RowSVector",
    ];
    let n = name.to_string();
    let nalgebra = cfg!(feature = "nalgebra")
        && NALGEBRA_OWNERS.iter().any(|o| {
            n.strip_prefix(o)
                .is_some_and(|rest| rest.starts_with("View") || rest.starts_with("Slice"))
        });
    let ndarray =
        cfg!(feature = "ndarray") && (n.starts_with("ArrayView") || n.starts_with("RawArrayView"));
    nalgebra || ndarray
}

/// Whether a macro is ndarray's `s![..]` (by that name, with the feature): its value, a
/// slice pattern, holds no float, whether or not it names a local.
pub fn is_slice_macro(path: &syn::Path) -> bool {
    cfg!(feature = "ndarray") && path.segments.last().is_some_and(|s| s.ident == "s")
}

/// Methods of a library value that return a tuple of views of its elements, each part a
/// library value in the rule's form: nalgebra's `columns_range_pair_mut` (and `rows_`,
/// and their shared forms), ndarray's `split_at` and `multi_slice_mut`, and
/// `split_at_mut`/`split_at` of the elements' slice (`m.as_mut_slice().split_at_mut(3)`,
/// duals in the rule).
const SPLITTING_METHODS: &[&str] = &[
    "split_at",
    "split_at_mut",
    "multi_slice_mut",
    "columns_range_pair_mut",
    "rows_range_pair_mut",
    "columns_range_pair",
    "rows_range_pair",
];

/// Whether `method` of a library value splits it into a tuple of views
/// ([`SPLITTING_METHODS`]: `let (mut ci, mut cj) = m.columns_range_pair_mut(i, j);`).
pub fn splits_view(method: &syn::Ident) -> bool {
    cfg!(any(feature = "nalgebra", feature = "ndarray"))
        && SPLITTING_METHODS.iter().any(|n| method == n)
}

/// Whether `v` is what a method returning a mutable view gave (`m.row_mut(0)`).
fn is_view_result(func: &Function, v: Value) -> bool {
    matches!(func.values[v].def, crate::ir::ValueDef::Inst(inst, 0)
        if matches!(&func.insts[inst].kind, InstKind::MethodCall { method, .. } if is_view_mut_method(method)))
}

/// Whether `base.member` is a view split off a library value in the rule's form
/// (`m.columns_range_pair_mut(i, j).0` of a local matrix), or a view of a tuple of views
/// (`(m.row_mut(0), n.column_mut(1)).1`): over duals, not the dual of a parameter.
fn is_view_part(func: &Function, base: Value, member: &syn::Member) -> bool {
    let syn::Member::Unnamed(k) = member else {
        return false;
    };
    let method_of = |v: Value| match func.values[v].def {
        crate::ir::ValueDef::Inst(inst, 0) => match &func.insts[inst].kind {
            InstKind::MethodCall {
                receiver, method, ..
            } => Some((*receiver, method.clone())),
            _ => None,
        },
        _ => None,
    };
    if let Some((receiver, method)) = method_of(base) {
        return splits_view(&method) && !is_param(func, receiver);
    }
    let crate::ir::ValueDef::Inst(inst, 0) = func.values[base].def else {
        return false;
    };
    match &func.insts[inst].kind {
        InstKind::Tuple(elems) => elems
            .get(k.index as usize)
            .and_then(|e| method_of(*e))
            .is_some_and(|(r, m)| is_view_mut_method(&m) && !is_param(func, r)),
        _ => false,
    }
}

/// Whether `v` is `whole.k` of a tuple of library values: a part of what a splitting
/// method of a library value gave ([`splits_view`]), or of a tuple built of library
/// values (`let (mut a, mut b) = (m.row_mut(0), n.column_mut(1));`).
fn is_lib_tuple_part(
    func: &Function,
    base: Value,
    member: &syn::Member,
    lib: &dyn Fn(Value) -> bool,
) -> bool {
    let syn::Member::Unnamed(k) = member else {
        return false;
    };
    let crate::ir::ValueDef::Inst(inst, 0) = func.values[base].def else {
        return false;
    };
    match &func.insts[inst].kind {
        InstKind::MethodCall {
            receiver, method, ..
        } => lib(*receiver) && (splits_view(method) || glam_tuple_part(method, k.index)),
        InstKind::Tuple(elems) => elems.get(k.index as usize).is_some_and(|e| lib(*e)),
        _ => false,
    }
}

/// Whether part `k` of the tuple glam's method `method` returns is a glam value: the axis
/// of `q.to_axis_angle()`, each of `m.to_scale_rotation_translation()` (the angles of
/// `to_euler` are scalars).
fn glam_tuple_part(method: &syn::Ident, k: u32) -> bool {
    cfg!(feature = "glam")
        && ((method == "to_axis_angle" && k == 0) || method == "to_scale_rotation_translation")
}

fn strip_expr(e: &syn::Expr) -> &syn::Expr {
    match e {
        syn::Expr::Paren(p) => strip_expr(&p.expr),
        syn::Expr::Group(g) => strip_expr(&g.expr),
        e => e,
    }
}

/// The operator method of a compound assignment (`/=`: `div_assign`), which a view of a
/// library value's lane takes in place.
pub fn assign_method(op: crate::ir::BinOp) -> Option<&'static str> {
    use crate::ir::BinOp;
    Some(match op {
        BinOp::Add => "add_assign",
        BinOp::Sub => "sub_assign",
        BinOp::Mul => "mul_assign",
        BinOp::Div => "div_assign",
        _ => return None,
    })
}

/// The `core::ops` trait of an operator method a view takes in place (`div_assign`:
/// `DivAssign`), which the rule calls by its path (the user need not import it).
pub fn assign_trait(method: &syn::Ident) -> Option<&'static str> {
    Some(match method.to_string().as_str() {
        "add_assign" => "AddAssign",
        "sub_assign" => "SubAssign",
        "mul_assign" => "MulAssign",
        "div_assign" => "DivAssign",
        _ => return None,
    })
}

/// Methods of library values that return a size (`a.nrows()`, `t.len_of(Axis(2))`), by
/// name: their result is an integer, whatever the receiver.
const SIZE_METHODS: &[&str] = &["nrows", "ncols", "len_of"];

/// Whether `name(..)` is a library value's size, with a library feature on.
pub fn is_size_method(name: &str) -> bool {
    cfg!(any(feature = "nalgebra", feature = "ndarray")) && SIZE_METHODS.contains(&name)
}

/// Whether a written type names a library type (behind references).
pub fn is_lib_type(ty: &syn::Type) -> bool {
    names_type(ty, is_lib_name)
}

/// nalgebra methods that the runtime's `nalgebra_linalg` computes over duals instead of
/// The library methods that map a closure over a value's elements, with the `ndarray` or
/// `nalgebra` feature: ndarray's `mapv`, `map` (each element lent), `mapv_inplace`;
/// nalgebra's `map`, `zip_map`; the `fold` of both (`z.fold(f64::NEG_INFINITY, |m, &v|
/// m.max(v))`, ndarray lending each element). In a rule the closure maps scalar duals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LibraryMap {
    Mapv,
    Map,
    MapvInplace,
    ZipMap,
    Fold,
}

impl LibraryMap {
    /// The map a method call names.
    pub fn of_method(method: &syn::Ident) -> Option<Self> {
        if !cfg!(any(feature = "nalgebra", feature = "ndarray")) {
            return None;
        }
        [
            ("mapv", Self::Mapv),
            ("map", Self::Map),
            ("mapv_inplace", Self::MapvInplace),
            ("zip_map", Self::ZipMap),
            ("fold", Self::Fold),
        ]
        .into_iter()
        .find_map(|(name, f)| (method == name).then_some(f))
    }

    /// Whether `Option`, arrays and iterators have a method of this name too: then only a
    /// variable the syntax shows is a library value is taken for one.
    pub fn shared_name(self) -> bool {
        matches!(self, Self::Map | Self::Fold)
    }

    /// Whether it writes the receiver's elements in place.
    pub fn in_place(self) -> bool {
        self == Self::MapvInplace
    }

    /// Whether ndarray lends the closure's parameter `k` (each element to `map`, not
    /// `mapv`; the element after the accumulator to `fold`); nalgebra passes them by value.
    pub fn lends_in_ndarray(self, k: usize) -> bool {
        match self {
            Self::Map => true,
            Self::Fold => k == 1,
            Self::Mapv | Self::MapvInplace | Self::ZipMap => false,
        }
    }
}

/// nalgebra's generic code: the factorisations of a square matrix (`m.cholesky()`,
/// `m.lu()`, `m.try_inverse()`: one `f64` factorisation, solves by the implicit rule
/// `dx = A⁻¹(db − dA·x)`) and the norms (`v.norm()`, `v.norm_squared()`: the tangent in
/// one pass).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NalgebraMethod {
    Cholesky,
    Lu,
    TryInverse,
    Norm,
    NormSquared,
}

impl NalgebraMethod {
    /// The method a call names, with the `nalgebra` feature (the receiver must be a
    /// nalgebra value: [`nalgebra_values`]).
    pub fn of_method(method: &syn::Ident) -> Option<Self> {
        if !cfg!(feature = "nalgebra") {
            return None;
        }
        [
            ("cholesky", Self::Cholesky),
            ("lu", Self::Lu),
            ("try_inverse", Self::TryInverse),
            ("norm", Self::Norm),
            ("norm_squared", Self::NormSquared),
        ]
        .into_iter()
        .find_map(|(name, f)| (method == name).then_some(f))
    }

    /// Whether the runtime function takes the matrix by reference (the norms: a view of
    /// a row, which is not `Copy`, stays usable); the factorisations take it by value.
    pub fn borrows(self) -> bool {
        matches!(self, Self::Norm | Self::NormSquared)
    }

    /// The runtime function (in `nalgebra_linalg`) that computes it.
    pub fn runtime_fn(self) -> &'static str {
        match self {
            Self::Cholesky => "cholesky",
            Self::Lu => "lu",
            Self::TryInverse => "try_inverse",
            Self::Norm => "norm",
            Self::NormSquared => "norm_squared",
        }
    }
}

/// Whether `name` is one of nalgebra's matrix types (static or dynamic), with the feature.
pub(crate) fn is_nalgebra_name(name: &syn::Ident) -> bool {
    cfg!(feature = "nalgebra") && NALGEBRA_TYPES.iter().any(|t| name == t)
}

/// Whether a written type names a type `names` accepts (behind references).
pub(crate) fn names_type(ty: &syn::Type, names: fn(&syn::Ident) -> bool) -> bool {
    match ty {
        syn::Type::Reference(r) => names_type(&r.elem, names),
        syn::Type::Paren(p) => names_type(&p.elem, names),
        syn::Type::Group(g) => names_type(&g.elem, names),
        syn::Type::Path(p) if p.qself.is_none() => {
            p.path.segments.last().is_some_and(|s| names(&s.ident))
        }
        _ => false,
    }
}

/// Whether a written type is a sequence of library values (`&[Vector3<f64>]`,
/// `[Complex<f64>; N]`, `Vec<DVec3>`, behind references).
fn is_seq_type_of(ty: &syn::Type, names: fn(&syn::Ident) -> bool) -> bool {
    match ty {
        syn::Type::Reference(r) => is_seq_type_of(&r.elem, names),
        syn::Type::Paren(p) => is_seq_type_of(&p.elem, names),
        syn::Type::Slice(s) => names_type(&s.elem, names),
        syn::Type::Array(a) => names_type(&a.elem, names),
        syn::Type::Path(p) if p.qself.is_none() => p.path.segments.last().is_some_and(|s| {
            s.ident == "Vec"
                && matches!(&s.arguments, syn::PathArguments::AngleBracketed(a)
                    if matches!(a.args.first(), Some(syn::GenericArgument::Type(t)) if names_type(t, names)))
        }),
        _ => false,
    }
}

/// Whether `receiver.method()` copies a slice parameter of glam values into a `Vec` of
/// them (`let mut pts = ctrl.to_vec();`): the copy holds the runtime's values over duals,
/// which the body then indexes, writes and passes on as a local array of them.
pub fn copies_glam_seq(func: &Function, receiver: Value, method: &syn::Ident) -> bool {
    matches!(method.to_string().as_str(), "to_vec" | "to_owned")
        && matches!(func.values[receiver].def, crate::ir::ValueDef::Param(_))
        && is_seq_of(func, receiver, is_glam_name)
}

/// Whether the syntax shows `v` is a value of a type of the user's: a parameter (`self`,
/// `o: &Osc`) or `let` (`let mut osc: Phasor = ..`) whose written type is no library's,
/// or a copy or borrow of one.
fn written_user(func: &Function, v: Value) -> bool {
    if let Some(t) = func.annotations.get(&v) {
        return !names_type(t, is_lib_name);
    }
    match func.values[v].def {
        crate::ir::ValueDef::Param(i) => !names_type(&func.params[i].ty, is_lib_name),
        crate::ir::ValueDef::Inst(inst, _) => match &func.insts[inst].kind {
            InstKind::Copy(a)
            | InstKind::Ref { arg: a, .. }
            | InstKind::Unary {
                op: UnOp::Deref,
                arg: a,
            } => written_user(func, *a),
            _ => false,
        },
        crate::ir::ValueDef::RegionParam(..) => false,
    }
}

/// Whether `v` is a parameter holding a sequence of library values (or a copy of one).
fn is_lib_seq(func: &Function, v: Value) -> bool {
    is_seq_of(func, v, is_lib_name)
}

fn is_seq_of(func: &Function, v: Value, names: fn(&syn::Ident) -> bool) -> bool {
    // `let spectrum: Vec<Complex64> = ..;`: its elements are stored as the dual of the
    // whole value, as a parameter's are.
    if func
        .annotations
        .get(&v)
        .is_some_and(|t| is_seq_type_of(t, names))
    {
        return true;
    }
    match func.values[v].def {
        crate::ir::ValueDef::Param(i) => is_seq_type_of(&func.params[i].ty, names),
        crate::ir::ValueDef::Inst(inst, _) => match &func.insts[inst].kind {
            InstKind::Copy(arg) => is_seq_of(func, *arg, names),
            _ => false,
        },
        crate::ir::ValueDef::RegionParam(..) => false,
    }
}

/// nalgebra's free functions that lowering writes out as nalgebra's bodies (`distance`,
/// `distance_squared`, `center`, `clamp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NalgebraFreeFn {
    Distance,
    DistanceSquared,
    Center,
    Clamp,
}

impl NalgebraFreeFn {
    /// `nalgebra::distance` or `na::distance` (the crate's usual short name), with the
    /// feature; a bare `distance(..)` may be the user's.
    pub fn of_path(path: &syn::Path) -> Option<Self> {
        if !is_nalgebra_free_fn(path)
            || !matches!(path.segments[1].arguments, syn::PathArguments::None)
        {
            return None;
        }
        [
            ("distance", Self::Distance),
            ("distance_squared", Self::DistanceSquared),
            ("center", Self::Center),
            ("clamp", Self::Clamp),
        ]
        .into_iter()
        .find_map(|(name, g)| (path.segments[1].ident == name).then_some(g))
    }
}

/// The library constructors that call a closure with each index and store what it
/// returns, which lowering writes out as loops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FromFn {
    /// nalgebra's `from_fn`: `|i, j|`, column by column.
    Nalgebra,
    /// ndarray's `Array1::from_shape_fn`: `|i|`.
    Ndarray1,
    /// ndarray's `Array2::from_shape_fn`: `|(i, j)|`, row by row.
    Ndarray2,
    /// ndarray's `Array3::from_shape_fn`: `|(i, j, k)|`, the last index fastest.
    Ndarray3,
}

impl FromFn {
    /// `Ty::from_fn` of a nalgebra matrix type, `Array1::from_shape_fn`,
    /// `Array2::from_shape_fn`, `Array3::from_shape_fn`, with the features.
    pub fn of_path(path: &syn::Path) -> Option<Self> {
        let n = path.segments.len();
        if n < 2 {
            return None;
        }
        let (ty, f) = (&path.segments[n - 2].ident, &path.segments[n - 1].ident);
        let ndarray = cfg!(feature = "ndarray") && f == "from_shape_fn";
        if f == "from_fn" && is_nalgebra_name(ty) {
            Some(Self::Nalgebra)
        } else if ndarray && ty == "Array1" {
            Some(Self::Ndarray1)
        } else if ndarray && ty == "Array2" {
            Some(Self::Ndarray2)
        } else if ndarray && ty == "Array3" {
            Some(Self::Ndarray3)
        } else {
            None
        }
    }
}

/// Whether `path` is a function of nalgebra's root other than those lowering writes out
/// (`nalgebra::try_convert`, `na::inf`): a lower-case name after `nalgebra` or `na`, with
/// the feature. Called with differentiated arguments it has no rule (`dual::check`).
pub fn is_nalgebra_free_fn(path: &syn::Path) -> bool {
    cfg!(feature = "nalgebra")
        && path.leading_colon.is_none()
        && path.segments.len() == 2
        && (path.segments[0].ident == "nalgebra" || path.segments[0].ident == "na")
        && path.segments[1]
            .ident
            .to_string()
            .starts_with(|ch: char| ch.is_ascii_lowercase())
}

/// Whether a method is ndarray's `map_inplace` (its closure takes each element `&mut`),
/// with the feature.
pub fn is_ndarray_map_inplace(method: &syn::Ident) -> bool {
    cfg!(feature = "ndarray") && method == "map_inplace"
}

/// The error for ndarray's `Zip` and `azip!` in the forms that are not written as a loop
/// (`{what}` names the one written).
pub const NDARRAY_ZIP_ADVICE: &str = "`#[derive_frule]` does not support {what} here (a closure run on the elements of several arrays): it supports `Zip::from(&mut a).and(&b).for_each(|a, &b| ..)` and `azip!((a in &mut a, &b in &b) ..)` over whole arrays (`&mut a`, `&a`, or a reference `a`), with a closure that does not `return`; for views, indices or `map_collect`, write the loop over the indices, `for i in 0..p.len() { p[i] += dt * v[i]; }` (`p[[i, j]]` for two axes), or the arrays' operators, `p += &(&v * dt);`";

/// Whether `path(..)` is ndarray's `Zip::from` or `Zip::indexed` (`Zip::from`,
/// `ndarray::Zip::from`), with the feature.
pub fn is_ndarray_zip(path: &syn::Path) -> bool {
    let n = path.segments.len();
    cfg!(feature = "ndarray")
        && n >= 2
        && path.segments[n - 2].ident == "Zip"
        && (path.segments[n - 1].ident == "from" || path.segments[n - 1].ident == "indexed")
}

/// Whether `method` is `Zip`'s `name` (`and`, `for_each`) in a chain from `Zip::from`.
pub fn is_ndarray_zip_method(method: &syn::Ident, name: &str) -> bool {
    cfg!(feature = "ndarray") && matches!(name, "and" | "for_each") && method == name
}

/// Whether a macro's path is ndarray's `azip!`, with the feature.
pub fn is_ndarray_zip_macro(path: &syn::Path) -> bool {
    cfg!(feature = "ndarray") && path.segments.last().is_some_and(|s| s.ident == "azip")
}

/// ndarray's free constructors `arr1`, `arr2`, `arr3` (bare, imported, or as
/// `ndarray::arr2`), with the feature: the number of axes of the array they build.
pub fn ndarray_free_ctor(path: &syn::Path) -> Option<usize> {
    if !cfg!(feature = "ndarray") || path.leading_colon.is_some() {
        return None;
    }
    let n = path.segments.len();
    let last = path.segments.last()?;
    let crate_ok = n == 1 || (n == 2 && path.segments[0].ident == "ndarray");
    if !crate_ok || !matches!(last.arguments, syn::PathArguments::None) {
        return None;
    }
    [("arr1", 1), ("arr2", 2), ("arr3", 3)]
        .into_iter()
        .find_map(|(name, axes)| (last.ident == name).then_some(axes))
}

/// Whether `path(..)` is an associated function of a library type (`Vector3::new`).
pub fn is_lib_ctor(path: &syn::Path) -> bool {
    is_ctor_of(path, is_lib_name) || ndarray_free_ctor(path).is_some()
}

/// Whether `path(..)` calls a function of the source file whose written result is a type
/// `names` accepts (`tool_pose(q)` of `fn tool_pose(q: &[f64]) -> Isometry3<f64>`:
/// `aliases::file_return_type`), so that `tool_pose(q).transform_point(&p)` is a library
/// value's method.
fn returns_named(
    path: &syn::Path,
    callee: &crate::callee::PathCallee,
    names: fn(&syn::Ident) -> bool,
) -> bool {
    matches!(callee, crate::callee::PathCallee::Function)
        && path.get_ident().is_some_and(|f| {
            crate::aliases::file_return_type(&f.to_string()).is_some_and(|t| names_type(&t, names))
        })
}

fn is_ctor_of(path: &syn::Path, names: fn(&syn::Ident) -> bool) -> bool {
    let n = path.segments.len();
    n >= 2 && names(&path.segments[n - 2].ident)
}

/// Library types generic over their scalar alone (`Matrix3<T>`, `DVector<T>`,
/// `Complex<T>`, `Array1<A>`), whose scalar a turbofish of one argument names: nalgebra's
/// aliases but the size-generic ones, num-complex's `Complex`, ndarray's fixed-dimension
/// arrays.
fn generic_over_scalar_alone(name: &syn::Ident) -> bool {
    const SIZE_GENERIC: &[&str] = &["SMatrix", "SVector", "RowSVector"];
    (NALGEBRA_TYPES.iter().any(|t| name == t) && !SIZE_GENERIC.iter().any(|t| name == t))
        // The geometry types but `Unit<V>`, whose parameter is a vector type.
        || (NALGEBRA_GEOMETRY_TYPES.iter().any(|t| name == t) && name != "Unit")
        || name == "Complex"
        || ["Array1", "Array2", "Array3"].iter().any(|t| name == t)
}

/// `Matrix3::identity` → `Matrix3::<f64>::identity`: an associated function of a library
/// type whose scalar is not written, called without float arguments (`identity()`,
/// `zeros(n)`). Plain Rust infers the scalar from the use (`Matrix3::identity() + m`), but
/// in the rule the value is lifted to the mode's duals, which leaves two candidates: the
/// macro names the function's float type, `float` (its one float type parameter, `T` in
/// `fn fk<T: RealField>`), or `f64`. `None` when the scalar is written or the type is not
/// generic over it alone.
pub fn default_scalar(path: &syn::Path, float: Option<&syn::Ident>) -> Option<syn::Path> {
    let n = path.segments.len();
    if n < 2 || !is_lib_name(&path.segments[n - 2].ident) {
        return None;
    }
    let ty = &path.segments[n - 2];
    let bare = matches!(ty.arguments, syn::PathArguments::None);
    if !bare || !generic_over_scalar_alone(&ty.ident) {
        return None;
    }
    let mut p = path.clone();
    let scalar = match float {
        Some(t) => t.clone(),
        None => syn::Ident::new("f64", ty.ident.span()),
    };
    // Built as a tree: the user's type parameter is not spliced into a parsed template.
    let mut args = syn::AngleBracketedGenericArguments {
        colon2_token: Some(Default::default()),
        lt_token: Default::default(),
        args: syn::punctuated::Punctuated::new(),
        gt_token: Default::default(),
    };
    args.args
        .push(syn::GenericArgument::Type(syn::Type::Path(syn::TypePath {
            qself: None,
            path: scalar.into(),
        })));
    p.segments[n - 2].arguments = syn::PathArguments::AngleBracketed(args);
    Some(p)
}

/// `SVector::<f64, 3>::new(x, y, z)`, `Matrix3::<f64>::new(..)` with dual arguments: the
/// written float scalar replaced by `_`, so that rustc takes the mode's dual scalar the
/// lifted arguments have. `floats` are the function's float type parameters, which are
/// float scalars too (`SVector::<T, 3>::new(..)` in `fn f<T: RealField>`). `None` when
/// the path writes no float scalar.
pub fn infer_scalar(path: &syn::Path, floats: &[syn::Ident]) -> Option<syn::Path> {
    let n = path.segments.len();
    if n < 2 || !is_lib_name(&path.segments[n - 2].ident) {
        return None;
    }
    let mut p = path.clone();
    let syn::PathArguments::AngleBracketed(a) = &mut p.segments[n - 2].arguments else {
        return None;
    };
    let mut found = false;
    for arg in a.args.iter_mut() {
        let syn::GenericArgument::Type(syn::Type::Path(t)) = arg else {
            continue;
        };
        let float = t.path.is_ident("f64")
            || t.path.is_ident("f32")
            || floats.iter().any(|f| t.path.is_ident(f));
        if t.qself.is_none() && float {
            let span = t.path.segments[0].ident.span();
            *arg = syn::GenericArgument::Type(syn::Type::Infer(syn::TypeInfer {
                underscore_token: syn::Token![_](span),
            }));
            found = true;
        }
    }
    found.then_some(p)
}

/// `Complex64::new(0.0, u * x)` with a dual argument: `Complex64` is `Complex<f64>`, whose
/// constructor takes plain floats, so the rule calls the generic type's
/// (`Complex::new`, through the runtime, as the user may not have imported `Complex`).
/// The function segment is kept. `None` for every other path.
pub fn scalar_alias_ctor(path: &syn::Path) -> Option<&syn::Ident> {
    let n = path.segments.len();
    let ty = &path.segments.get(n.checked_sub(2)?)?.ident;
    (cfg!(feature = "num-complex") && (ty == "Complex64" || ty == "Complex32"))
        .then(|| &path.segments[n - 1].ident)
}

/// Which values are of a library type.
pub fn lib_values(func: &Function) -> SecondaryMap<Value, bool> {
    values_of(func, is_lib_name)
}

/// Which values are of glam's types (with `glam` or `glam-f32`).
pub fn glam_values(func: &Function) -> SecondaryMap<Value, bool> {
    values_of(func, is_glam_name)
}

/// The methods of the runtime's mirror of glam's types over duals (`fwdad_runtime::glam`:
/// its `pub fn`s, and the `std` traits it implements); `tests::rule_lookup` checks the list
/// against the runtime's source.
pub const GLAM_METHODS: &[&str] = &[
    "abs",
    "angle_between",
    "any_orthonormal_vector",
    "clamp",
    "conjugate",
    "cross",
    "determinant",
    "distance",
    "distance_squared",
    "dot",
    "element_product",
    "element_sum",
    "exp",
    "extend",
    "f32_scalar",
    "inverse",
    "length",
    "length_recip",
    "length_squared",
    "lerp",
    "look_at_lh",
    "look_at_rh",
    "look_to_lh",
    "look_to_rh",
    "max",
    "max_element",
    "min",
    "min_element",
    "mul_add",
    "mul_mat2",
    "mul_mat3",
    "mul_mat4",
    "mul_vec2",
    "mul_vec3",
    "mul_vec4",
    "normalize",
    "powf",
    "project_point3",
    "recip",
    "reflect",
    "slerp",
    "sqrt",
    "to_axis_angle",
    "to_euler",
    "to_scale_rotation_translation",
    "to_scaled_axis",
    "transform_point2",
    "transform_point3",
    "transform_point3a",
    "transform_vector2",
    "transform_vector3",
    "transform_vector3a",
    "transpose",
    "truncate",
    "xy",
    "xyz",
    "xz",
    "yz",
    // `std`'s traits.
    "add",
    "sub",
    "mul",
    "div",
    "neg",
    "add_assign",
    "sub_assign",
    "mul_assign",
    "div_assign",
    "clone",
    "into",
    "from",
    "eq",
    "ne",
    "to_owned",
];

/// Whether the runtime's mirror of glam's types has the method `method`.
pub fn glam_has(method: &syn::Ident) -> bool {
    GLAM_METHODS.iter().any(|m| method == m)
}

/// The methods of the runtime's factorisations of a matrix over duals (`DualCholesky`,
/// `DualLu`, `DualQr` in `fwdad_runtime::nalgebra_linalg`), together.
const FACTORISATION_METHODS: &[&str] = &[
    "solve",
    "solve_mut",
    "inverse",
    "try_inverse",
    "determinant",
    "ln_determinant",
    "l",
    "u",
    "p",
    "q",
    "r",
    "unpack",
    "is_invertible",
    "clone",
];

/// For a method call on `v`: the factorisation `v` is, by the method that made it
/// (`a.cholesky().expect(..)`, `a.lu()`), when the runtime's mirror of it has no method
/// `method`.
pub fn factorisation_without(func: &Function, v: Value, method: &syn::Ident) -> Option<String> {
    if !cfg!(feature = "nalgebra") || FACTORISATION_METHODS.iter().any(|m| method == m) {
        return None;
    }
    // `cholesky()` gives an `Option` (its own methods are `Option`'s), `lu()` the
    // factorisation. (A QR of an active matrix is nalgebra's own over duals.)
    let mut v = v;
    let mut unwrapped = false;
    for _ in 0..8 {
        let crate::ir::ValueDef::Inst(inst, 0) = func.values[v].def else {
            return None;
        };
        match &func.insts[inst].kind {
            InstKind::Copy(a) => v = *a,
            InstKind::MethodCall {
                receiver, method, ..
            } => {
                let name = method.to_string();
                match (name.as_str(), unwrapped) {
                    ("expect" | "unwrap", false) => {
                        unwrapped = true;
                        v = *receiver;
                    }
                    ("cholesky", true) | ("lu", false) => return Some(name),
                    _ => return None,
                }
            }
            _ => return None,
        }
    }
    None
}

/// Which values are of glam's `f32` types (with `glam-f32`).
pub fn glam_f32_values(func: &Function) -> SecondaryMap<Value, bool> {
    values_of(func, |n| {
        cfg!(feature = "glam-f32") && GLAM_F32_TYPES.iter().any(|t| n == t)
    })
}

/// Which values are nalgebra matrices (by the same syntax as [`lib_values`]): an
/// inactive one meets an active one in the runtime's mixed operations
/// (`nalgebra_linalg::mixed_mul`, ...), without a lift to constant duals.
pub fn nalgebra_values(func: &Function) -> SecondaryMap<Value, bool> {
    values_of(func, is_nalgebra_name)
}

/// Which values are ndarray's arrays (whose elements in logical order are not `a[i]` past
/// one axis).
pub fn ndarray_values(func: &Function) -> SecondaryMap<Value, bool> {
    values_of(func, |n| {
        cfg!(feature = "ndarray") && NDARRAY_TYPES.iter().any(|t| n == t)
    })
}

fn values_of(func: &Function, names: fn(&syn::Ident) -> bool) -> SecondaryMap<Value, bool> {
    let mut a = Analysis {
        func,
        lib: SecondaryMap::with_default(false),
        seqs: SecondaryMap::with_default(false),
        matrix: SecondaryMap::with_default(false),
        changed: true,
        names,
    };
    for p in &func.params {
        if names_type(&p.ty, names) {
            a.lib.set(p.value, true);
        }
        if names_type(&p.ty, is_ndarray_matrix_name) {
            a.matrix.set(p.value, true);
        }
    }
    for (v, ty) in &func.annotations {
        if names_type(ty, names) {
            a.lib.set(*v, true);
        }
        if names_type(ty, is_ndarray_matrix_name) {
            a.matrix.set(*v, true);
        }
    }
    while a.changed {
        a.changed = false;
        a.region(func.body);
    }
    a.lib
}

/// ndarray's arrays of two or more axes, whose `dot` is a matrix product, not a scalar.
fn is_ndarray_matrix_name(name: &syn::Ident) -> bool {
    const MATRICES: &[&str] = &["Array2", "Array3", "ArrayView2", "ArrayViewMut2"];
    cfg!(feature = "ndarray") && MATRICES.iter().any(|t| name == t)
}

struct Analysis<'f> {
    func: &'f Function,
    lib: SecondaryMap<Value, bool>,
    /// Local arrays of library values, whose elements are library values.
    seqs: SecondaryMap<Value, bool>,
    /// ndarray values known to have two axes or more (see [`is_ndarray_matrix_name`]):
    /// written so, or a transpose, copy, elementwise result or product of such.
    matrix: SecondaryMap<Value, bool>,
    changed: bool,
    /// The type names of the libraries analysed.
    names: fn(&syn::Ident) -> bool,
}

impl Analysis<'_> {
    fn is(&self, v: Value) -> bool {
        *self.lib.get(v)
    }

    /// Marks `v` as a local array of library values.
    fn mark_seq(&mut self, v: Option<&Value>) {
        let Some(&v) = v else { return };
        if !*self.seqs.get(v) {
            self.seqs.set(v, true);
            self.changed = true;
        }
    }

    fn mark(&mut self, v: Value) {
        if !self.is(v) {
            self.lib.set(v, true);
            self.changed = true;
        }
    }

    fn mark_matrix(&mut self, v: Value) {
        if !*self.matrix.get(v) {
            self.matrix.set(v, true);
            self.changed = true;
        }
    }

    fn yields(&self, r: Region) -> Vec<Value> {
        match &self.func.regions[r].term {
            Terminator::Yield(ys) => ys.clone(),
            _ => Vec::new(),
        }
    }

    /// Marks `results[k]` for every library value (and ndarray matrix) yielded at `k` by
    /// `r`.
    fn merge(&mut self, r: Region, results: &[Value]) {
        for (k, y) in self.yields(r).into_iter().enumerate() {
            if let Some(&res) = results.get(k) {
                if self.is(y) {
                    self.mark(res);
                }
                if *self.matrix.get(y) {
                    self.mark_matrix(res);
                }
            }
        }
    }

    fn region(&mut self, r: Region) {
        for inst in self.func.regions[r].insts.clone() {
            let data = &self.func.insts[inst];
            let results = data.results.clone();
            let lib = match &data.kind {
                InstKind::Copy(arg)
                | InstKind::Ref { arg, .. }
                | InstKind::Unary {
                    op: UnOp::Neg | UnOp::Deref,
                    arg,
                } => {
                    if *self.seqs.get(*arg) {
                        self.mark_seq(results.first());
                    }
                    self.is(*arg)
                }
                InstKind::Binary { op, lhs, rhs } => {
                    !op.is_comparison() && (self.is(*lhs) || self.is(*rhs))
                }
                InstKind::MethodCall {
                    receiver,
                    method,
                    args,
                    ..
                } => {
                    // ndarray's `a.dot(b)` is a product unless both are vectors.
                    let matrix_dot = method == "dot"
                        && (*self.matrix.get(*receiver)
                            || args.first().is_some_and(|b| *self.matrix.get(*b)));
                    // A copy of a slice of glam values (`let mut pts = ctrl.to_vec();`)
                    // holds library values (in the analysis of all libraries, where glam's
                    // names are among those analysed).
                    let analyses_glam = (self.names)(&quote::format_ident!("DVec3"));
                    let seq_copy = analyses_glam && copies_glam_seq(self.func, *receiver, method);
                    if seq_copy {
                        self.mark_seq(results.first());
                    }
                    // glam's `v.max(w)`, `v.min(w)` are componentwise (nalgebra's `v.max()`
                    // is the largest entry).
                    let componentwise = args.len() == 1 && (method == "max" || method == "min");
                    // A size (`a.len()`, `a.nrows()`) is an integer.
                    let int = results
                        .first()
                        .is_some_and(|r| self.func.values[*r].ty == crate::types::TypeHint::Int);
                    seq_copy
                        || self.is(*receiver)
                            && (matrix_dot
                                || componentwise
                                || !SCALAR_METHODS.iter().any(|m| method == m))
                            && !is_size_method(&method.to_string())
                            && !int
                }
                InstKind::Call {
                    func: path, callee, ..
                } => {
                    is_ctor_of(path, self.names)
                        || returns_named(path, callee, self.names)
                        || ((self.names)(&quote::format_ident!("Array1"))
                            && ndarray_free_ctor(path).is_some())
                }
                InstKind::Const(path) => is_ctor_of(path, self.names),
                // `p.coords`, `iso.translation` of a geometry value, `aff.matrix3`,
                // `m.x_axis` of glam's; the view in `for (i,
                // mut row) in m.row_iter_mut().enumerate()`.
                // A part of a tuple of views (`let (mut ci, mut cj) =
                // m.columns_range_pair_mut(i, j);`).
                InstKind::Field { base, member } | InstKind::FieldRef { base, member, .. } => {
                    (self.is(*base)
                        && (cfg!(feature = "nalgebra") || cfg!(feature = "glam"))
                        && matches!(member, syn::Member::Named(m)
                            if GEOMETRY_VALUE_FIELDS.iter().any(|f| m == f)))
                        || enumerated_lane(self.func, *base, member, &|v| self.is(v))
                        || is_lib_tuple_part(self.func, *base, member, &|v| self.is(v))
                }
                // An element of a parameter `&[Vector3<f64>]` or of a local array of
                // library values (`let axes = [Vector3::z_axis(), ..]; axes[i]`).
                // So are those of a `let` written `Vec<Complex64>` (`spectrum.iter().map(|c|
                // c.norm())`), but one lent `&mut` (`spectrum[k].norm()`, the receiver of
                // a method the macro does not know), which stays the dual of the element.
                InstKind::Index { base, .. } => {
                    is_seq_of(self.func, *base, self.names) || *self.seqs.get(*base)
                }
                InstKind::ElemRef { base, mutable, .. } => {
                    (is_seq_of(self.func, *base, self.names)
                        && !(*mutable && self.func.annotations.contains_key(base)))
                        || *self.seqs.get(*base)
                }
                // A tuple of views (`(m.row_mut(0), n.column_mut(1))`), split into its
                // views as it is: a library value in the rule's form.
                InstKind::Tuple(elems) => elems
                    .iter()
                    .any(|e| self.is(*e) && is_view_result(self.func, *e)),
                // A local array of library values is one itself (over duals when active,
                // its elements read in place), and its elements are library values.
                InstKind::Array(elems) => {
                    let lib = elems.iter().any(|e| self.is(*e));
                    if lib {
                        self.mark_seq(results.first());
                    }
                    lib
                }
                InstKind::Repeat { elem, .. } => {
                    if self.is(*elem) {
                        self.mark_seq(results.first());
                    }
                    self.is(*elem)
                }
                InstKind::If {
                    then_region,
                    else_region,
                    ..
                } => {
                    let (t, e) = (*then_region, *else_region);
                    self.region(t);
                    self.region(e);
                    self.merge(t, &results);
                    self.merge(e, &results);
                    false
                }
                InstKind::Match { scrutinee, arms } => {
                    let (scrutinee, arms) = (*scrutinee, arms.clone());
                    for arm in arms {
                        for r in arm.guard.into_iter().chain([arm.body]) {
                            if self.is(scrutinee) {
                                for p in self.func.regions[r].params.clone() {
                                    self.mark(p);
                                }
                            }
                            self.region(r);
                        }
                        self.merge(arm.body, &results);
                    }
                    false
                }
                InstKind::Loop { init, body } | InstKind::For { init, body, .. } => {
                    let (init, body) = (init.clone(), *body);
                    let offset = usize::from(matches!(data.kind, InstKind::For { .. }));
                    // `for mut row in m.row_iter_mut()`: each item is a view of the rows.
                    if let InstKind::For { iter, .. } = &data.kind {
                        if self.iterates_lanes(*iter) {
                            if let Some(&item) = self.func.regions[body].params.first() {
                                self.mark(item);
                            }
                        }
                    }
                    let params = self.func.regions[body].params[offset..].to_vec();
                    // A loop-carried ndarray matrix (filled in the loop) stays one.
                    for (p, i) in params.iter().zip(&init) {
                        if self.is(*i) {
                            self.mark(*p);
                        }
                        if *self.matrix.get(*i) {
                            self.mark_matrix(*p);
                        }
                    }
                    self.region(body);
                    for (p, y) in params.iter().zip(self.yields(body)) {
                        if self.is(y) {
                            self.mark(*p);
                        }
                    }
                    let extra = usize::from(offset == 0);
                    for (k, p) in params.iter().enumerate() {
                        if let Some(&res) = results.get(extra + k) {
                            if self.is(*p) {
                                self.mark(res);
                            }
                            if *self.matrix.get(*p) {
                                self.mark_matrix(res);
                            }
                        }
                    }
                    false
                }
                _ => false,
            };
            if lib {
                if let Some(&res) = results.first() {
                    self.mark(res);
                }
            }
            if self.is_matrix_result(&self.func.insts[inst].kind) {
                if let Some(&res) = results.first() {
                    if !*self.matrix.get(res) {
                        self.matrix.set(res, true);
                        self.changed = true;
                    }
                }
            }
        }
    }

    /// Whether `iter` is an iterator over the rows, columns or lanes of a library value
    /// ([`LANE_ITERATORS`]), whose items are views of the value's elements.
    fn iterates_lanes(&self, iter: Value) -> bool {
        lane_iterator(self.func, iter, &|v| self.is(v))
            || match self.func.values[iter].def {
                // `(i, row)` of `.enumerate()`, read field by field as written.
                crate::ir::ValueDef::Inst(inst, 0) => matches!(
                    &self.func.insts[inst].kind,
                    InstKind::MethodCall { receiver, method, .. }
                        if method == "enumerate"
                            && lane_iterator(self.func, *receiver, &|v| self.is(v))
                ),
                _ => false,
            }
    }

    /// Whether an instruction's result keeps two axes: copies and borrows of a matrix,
    /// elementwise arithmetic with one, its transpose or owned copy, the product of two.
    fn is_matrix_result(&self, kind: &InstKind) -> bool {
        let m = |v: &Value| *self.matrix.get(*v);
        match kind {
            InstKind::Copy(arg)
            | InstKind::Ref { arg, .. }
            | InstKind::Unary {
                op: UnOp::Neg | UnOp::Deref,
                arg,
            } => m(arg),
            InstKind::Binary { op, lhs, rhs } => !op.is_comparison() && (m(lhs) || m(rhs)),
            // `Array2::zeros((n, m))`, `Array2::from_shape_vec(..)`.
            InstKind::Call {
                func: path, callee, ..
            } => {
                is_ctor_of(path, is_ndarray_matrix_name)
                    || returns_named(path, callee, is_ndarray_matrix_name)
                    || ndarray_free_ctor(path).is_some_and(|axes| axes > 1)
            }
            InstKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } => {
                let name = method.to_string();
                match name.as_str() {
                    "dot" => m(receiver) && args.first().is_some_and(m),
                    // `Array2::from_shape_vec(..).unwrap()` (a `Result` of a matrix).
                    "t" | "reversed_axes" | "to_owned" | "into_owned" | "clone" | "view"
                    | "mapv" | "map" | "exp" | "ln" | "sqrt" | "abs" | "unwrap" | "expect" => {
                        m(receiver)
                    }
                    _ => false,
                }
            }
            _ => false,
        }
    }
}

/// Whether `iter` is `m.row_iter_mut()` (or another of [`LANE_ITERATORS`]) of a value
/// `lib` accepts.
fn lane_iterator(func: &Function, iter: Value, lib: &dyn Fn(Value) -> bool) -> bool {
    match func.values[iter].def {
        crate::ir::ValueDef::Inst(inst, 0) => match &func.insts[inst].kind {
            InstKind::MethodCall {
                receiver, method, ..
            } => lib(*receiver) && LANE_ITERATORS.iter().any(|m| method == m),
            InstKind::Copy(arg) => lane_iterator(func, *arg, lib),
            _ => false,
        },
        _ => false,
    }
}

/// Whether `base.member` is the view of `for (i, mut row) in m.row_iter_mut().enumerate()`:
/// the second field of the item of a loop over an enumerated [`lane_iterator`] of a value
/// `lib` accepts.
fn enumerated_lane(
    func: &Function,
    base: Value,
    member: &syn::Member,
    lib: &dyn Fn(Value) -> bool,
) -> bool {
    let crate::ir::ValueDef::RegionParam(region, 0) = func.values[base].def else {
        return false;
    };
    if !matches!(member, syn::Member::Unnamed(i) if i.index == 1) {
        return false;
    }
    let Some(iter) = func.insts.iter().find_map(|(_, d)| match &d.kind {
        InstKind::For { iter, body, .. } if *body == region => Some(*iter),
        _ => None,
    }) else {
        return false;
    };
    let crate::ir::ValueDef::Inst(inst, 0) = func.values[iter].def else {
        return false;
    };
    match &func.insts[inst].kind {
        InstKind::MethodCall {
            receiver, method, ..
        } if method == "enumerate" => lane_iterator(func, *receiver, lib),
        _ => false,
    }
}

/// Whether `v` is a parameter of a nalgebra type (or a copy of one), still the dual of the
/// whole value: its elements are read from it directly (`lift_index`).
pub fn is_nalgebra_param(func: &Function, v: Value) -> bool {
    match func.values[v].def {
        crate::ir::ValueDef::Param(i) => {
            cfg!(feature = "nalgebra") && names_nalgebra(&func.params[i].ty)
        }
        crate::ir::ValueDef::Inst(inst, _) => match &func.insts[inst].kind {
            InstKind::Copy(arg) => is_nalgebra_param(func, *arg),
            _ => false,
        },
        crate::ir::ValueDef::RegionParam(..) => false,
    }
}

/// Whether `v` is a parameter taken by value whose type is a dynamic nalgebra matrix
/// (`x: DVector<f64>`): not `Copy`, so each use lifts it by reference.
pub fn is_owned_dynamic_param(func: &Function, v: Value) -> bool {
    match func.values[v].def {
        crate::ir::ValueDef::Param(i) => {
            cfg!(feature = "nalgebra")
                && matches!(&func.params[i].ty, syn::Type::Path(p) if p.qself.is_none()
                && p.path.segments.last().is_some_and(|s| {
                    ["DMatrix", "DVector", "RowDVector"].iter().any(|t| s.ident == t)
                }))
        }
        _ => false,
    }
}

/// Whether a written type is a nalgebra matrix (behind references).
fn names_nalgebra(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Reference(r) => names_nalgebra(&r.elem),
        syn::Type::Path(p) if p.qself.is_none() => p
            .path
            .segments
            .last()
            .is_some_and(|s| NALGEBRA_TYPES.iter().any(|t| s.ident == t)),
        _ => false,
    }
}

/// Whether `v` holds the dual of the whole value (`Dual<&Vector3<f64>, &Vector3<S>>`), not
/// yet the library's form over duals: a parameter, an element of a parameter
/// (`x[i]` of `x: &[Vector3<f64>]`), the result of another rule (a call that is not one of
/// the library's associated functions, `let p: Vector3<f64> = g(x);`), a field of a tuple
/// or struct (`for (i, j, z) in edges` over `&[(usize, usize, Isometry3<f64>)]`, then
/// `let z: &Isometry3<f64> = z;`), or a copy of one. The fields of a library value that
/// hold one (`iso.rotation`, [`GEOMETRY_VALUE_FIELDS`]) are read from its form over duals.
pub fn is_param(func: &Function, v: Value) -> bool {
    match func.values[v].def {
        crate::ir::ValueDef::Param(_) => true,
        crate::ir::ValueDef::Inst(inst, _) => match &func.insts[inst].kind {
            InstKind::Copy(arg)
            | InstKind::Unary {
                op: UnOp::Deref,
                arg,
            } => is_param(func, *arg),
            InstKind::Field { member, base } | InstKind::FieldRef { member, base, .. } => {
                !matches!(member, syn::Member::Named(m) if GEOMETRY_VALUE_FIELDS.iter().any(|f| m == f))
                    && !enumerated_lane(func, *base, member, &|_| true)
                    && !is_view_part(func, *base, member)
            }
            InstKind::Call { func: path, .. } => !is_lib_ctor(path),
            // A method of the user's (`let z: Complex<f64> = osc.advance();`), not one of a
            // library value (`x.mean_axis(..)`).
            InstKind::MethodCall {
                callee: crate::callee::MethodCallee::User,
                receiver,
                ..
            } => written_user(func, *receiver),
            // An element of a parameter's slice, or of a `Vec` built in the body
            // (`let mut sigmas = vec![mean]; sigmas.push(..)`), which stores each element
            // as the dual of the whole value.
            InstKind::Index { base, .. } | InstKind::ElemRef { base, .. } => {
                is_lib_seq(func, *base) || is_vec_list(func, *base)
            }
            _ => false,
        },
        crate::ir::ValueDef::RegionParam(..) => false,
    }
}

/// Whether `v` is a `vec![..]` built in the body (or a copy of one).
fn is_vec_list(func: &Function, v: Value) -> bool {
    match func.values[v].def {
        crate::ir::ValueDef::Inst(inst, _) => match &func.insts[inst].kind {
            InstKind::VecList(_) => true,
            InstKind::Copy(a) => is_vec_list(func, *a),
            _ => false,
        },
        _ => false,
    }
}
