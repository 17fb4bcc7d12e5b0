#!/usr/bin/env python3
"""Presses libfprint's virtual finger: writes "SCAN PRINT" to the virtual device's socket.

Usage: vfinger.py [--next] [--socket PATH] [--timeout S] PRINT
Waits until fprintd's device waits for a finger (its finger-needed property, read with busctl
only while fprintd owns its name, so this never starts it), then sends the one command; the
virtual device takes a finger only then. With --next it first waits (at most 2 s) for the
current wait to end, so the press goes to the next one. Exits 0 when the command was sent, 1
when no finger was needed in time."""
import socket
import subprocess
import sys
import time

args = sys.argv[1:]
path = "/run/fprintd-vdev/vdev.sock"
timeout = 20.0
wait_for_end = False
while args and args[0].startswith("--"):
    if args[0] == "--next":
        wait_for_end = True
        args = args[1:]
    elif args[0] == "--socket":
        path = args[1]
        args = args[2:]
    elif args[0] == "--timeout":
        timeout = float(args[1])
        args = args[2:]
    else:
        sys.exit("vfinger.py: bad argument " + args[0])
if len(args) != 1:
    sys.exit(__doc__)


def busctl(*words):
    result = subprocess.run(["busctl", "--system", *words], capture_output=True, text=True)
    return result.stdout.strip() if result.returncode == 0 else ""


def finger_needed():
    owned = busctl("call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                   "NameHasOwner", "s", "net.reactivated.Fprint")
    if owned != "b true":
        return False
    return busctl("get-property", "net.reactivated.Fprint", "/net/reactivated/Fprint/Device/0",
                  "net.reactivated.Fprint.Device", "finger-needed") == "b true"


if wait_for_end:
    ending = time.monotonic() + 2
    while time.monotonic() < ending and finger_needed():
        time.sleep(0.005)
deadline = time.monotonic() + timeout
while time.monotonic() < deadline:
    if finger_needed():
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            connection.connect(path)
            connection.sendall(("SCAN " + args[0]).encode())
            sys.exit(0)
        except OSError:
            pass
        finally:
            connection.close()
    time.sleep(0.005)
sys.exit(1)
