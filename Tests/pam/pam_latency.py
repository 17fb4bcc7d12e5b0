#!/usr/bin/env python3
"""How long pam_localauthd takes to say yes when the sensor matches at once (issue 19 row 4), against
the real daemon with a simulated face sensor scripted to MATCH: pam_authenticate timed inside
pam_as_requester (as root for the user, as sudo calls it) on a pseudo-terminal, the median of RUNS
runs, next to pam_permit alone and, when PAM_MODULE_BEFORE names another build of the module, that
build. The module's own steps come from its
journal entry (LA_SESSION_US, LA_CONNECT_US, LA_ANSWER_US, LA_PROMPT_US, LA_RESULT_US).

Environment: LOCALAUTHD, PAM_MODULE, PAM_MODULE_BEFORE (optional), PAM_REQUESTER_HELPER,
PAM_LATENCY_RUNS (default 30).
A benchmark, not a test: it prints figures and asserts nothing about time."""
import os
import re
import shutil
import statistics
import subprocess

import pam_harness
from pam_harness import MULTIARCH, REQUESTER_HELPER, USER, Terminal

RUNS = int(os.environ.get("PAM_LATENCY_RUNS", "30"))
STEPS = ("LA_SESSION_US", "LA_CONNECT_US", "LA_ANSWER_US", "LA_PROMPT_US", "LA_RESULT_US")


def timed_run(daemon, service):
    daemon.script("MATCH")
    term = Terminal([REQUESTER_HELPER, "0", service, USER])
    rc, out = term.finish()
    took = re.search(r"pam_authenticate took (\d+) us", out)
    if rc != 0 or not took:
        raise SystemExit(f"{service}: not authenticated:\n{out}")
    return int(took.group(1)) / 1000


def main():
    directory = pam_harness.prepare("localauthd-pam-latency.")
    subprocess.run(["useradd", "-M", "-s", "/usr/sbin/nologin", USER], capture_output=True)
    daemon = None
    try:
        daemon = pam_harness.daemon_for_user(directory)
        modules = {"pam_permit alone": f"/lib/{MULTIARCH}/security/pam_permit.so",
                   "pam_localauthd": f"{pam_harness.MODULE} socket={daemon.socket} session_check=no"}
        if os.environ.get("PAM_MODULE_BEFORE"):  # a build from before session_check=
            modules["pam_localauthd before"] = f"{os.path.abspath(os.environ['PAM_MODULE_BEFORE'])} socket={daemon.socket}"
        for index, line in enumerate(modules.values()):
            with open(os.path.join(pam_harness.SERVICES, f"la-bench{index}"), "w") as f:
                f.write(f"auth required {line}\n")
        times = {name: [] for name in modules}
        for _ in range(RUNS):  # interleaved, so that load on the machine falls on every module alike
            for index, name in enumerate(modules):
                times[name].append(timed_run(daemon, f"la-bench{index}"))
        steps = {key: [] for key in STEPS}
        for entry in pam_harness.JOURNAL.entries():
            if entry.get("PAM_OUTCOME") == "success" and entry.get("PAM_SERVICE") == "la-bench1":
                for key in STEPS:
                    steps[key].append(int(entry.get(key, "0")) / 1000)
        print(f"pam_authenticate on a pseudo-terminal, face scripted to MATCH, median of {RUNS} (ms):")
        for name, values in times.items():
            print(f"  {name:24} {statistics.median(values):7.1f}   (min {min(values):.1f}, max {max(values):.1f})")
        print("pam_localauthd's steps, from its call (median ms):")
        for key in STEPS:
            if steps[key]:
                print(f"  {key:24} {statistics.median(steps[key]):7.2f}")
    finally:
        if daemon:
            daemon.stop()
        subprocess.run(["userdel", USER], capture_output=True)
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
