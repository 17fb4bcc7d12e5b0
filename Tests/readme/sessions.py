#!/usr/bin/env python3
"""Runs a README session verbatim against a running `make run` daemon.

`sessions.py first-session`: every ```sh block of "A first session with socat" is run in bash
after the variable assignments of the blocks before it (`export PATH`, `S=`); the lines a block
shows starting with '{' are what the commands must print, in order.

`sessions.py founding-bug`: every ```sh block of "The founding bug" is a transcript: lines
starting with "$ " are run (after the first session's variable assignments), the other lines are
what they must print on stdout and stderr. Two clients run at once there, so lines are compared
as a multiset, and numbers (pids, uids, milliseconds, counts' digits) by shape.

Request ids (UUIDs, written "DB1BB464-…" in the README) are compared by shape only. Run from the
clone, as the user who started `make run`. Exit status 0 when every block printed what the
README shows.
"""
import re
import subprocess
import sys

README = "README.md"
SECTIONS = {
    "first-session": "## A first session with socat",
    "founding-bug": "## The founding bug",
}
ASSIGNMENT = r"(export )?[A-Z_]+="


def blocks(text, heading):
    start = text.index(heading)
    end = text.index("\n## ", start + len(heading))
    return re.findall(r"```sh\n(.*?)```", text[start:end], re.S)


def normal(line, numbers=False):
    line = re.sub(
        r"[0-9A-F]{8}-[0-9A-F-]*(…|[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12})", "ID", line)
    if numbers:
        line = re.sub(r"[0-9]+", "N", line)
    return line.strip()


def prelude(text):
    """The first session's variable assignments (PATH, S), which later sessions rely on."""
    lines = "".join(blocks(text, SECTIONS["first-session"])).splitlines()
    return "".join(l + "\n" for l in lines if re.match(ASSIGNMENT, l))


def report(number, expected, actual, result):
    """Prints one block's verdict; returns whether it printed what the README shows."""
    if actual == expected and result.returncode == 0:
        print(f"block {number}: as the README shows ({len(expected)} lines)")
        return True
    print(f"block {number}: differs (exit {result.returncode})")
    for e, a in zip(expected + [""] * len(actual), actual + [""] * len(expected)):
        if e != a:
            print(f"  README: {e}\n  got:    {a}")
    if result.stderr:
        print("  stderr:", result.stderr.strip()[:500])
    return False


def run(script):
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)


def first_session(text):
    failures = 0
    before = "set -e\n"
    for number, block in enumerate(blocks(text, SECTIONS["first-session"]), 1):
        lines = block.splitlines()
        commands = "\n".join(l for l in lines if not l.startswith("{"))
        expected = [normal(l) for l in lines if l.startswith("{")]
        result = run(before + commands)
        # Later blocks see the variables earlier ones set (PATH, S), not their requests again.
        before += "".join(l + "\n" for l in lines if re.match(ASSIGNMENT, l))
        actual = [normal(l) for l in result.stdout.splitlines() if l.startswith("{")]
        failures += not report(number, expected, actual, result)
    return failures


def founding_bug(text):
    failures = 0
    before = prelude(text)
    for number, block in enumerate(blocks(text, SECTIONS["founding-bug"]), 1):
        lines = block.splitlines()
        commands = "\n".join(l[2:] for l in lines if l.startswith("$ "))
        expected = sorted(normal(l, True) for l in lines if not l.startswith("$ "))
        # The last command's status is the block's; a cancelled evaluation before it exits 1.
        result = run(before + "exec 2>&1\n" + commands)
        actual = sorted(normal(l, True) for l in result.stdout.splitlines())
        failures += not report(number, expected, actual, result)
    return failures


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in SECTIONS:
        print(f"usage: {sys.argv[0]} {'|'.join(SECTIONS)}")
        return 2
    text = open(README, encoding="utf-8").read()
    check = first_session if sys.argv[1] == "first-session" else founding_bug
    return 1 if check(text) else 0


if __name__ == "__main__":
    sys.exit(main())
