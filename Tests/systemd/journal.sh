#!/bin/bash
# Structured journal entries, checked in a real systemd-journald.
#
# libsystemd always writes to /run/systemd/journal/socket, so the test runs in
# a private mount namespace (unshare -m) where private directories are
# bind-mounted (mount -n, LIBMOUNT_UTAB of our own) over /run/systemd,
# /run/log and /var/log/journal, with a journald drop-in (Storage=volatile,
# ReadKMsg=no, Audit=no, ForwardToSyslog=no) in the private /run/systemd.
# The host's journal and catalog are never touched.
#
# Checks: both entries of an evaluation carry every contract field (journalctl
# REQUEST_ID=<id> -o json), a failed evaluation's LA_ERROR, the daemon
# started / configuration reloaded / configuration rejected / client dropped /
# daemon stopping MESSAGE_IDs, an SSH key signature's entry, and the catalog text via journalctl -x.
#
# Usage: journal.sh [LOCALAUTHD]   (or LOCALAUTHD=path)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/private-journal.sh"

if private_journal_outside "${1:-}"; then
    exec unshare -m --propagation private "$0" "$@"
fi

# --- from here on: inside the private mount namespace ---
private_journal_start journal
private_journal_daemon '[Broker]\nPromptTimeoutSec=60\n'

# A successful evaluation, by a client whose pid we know.
read -r CLIENT_PID RESPONSE < <(python3 - "$SOCK" <<'PY'
import json, os, socket, sys
s = socket.socket(socket.AF_UNIX); s.settimeout(30); s.connect(sys.argv[1])
s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"session.hello","params":{"client":{"name":"journal-test"},"protocol":1}}\n'
          b'{"jsonrpc":"2.0","id":2,"method":"context.evaluatePolicy","params":{"policy":"deviceOwnerAuthenticationWithBiometrics","localizedReason":"journal test"}}\n')
buf = b""
while True:
    chunk = s.recv(65536)
    if not chunk: break
    buf += chunk
    msgs = [json.loads(l) for l in buf.split(b"\n") if l.strip()]
    done = [m for m in msgs if m.get("id") == 2]
    if done:
        print(os.getpid(), json.dumps(done[0])); break
PY
)
echo "     evaluatePolicy -> $RESPONSE"
REQUEST_ID=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["result"]["requestID"])' "$RESPONSE" 2>/dev/null)
[ -n "$REQUEST_ID" ] || die "the demo evaluation did not succeed: $RESPONSE"
pass "evaluation succeeded (requestID $REQUEST_ID)"

wait_for 5 entries_with 2 REQUEST_ID="$REQUEST_ID"
journal_json REQUEST_ID="$REQUEST_ID" >"$WORK/entries.json"
echo "     journalctl REQUEST_ID=$REQUEST_ID -o json: $(grep -c . "$WORK/entries.json") entries"

# Every contract field in both entries, right values; the Python checks are counted here.
(python3 - "$WORK/entries.json" "$REQUEST_ID" "$CLIENT_PID" "$DAEMON" <<'PY'
import json, sys
path, request_id, client_pid, daemon_pid = sys.argv[1:]
entries = [json.loads(l) for l in open(path) if l.strip()]
by_id = {e.get("MESSAGE_ID"): e for e in entries}
ok = True
def check(description, condition, detail=""):
    global ok
    print(("PASS " if condition else "FAIL ") + description + ("" if condition else ": " + detail))
    ok &= bool(condition)
started = by_id.get("07b31cac78114fedb2092ee82603c926")
finished = by_id.get("58f85e6fc39a4c9093b7a9704736f258")
check("evaluation-started entry (MESSAGE_ID 07b31cac…)", started, repr(entries)[:800])
check("evaluation-finished entry (MESSAGE_ID 58f85e6f…)", finished, repr(entries)[:800])
common = ["REQUEST_ID", "CONTEXT_ID", "CLIENT_PID", "CLIENT_UID", "CLIENT_NAME", "POLICY"]
for name, entry, fields in [("started", started, common),
                            ("finished", finished, common + ["RESULT", "SENSOR"])]:
    if not entry:
        continue
    missing = [f for f in fields + ["MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "CODE_FILE", "CODE_LINE", "CODE_FUNC"]
               if f not in entry]
    check(f"{name} entry has every field", not missing, f"missing {missing}")
    check(f"{name}: REQUEST_ID matches", entry.get("REQUEST_ID") == request_id)
    check(f"{name}: CLIENT_PID is the client's pid {client_pid}", entry.get("CLIENT_PID") == client_pid,
          repr(entry.get("CLIENT_PID")))
    check(f"{name}: CLIENT_UID is 0", entry.get("CLIENT_UID") == "0", repr(entry.get("CLIENT_UID")))
    check(f"{name}: CLIENT_NAME is journal-test", entry.get("CLIENT_NAME") == "journal-test",
          repr(entry.get("CLIENT_NAME")))
    check(f"{name}: POLICY names the policy", "Biometrics" in entry.get("POLICY", ""), repr(entry.get("POLICY")))
    check(f"{name}: SYSLOG_IDENTIFIER=localauthd", entry.get("SYSLOG_IDENTIFIER") == "localauthd")
    check(f"{name}: _PID is the daemon", entry.get("_PID") == daemon_pid, repr(entry.get("_PID")))
if started and finished:
    check("both entries share CONTEXT_ID", started.get("CONTEXT_ID") == finished.get("CONTEXT_ID"))
    print(f"     finished: RESULT={finished.get('RESULT')} SENSOR={finished.get('SENSOR')} "
          f"LA_ERROR={finished.get('LA_ERROR')} CODE_FILE={finished.get('CODE_FILE')}")
PY
) | while IFS= read -r line; do echo "$line"; done >"$WORK/field-checks.txt"
while IFS= read -r line; do
    case $line in
        "PASS "*) pass "${line#PASS }" ;;
        "FAIL "*) fail "${line#FAIL }" ;;
        *) echo "$line" ;;
    esac
