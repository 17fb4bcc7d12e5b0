#!/usr/bin/env python3
"""timed-sudo [--after]: `sudo -k true`, then one line for fprintd-sudo.sh's figures:
"timed-sudo: N ms, cpu C ms (sudo S ms, services D ms, then E ms), from START to END": sudo's wall
time; the CPU time of sudo and all it ran (the PAM module's share: user and system time of the
waited-for children), plus that of the system services meanwhile (D: system.slice's cgroup,
localauthd, fprintd, polkitd, dbus-daemon, journald, logind; every thread) and in the second after
sudo ended (E, with --after: work a module left behind, such as a release or a refresh; else 0;
C = S + D + E); and the wall-clock bounds in epoch seconds (to place the bus events vfinger.py
records). With --after the line comes after that second, so the next run never shares it. A Ctrl-C
typed into the terminal is sudo's to handle: this process only waits for it. Exits with sudo's
status."""
import resource
import signal
import subprocess
import sys
import time

SERVICES = ("/sys/fs/cgroup/unified/system.slice/cpu.stat", "/sys/fs/cgroup/system.slice/cpu.stat")


def services_us():
    for path in SERVICES:
        try:
            with open(path) as stat:
                for line in stat:
                    if line.startswith("usage_usec "):
                        return int(line.split()[1])
        except OSError:
            continue
    return 0


# A handler, not SIG_IGN: sudo gets the default disposition back when it is executed.
signal.signal(signal.SIGINT, lambda number, frame: None)
services_before = services_us()
started_at = time.time()
started = time.monotonic()
code = subprocess.call(["sudo", "-k", "true"])
took = time.monotonic() - started
ended_at = time.time()
services_at_end = services_us()
services = (services_at_end - services_before) / 1000
after = 0.0
if sys.argv[1:] == ["--after"]:
    time.sleep(1)
    after = (services_us() - services_at_end) / 1000
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
own = (usage.ru_utime + usage.ru_stime) * 1000
print(f"timed-sudo: {took * 1000:.0f} ms, cpu {own + services + after:.1f} ms (sudo {own:.1f} ms, services"
      f" {services:.1f} ms, then {after:.1f} ms), from {started_at:.6f} to {ended_at:.6f}")
sys.exit(code)
