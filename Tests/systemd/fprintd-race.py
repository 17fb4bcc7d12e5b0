#!/usr/bin/env python3
"""The figures of fprintd-race.sh's interleaved runs: sudo by finger with pam_localauthd against
pam_fprintd, medians and ratios (issue 19's target: at most 1.1x pam_fprintd's wall time).

Usage: fprintd-race.py DIR   or   fprintd-race.py --at-prompt DIR
DIR holds, per run, NN-MODULE.out (pty-run's transcript with timed-sudo's line: wall and CPU time,
and its bounds) and NN-MODULE.events (vfinger.py's bus events: "EPOCH_SECONDS WHAT"). Prints one table and the ratios; asserts nothing (a timed figure
is a measurement, never a test). Runs that did not end by finger are counted and left out.
With --at-prompt (race_at_prompt: the finger pressed the moment the prompt appeared), the figures
are sudo start -> prompt and touch -> sudo's end (pty-run's "step 1 seen at" against timed-sudo's
bounds), against issue 28's targets: at most 1.1x pam_fprintd's plus 5 ms, and plus 3 ms."""
import pathlib
import re
import statistics
import sys

TARGET = 1.10
TIMED = re.compile(
    r"^timed-sudo: (\d+) ms, cpu ([0-9.]+) ms \(.* then ([0-9.]+) ms\), from ([0-9.]+) to ([0-9.]+)", re.M)
MODULES = ("pam_localauthd", "pam_fprintd")


def read_events(path):
    events = []
    if path.exists():
        for line in path.read_text().splitlines():
            when, _, what = line.partition(" ")
            events.append((float(when), what))
    return sorted(events)


def first(events, what, after):
    return next((when for when, name in events if name.startswith(what) and when >= after), None)


def figures(out_path):
    text = out_path.read_text().replace("\r", "")
    by_finger = re.search(r"^pty-run: exit 0$", text, re.M) and "[sudo] password for" not in text
    timed = TIMED.search(text)
    if not by_finger or not timed:
        return None
    wall, cpu, later = int(timed[1]), float(timed[2]), float(timed[3])
    start, end = float(timed[4]), float(timed[5])
    row = {"wall": wall, "cpu": cpu, "later": later}
    events = read_events(out_path.with_suffix(".events"))
    claim = first(events, "Claim", start)
    status = first(events, "VerifyStatus", claim) if claim else None
    if claim and status and status <= end:
        row["before"] = (claim - start) * 1000
        row["cycle"] = (status - claim) * 1000
        row["after"] = (end - status) * 1000
        row["own"] = row["before"] + row["after"]
    return row


def width(title):
    return max(8, len(title) + 2)


BOUNDS = re.compile(r"^timed-sudo: .* from ([0-9.]+) to ([0-9.]+)", re.M)
SEEN_AT = re.compile(r"^pty-run: step 1 seen at ([0-9.]+)$", re.M)
PROMPT_TARGETS = {"prompt": 5.0, "exit": 3.0}


