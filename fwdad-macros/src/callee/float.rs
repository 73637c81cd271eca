//! The float operations with a runtime rule (`ops::<name>` in `fwdad-runtime`), one row each:
//! its shape, whether it is smooth (a `scalar_rule!` whose partial `linear` can read),
//! whether the runtime declares it `unbounded` (a partial that may be infinite or NaN
//! where the function is finite; a test checks the runtime's markers against this list),
//! and whether it is also a method of `f32`/`f64` (the arithmetic operators are not).

/// The shape of a float operation's rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `x.f()`.
    Unary,
    /// `x.f(y)`: both operands may be active.
    Binary,
    /// `x.f(y, z)`: `mul_add`, `clamp`.
    Ternary,
    /// `x.powi(n)`: the integer exponent is never active.
    Powi,
    /// `x.sin_cos()`: returns a pair.
    SinCos,
}

/// How a float operation's derivative is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// A `scalar_rule!` with a partial derivative.
    Smooth,
    /// Kinks and jumps, written by hand.
    Piecewise,
    /// Other hand-written rules.
    Other,
}

macro_rules! float_ops {
    ($($(#[$vm:meta])* $V:ident = $s:literal: $shape:ident, $class:ident, unbounded $u:literal, method $m:literal;)*) => {
        super::names! {
            /// A float operation with a runtime rule.
            pub enum FloatOp { $($(#[$vm])* $V = $s),* }
        }
        impl FloatOp {
            /// The shape of its rule.
            pub fn shape(self) -> Shape {
                match self { $(FloatOp::$V => Shape::$shape),* }
            }
            fn class(self) -> Class {
                match self { $(FloatOp::$V => Class::$class),* }
            }
            /// Whether the runtime declares it `unbounded`.
            pub fn is_unbounded(self) -> bool {
                match self { $(FloatOp::$V => $u),* }
            }
            /// Whether `f32`/`f64` have a method (and an associated function) of this name.
            pub fn is_method(self) -> bool {
                match self { $(FloatOp::$V => $m),* }
            }
        }
    };
}

float_ops! {
    // Arithmetic: the operators' rules.
    Add = "add": Binary, Other, unbounded false, method false;
    Sub = "sub": Binary, Other, unbounded false, method false;
    Mul = "mul": Binary, Other, unbounded false, method false;
    Div = "div": Binary, Smooth, unbounded true, method false;
    Rem = "rem": Binary, Other, unbounded false, method false;
    Neg = "neg": Unary, Other, unbounded false, method false;
    /// `x * x`: one rule, one tangent update.
    Sq = "sq": Unary, Smooth, unbounded false, method false;
    Sin = "sin": Unary, Smooth, unbounded false, method true;
    Cos = "cos": Unary, Smooth, unbounded false, method true;
    Tan = "tan": Unary, Smooth, unbounded false, method true;
    Asin = "asin": Unary, Smooth, unbounded true, method true;
    Acos = "acos": Unary, Smooth, unbounded true, method true;
    Atan = "atan": Unary, Smooth, unbounded false, method true;
    Sinh = "sinh": Unary, Smooth, unbounded false, method true;
    Cosh = "cosh": Unary, Smooth, unbounded false, method true;
    Tanh = "tanh": Unary, Smooth, unbounded false, method true;
    Asinh = "asinh": Unary, Smooth, unbounded false, method true;
    Acosh = "acosh": Unary, Smooth, unbounded true, method true;
    Atanh = "atanh": Unary, Smooth, unbounded false, method true;
    Exp = "exp": Unary, Smooth, unbounded false, method true;
    Exp2 = "exp2": Unary, Smooth, unbounded false, method true;
    ExpM1 = "exp_m1": Unary, Smooth, unbounded false, method true;
    Ln = "ln": Unary, Smooth, unbounded true, method true;
    Log2 = "log2": Unary, Smooth, unbounded true, method true;
    Log10 = "log10": Unary, Smooth, unbounded true, method true;
    Ln1p = "ln_1p": Unary, Smooth, unbounded false, method true;
    Sqrt = "sqrt": Unary, Smooth, unbounded true, method true;
    Cbrt = "cbrt": Unary, Smooth, unbounded true, method true;
    Recip = "recip": Unary, Smooth, unbounded true, method true;
    ToDegrees = "to_degrees": Unary, Smooth, unbounded false, method true;
    ToRadians = "to_radians": Unary, Smooth, unbounded false, method true;
    Abs = "abs": Unary, Piecewise, unbounded false, method true;
    Signum = "signum": Unary, Piecewise, unbounded false, method true;
    Floor = "floor": Unary, Piecewise, unbounded false, method true;
    Ceil = "ceil": Unary, Piecewise, unbounded false, method true;
    Round = "round": Unary, Piecewise, unbounded false, method true;
    RoundTiesEven = "round_ties_even": Unary, Piecewise, unbounded false, method true;
    Trunc = "trunc": Unary, Piecewise, unbounded false, method true;
    Fract = "fract": Unary, Piecewise, unbounded false, method true;
    Atan2 = "atan2": Binary, Smooth, unbounded true, method true;
    Powf = "powf": Binary, Smooth, unbounded true, method true;
    Hypot = "hypot": Binary, Smooth, unbounded true, method true;
    Copysign = "copysign": Binary, Piecewise, unbounded false, method true;
    Min = "min": Binary, Piecewise, unbounded false, method true;
    Max = "max": Binary, Piecewise, unbounded false, method true;
    /// Deprecated in `std` (C's `fdim`), still compiled.
    AbsSub = "abs_sub": Binary, Piecewise, unbounded false, method true;
    /// Stable since Rust 1.85.
    Midpoint = "midpoint": Binary, Other, unbounded false, method true;
    Log = "log": Binary, Smooth, unbounded true, method true;
    RemEuclid = "rem_euclid": Binary, Piecewise, unbounded false, method true;
    DivEuclid = "div_euclid": Binary, Piecewise, unbounded false, method true;
    MulAdd = "mul_add": Ternary, Other, unbounded false, method true;
    Clamp = "clamp": Ternary, Piecewise, unbounded false, method true;
    Powi = "powi": Powi, Other, unbounded false, method true;
    SinCos = "sin_cos": SinCos, Other, unbounded false, method true;
}

impl FloatOp {
    /// The float method `name` (`x.sin()`, `f64::sin(x)`), if it has a rule.
    pub fn method(name: &str) -> Option<FloatOp> {
        FloatOp::from_name(name).filter(|op| op.is_method())
    }

    /// A unary method whose rule is a `scalar_rule!`: smooth, with a partial derivative that
    /// `linear` can read.
    pub fn is_smooth_unary(self) -> bool {
        self.is_method() && self.shape() == Shape::Unary && self.class() == Class::Smooth
    }

    /// `min`, `max`, `clamp`: integer methods too, taken for an integer's when an argument
    /// is an integer (Rust has no mixed integer-float calls).
    pub fn is_int_arg(self) -> bool {
        matches!(self, FloatOp::Min | FloatOp::Max | FloatOp::Clamp)
    }

    /// A name geometry types give their own methods (kurbo's `Point::midpoint(self, other)`):
    /// a float's method only on a receiver known to be a float, since a field's type is not
    /// written where it is read.
    pub fn is_shared_with_user_types(self) -> bool {
        matches!(self, FloatOp::Midpoint)
    }

    /// Whether the partial derivative costs more than a multiply (`sin`, `sqrt`, a
    /// division). Not `exp`, whose partial is its value: a zero test before its term saves
    /// only the lane update, and in a dense batch, where it seldom skips, costs a pass over
    /// the lanes (GMM's `logsumexp` at `Batch` 32, BENCHMARKS.md issue 30).
    pub fn is_costly(self) -> bool {
        !matches!(
            self,
            FloatOp::Add | FloatOp::Sub | FloatOp::Neg | FloatOp::Mul | FloatOp::Sq | FloatOp::Exp
        )
    }

    /// Whether its partial is at most 1 in magnitude wherever it is finite (`sin`: `cos`,
    /// `tanh`: `1 − y²`, `atan`: `1/(1 + x²)`): a linearised coefficient multiplied by it
    /// cannot overflow, so the product needs no overflow guard (`crate::emit`'s `Size`).
    pub fn partial_within_one(self) -> bool {
        matches!(
            self,
            FloatOp::Neg
                | FloatOp::Sin
                | FloatOp::Cos
                | FloatOp::Tanh
                | FloatOp::Atan
                | FloatOp::Asinh
                | FloatOp::ToRadians
        )
    }
}
