"""The module's side of issue 18 (who may take part in system authentication) and issue 19's "one
prompt" and "the journal says why", against the real daemon: real users made with useradd, each
attacker really running as its user (setpriv), the module under pam_wrapper. Imported by
pam_module_tests.py, which creates the users and the services."""
import json
import os
import select
import subprocess
import sys
import time

import pam_harness
from pam_harness import PASSWORD, SCALE, USER, Daemon, Terminal, check, pamtester, says

# Accounts only these tests use (other helpers run tests at the same time).
USER_A, USER_B, USER_U, USER_N = "lapamta", "lapamtb", "lapamtu", "lapamtn"
USERS = (USER_A, USER_B, USER_U, USER_N)


class Attacker:
    """user_attacker.py running as `user`: malware of that user, speaking the protocol."""

    def __init__(self, socket_path, user, mode, *args):
        command = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", sys.executable,
                   pam_harness.script_for_other_users("user_attacker.py"), socket_path, mode, *args]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.lines = []
        self.partial = b""

    def wait_for(self, prefix, seconds=10):
        """Reads lines until one starts with prefix; returns it, or None after `seconds`."""
        deadline = time.monotonic() + seconds * SCALE
        fd = self.process.stdout.fileno()
        while True:
            for line in self.lines:
                if line.startswith(prefix):
                    return line
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 65536)  # raw reads: a buffered readline would hide lines from select
            if not chunk:
                return None
            *whole, self.partial = (self.partial + chunk).split(b"\n")
            self.lines += [line.decode(errors="replace").strip() for line in whole]

    def saw(self, prefix):
        self.wait_for(prefix, seconds=0.2)
        return any(line.startswith(prefix) for line in self.lines)

    def stop(self):
        self.process.kill()
        self.process.wait()


def uid(user):
    return int(subprocess.run(["id", "-u", user], capture_output=True, text=True, check=True).stdout)


def write_services(daemon_socket, device_socket):
    module = pam_harness.MODULE
    services = {
        # The logind check on (the default): these tests run outside any logind session.
        "la-session": f"auth required {module} socket={daemon_socket} timeout=20\n",
        "la-session-remote-ok": f"auth required {module} socket={daemon_socket} timeout=20 allow_remote\n",
        "la-quick": f"auth required {module} socket={daemon_socket} session_check=no timeout=5\n",
        "la-device": f"auth required {module} socket={device_socket} session_check=no timeout=5\n",
        "la-owner-policy": f"auth required {module} socket={daemon_socket} session_check=no timeout=5 "
                           "policy=deviceOwnerAuthentication\n",
    }
    for name, text in services.items():
        with open(os.path.join(pam_harness.SERVICES, name), "w") as f:
            f.write(text)


def session_rows(daemon):
    """Issue 18 row 8: logind decides; the caller's variables only ever add a reason to step aside."""
    journal = pam_harness.JOURNAL
    daemon.reset()
    daemon.script("MATCH")
    before = daemon.outcomes()
    journal.entries()
    rc, out, _ = pamtester("la-session")
    entry = journal.last()
    check("outside any logind session (the check on): steps aside with PAM_IGNORE, nothing shown",
          says(out, "PAM_IGNORE") and "wants to authenticate" not in out, out)
    check("...the journal says why: PAM_OUTCOME=stepped aside, LA_ERROR=noSession, the pid in MESSAGE",
          entry.get("PAM_OUTCOME") == "stepped aside" and entry.get("LA_ERROR") == "noSession"
          and "in no logind session" in entry.get("MESSAGE", ""), json.dumps(entry))
    rc, out, _ = pamtester("la-session-remote-ok")
    check("allow_remote never makes up for no session", says(out, "PAM_IGNORE") and
          journal.last().get("LA_ERROR") == "noSession", out)
    for label, env, items in [("SSH_CONNECTION empty", {"SSH_CONNECTION": ""}, ()),
                              ("PAM_RHOST=localhost", None, ("rhost=localhost",))]:
        rc, out, _ = pamtester("la-session", extra_env=env, items=items)
        check(f"what the caller says ({label}) cannot make it proceed without a session",
              says(out, "PAM_IGNORE") and journal.last().get("LA_ERROR") == "noSession", out)
    check("...and the daemon saw no evaluation", daemon.outcomes() == before, str(daemon.outcomes()))
    rc, out, _ = pamtester("la-alone", extra_env={"SSH_CONNECTION": "203.0.113.5 50000 192.0.2.1 22"})
    entry = journal.last()
    check("session_check=no and SSH_CONNECTION set: still steps aside (remoteSession, from the variable)",
          says(out, "PAM_IGNORE") and entry.get("LA_ERROR") == "remoteSession"
          and "SSH_CONNECTION" in entry.get("MESSAGE", "") and entry.get("LA_SESSION_CHECK") == "no",
          json.dumps(entry))


