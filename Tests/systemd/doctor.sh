#!/bin/bash
# The re-prompt detector in a real systemd-journald, and `localauthctl doctor`.
#
# Same private journald as journal.sh (a private mount namespace; the host's
# journal and catalog are never touched). A small client reproduces the
# founding bug: on userCancel it resets its shared context (invalidate, new
# context) and evaluates again. Checks: the re-prompt entry (MESSAGE_ID
# 0b650c4f…) names both requestIDs (EARLIER_REQUEST_ID, LATER_REQUEST_ID),
# the gap (GAP_MS), the client and app; the churn entry (3ae87474…) too;
# journalctl -x shows the catalog text with the fields substituted;
# `localauthctl doctor` names both requestIDs and the gap. A well-behaved
# client doing the same flow (one context per request, no evaluation on the
# cancel path) leaves no finding in the journal nor in doctor.
#
# Usage: doctor.sh [LOCALAUTHD]   (or LOCALAUTHD=path; LOCALAUTHCTL=path, else
# localauthctl beside the daemon)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/private-journal.sh"

if private_journal_outside "${1:-}"; then
    LOCALAUTHCTL=${LOCALAUTHCTL:-$(dirname "$LOCALAUTHD")/localauthctl}
    [ -x "$LOCALAUTHCTL" ] || die "localauthctl not executable: $LOCALAUTHCTL (set LOCALAUTHCTL)"
    export LOCALAUTHCTL
    exec unshare -m --propagation private "$0" "$@"
fi

# --- from here on: inside the private mount namespace ---
private_journal_start doctor
# Windows far longer than the client needs between requests on a loaded machine.
private_journal_daemon '[Diagnostics]\nRepromptWindowMs=600000\nChurnWindowMs=600000\n'

REPROMPT=0b650c4f271e40b2bb10f32d8de29e9e
CHURN=3ae87474741f48be996708108b5c530c

# app.py SOCKET APP MODE: one unlock flow with the user cancelling the first prompt.
# MODE shared: on userCancel, reset the shared context and evaluate again (the founding bug).
# MODE guarded: one context per request; a cancel is final. Prints the requestIDs seen.
cat >"$WORK/app.py" <<'PY'
import json, socket, sys
path, app, mode = sys.argv[1:]
s = socket.socket(socket.AF_UNIX); s.settimeout(30); s.connect(path)
f = s.makefile("rwb")
counter = [0]
def call(method, params):
    counter[0] += 1
    f.write((json.dumps({"jsonrpc": "2.0", "id": counter[0], "method": method, "params": params}) + "\n").encode())
    f.flush()
    while True:
        message = json.loads(f.readline())
        if message.get("id") == counter[0]:
            return message
def request_id(answer):
    return (answer.get("result") or answer.get("error", {}).get("data") or {}).get("requestID", "?")
call("session.hello", {"client": {"name": app, "appID": app}, "protocol": 1})
call("sensors.script", {"sensor": "face", "commands": ["CANCEL"]})
context = call("context.create", {})["result"]["context"]
first = call("context.evaluatePolicy", {"policy": 1, "localizedReason": "Unlock", "context": context})
ids = [request_id(first)]
call("context.invalidate", {"context": context})
if mode == "shared" and first.get("error", {}).get("data", {}).get("name") == "userCancel":
    context = call("context.create", {})["result"]["context"]
    again = call("context.evaluatePolicy", {"policy": 1, "localizedReason": "Unlock", "context": context})
    ids.append(request_id(again))
print(" ".join(ids))
PY

read -r FIRST SECOND < <(python3 "$WORK/app.py" "$SOCK" com.example.shared shared)
echo "     shared-context app: cancelled $FIRST, prompted again $SECOND"
[ -n "${SECOND:-}" ] && [ "$SECOND" != "?" ] || die "the shared-context app did not evaluate twice"

if wait_for 5 entries_with 1 MESSAGE_ID=$REPROMPT LATER_REQUEST_ID="$SECOND"; then
    journal_json MESSAGE_ID=$REPROMPT LATER_REQUEST_ID="$SECOND" | head -n1 >"$WORK/reprompt.json"
    field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2], ""))' "$WORK/reprompt.json" "$1"; }
    check "re-prompt entry (MESSAGE_ID 0b650c4f…) names the cancelled evaluation $FIRST" test "$(field EARLIER_REQUEST_ID)" = "$FIRST"
    check "re-prompt entry: EARLIER_OUTCOME=userCancel" test "$(field EARLIER_OUTCOME)" = userCancel
    gap=$(field GAP_MS)
    check "re-prompt entry: GAP_MS is the gap in ms ($gap), within the window" python3 -c "import sys; sys.exit(not 0 <= int('$gap') < 600000)"
    check "re-prompt entry: APP_ID and CLIENT_NAME are the client's" test "$(field APP_ID)/$(field CLIENT_NAME)" = com.example.shared/com.example.shared
    check "re-prompt entry: PRIORITY=4 (warning)" test "$(field PRIORITY)" = 4
    echo "     MESSAGE=$(field MESSAGE)"
else
    fail "no re-prompt entry (MESSAGE_ID 0b650c4f…) with LATER_REQUEST_ID=$SECOND"
fi
check "context-churn entry (MESSAGE_ID 3ae87474…) names $FIRST and $SECOND" \
    wait_for 5 entries_with 1 MESSAGE_ID=$CHURN EARLIER_REQUEST_ID="$FIRST" LATER_REQUEST_ID="$SECOND"

explained=$(journalctl --no-pager -x MESSAGE_ID=$REPROMPT 2>&1)
check "journalctl -x shows the catalog subject with the client and gap substituted" \
    grep -qE "Subject: com.example.shared prompted again [0-9]+ ms after a cancel" <<<"$explained"
check "journalctl -x explains the fix (treat userCancel as final)" grep -q "treat userCancel, appCancel and systemCancel as" <<<"$explained"

doctor=$("$LOCALAUTHCTL" --socket "$SOCK" doctor 2>&1)
echo "$doctor" | sed 's/^/     | /'
check "localauthctl doctor names both requestIDs on one line" \
    grep -q "evaluated again [0-9]* ms after the user saw userCancel: $FIRST ended with userCancel, then $SECOND prompted again" <<<"$doctor"

# The well-behaved app: same user behaviour, no finding.
read -r GOOD < <(python3 "$WORK/app.py" "$SOCK" com.example.good guarded)
echo "     guarded app: cancelled $GOOD, no retry"
good=$("$LOCALAUTHCTL" --socket "$SOCK" doctor --app com.example.good 2>&1)
check "localauthctl doctor --app com.example.good: no findings" grep -q "^No findings for com.example.good" <<<"$good"
# Entries arrive in order: once its evaluation's finish is there, a finding would be too.
check "its evaluation's start and finish are in the journal" \
    wait_for 5 entries_with 2 REQUEST_ID="$GOOD"
check "no finding in the journal for com.example.good" \
    test "$(journal_json APP_ID=com.example.good | grep -c .)" -eq 0

kill -TERM "$DAEMON"
wait_for 10 gone "$DAEMON"
DAEMON=
finish
