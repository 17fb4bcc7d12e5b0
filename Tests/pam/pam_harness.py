"""What the PAM module tests share: the real daemon, pamtester through pam_wrapper, a pseudo-terminal
that types real keys, and the check counter. Imported by pam_module_tests.py."""
import atexit
import json
import os
import pty
import re
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SCALE = float(os.environ.get("LOCALAUTHD_TEST_TIMEOUT_SCALE", "1"))
DAEMON = os.path.abspath(os.environ["LOCALAUTHD"])
MODULE = os.path.abspath(os.environ["PAM_MODULE"])
MODULE_ASAN = os.path.abspath(os.environ.get("PAM_MODULE_ASAN", MODULE))
REQUESTER_HELPER = os.path.abspath(os.environ.get("PAM_REQUESTER_HELPER", ".build/pam/pam_as_requester"))
MULTIARCH = subprocess.run(["gcc", "-print-multiarch"], capture_output=True, text=True).stdout.strip()
PAM_UNIX = f"/lib/{MULTIARCH}/security/pam_unix.so"
WRAPPER = f"/usr/lib/{MULTIARCH}/libpam_wrapper.so"
USER = "lapamtest"
PASSWORD = "Sw0rdfish-pam"
PASSED = FAILED = 0
# The directory of service files pam_wrapper loads (set by the test run).
SERVICES = None
# The private journal the module writes to (set by the test run): see Journal.
JOURNAL = None

_SHARED_SCRIPTS = None


def script_for_other_users(name):
    """The path of a copy of Tests/pam/NAME that every user can read: the attackers run as other
    users, and a clone may sit in a directory only root can enter (`mktemp -d` makes it 0700)."""
    global _SHARED_SCRIPTS
    if _SHARED_SCRIPTS is None:
        _SHARED_SCRIPTS = tempfile.mkdtemp(prefix="localauthd-pam-scripts.")
        os.chmod(_SHARED_SCRIPTS, 0o755)
        atexit.register(shutil.rmtree, _SHARED_SCRIPTS, True)
    copy = os.path.join(_SHARED_SCRIPTS, name)
    if not os.path.exists(copy):
        shutil.copyfile(os.path.join(HERE, name), copy)
        os.chmod(copy, 0o644)
    return copy


# What pamtester prints for each code the module returns (pam_strerror).
SAYS = {
    "PAM_SUCCESS": "successfully authenticated",
    "PAM_AUTH_ERR": "Authentication failure",
    "PAM_MAXTRIES": "Have exhausted maximum number of retries for service",
    "PAM_AUTHINFO_UNAVAIL": "Authentication service cannot retrieve authentication info",
    # A required module that returns PAM_IGNORE, alone in its stack: libpam's "no module decided".
    "PAM_IGNORE": "Permission denied",
}


def check(description, ok, detail=""):
    global PASSED, FAILED
    if ok:
        PASSED += 1
        print(f"ok   - {description}")
    else:
        FAILED += 1
        print(f"FAIL - {description}\n{detail}", file=sys.stderr)


class Daemon:
    """The real localauthd on a socket in a temporary directory."""

    def __init__(self, directory, broker=""):
        os.makedirs(directory, exist_ok=True)
        self.socket = os.path.join(directory, "localauthd.sock")
        config = os.path.join(directory, "localauthd.conf")
        with open(config, "w") as f:
            f.write(f"[Broker]\nPromptTimeoutSec=60\n{broker}[Sensor.face]\nKind=faceID\nDefault=WAIT\n"
                    "[Sensor.passcode]\nKind=passcode\n")
        self.log = open(os.path.join(directory, "daemon.log"), "w")
        self.process = subprocess.Popen(
            [DAEMON, "--socket", self.socket, "--config", config, "--state-dir",
             os.path.join(directory, "state"), "--stderr"], stdout=self.log, stderr=self.log)
        deadline = time.time() + 10 * SCALE
        while not os.path.exists(self.socket):
            if time.time() > deadline or self.process.poll() is not None:
                raise SystemExit("localauthd did not start; see " + self.log.name)
            time.sleep(0.02)

    def call(self, method, params=None):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(10 * SCALE)
            s.connect(self.socket)
            s.sendall(json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}).encode() + b"\n")
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    raise RuntimeError("daemon closed")
                data += chunk
                for line in data.split(b"\n")[:-1]:
                    message = json.loads(line)
                    if message.get("id") == 1:
                        if "error" in message:
                            raise RuntimeError(f"{method}: {message['error']}")
                        return message["result"]

    def script(self, *commands):
        self.call("sensors.script", {"sensor": "face", "commands": list(commands), "replace": True})

    def outcomes(self):
        return self.call("broker.status")["outcomes"]

    def reset(self):
        self.script("DEFAULT WAIT")
        self.call("sensors.resetLockout", {"user": USER})
        # pamtester runs as root, and failures of an evaluation that another uid requested count
        # against that requester (issue 18): here root.
        self.call("sensors.resetLockout", {"user": "root"})

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10 * SCALE)
        self.log.close()