def one_prompt_rows(daemon):
    """Issue 19 rows 1 and 3: nothing shown when the daemon cannot help; one prompt when the sensor gives up."""
    journal = pam_harness.JOURNAL
    journal.entries()
    rc, out, _ = pamtester("la-alone", user=USER_N)
    entry = journal.last()
    check(f"{USER_N} has nothing enrolled: the module says nothing and steps aside (PAM_AUTHINFO_UNAVAIL)",
          says(out, "PAM_AUTHINFO_UNAVAIL") and "wants to authenticate" not in out and "sensor" not in out, out)
    check("...the journal's MESSAGE says why and what to do (PAM_OUTCOME=unavailable, LA_ERROR kept)",
          entry.get("PAM_OUTCOME") == "unavailable" and entry.get("LA_ERROR") in ("biometryNotEnrolled", "passcodeNotSet")
          and ("enroll" in entry.get("MESSAGE", "") or "passcode set" in entry.get("MESSAGE", "")), json.dumps(entry))

    daemon.reset()
    daemon.script("NOMATCH", "NOMATCH", "NOMATCH")
    term = Terminal(["pamtester", "-v", "la-stack", USER, "authenticate"])
    gave_up = term.expect(r"Not recognized\.\s+Password: $")
    seen = len(term.output)
    term.type(PASSWORD.encode() + b"\r")
    rc, out = term.finish()
    entry = journal.last()
    check("terminal: the sensor gave up after the prompt; the password typed in the module's prompt works, "
          "and nobody asks again", gave_up and rc == 0 and "Password:" not in out[seen:] and says(out, "PAM_SUCCESS"), out)
    check("...the journal: PAM_OUTCOME=password, LA_ERROR=authenticationFailed, the MESSAGE says so",
          entry.get("PAM_OUTCOME") == "password" and entry.get("LA_ERROR") == "authenticationFailed"
          and "typed at the module's prompt" in entry.get("MESSAGE", ""), json.dumps(entry))
    daemon.reset()


def device_mode_row(device):
    """Issue 18 row 2: Owners=device never serves PAM; the module steps aside and logs why."""
    device.script("MATCH")
    before = device.outcomes()
    pam_harness.JOURNAL.entries()
    rc, out, _ = pamtester("la-device")
    entry = pam_harness.JOURNAL.last()
    check("Owners=device: the module steps aside (PAM_IGNORE), no success",
          says(out, "PAM_IGNORE") and device.outcomes().get("success", 0) == before.get("success", 0), out)
    check("...and its journal entry names the reason (deviceOwnerMode: Owners=device)",
          entry.get("PAM_OUTCOME") == "stepped aside" and "Owners=device" in entry.get("MESSAGE", ""),
          json.dumps(entry))


