"""Issue 33's keyring rows (run by pam_module_tests.py): the real module and daemon through
pam_wrapper. keep_password after pam_unix keeps the password typed; a later success by face with
release_password sets PAM_AUTHTOK for the next module (pam_exec's expose_authtok into
authtok_probe.sh, which prints only whether a token came and its SHA-256); sudo by face, a fallback,
a drop, a password change and a daemon restart release nothing; the password is in no log line, no
journal entry of the module and no core of the daemon. The password helper is a stand-in on a
private socket (the real one refuses a daemon running as root, as these tests run it)."""
import hashlib
import json
import os
import socket
import struct
import subprocess
import threading

import pam_harness
from pam_harness import HERE, MODULE, PAM_UNIX, PASSWORD, REQUESTER_HELPER, USER, Daemon, check, pamtester

PROBE = os.path.join(HERE, "authtok_probe.sh")
DIGEST = hashlib.sha256(PASSWORD.encode()).hexdigest()


class StandInHelper:
    """Answers localauthd-password-helper's 'C' and 'U' requests for USER's PASSWORD (root: the
    daemon's checker wants a root peer)."""

    def __init__(self, path, uid):
        self.uid = uid
        self.checks = 0
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(path)
        self.server.listen(8)
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            connection, _ = self.server.accept()
            with connection:
                data = connection.recv(600)
                if data[:1] == b"C" and len(data) >= 7:
                    uid, length = struct.unpack(">IH", data[1:7])
                    self.checks += 1
                    right = uid == self.uid and data[7:7 + length] == PASSWORD.encode()
                    connection.sendall(b"Y" if right else b"N")
                elif data[:1] == b"U":
                    connection.sendall(b"Y")


def write_services(socket_path):
    module = f"{MODULE} socket={socket_path} session_check=no"
    release = (f"auth [success=1 default=ignore] {module} release_password timeout=20\n"
               "auth requisite pam_deny.so\n"
               f"auth required pam_exec.so expose_authtok stdout {PROBE}\n")
    services = {
        "la-keep": f"auth required {PAM_UNIX}\nauth optional {module} keep_password\n",
        "la-keyring": release,
        "sudo": release,
        "la-passwd": f"password optional {module} keep_password\npassword required pam_permit.so\n",
    }
    for name, text in services.items():
        with open(os.path.join(pam_harness.SERVICES, name), "w") as f:
            f.write(text)


def start(directory, helper_socket):
    daemon = Daemon(directory, broker=f"[Login]\nPasswordSocket={helper_socket}\n"
                    "ReleasePasswordTo=la-keyring login\n[Broker]\n")
    daemon.call("sensors.enroll", {"sensor": "face", "identity": "face-of-test", "user": USER})
    return daemon


def released(daemon, service="la-keyring", requester=None, script=("MATCH",)):
    daemon.reset()
    daemon.script(*script)
    rc, out, _ = pamtester(service, requester=requester)
    return rc, out, f"authtok: set sha256={DIGEST}" in out


def keep(stdin=PASSWORD):
    rc, out, _ = pamtester("la-keep", stdin=stdin.encode() + b"\n")
    return rc, out


