#!/usr/bin/env python3
"""first_errors_audit.py [PATTERN]: the UI cases whose first error shows runtime internals.

Reads the first error block of every tests/ui/**/*.stderr (from the first line starting
`error` to the first blank line after it) and prints each case whose block matches
PATTERN (default: the audit's), with the matching lines. Run from the repository root.
See docs/notes/first-errors-audit.md."""
import glob
import re
import sys

PATTERN = r"__fwdad|DualSlice|CoerceTo|TangentIn|__FwdadMode|Frule|Dual<|Batch<"
pat = re.compile(sys.argv[1] if len(sys.argv) > 1 else PATTERN)
n = 0
for f in sorted(glob.glob("tests/ui/**/*.stderr", recursive=True)):
    lines = open(f).read().split("\n")
    start = next((i for i, l in enumerate(lines) if l.startswith("error")), None)
    if start is None:
        continue
    block = []
    for l in lines[start:]:
        if not l.strip():
            break
        block.append(l)
    hits = [l for l in block if pat.search(l)]
    if hits:
        n += 1
        print(f)
        for h in hits:
            print("    " + h.strip()[:160])
print(f"{n} cases")