def passcode_malware_row(daemon):
    """Issue 18 row 1: malware of U sets U's first passcode and answers agent.passcode for sudo."""
    attacker = Attacker(daemon.socket, USER_U, "passcode-agent", "9513")
    ready = attacker.wait_for("ready")
    rc, out, _ = pamtester("la-owner-policy", user=USER_U)
    check(f"row 1: {USER_U}'s malware set a first passcode and answers its agent: "
          "policy=deviceOwnerAuthentication is not authenticated by it",
          ready is not None and not says(out, "PAM_SUCCESS"), out + "\n".join(attacker.lines))
    check("row 1: ...and the malware's agent never saw the sudo prompt", not attacker.saw("prompt")
          and not attacker.saw("passcode"), "\n".join(attacker.lines))
    attacker.stop()


def requester_row(daemon):
    """Issue 18 row 3: `su B` by A with failing matches never locks B out, and B's agent sees nothing."""
    agent = Attacker(daemon.socket, USER_B, "silent-agent")
    ready = agent.wait_for("ready")
    outputs = []
    for _ in range(2):
        daemon.script(*(["NOMATCH"] * 3))
        rc, out, _ = pamtester("la-quick", user=USER_B, requester=uid(USER_A))
        outputs.append(out)
    can = daemon.call("context.canEvaluatePolicy", {"policy": "deviceOwnerAuthenticationWithBiometrics",
                                                    "user": USER_B})
    check(f"row 3: two `su {USER_B}` by {USER_A} with 4 failed matches (Face ID reads two a prompt): "
          f"{USER_B} is not locked out",
          ready is not None and all("Not recognized" in out for out in outputs)
          and can.get("error", {}).get("name") != "biometryLockout", json.dumps(can) + "\n".join(outputs))
    check(f"row 3: ...and {USER_B}'s agent saw no prompt", not agent.saw("prompt"), "\n".join(agent.lines))
    agent.stop()
    daemon.call("sensors.resetLockout", {"user": USER_A})
    daemon.call("sensors.resetLockout", {"user": USER_B})


def starvation_row(daemon):
    """Issue 18 row 4: A's app evaluation parked at the passcode stage never delays B's sudo by face."""
    daemon.reset()
    parked = Attacker(daemon.socket, USER_A, "park")
    at_passcode = parked.wait_for("parked")
    daemon.script("MATCH")
    rc, out, _ = pamtester("la-quick", user=USER_B, requester=uid(USER_B))
    ended = parked.wait_for("ended", seconds=5)
    check(f"row 4: {USER_A}'s evaluation parked at the passcode with a silent agent; {USER_B}'s sudo by face "
          "succeeds (timeout=5, under the daemon's 60 s prompt)",
          at_passcode is not None and says(out, "PAM_SUCCESS"), out + "\n".join(parked.lines))
    check(f"row 4: ...and {USER_A}'s parked evaluation ended with systemCancel, not the sudo",
          ended == "ended systemCancel", "\n".join(parked.lines))
    parked.stop()


def wait_until(condition, seconds=5):
    """Polls condition() until it holds (True) or `seconds` pass (False)."""
    deadline = time.monotonic() + seconds * SCALE
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def pamtester_started(service, user, requester):
    """pamtester as `requester` runs su for `user` (pam_as_requester), in the background."""
    command = [pam_harness.REQUESTER_HELPER, str(requester), service, user]
    return subprocess.Popen(pam_harness.in_private_namespace(command), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=pam_harness.environment(), start_new_session=True)


def finished(process, seconds=30):
    try:
        out, _ = process.communicate(timeout=seconds * SCALE)
    except subprocess.TimeoutExpired:
        process.kill()
        out, _ = process.communicate()
    return out.decode(errors="replace")


