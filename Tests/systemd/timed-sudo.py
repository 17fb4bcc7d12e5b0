#!/usr/bin/env python3
"""timed-sudo: `sudo -k true`, then one line for fprintd-sudo.sh's figures:
"timed-sudo: N ms, cpu C ms (sudo S ms, services D ms), from START to END": sudo's wall time; the
CPU time of sudo and all it ran (the PAM module's share: user and system time of the waited-for
children) plus that of the system services meanwhile (system.slice's cgroup: localauthd, fprintd,
polkitd, dbus-daemon, journald, logind; every thread); and the wall-clock bounds in epoch seconds (to
place the bus events vfinger.py records). Exits with sudo's status."""
import resource
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


services_before = services_us()
started_at = time.time()
started = time.monotonic()
code = subprocess.call(["sudo", "-k", "true"])
took = time.monotonic() - started
ended_at = time.time()
services = (services_us() - services_before) / 1000
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
own = (usage.ru_utime + usage.ru_stime) * 1000
print(f"timed-sudo: {took * 1000:.0f} ms, cpu {own + services:.1f} ms (sudo {own:.1f} ms, services {services:.1f} ms),"
      f" from {started_at:.6f} to {ended_at:.6f}")
sys.exit(code)
