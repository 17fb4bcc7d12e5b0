#!/usr/bin/env python3
"""sd_notify and the watchdog without systemd as PID 1.

Binds its own NOTIFY_SOCKET (AF_UNIX datagram, SO_PASSCRED), runs localauthd
with WATCHDOG_USEC=400000 on a private socket and checks: READY=1 once the
socket answers, STATUS="N clients, N evaluating, N queued" (and a STATUS
showing the evaluation while one runs), WATCHDOG=1 about every 200 ms from
the daemon's pid, RELOADING=1 with a current MONOTONIC_USEC then READY=1
after SIGHUP, STOPPING=1 after SIGTERM and exit status 0.

Usage: notify-watchdog.py [LOCALAUTHD]   (or LOCALAUTHD=path)
"""
import json
import os
import re
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time

SCALE = float(os.environ.get("LOCALAUTHD_TEST_TIMEOUT_SCALE", "1"))
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
STATUS_RE = re.compile(r"^STATUS=(\d+) clients, (\d+) evaluating, (\d+) queued$", re.M)

passed = 0
failed = 0


def check(description, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok   - {description}")
    else:
        failed += 1
        print(f"FAIL - {description}{': ' + detail if detail else ''}", file=sys.stderr)
    return condition


def die(message):
    print(f"notify-watchdog.py: ERROR: {message}", file=sys.stderr)
    print(f"{passed} passed, {failed + 1} failed")
    sys.exit(2)


class NotifySocket:
    """The service manager's side of sd_notify: records (time, pid, text)."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(path)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.messages = []

    def pump(self, seconds):
        """Receives for up to `seconds`, appending to self.messages."""
        deadline = time.monotonic() + seconds
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            self.sock.settimeout(remaining)
            try:
                data, ancillary, _, _ = self.sock.recvmsg(4096, socket.CMSG_SPACE(12))
            except socket.timeout:
                return
            pid = None
            for level, kind, payload in ancillary:
                if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                    pid = struct.unpack("iII", payload[:12])[0]
            self.messages.append((time.monotonic(), pid, data.decode(errors="replace")))

    def wait_for(self, predicate, seconds, start=0):
        """Pumps until a message from index `start` on satisfies predicate; returns its index or None."""
        deadline = time.monotonic() + seconds * SCALE
        index = start
        while True:
            while index < len(self.messages):
                if predicate(self.messages[index][2]):
                    return index
                index += 1
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            self.pump(min(remaining, 0.1))


def has_line(line):
    return lambda text: line in text.split("\n")


def rpc(socket_path, request, timeout=20):
    request = dict(request, jsonrpc="2.0", id=1)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(timeout * SCALE)
        client.connect(socket_path)
        client.sendall(json.dumps(request).encode() + b"\n")
        buffer = b""
        while True:
            chunk = client.recv(65536)
            if not chunk:
                raise ConnectionError("daemon closed the connection")
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                message = json.loads(line)
                if message.get("id") == 1:
                    return message


def main():
    daemon = os.environ.get("LOCALAUTHD") or (sys.argv[1] if len(sys.argv) > 1 else
                                              os.path.join(REPO, ".build/release/localauthd"))
    if not os.access(daemon, os.X_OK):
        die(f"daemon binary not executable: {daemon} (set LOCALAUTHD)")
    work = tempfile.mkdtemp(prefix="localauthd-notify.")
    notify = NotifySocket(os.path.join(work, "notify"))
    socket_path = os.path.join(work, "localauthd.sock")
    for name in ("state", "run"):
        os.mkdir(os.path.join(work, name))
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("LISTEN_", "WATCHDOG_", "NOTIFY_"))}
    env.update(NOTIFY_SOCKET=notify.sock.getsockname(), WATCHDOG_USEC="400000",
               STATE_DIRECTORY=os.path.join(work, "state"), RUNTIME_DIRECTORY=os.path.join(work, "run"))
    log = open(os.path.join(work, "daemon.log"), "w+")
    process = subprocess.Popen([daemon, "--socket", socket_path, "--demo"], env=env,
                               stdout=log, stderr=subprocess.STDOUT)
    try:
        run_checks(process, notify, socket_path)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        log.seek(0)
        tail = log.read().splitlines()[-5:]
        print("     daemon log (last lines):")
        for line in tail:
            print(f"       {line}")
        subprocess.run(["rm", "-rf", work])
    print(f"{passed} passed, {failed} failed")
    sys.exit(0 if failed == 0 else 1)


def run_checks(process, notify, socket_path):
    ready = notify.wait_for(has_line("READY=1"), 10)
    if not check("READY=1 at startup", ready is not None):
        die("no READY=1 within 10 s; messages: %r" % [m[2] for m in notify.messages])
    check("READY=1 comes from the daemon's pid", notify.messages[ready][1] == process.pid,
          f"pid {notify.messages[ready][1]} != {process.pid}")
    check("the socket serves once READY=1 is sent", os.path.exists(socket_path) and
          "result" in rpc(socket_path, {"method": "broker.status", "params": {}}))
    status = notify.wait_for(lambda t: STATUS_RE.search(t) is not None, 5)
    check('a STATUS="N clients, N evaluating, N queued" line', status is not None,
          repr([m[2] for m in notify.messages]))
    if status is not None:
        print(f"     {STATUS_RE.search(notify.messages[status][2]).group(0)}")

    # Watchdog: WATCHDOG_USEC=400000 -> a ping every ~200 ms.
    first = len(notify.messages)
    notify.pump(2.5)
    pings = [m for m in notify.messages[first:] if has_line("WATCHDOG=1")(m[2])]
    gaps = [b[0] - a[0] for a, b in zip(pings, pings[1:])]
    check("WATCHDOG=1 pings arrive (>= 8 in 2.5 s)", len(pings) >= 8, f"{len(pings)} pings")
    if gaps:
        median = statistics.median(gaps)
        print(f"     {len(pings)} pings, median gap {median * 1000:.0f} ms, max {max(gaps) * 1000:.0f} ms")
        check("pings about every 200 ms (median 120-280 ms)", 0.12 <= median <= 0.28)
        check("no gap reaches WATCHDOG_USEC (400 ms)", max(gaps) < 0.4)
    check("every ping comes from the daemon's pid", all(m[1] == process.pid for m in pings))

    # STATUS follows an evaluation (the demo face matches after ~1 s).
    mark = len(notify.messages)
    import threading
    result = {}
    thread = threading.Thread(target=lambda: result.update(rpc(socket_path, {
        "method": "context.evaluatePolicy",
        "params": {"policy": "deviceOwnerAuthenticationWithBiometrics", "localizedReason": "notify test"}})))
    thread.start()
    busy = notify.wait_for(lambda t: (m := STATUS_RE.search(t)) is not None and m.group(2) == "1", 5, mark)
    thread.join(30 * SCALE)
    check("STATUS shows 1 evaluating while an evaluation runs", busy is not None,
          repr([m[2] for m in notify.messages[mark:] if "STATUS" in m[2]]))
    check("the evaluation succeeds", "result" in result, repr(result))

    # SIGHUP: RELOADING=1 + MONOTONIC_USEC, then READY=1.
    mark = len(notify.messages)
    before = time.monotonic()
    os.kill(process.pid, signal.SIGHUP)
    reloading = notify.wait_for(has_line("RELOADING=1"), 5, mark)
    if check("RELOADING=1 after SIGHUP", reloading is not None):
        text = notify.messages[reloading][2]
        stamp = re.search(r"^MONOTONIC_USEC=(\d+)$", text, re.M)
        check("RELOADING=1 carries MONOTONIC_USEC", stamp is not None, repr(text))
        if stamp:
            usec = int(stamp.group(1))
            check("MONOTONIC_USEC is CLOCK_MONOTONIC at the reload",
                  before * 1e6 - 1e6 <= usec <= time.monotonic() * 1e6 + 1e6, f"{usec} vs {before * 1e6:.0f}")
        ready = notify.wait_for(has_line("READY=1"), 5, reloading)
        check("READY=1 after the reload", ready is not None)
    check("daemon still serves after reload",
          "result" in rpc(socket_path, {"method": "broker.status", "params": {}}))

    # SIGTERM: STOPPING=1, exit 0.
    mark = len(notify.messages)
    os.kill(process.pid, signal.SIGTERM)
    stopping = notify.wait_for(has_line("STOPPING=1"), 10, mark)
    check("STOPPING=1 after SIGTERM", stopping is not None)
    try:
        code = process.wait(10 * SCALE)
    except subprocess.TimeoutExpired:
        code = None
    check("daemon exits with status 0 after SIGTERM", code == 0, f"exit status {code}")


if __name__ == "__main__":
    main()
