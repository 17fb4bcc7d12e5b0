#!/bin/bash
# docs/rights-and-keys.md's git signing lines (the sh block after `<!-- git-signing -->`), run as
# written with HOME in a temp dir, against the project's own daemon (simulated face) and
# `localauthctl ssh-agent --listen`: the commit they make must be one `git verify-commit` accepts.
# Then the agent, sent SIGTERM, must remove its socket file.
# Needs no root; nothing of the host's ssh or git configuration is read or changed.
#
# Environment: BINDIR (the localauthd and localauthctl binaries). Exits non-zero on any failure.
set -u
BINDIR=${BINDIR:?set BINDIR to the directory of localauthd and localauthctl}
HERE=$(cd "$(dirname "$0")" && pwd)
DOC="$HERE/../../docs/rights-and-keys.md"
die() { echo "git-signing.sh: $*" >&2; exit 1; }
for tool in git ssh-keygen; do command -v "$tool" >/dev/null || die "$tool is missing (make ssh-deps)"; done

# The documented block, verbatim: the fenced sh lines after the marker.
LINES=$(awk '/^<!-- git-signing -->$/ { m = 1; next } m && /^```sh$/ { b = 1; next } b && /^```$/ { exit } b' "$DOC")
[ -n "$LINES" ] || die "no git signing block after <!-- git-signing --> in $DOC"
grep -q 'key::' <<<"$LINES" || die "the documented signingkey line has no key:: (git cannot load a literal key)"

T=$(mktemp -d /tmp/localauthd-git-signing.XXXXXX)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
    [ -n "${KEEP_TEMP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT

mkdir -m 0700 "$T/state" "$T/agent" "$T/home"
export LOCALAUTHD_SOCKET="$T/daemon.sock"
"$BINDIR/localauthd" --demo --stderr --state-dir "$T/state" --socket "$LOCALAUTHD_SOCKET" \
    >"$T/daemon.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do [ -S "$LOCALAUTHD_SOCKET" ] && break; sleep 0.1; done
[ -S "$LOCALAUTHD_SOCKET" ] || die "the daemon did not start: $(cat "$T/daemon.log")"
export PATH="$BINDIR:$PATH" HOME="$T/home" GIT_CONFIG_NOSYSTEM=1
localauthctl ssh-key create work --reuse 60 >/dev/null || die "ssh-key create work failed"
export SSH_AUTH_SOCK="$T/agent/agent.sock"
localauthctl ssh-agent --listen "$SSH_AUTH_SOCK" >"$T/agent.log" 2>&1 &
AGENT=$!
PIDS+=($AGENT)
for _ in $(seq 100); do [ -S "$SSH_AUTH_SOCK" ] && break; sleep 0.1; done
[ -S "$SSH_AUTH_SOCK" ] || die "the agent did not start: $(cat "$T/agent.log")"
localauthctl sim face MATCH >/dev/null || die "sim face MATCH failed"

# A person's repository with a change staged, and their name and address set, as the lines expect.
git config --global user.name Tester
git config --global user.email tester@example.org
git init -q "$T/repo" && cd "$T/repo" && echo hello >file && git add file || die "git init failed"
if ! out=$(timeout 60 bash -e -c "$LINES" 2>&1); then
    echo "$out" >&2
    die "the documented lines failed"
fi
grep -q 'Good "git" signature for tester@example.org' <<<"$out" \
    || die "git verify-commit did not accept the commit: $out"
echo "ok   docs/rights-and-keys.md's git signing lines sign a commit git verify-commit accepts"

# Then the agent, told to stop, removes the socket file it made.
kill -TERM "$AGENT"
for _ in $(seq 50); do kill -0 "$AGENT" 2>/dev/null || break; sleep 0.1; done
kill -0 "$AGENT" 2>/dev/null && die "the agent did not stop on SIGTERM"
[ -e "$SSH_AUTH_SOCK" ] && die "the agent left its socket file behind on SIGTERM"
echo "ok   ssh-agent --listen removes its socket file on SIGTERM"