def touch_row(daemon):
    """Issue 28 row 1: B's `su A` is left waiting; A then runs sudo and touches once. A's sudo
    succeeds, and B's su is ended, never authenticated by A's touch."""
    daemon.reset()
    evaluating = lambda: daemon.call("broker.status")["evaluating"] == 1
    su = pamtester_started("la-quick", USER_B, uid(USER_A))
    su_running = wait_until(evaluating)
    sudo = pamtester_started("la-quick", USER_B, uid(USER_B))
    su_ended = wait_until(lambda: su.poll() is not None, seconds=3)
    sudo_running = wait_until(evaluating)
    daemon.script("MATCH")
    sudo_out, su_out = finished(sudo), finished(su)
    check(f"row 1 (issue 28): {USER_A}'s `su {USER_B}` left waiting, then {USER_B}'s sudo and one touch: "
          f"the sudo succeeds",
          su_running and sudo_running and says(sudo_out, "PAM_SUCCESS"), sudo_out + su_out)
    check(f"row 1 (issue 28): ...and {USER_A}'s su was ended by it, not authenticated by the touch",
          su_ended and not says(su_out, "PAM_SUCCESS"), su_out)
    check("row 1 (issue 28): ...and the sudo said 'touch' only once the sensor was its own",
          sudo_out.count("look at the camera") == 1, sudo_out)
    # Control: the same su, with nobody's sudo in the way, is authenticated by a touch.
    daemon.reset()
    su = pamtester_started("la-quick", USER_B, uid(USER_A))
    su_running = wait_until(evaluating)
    daemon.script("MATCH")
    su_out = finished(su)
    check(f"row 1 (issue 28), control: {USER_A}'s `su {USER_B}` alone is authenticated by a touch",
          su_running and says(su_out, "PAM_SUCCESS"), su_out)


def ordering_row(daemon):
    """Issue 28 row 2: A's app prompt runs and B's `su A` waits for it; A runs sudo, which ends her
    app prompt. Her sudo runs before B's su, queued earlier, so her one touch answers her sudo."""
    daemon.reset()
    status = lambda: daemon.call("broker.status")
    app = Attacker(daemon.socket, USER_B, "app")
    app_running = app.wait_for("ready") is not None and wait_until(lambda: status()["evaluating"] == 1)
    su = pamtester_started("la-quick", USER_B, uid(USER_A))
    su_queued = wait_until(lambda: status()["queued"] == 1)
    sudo = pamtester_started("la-quick", USER_B, uid(USER_B))
    app_ended = app.wait_for("ended", seconds=5)
    sudo_running = wait_until(lambda: status()["evaluating"] == 1 and status()["queued"] == 1)
    daemon.script("MATCH")
    sudo_out, su_out = finished(sudo), finished(su)
    check(f"row 2 (issue 28): {USER_B}'s app prompt, then {USER_A}'s `su {USER_B}` waiting for it, then "
          f"{USER_B}'s sudo: the sudo ended her app prompt and her one touch answered the sudo",
          app_running and su_queued and app_ended == "ended systemCancel" and sudo_running
          and says(sudo_out, "PAM_SUCCESS"), sudo_out + su_out + "\n".join(app.lines))
    check(f"row 2 (issue 28): ...and {USER_A}'s su, queued before the sudo, was not authenticated by it",
          not says(su_out, "PAM_SUCCESS"), su_out)
    app.stop()


def run(directory, daemon):
    """Every row, with the users set up by the caller."""
    os.chmod(directory, 0o755)
    device = Daemon(os.path.join(directory, "device"), broker="Owners=device\n")
    try:
        write_services(daemon.socket, device.socket)
        daemon.call("sensors.setPasscode", {"passcode": "2468", "user": USER_N})
        daemon.call("sensors.setPasscode", {"passcode": "1357", "user": USER_A})
        daemon.call("sensors.setPasscode", {"passcode": "1357", "user": USER_B})
        daemon.call("sensors.enroll", {"sensor": "face", "identity": "face-of-b", "user": USER_B})
        session_rows(daemon)
        one_prompt_rows(daemon)
        device_mode_row(device)
        passcode_malware_row(daemon)
        requester_row(daemon)
        starvation_row(daemon)
        touch_row(daemon)
        ordering_row(daemon)
    finally:
        device.stop()
