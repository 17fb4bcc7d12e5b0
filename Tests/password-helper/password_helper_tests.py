"""localauthd-password-helper's tests (make test-password-helper; root). The helper runs as it does
under systemd, one connection on stdin/stdout (systemd-socket-activate --accept --inetd), with
docs/owners-and-agents.md's request format. Its PAM service comes from a private directory through
pam_wrapper (the shipped file with the tally in a private faillock directory): nothing is written to
/etc/pam.d or /run/faillock. A test account is made with useradd and chpasswd and removed at the end.

Checked: a peer that is not the served account (root, the test account) is refused; the right and a
wrong password; a locked and an empty password are not usable; malformed and oversized requests get
'E'; pam_faillock counts the failures; the password is nowhere in a core of the helper taken after
its answer; and the time a wrong password costs (the guessing rate), printed."""
import os
import pwd
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
HELPER = os.path.abspath(os.environ.get("PASSWORD_HELPER", ".build/helper/localauthd-password-helper"))
MULTIARCH = subprocess.run(["gcc", "-print-multiarch"], capture_output=True, text=True).stdout.strip()
WRAPPER = f"/usr/lib/{MULTIARCH}/libpam_wrapper.so"
USER = f"lapwtest{os.getpid() % 100000}"
PASSWORD = "correct-Horse-7-battery"
SERVED = 65534  # nobody stands for the daemon's account
PASSED = FAILED = 0


def check(name, ok, detail=""):
    global PASSED, FAILED
    if ok:
        PASSED += 1
        print(f"ok   {name}")
    else:
        FAILED += 1
        print(f"FAIL {name} {detail}")