done <"$WORK/field-checks.txt"
grep -q '^PASS\|^FAIL' "$WORK/field-checks.txt" || fail "the journal field checks did not run"

# A failed evaluation (the user cancels): LA_ERROR=-2.
rpc "$SOCK" '{"method":"sensors.script","params":{"sensor":"face","commands":["CANCEL"]}}' >/dev/null \
    || fail "sensors.script CANCEL failed"
CANCELLED=$(rpc "$SOCK" '{"method":"context.evaluatePolicy","params":{"policy":"deviceOwnerAuthenticationWithBiometrics","localizedReason":"cancel test"}}' 20)
echo "     cancelled evaluation -> $CANCELLED"
CANCEL_ID=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["error"]["data"]["requestID"])' "$CANCELLED" 2>/dev/null)
if [ -n "$CANCEL_ID" ] && wait_for 5 entries_with 1 REQUEST_ID="$CANCEL_ID" MESSAGE_ID=58f85e6fc39a4c9093b7a9704736f258; then
    la_error=$(journal_json REQUEST_ID="$CANCEL_ID" MESSAGE_ID=58f85e6fc39a4c9093b7a9704736f258 |
        python3 -c 'import json,sys; print(json.loads(sys.stdin.readline()).get("LA_ERROR",""))')
    check "failed evaluation logs LA_ERROR=-2 (userCancel), got '$la_error'" test "$la_error" = "-2"
else
    fail "no finished entry for the cancelled evaluation (requestID '$CANCEL_ID')"
fi

# Client dropped: disconnect while the evaluation waits (DEFAULT WAIT).
rpc "$SOCK" '{"method":"sensors.script","params":{"sensor":"face","commands":["DEFAULT WAIT"],"replace":true}}' >/dev/null \
    || fail "sensors.script DEFAULT WAIT failed"
python3 "$HERE/rpc.py" --verbose --socket "$SOCK" --timeout 1 \
    '{"method":"context.evaluatePolicy","params":{"policy":"deviceOwnerAuthenticationWithBiometrics","localizedReason":"drop test"}}' \
    >/dev/null 2>"$WORK/drop.log"
DROP_ID=$(sed -n 's/.*"requestID": *"\([^"]*\)".*/\1/p' "$WORK/drop.log" | head -n1)
if wait_for 5 entries_with 1 MESSAGE_ID=49001afd51cd4d85ba2de6ab6d588703 _PID="$DAEMON"; then
    pass "client-dropped entry (MESSAGE_ID 49001afd…) after a client vanished mid-evaluation"
else
    fail "no client-dropped entry (MESSAGE_ID 49001afd…) after a client vanished mid-evaluation"
    echo "     entries for the dropped evaluation ${DROP_ID:-(requestID unknown)}:"
    [ -n "$DROP_ID" ] && journalctl --no-pager -o short REQUEST_ID="$DROP_ID" -o verbose 2>/dev/null |
        grep -E '^ *(MESSAGE|MESSAGE_ID|RESULT|LA_ERROR)=' | sed 's/^ */       /'
fi

check "daemon-started entry (MESSAGE_ID 007c3e8b…)" \
    entries_with 1 MESSAGE_ID=007c3e8bb647412cb52813f1c7944d99 _PID="$DAEMON"

# An SSH key signature (localauthctl ssh-agent's sshKey.sign): one entry with the key's
# fingerprint, the owner, the evaluation's REQUEST_ID, the outcome and the daemon-worded reason.
rpc "$SOCK" '{"method":"sensors.script","params":{"sensor":"face","commands":["MATCH"]}}' >/dev/null \
    || fail "sensors.script MATCH failed"
