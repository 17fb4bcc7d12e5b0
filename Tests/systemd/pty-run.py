#!/usr/bin/env python3
"""Runs a command on a new pseudo-terminal (its controlling terminal) and types real keys into it.

Usage: pty-run.py [--timeout S] [--optional-steps] [--settle-ms MS] [--step PATTERN KEYS]...
                 [--step-touch PATTERN PRINT]... -- COMMAND [ARGS...]
Each step waits until PATTERN (a regular expression) has appeared in the output since the previous
step, then types KEYS (Python escapes allowed: \\r, \\x1b, \\x03), or, for --step-touch, presses
PRINT on libfprint's virtual device at once ("SCAN PRINT" to $FP_VIRTUAL_DEVICE, default
/run/fprintd-vdev/vdev.sock), as a person touches the sensor the moment the prompt asks: a device
that does not listen yet loses the touch. Each step's moment is also printed as "pty-run: step K seen
at EPOCH_SECONDS". Afterwards it reads until the command
exits, prints the whole transcript, then "pty-run: exit N", "pty-run: took M ms" (start to exit) and, per step, "pty-run: step K seen after
M ms" (or "not seen"). Exits with the command's exit code (125 when a step was not seen, unless
--optional-steps: then the steps left are skipped once the command exits; 124 when it did not exit in time).
With --settle-ms, each step's keys are typed that long after its pattern appeared, as a person
would: a key typed the instant a prompt appears can reach a program before it is ready for it
(sudo loses a Ctrl-C typed within a few milliseconds of "[sudo] password for")."""
import os
import pty
import re
import select
import socket
import sys
import time

args = sys.argv[1:]
timeout = 30.0
steps = []
optional = False
settle = 0.0
while args and args[0] != "--":
    if args[0] == "--timeout":
        timeout = float(args[1])
        args = args[2:]
    elif args[0] == "--settle-ms":
        settle = float(args[1]) / 1000
        args = args[2:]
    elif args[0] == "--optional-steps":
        optional = True
        args = args[1:]
    elif args[0] == "--step":
        steps.append((re.compile(args[1].encode()), args[2].encode().decode("unicode_escape").encode("latin-1"), None))
        args = args[3:]
    elif args[0] == "--step-touch":
        steps.append((re.compile(args[1].encode()), b"", args[2]))
        args = args[3:]
    else:
        sys.exit("pty-run.py: bad argument " + args[0])
command = args[1:]
started = time.monotonic()
pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)
output = b""
mark = 0
seen = []


def read(seconds):
    global output
    ready, _, _ = select.select([fd], [], [], max(seconds, 0))
    if not ready:
        return None
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        chunk = b""
    output += chunk
    return chunk


def touch(print_name):
    device = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        device.connect(os.environ.get("FP_VIRTUAL_DEVICE", "/run/fprintd-vdev/vdev.sock"))
        device.sendall(("SCAN " + print_name).encode())
    except OSError as error:
        print(f"pty-run.py: cannot press {print_name}: {error}", file=sys.stderr)
    finally:
        device.close()


missed = False
seen_at = []
for pattern, keys, print_name in steps:
    deadline = time.monotonic() + timeout
    while not pattern.search(output, mark):
        chunk = read(deadline - time.monotonic())
        if not chunk:
            break
    match = pattern.search(output, mark)
    if not match:
        seen.append(None)
        missed = True
        break
    seen.append((time.monotonic() - started) * 1000)
    seen_at.append(time.time())
    mark = match.end()
    if print_name is not None:
        touch(print_name)
        continue
    if settle:
        time.sleep(settle)
    os.write(fd, keys)
deadline = time.monotonic() + timeout
while time.monotonic() < deadline:
    chunk = read(deadline - time.monotonic())
    if not chunk:
        break
took = (time.monotonic() - started) * 1000  # the terminal closed: the command ended
missed = missed and not optional
code = 125 if missed else 124  # 124: the command did not exit in time
grace = time.monotonic() + 2  # the output ended: the command is exiting
waited, status = os.waitpid(pid, os.WNOHANG)
while waited == 0 and time.monotonic() < min(grace, deadline + 2):
    time.sleep(0.01)
    waited, status = os.waitpid(pid, os.WNOHANG)
if waited == 0:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
elif not missed:
    code = os.waitstatus_to_exitcode(status)
sys.stdout.write(output.decode(errors="replace"))
print(f"\npty-run: exit {code}")
print(f"pty-run: took {took:.0f} ms")
for index, when in enumerate(seen):
    print(f"pty-run: step {index + 1} " + (f"seen after {when:.0f} ms" if when is not None else "not seen"))
for index, when in enumerate(seen_at):
    print(f"pty-run: step {index + 1} seen at {when:.6f}")
sys.exit(code)