class Helper:
    """The helper behind a private socket, one instance per connection, as systemd runs it."""

    def __init__(self, work, tally, under_gdb=None):
        self.path = os.path.join(work, "password.sock")
        if os.path.exists(self.path):
            os.unlink(self.path)
        services = os.path.join(work, "pam.d")
        os.makedirs(services, exist_ok=True)
        with open(os.path.join(REPO, "systemd/localauthd-password.pam")) as shipped:
            text = shipped.read().replace("unlock_time=600", f"unlock_time=600 dir={tally}")
        with open(os.path.join(services, "localauthd-password"), "w") as service:
            service.write(text)
        env = {
            "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
            "LD_PRELOAD": WRAPPER,
            "PAM_WRAPPER": "1",
            "PAM_WRAPPER_SERVICE_DIR": services,
            "GDB_LOG": os.environ.get("GDB_LOG", "/dev/null"),
        }
        command = [HELPER, str(SERVED)]
        if under_gdb:
            # gdb's own output must not reach the connection (the helper answers on fd 0).
            command = ["sh", "-c", 'exec "$@" >${GDB_LOG:-/dev/null} 2>&1', "sh"] + under_gdb + command
        self.process = subprocess.Popen(
            ["systemd-socket-activate", "--accept", "--inetd", "-l", self.path, "-E", "LD_PRELOAD", "-E",
             "PAM_WRAPPER", "-E", "PAM_WRAPPER_SERVICE_DIR", "-E", "GDB_LOG"] + command,
            env=env, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if os.path.exists(self.path):
                break
            time.sleep(0.02)
        os.chmod(self.path, 0o666)

    def ask(self, request, as_uid=SERVED, timeout=20):
        """Sends `request` from a process of `as_uid` and returns the helper's answer (b'' if none)."""
        client = (
            "import socket,sys\n"
            "s=socket.socket(socket.AF_UNIX);s.connect(sys.argv[1]);s.settimeout(%d)\n"
            "s.sendall(sys.stdin.buffer.read());sys.stdout.buffer.write(s.recv(8))\n" % timeout)
        prefix = [] if as_uid == 0 else ["setpriv", f"--reuid={as_uid}", f"--regid={as_uid}", "--clear-groups"]
        run = subprocess.run(prefix + ["python3", "-c", client, self.path], input=request, capture_output=True,
                             timeout=timeout + 10)
        return run.stdout

    def stop(self):
        self.process.terminate()
        self.process.wait()


def check_request(uid, password):
    data = password.encode()
    return b"C" + struct.pack(">IH", uid, len(data)) + data


def usable_request(uid):
    return b"U" + struct.pack(">I", uid)


def faillock_failures(tally):
    shown = subprocess.run(["faillock", "--dir", tally, "--user", USER], capture_output=True, text=True).stdout
    return sum(1 for line in shown.splitlines() if line[:4].isdigit())


def main():
    if os.geteuid() != 0:
        print("test-password-helper needs root (useradd, a helper running as root)")
        return 1
    work = tempfile.mkdtemp(prefix="localauthd-pwhelper.")
    os.chmod(work, 0o755)
    tally = os.path.join(work, "faillock")
    os.makedirs(tally)
    subprocess.run(["useradd", "-M", "-s", "/usr/sbin/nologin", USER], check=True)
    helper = None
    try:
        subprocess.run(["chpasswd"], input=f"{USER}:{PASSWORD}", text=True, check=True)
        uid = pwd.getpwnam(USER).pw_uid
        helper = Helper(work, tally)

        # The peer: only the served uid.
        check("root is refused", helper.ask(usable_request(uid), as_uid=0) == b"R")
        check("the account itself is refused", helper.ask(check_request(uid, PASSWORD), as_uid=uid) == b"R")
        check("the account's password usable", helper.ask(usable_request(uid)) == b"Y")

        # Right and wrong.
        check("the right password", helper.ask(check_request(uid, PASSWORD)) == b"Y")
        started = time.monotonic()
        wrong = helper.ask(check_request(uid, "not-" + PASSWORD))
        wrong_seconds = time.monotonic() - started
        check("a wrong password", wrong == b"N", repr(wrong))
        check("a prefix is wrong", helper.ask(check_request(uid, PASSWORD[:-1])) == b"N")
        check("faillock counted both failures", faillock_failures(tally) == 2, str(faillock_failures(tally)))
        check("the right password resets faillock", helper.ask(check_request(uid, PASSWORD)) == b"Y"
              and faillock_failures(tally) == 0)

        # Requests that are not served.
        check("root's password is never checked", helper.ask(check_request(0, "x")) == b"E")
        check("an unknown uid", helper.ask(usable_request(4000000000)) == b"E")
        check("an unknown op", helper.ask(b"X" + struct.pack(">I", uid)) == b"E")
        check("an empty password", helper.ask(b"C" + struct.pack(">IH", uid, 0)) == b"E")
        check("an oversized password", helper.ask(b"C" + struct.pack(">IH", uid, 513) + b"a" * 513) == b"E")
        check("a NUL in the password",
              helper.ask(b"C" + struct.pack(">IH", uid, 3) + b"a\0b") == b"E")
        started = time.monotonic()
        short = helper.ask(b"C" + struct.pack(">IH", uid, 20) + b"abc", timeout=15)
        check("a short request is dropped after its deadline", short == b"E" and time.monotonic() - started < 10,
              f"{short!r} after {time.monotonic() - started:.1f}s")

        # Not usable: locked, then empty.
        subprocess.run(["usermod", "-L", USER], check=True)
        check("a locked password is not usable", helper.ask(usable_request(uid)) == b"N")
        check("a locked account's password is refused", helper.ask(check_request(uid, PASSWORD)) == b"N")
        subprocess.run(["usermod", "-U", USER], check=True)
        subprocess.run(["passwd", "-d", USER], check=True, capture_output=True)
        check("an empty password is not usable", helper.ask(usable_request(uid)) == b"N")
        subprocess.run(["chpasswd"], input=f"{USER}:{PASSWORD}", text=True, check=True)
        subprocess.run(["faillock", "--dir", tally, "--user", USER, "--reset"], check=True)
        helper.stop()

        # The password in a core of the helper taken after its answer (at closelog, past the wipe).
        core = os.path.join(work, "helper.core")
        gdb = ["gdb", "-nx", "-batch", "-ex", "set startup-with-shell off", "-ex",
               "set breakpoint pending on", "-ex", "break closelog", "-ex", "run",
               "-ex", f"gcore {core}", "-ex", "kill", "--args"]
        helper = Helper(work, tally, under_gdb=gdb)
        secret = "unguessable-Marker-4242-" + str(os.getpid())
        under_gdb_answer = helper.ask(check_request(uid, secret))
        check("the helper answered under gdb", under_gdb_answer == b"N", repr(under_gdb_answer))
        # The answer comes before closelog: wait for gdb to finish the core (its size settles).
        size, deadline = -1, time.monotonic() + 30
        while time.monotonic() < deadline:
            time.sleep(1)
            now = os.path.getsize(core) if os.path.exists(core) else -1
            if now > 0 and now == size:
                break
            size = now
        helper.stop()
        if os.path.exists(core):
            with open(core, "rb") as dump:
                memory = dump.read()
            check("the core holds the checked account's name (PAM ran)", USER.encode() in memory)
            check("the password is not in the helper's core", secret.encode() not in memory)
        else:
            check("gdb made a core of the helper", False, "no core file")

        print(f"rate: a wrong password costs the helper {wrong_seconds:.2f} s (pam_unix's delay): "
              f"at most {60 / wrong_seconds:.0f} guesses a minute on one connection, before localauthd's back-off")
    finally:
        if helper:
            helper.stop()
        subprocess.run(["userdel", USER], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    print(f"{PASSED} passed, {FAILED} failed")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