class Journal:
    """The module's journal entries, without the host's journal: every PAM process runs in a mount
    namespace of its own where /run/systemd/journal is this directory, so sd_journal_send's datagrams
    arrive on this socket (native protocol: KEY=value lines). A thread drains it at once: a full
    datagram queue would block the module."""

    def __init__(self, directory):
        self.directory = os.path.join(directory, "journal")
        os.mkdir(self.directory)
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.bind(os.path.join(self.directory, "socket"))
        self.received = []
        self.lock = threading.Lock()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        while True:
            data = self.socket.recv(1 << 20)
            entry = {}
            for line in data.split(b"\n"):
                key, _, value = line.partition(b"=")
                if key:
                    entry[key.decode()] = value.decode(errors="replace")
            with self.lock:
                self.received.append(entry)

    def entries(self):
        """The entries that arrived since the last call, as dicts."""
        time.sleep(0.05)  # a datagram sent just before the PAM process exited is in the socket: let it land
        with self.lock:
            found, self.received = self.received, []
        return found

    def last(self):
        entries = self.entries()
        return entries[-1] if entries else {}


def in_private_namespace(command):
    """command inside a mount namespace of its own whose /run/systemd/journal is JOURNAL's directory (a
    tmpfs hides the rest of /run/systemd there: logind's records too, so a session found in the cgroup
    has no record and the module steps aside, as it must)."""
    if JOURNAL is None:
        return command
    setup = ('if [ -d /run/systemd ]; then mount -t tmpfs tmpfs /run/systemd; '
             'else mount -t tmpfs tmpfs /run && mkdir /run/systemd; fi && mkdir /run/systemd/journal && '
             'mount --bind "$0" /run/systemd/journal && exec "$@"')
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c", setup, JOURNAL.directory] + command


def prepare(prefix):
    """A temporary directory holding the service files pam_wrapper loads and the private journal."""
    global SERVICES, JOURNAL
    directory = tempfile.mkdtemp(prefix=prefix)
    SERVICES = os.path.join(directory, "services")
    os.mkdir(SERVICES)
    JOURNAL = Journal(directory)
    return directory


def daemon_for_user(directory):
    """The real daemon, with USER's passcode and face enrolled."""
    daemon = Daemon(directory)
    daemon.call("sensors.setPasscode", {"passcode": "1234", "user": USER})
    daemon.call("sensors.enroll", {"sensor": "face", "identity": "face-of-test", "user": USER})
    return daemon


def environment(extra=None, asan=False):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SSH_")}
    preload = WRAPPER
    if asan or MODULE == MODULE_ASAN:
        libasan = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True, text=True).stdout.strip()
        # libcrypt too: ASan resolves its crypt_r interceptor at start, and pam_unix's libcrypt would
        # otherwise arrive later by dlopen (a call through a null pointer, in pam_unix, not the module).
        preload = f"{libasan} /lib/{MULTIARCH}/libcrypt.so.1 {WRAPPER}"
        env["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=0:exitcode=99"
    env.update({"LD_PRELOAD": preload, "PAM_WRAPPER": "1", "PAM_WRAPPER_SERVICE_DIR": SERVICES})
    env.update(extra or {})
    return env


def pamtester(service, stdin=b"", extra_env=None, items=(), asan=False, user=USER, requester=None, private=True):
    """pamtester without a controlling terminal (its own session): the module uses the conversation.
    requester: a uid that runs it as su does for that user (the real uid, effective uid root), through
    pam_as_requester. private=False: not in the private journal's namespace (for timing a quick exit)."""
    command = ["pamtester", "-v"]
    for item in items:
        command += ["-I", item]
    command += [service, user, "authenticate"]
    if requester is not None:
        command = [REQUESTER_HELPER, str(requester), service, user]
    started = time.monotonic()
    result = subprocess.run(in_private_namespace(command) if private else command, input=stdin, capture_output=True, env=environment(extra_env, asan),
                            start_new_session=True, timeout=60 * SCALE)
    elapsed = time.monotonic() - started
    return result.returncode, (result.stdout + result.stderr).decode(errors="replace"), elapsed


class Terminal:
    """A command on a pseudo-terminal that types real keys."""

    def __init__(self, command, extra_env=None):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            command = in_private_namespace(command)
            os.execvpe(command[0], command, environment(extra_env))
        self.output = b""

    def expect(self, pattern, seconds=10):
        deadline = time.monotonic() + seconds * SCALE
        regex = re.compile(pattern.encode())
        while not regex.search(self.output):
            left = deadline - time.monotonic()
            if left <= 0 or not self._read(left):
                return False
        return True

    def _read(self, seconds):
        ready, _, _ = select.select([self.fd], [], [], seconds)
        if not ready:
            return False
        try:
            chunk = os.read(self.fd, 4096)
        except OSError:
            return False
        self.output += chunk
        return bool(chunk)

    def type(self, keys):
        os.write(self.fd, keys)

    def finish(self):
        while self._read(30 * SCALE):
            pass
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status), self.output.decode(errors="replace")


def says(output, code):
    return SAYS[code] in output
