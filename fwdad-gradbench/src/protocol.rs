//! GradBench's protocol: one JSON message per line on stdin, one JSON response per line
//! on stdout, with the message's `id`.
//!
//! `start` → the tool's name; `define` → whether the module exists; `evaluate` → the
//! function's output and one `"evaluate"` timing per run; `analysis` (the eval's verdict
//! on an earlier answer) → an empty acknowledgement.

use crate::evals;
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The outcome of one `evaluate`: the function's output (of the last run) and the
/// nanoseconds of every run.
#[derive(Debug)]
pub struct Evaluation {
    pub output: Value,
    pub timings: Vec<u128>,
}

/// Answers every message of `input` on `output` until the eval closes the stream.
pub fn serve(input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let response = respond(&line);
        writeln!(output, "{response}")?;
        output.flush()?;
    }
    Ok(())
}

/// The response to one message line.
pub fn respond(line: &str) -> Value {
    let message: Value = match serde_json::from_str(line) {
        Ok(message) => message,
        Err(e) => {
            return json!({ "id": null, "success": false, "error": format!("bad message: {e}") })
        }
    };
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    match message.get("kind").and_then(Value::as_str) {
        Some("start") => json!({ "id": id, "tool": "fwdad" }),
        Some("define") => {
            let module = message.get("module").and_then(Value::as_str).unwrap_or("");
            if evals::MODULES.contains(&module) {
                json!({ "id": id, "success": true })
            } else {
                json!({ "id": id, "success": false, "error": format!("fwdad has no module `{module}`") })
            }
        }
        Some("evaluate") => {
            let module = message.get("module").and_then(Value::as_str).unwrap_or("");
            let function = message
                .get("function")
                .and_then(Value::as_str)
                .unwrap_or("");
            let input = message.get("input").unwrap_or(&Value::Null);
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                evals::evaluate(module, function, input)
            }))
            .unwrap_or_else(|panic| Err(panic_message(panic)));
            match outcome {
                Ok(Evaluation { output, timings }) => {
                    let timings: Vec<Value> = timings
                        .iter()
                        .map(|ns| json!({ "name": "evaluate", "nanoseconds": *ns as u64 }))
                        .collect();
                    json!({ "id": id, "success": true, "output": output, "timings": timings })
                }
                Err(error) => json!({ "id": id, "success": false, "error": error }),
            }
        }
        _ => json!({ "id": id }),
    }
}

fn panic_message(panic: Box<dyn std::any::Any + Send>) -> String {
    let text = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string());
    format!("fwdad-gradbench panicked: {text}")
}
