// The absolute value by clearing the sign bit, as libm's `tanh` takes it (`ui &= !1 / 2;
// f64::from_bits(ui)`): `normalize` reads the rebuilt float as `x.copysign(1.0)`, and the
// bits stay for the branch that reads them.
fn odd_soft(x: f64) -> f64 {
    let mut ui: u64 = f64::to_bits(x);
    let negative = ui >> 63 != 0;
    ui &= !1 / 2;
    let a = f64::from_bits(ui);
    let t = if (ui >> 32) as u32 > 0x3ff00000 { a.sqrt() } else { a * a };
    if negative { -t } else { t }
}