read -r SSH_REQUEST_ID SSH_FINGERPRINT < <(python3 - "$SOCK" <<'PY'
import base64, json, socket, struct, sys
def string(b): return struct.pack(">I", len(b)) + b
data = b"SSHSIG" + string(b"journal") + string(b"") + string(b"sha512") + string(b"\x01" * 64)
s = socket.socket(socket.AF_UNIX); s.settimeout(30); s.connect(sys.argv[1])
answers, buf = {}, b""
def send(request, until):
    global buf
    s.sendall((json.dumps(request) + "\n").encode())
    while until not in answers:
        chunk = s.recv(65536)
        if not chunk: return
        buf += chunk
        *lines, buf = buf.split(b"\n")
        for line in lines:
            if line.strip():
                message = json.loads(line)
                if "id" in message: answers[message["id"]] = message
send({"jsonrpc": "2.0", "id": 1, "method": "session.hello", "params": {"client": {"name": "journal-ssh"}, "protocol": 1}}, 1)
send({"jsonrpc": "2.0", "id": 2, "method": "sshKey.create", "params": {"name": "journal"}}, 2)
send({"jsonrpc": "2.0", "id": 3, "method": "sshKey.sign", "params": {"name": "journal", "data": base64.b64encode(data).decode()}}, 3)
if "result" not in answers.get(3, {}): print("sshKey.sign:", answers, file=sys.stderr)
print(answers.get(3, {}).get("result", {}).get("requestID", "-"),
      answers.get(2, {}).get("result", {}).get("fingerprint", "-"))
PY
)
if wait_for 10 entries_with 1 MESSAGE_ID=0c7d4e7e45ac4bdca8cc25d31b4f92e6 REQUEST_ID="$SSH_REQUEST_ID"; then
    pass "SSH signature entry (MESSAGE_ID 0c7d4e7e…) for request $SSH_REQUEST_ID"
else
    fail "no SSH signature entry for request ${SSH_REQUEST_ID:-?}"
fi
journal_json MESSAGE_ID=0c7d4e7e45ac4bdca8cc25d31b4f92e6 REQUEST_ID="$SSH_REQUEST_ID" >"$WORK/ssh.json"
check "the SSH signature entry has KEY_FINGERPRINT, OWNER_UID, OUTCOME and the reason, no SSH_HOST_KEY unbound" \
    python3 - "$WORK/ssh.json" "$SSH_FINGERPRINT" <<'PY'
import json, sys
entry = json.loads(open(sys.argv[1]).readline())
assert entry["KEY_FINGERPRINT"] == sys.argv[2], entry
assert entry["OWNER_UID"] == "0" and entry["OUTCOME"] == "signed", entry
assert entry["SSH_SIGN_REASON"] == "git/ssh-keygen: sign a file (namespace journal)", entry
assert "SSH_HOST_KEY" not in entry, entry
PY

# Reload: a broken file is rejected, a good one reloaded.
printf '[Broker]\nOverlap=sideways\n' >"$CONF"
kill -HUP "$DAEMON"
check "configuration-rejected entry (MESSAGE_ID f24b3e84…) after SIGHUP with Overlap=sideways" \
    wait_for 5 entries_with 1 MESSAGE_ID=f24b3e84428a4dff9bdcc690b23358d5 _PID="$DAEMON"
printf '[Broker]\nOverlap=preempt\n' >"$CONF"
kill -HUP "$DAEMON"
check "configuration-reloaded entry (MESSAGE_ID dbedbc17…) after SIGHUP" \
    wait_for 5 entries_with 1 MESSAGE_ID=dbedbc1757cb44488a5975299ea0b3f9 _PID="$DAEMON"

# The catalog explains the entries (journalctl -x), with fields substituted.
explained=$(journalctl --no-pager -x REQUEST_ID="$REQUEST_ID" 2>&1)
check "journalctl -x shows the catalog subject with REQUEST_ID substituted" \
    grep -q "Subject: Evaluation $REQUEST_ID of .* started" <<<"$explained"
echo "$explained" | grep -m2 -E '^ *(░░ )?Subject:' | sed 's/^/     /'

kill -TERM "$DAEMON"
wait_for 10 gone "$DAEMON"
wait "$DAEMON"
rc=$?
check "daemon exits 0 on SIGTERM" test "$rc" -eq 0
check "daemon-stopping entry (MESSAGE_ID eae9485a…)" \
    wait_for 5 entries_with 1 MESSAGE_ID=eae9485abfa647bba4c1d4180a854a19 _PID="$DAEMON"
DAEMON=

echo "     daemon stderr (last lines):"
tail -n 5 "$WORK/daemon.log" | sed 's/^/       /'
finish