def run(directory):
    uid = int(subprocess.run(["id", "-u", USER], capture_output=True, text=True).stdout)
    home = os.path.join(directory, "keyring")
    os.makedirs(home)
    helper_socket = os.path.join(home, "password.sock")
    helper = StandInHelper(helper_socket, uid)
    daemon = start(os.path.join(home, "daemon"), helper_socket)
    pam_harness.JOURNAL.entries()
    try:
        write_services(daemon.socket)
        rc, out, got = released(daemon)
        check("keyring: nothing kept yet: the face logs in, no PAM_AUTHTOK for the next module",
              rc == 0 and not got and "authtok: set" not in out, out)
        rc, out = keep("not-the-password")
        check("keyring: a wrong password (pam_unix fails, the keep line still runs here): checked, not kept",
              rc != 0 and helper.checks == 1 and daemon.call("broker.status").get("keptPasswords") == 0
              and "not kept: it is not the account's password" in open(daemon.log.name).read(), out)
        rc, out = keep()
        check("keyring: the password typed into pam_unix, then keep_password: checked by the helper, kept",
              rc == 0 and helper.checks == 2 and daemon.call("broker.status").get("keptPasswords") == 1,
              f"{out} checks={helper.checks} {daemon.call('broker.status')}")
        rc, out, got = released(daemon)
        check("keyring: a login by face with release_password sets PAM_AUTHTOK to the kept password",
              rc == 0 and got, out)
        rc, out, got = released(daemon)
        check("keyring: ...and again at the next login by face (kept until dropped)", rc == 0 and got, out)
        rc, out, got = released(daemon, script=("NOMATCH", "NOMATCH", "NOMATCH"))
        check("keyring: no match: no password released (the stack ends at pam_deny)",
              rc != 0 and "authtok: set" not in out, out)
        rc, out, got = released(daemon, service="sudo")
        check("keyring: sudo by face (service sudo, release_password on its line) is not given the password",
              rc == 0 and not got and "authtok: set" not in out, out)
        rc, out, got = released(daemon, service="la-keyring", requester=uid)
        check("keyring: a listed service run by the user (requester not root, as sudo or su) gets nothing",
              not got and "authtok: set" not in out, out)
        log = open(daemon.log.name, errors="replace").read()
        check("keyring: the daemon logs each keep and release, with the login's requestID",
              "kept for this boot" in log and "released to la-keyring after evaluation" in log
              and "not released" in log, log[-2000:])
        rc, out = pamtester_chauthtok()
        rc2, out2, got = released(daemon)
        check("keyring: a password change (pam_sm_chauthtok with keep_password) drops the kept password",
              not got and daemon.call("broker.status").get("keptPasswords") == 0 and "dropped (passwordChanged)"
              in open(daemon.log.name, errors="replace").read(), out + out2)
        keep()
        dropped = daemon.call("login.dropPassword", {"uid": uid, "reason": "admin"})
        rc, out, got = released(daemon)
        check("keyring: login.dropPassword (root) drops it: nothing released", dropped == {"dropped": True}
              and not got, out)
        keep()
        secret_search(daemon, directory)
        daemon.stop()
        daemon = start(os.path.join(home, "daemon"), helper_socket)
        write_services(daemon.socket)
        rc, out, got = released(daemon)
        check("keyring: after a daemon restart the face still logs in, and nothing is released",
              rc == 0 and not got, out)
    finally:
        daemon.stop()
        helper.server.close()


def pamtester_chauthtok():
    command = pam_harness.in_private_namespace(["pamtester", "-v", "la-passwd", USER, "chauthtok"])
    result = subprocess.run(command, capture_output=True, env=pam_harness.environment(), start_new_session=True,
                            timeout=60 * pam_harness.SCALE)
    return result.returncode, (result.stdout + result.stderr).decode(errors="replace")


def secret_search(daemon, directory):
    """The password is in no line of the daemon's log, no journal entry of the module, and no core of
    the daemon taken while it keeps the password (gdb's gcore, as Tests/systemd/login-password.sh)."""
    log = open(daemon.log.name, "rb").read()
    check("keyring: the password is in no line the daemon logged", PASSWORD.encode() not in log)
    entries = pam_harness.JOURNAL.entries()
    check("keyring: the password is in no journal entry of the module",
          all(PASSWORD not in value for entry in entries for value in entry.values()), str(entries)[:2000])
    files = [path for root, _, names in os.walk(directory) for path in (os.path.join(root, n) for n in names)
             if os.path.isfile(path) and not os.path.islink(path)]
    holding = [path for path in files if PASSWORD.encode() in open(path, "rb").read()]
    check(f"keyring: the password is in no file of the daemon's directories ({len(files)} files, its store among them)",
          files and not holding, str(holding))
    trace = daemon.call("broker.trace")
    traces = json.dumps(trace)
    check(f"keyring: the password is in no trace of the daemon's evaluations ({len(trace.get('evaluations', []))} traced)",
          trace.get("evaluations") and PASSWORD not in traces, traces[:400])
    core = os.path.join(directory, "daemon.core")
    subprocess.run(["gdb", "-nx", "-batch", "-p", str(daemon.process.pid), "-ex", f"gcore {core}"],
                   capture_output=True, timeout=120 * pam_harness.SCALE)
    if not os.path.exists(core):
        check("keyring: gcore of the daemon", False, "no core written")
        return
    data = open(core, "rb").read()
    if os.environ.get("LOCALAUTHD_KEEP_RUN") == "1" and PASSWORD.encode() in data:
        os.rename(core, "/tmp/keyring-daemon.core")
    else:
        os.unlink(core)
    check("keyring: the core of the daemon is the daemon's (it holds the test account's name)",
          USER.encode() in data)
    check("keyring: the kept and released password is in no core of the daemon", PASSWORD.encode() not in data)
