#!/usr/bin/env python3
"""Presses libfprint's virtual finger: writes "SCAN PRINT" to the virtual device's socket the moment
fprintd's device starts waiting for a finger, for whichever client (pam_fprintd or localauthd).

Usage: vfinger.py [--socket PATH] [--timeout S] [--events FILE] PRINT [PRINT...] [-- COMMAND [ARGS...]]
Event-driven, no polling: it watches the system bus (dbus-monitor, as root) for the PropertiesChanged
signal that sets the device's finger-needed to true, and presses the next PRINT on each new wait (a
wait ends when finger-needed turns false; the first PRINT also goes to a wait already under way, read
once with busctl while fprintd owns its name, so this never starts it). The virtual device takes a
finger only while it waits.
With "-- COMMAND", it runs COMMAND once it is watching (so no wait can be missed), presses while the
command runs, and exits with the command's status when it ends (PRINTs left unpressed are no error).
Without, it exits 0 once every PRINT was pressed, 1 when a wait did not come within S seconds.
With --events, it appends one line per fprintd bus event it saw, "EPOCH_SECONDS WHAT" (the bus's own
timestamps: method calls to the device such as Claim, VerifyStart, VerifyStop, Release; the
VerifyStatus signal; finger-needed; "press"): fprintd-cases.sh splits sudo's time with them."""
import os
import re
import select
import socket
import subprocess
import sys
import time

args = sys.argv[1:]
path = "/run/fprintd-vdev/vdev.sock"
timeout = 20.0
events_path = None
while args and args[0].startswith("--") and args[0] != "--":
    if args[0] == "--socket":
        path = args[1]
    elif args[0] == "--timeout":
        timeout = float(args[1])
    elif args[0] == "--events":
        events_path = args[1]
    else:
        sys.exit("vfinger.py: bad argument " + args[0])
    args = args[2:]
command = []
if "--" in args:
    command = args[args.index("--") + 1:]
    args = args[:args.index("--")]
prints = args
if not prints or ("--" in sys.argv and not command):
    sys.exit(__doc__)

DEVICE = "/net/reactivated/Fprint/Device/0"
RULES = [
    f"type='signal',path='{DEVICE}',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'",
    "type='signal',interface='net.reactivated.Fprint.Device',member='VerifyStatus'",
    "type='method_call',interface='net.reactivated.Fprint.Device'",
]
HEADER = re.compile(r"^(signal|method call) time=([0-9.]+) .*member=(\w+)")
monitor = subprocess.Popen(["dbus-monitor", "--system", "--monitor", *RULES], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, bufsize=0)
events = open(events_path, "a") if events_path else None


def note(when, what):
    if events:
        events.write(f"{when:.6f} {what}\n")
        events.flush()


def press(print_name):
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(path)
        connection.sendall(("SCAN " + print_name).encode())
        note(time.time(), "press " + print_name)
        return True
    except OSError as error:
        print(f"vfinger.py: cannot press {print_name}: {error}", file=sys.stderr)
        return False
    finally:
        connection.close()


def busctl(*words):
    result = subprocess.run(["busctl", "--system", *words], capture_output=True, text=True)
    return result.stdout.strip() if result.returncode == 0 else ""


def waiting_now():
    owned = busctl("call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                   "NameHasOwner", "s", "net.reactivated.Fprint")
    return owned == "b true" and busctl("get-property", "net.reactivated.Fprint", DEVICE,
                                        "net.reactivated.Fprint.Device", "finger-needed") == "b true"


class Lines:
    """dbus-monitor's output, line by line, each read bounded by a deadline."""

    def __init__(self, stream):
        self.fd = stream.fileno()
        self.buffer = b""

    def next(self, deadline):
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                return None
            chunk = os.read(self.fd, 65536)
            if not chunk:
                return ""
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode(errors="replace")


lines = Lines(monitor.stdout)
# Watching: dbus-monitor prints NameLost for its own name once the bus made it a monitor.
ready_by = time.monotonic() + 5
while True:
    line = lines.next(ready_by)
    if line is None or line == "":
        sys.exit("vfinger.py: dbus-monitor did not start watching the system bus")
    if "member=NameLost" in line:
        break

child = subprocess.Popen(command) if command else None
pressed = 0
may_press = True  # a new wait may take the next print (false from a press until the wait ends)
if not child and waiting_now():
    may_press = not press(prints[0])
    pressed += 0 if may_press else 1
deadline = time.monotonic() + timeout
member = None
property_name = None
code = 1
while True:
    if child and child.poll() is not None:
        code = child.returncode
        break
    if not child and pressed == len(prints):
        code = 0
        break
    line = lines.next(min(deadline, time.monotonic() + 0.1) if child else deadline)
    if line == "" or (line is None and not child and time.monotonic() >= deadline):
        break
    if line is None:
        continue
    header = HEADER.match(line)
    if header:
        member = header.group(3)
        if member not in ("PropertiesChanged", "NameAcquired", "NameLost"):
            note(float(header.group(2)), member)
        stamp = float(header.group(2))
        continue
    if member != "PropertiesChanged":
        continue
    if '"finger-needed"' in line:
        property_name = "finger-needed"
        continue
    if property_name == "finger-needed" and "boolean" in line:
        property_name = None
        needed = line.rstrip().endswith("true")
        note(stamp, f"finger-needed {'true' if needed else 'false'}")
        if not needed:
            may_press = True
        elif may_press and pressed < len(prints):
            if press(prints[pressed]):
                pressed += 1
                may_press = False
if child and child.poll() is None:
    code = child.wait()
monitor.terminate()
monitor.wait()
sys.exit(code)