def at_prompt(directory):
    rows = {module: [] for module in MODULES}
    missed = {module: 0 for module in MODULES}
    for path in sorted(directory.glob("*.out")):
        module = path.stem.split("-", 1)[1]
        text = path.read_text().replace("\r", "")
        by_finger = re.search(r"^pty-run: exit 0$", text, re.M) and "[sudo] password for" not in text
        bounds, seen = BOUNDS.search(text), SEEN_AT.search(text)
        if not by_finger or not bounds or not seen:
            missed[module] += 1
            continue
        start, end, prompt = float(bounds[1]), float(bounds[2]), float(seen[1])
        rows[module].append({"prompt": (prompt - start) * 1000, "exit": (end - prompt) * 1000})
    print("     sudo by finger, the finger pressed the moment the prompt appeared: medians in ms")
    print(f"     {'':16}{'runs':>5}{'start->prompt':>15}{'touch->exit':>13}")
    medians = {}
    for module in MODULES:
        medians[module] = {key: statistics.median([row[key] for row in rows[module]]) if rows[module] else None
                           for key in PROMPT_TARGETS}
        cells = "".join(f"{medians[module][key]:>{15 if key == 'prompt' else 13}.1f}"
                        if medians[module][key] is not None else f"{'-':>{15 if key == 'prompt' else 13}}"
                        for key in PROMPT_TARGETS)
        extra = f" ({missed[module]} not by finger: the touch was lost)" if missed[module] else ""
        print(f"     {module:16}{len(rows[module]):>5}{cells}{extra}")
    for key, title in (("prompt", "sudo start -> prompt"), ("exit", "touch -> exit")):
        ours, theirs = medians["pam_localauthd"][key], medians["pam_fprintd"][key]
        if ours is None or theirs is None:
            print(f"     target: {title} <= {TARGET:.1f}x pam_fprintd's + {PROMPT_TARGETS[key]:.0f} ms: no figure")
            continue
        bound = TARGET * theirs + PROMPT_TARGETS[key]
        verdict = "met" if ours <= bound else "NOT met"
        print(f"     target: {title} <= {TARGET:.1f}x pam_fprintd's + {PROMPT_TARGETS[key]:.0f} ms "
              f"({bound:.1f} ms): {ours:.1f} ms, {verdict}")


def main():
    if sys.argv[1] == "--at-prompt":
        at_prompt(pathlib.Path(sys.argv[2]))
        return
    directory = pathlib.Path(sys.argv[1])
    rows = {module: [] for module in MODULES}
    missed = {module: 0 for module in MODULES}
    for path in sorted(directory.glob("*.out")):
        module = path.stem.split("-", 1)[1]
        row = figures(path)
        if row is None:
            missed[module] += 1
        else:
            rows[module].append(row)
    columns = [("wall", "wall"), ("cpu", "cpu"), ("later", "cpu after"), ("before", "start->Claim"),
               ("cycle", "Claim->VerifyStatus"), ("after", "VerifyStatus->end"), ("own", "outside the cycle")]
    medians = {}
    print("     sudo by finger, interleaved runs: medians in ms (cpu: sudo and all it ran, and the system")
    print("     services until a second after sudo ended; cpu after: that second's share; the bus events")
    print("     split sudo's wall time around fprintd's cycle)")
    print("     " + f"{'':16}{'runs':>5}" + "".join(f"{title:>{width(title)}}" for _, title in columns))
    for module in MODULES:
        medians[module] = {}
        for key, _ in columns:
            values = [row[key] for row in rows[module] if key in row]
            medians[module][key] = statistics.median(values) if values else None
        cells = "".join(
            f"{medians[module][key]:>{width(title)}.1f}" if medians[module][key] is not None
            else f"{'-':>{width(title)}}" for key, title in columns)
        extra = f" ({missed[module]} not by finger)" if missed[module] else ""
        print(f"     {module:16}{len(rows[module]):>5}{cells}{extra}")
    ratios = []
    for key, title in (("wall", "wall"), ("cpu", "cpu"), ("own", "outside fprintd's cycle")):
        ours, theirs = medians["pam_localauthd"][key], medians["pam_fprintd"][key]
        if ours is not None and theirs:
            ratios.append((key, title, ours / theirs))
    print("     pam_localauthd / pam_fprintd: " + ", ".join(f"{title} {ratio:.2f}x" for _, title, ratio in ratios))
    wall = next((ratio for key, _, ratio in ratios if key == "wall"), None)
    if wall is None:
        print(f"     target: wall <= {TARGET:.2f}x pam_fprintd's: no figure (no run by finger)")
    else:
        verdict = "met" if wall <= TARGET else "NOT met"
        print(f"     target: wall <= {TARGET:.2f}x pam_fprintd's: {wall:.2f}x, {verdict}")


main()
