#!/usr/bin/env python3
"""Runs the README's "A first session with socat" verbatim against a running `make run` daemon.

Every ```sh block of that section is run in bash after the variable assignments of the blocks before it (`export PATH`, `S=`); the
lines a block shows starting with '{' are what the commands must print, in order. Request ids
(UUIDs, written "DB1BB464-…" in the README) are compared by shape only. Run from the clone, as
the user who started `make run`. Exit status 0 when every block printed what the README shows.
"""
import re
import subprocess
import sys

README = "README.md"
SECTION = "## A first session with socat"


def blocks(text):
    start = text.index(SECTION)
    end = text.index("\n## ", start + len(SECTION))
    return re.findall(r"```sh\n(.*?)```", text[start:end], re.S)


def normal(line):
    line = re.sub(r'"[0-9A-F]{8}-[0-9A-F-]*(…|[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12})"', '"ID"', line)
    return line.strip()


def main():
    text = open(README, encoding="utf-8").read()
    failures = 0
    prelude = "set -e\n"
    for number, block in enumerate(blocks(text), 1):
        lines = block.splitlines()
        commands = "\n".join(l for l in lines if not l.startswith("{"))
        expected = [normal(l) for l in lines if l.startswith("{")]
        result = subprocess.run(
            ["bash", "-c", prelude + commands], capture_output=True, text=True, timeout=60)
        # Later blocks see the variables earlier ones set (PATH, S), not their requests again.
        prelude += "".join(l + "\n" for l in lines if re.match(r"(export )?[A-Z_]+=", l))
        actual = [normal(l) for l in result.stdout.splitlines() if l.startswith("{")]
        if actual != expected or result.returncode != 0:
            failures += 1
            print(f"block {number}: differs (exit {result.returncode})")
            for e, a in zip(expected + [""] * len(actual), actual + [""] * len(expected)):
                if e != a:
                    print(f"  README: {e}\n  got:    {a}")
            if result.stderr:
                print("  stderr:", result.stderr.strip()[:500])
        else:
            print(f"block {number}: as the README shows ({len(expected)} lines)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
