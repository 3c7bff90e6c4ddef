#!/usr/bin/env python3
"""Reads a ctest --output-log of a sanitizer run. If every failed test
failed only because LeakSanitizer crashed in its exit-time scan (the test
itself passed), prints a ctest -R pattern matching exactly those tests;
otherwise prints nothing (the run has failed for real)."""
import re
import sys

text = open(sys.argv[1], errors="replace").read()
# Each result line starts a test's block of output.
blocks = re.split(r"\n(?=\s*\d+/\d+ Test\s+#\d+: )", text)
crashed, other = [], []
for block in blocks:
    m = re.match(r"\s*\d+/\d+ Test\s+#\d+: (\S+) \.*\s*\*\*\*(\w+)", block)
    if not m:
        continue
    name = m.group(1)
    lsan_crash = ("LeakSanitizer has encountered a fatal error" in block
                  and "ERROR: AddressSanitizer" not in block
                  and "ERROR: LeakSanitizer: detected memory leaks" not in block
                  and "runtime error:" not in block
                  and "[  PASSED  ]" in block and "[  FAILED  ]" not in block)
    (crashed if lsan_crash else other).append(name)
if crashed and not other:
    print("^(" + "|".join(re.escape(name) for name in crashed) + ")$")
