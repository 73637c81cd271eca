//! Reading the fields of an eval's `input`, and running a function as often as it asks.

use crate::protocol::Evaluation;
use serde_json::Value;
use std::time::Instant;

/// How often to run a function: at least `min_runs` times, and until the runs add up to
/// `min_seconds` (GradBench's `Runs`; absent fields mean one run).
#[derive(Clone, Copy, Debug)]
pub struct Runs {
    pub min_runs: usize,
    pub min_seconds: f64,
}

impl Runs {
    pub fn of(input: &Value) -> Runs {
        Runs {
            min_runs: input
                .get("min_runs")
                .and_then(Value::as_u64)
                .unwrap_or(1)
                .max(1) as usize,
            min_seconds: input
                .get("min_seconds")
                .and_then(Value::as_f64)
                .unwrap_or(0.0),
        }
    }

    /// Runs `f` as often as asked, and turns its last result into the output.
    pub fn measure<T>(
        self,
        mut f: impl FnMut() -> T,
        to_json: impl FnOnce(T) -> Value,
    ) -> Evaluation {
        let mut timings = Vec::new();
        let mut total = 0.0;
        loop {
            let start = Instant::now();
            let result = std::hint::black_box(f());
            let elapsed = start.elapsed();
            timings.push(elapsed.as_nanos());
            total += elapsed.as_secs_f64();
            if timings.len() >= self.min_runs && total >= self.min_seconds {
                return Evaluation {
                    output: to_json(result),
                    timings,
                };
            }
        }
    }
}

fn field<'a>(input: &'a Value, key: &str) -> Result<&'a Value, String> {
    input
        .get(key)
        .ok_or_else(|| format!("input has no field `{key}`"))
}

pub fn float(input: &Value, key: &str) -> Result<f64, String> {
    field(input, key)?
        .as_f64()
        .ok_or_else(|| format!("`{key}` is not a number"))
}

pub fn int(input: &Value, key: &str) -> Result<usize, String> {
    field(input, key)?
        .as_u64()
        .map(|n| n as usize)
        .ok_or_else(|| format!("`{key}` is not a non-negative integer"))
}

pub fn floats_of(value: &Value, key: &str) -> Result<Vec<f64>, String> {
    value
        .as_array()
        .ok_or_else(|| format!("`{key}` is not an array"))?
        .iter()
        .map(|x| {
            x.as_f64()
                .ok_or_else(|| format!("`{key}` holds a value that is not a number"))
        })
        .collect()
}

pub fn floats(input: &Value, key: &str) -> Result<Vec<f64>, String> {
    floats_of(field(input, key)?, key)
}

pub fn ints(input: &Value, key: &str) -> Result<Vec<usize>, String> {
    field(input, key)?
        .as_array()
        .ok_or_else(|| format!("`{key}` is not an array"))?
        .iter()
        .map(|x| {
            x.as_u64()
                .map(|n| n as usize)
                .ok_or_else(|| format!("`{key}` holds a value that is not an integer"))
        })
        .collect()
}

/// A `double[][]` field, row-major and flat, with its number of columns (0 for no rows).
pub fn rows_of(value: &Value, key: &str) -> Result<(Vec<f64>, usize), String> {
    let rows = value
        .as_array()
        .ok_or_else(|| format!("`{key}` is not an array of rows"))?;
    let cols = match rows.first() {
        Some(row) => row.as_array().map_or(0, Vec::len),
        None => 0,
    };
    let mut flat = Vec::with_capacity(rows.len() * cols);
    for row in rows {
        let row = floats_of(row, key)?;
        if row.len() != cols {
            return Err(format!("the rows of `{key}` differ in length"));
        }
        flat.extend_from_slice(&row);
    }
    Ok((flat, cols))
}

pub fn rows(input: &Value, key: &str) -> Result<(Vec<f64>, usize), String> {
    rows_of(field(input, key)?, key)
}

/// `flat` (row-major, `cols` columns) as a JSON `double[][]`.
pub fn to_rows(flat: &[f64], cols: usize) -> Value {
    if cols == 0 {
        return Value::Array(Vec::new());
    }
    Value::Array(
        flat.chunks(cols)
            .map(|row| Value::from(row.to_vec()))
            .collect(),
    )
}
