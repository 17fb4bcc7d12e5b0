#!/bin/bash
# Shell completion of localauthctl, for real: bash (with the completion file sourced as
# bash-completion would load it) and zsh (compinit in an interactive zsh in a zpty, through
# zsh-complete.zsh). Commands, policies and options come from the files; sensor names from a
# running `localauthd --demo` that this script starts on a private socket and stops by pid.
#
# Usage: completion.sh BINDIR   (BINDIR holds localauthd and localauthctl)
set -uo pipefail
. "$(dirname "$0")/../systemd/lib.sh"
BINDIR=$(cd "${1:?usage: completion.sh BINDIR}" && pwd)
need_cmd bash zsh timeout
COMPLETION=$REPO/completion
RUN=$(mktemp -d /tmp/localauthd-completion.XXXXXX)
DAEMON=
cleanup() {
    if [ -n "$DAEMON" ]; then kill -TERM "$DAEMON" 2>/dev/null; wait "$DAEMON" 2>/dev/null; fi
    rm -rf "$RUN"
}
trap cleanup EXIT
export PATH="$BINDIR:$PATH"

SOCK=$RUN/localauthd.sock
localauthd --demo --stderr --socket "$SOCK" --state-dir "$RUN/state" >"$RUN/daemon.log" 2>&1 &
DAEMON=$!
wait_for 20 test -S "$SOCK" || die "the demo daemon did not start: $(cat "$RUN/daemon.log")"

# bash_complete WORD...: the candidates bash completion offers for the last word.
bash_complete() {
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
             _localauthctl; printf "%s\n" "${COMPREPLY[@]}" | sort -u' _ "$COMPLETION/localauthctl.bash" "$@"
}
# zsh_complete LINE: the candidates zsh offers after LINE.
zsh_complete() { "$HERE/../completion/zsh-complete.zsh" "$COMPLETION" "$1"; }
# expect_lines DESCRIPTION EXPECTED ACTUAL
expect_lines() {
    if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: expected [$(echo $2)], got [$(echo $3)]"; fi
}

check "bash: the completion file parses" bash -n "$COMPLETION/localauthctl.bash"
check "zsh: the completion file parses" zsh -n "$COMPLETION/_localauthctl"

expect_lines "bash: localauthctl ev<TAB> completes evaluate" evaluate "$(bash_complete localauthctl ev)"
expect_lines "bash: localauthctl res<TAB> offers reset-lockout" reset-lockout "$(bash_complete localauthctl res)"
expect_lines "bash: evaluate b<TAB> offers the policies starting with b" \
    "$(printf '%s\n' biometrics biometrics-or-companion)" "$(bash_complete localauthctl evaluate b)"
expect_lines "bash: evaluate owner --re<TAB> offers --reason" --reason \
    "$(bash_complete localauthctl evaluate owner --re)"
expect_lines "bash: sim <TAB> offers the running daemon's sensors" \
    "$(printf '%s\n' face passcode)" "$(bash_complete localauthctl --socket "$SOCK" sim '')"
expect_lines "bash: passcode <TAB> offers set and clear" "$(printf '%s\n' clear set)" \
    "$(bash_complete localauthctl passcode '')"

expect_lines "zsh: localauthctl ev<TAB> completes evaluate" evaluate "$(zsh_complete 'localauthctl ev')"
expect_lines "zsh: evaluate ow<TAB> offers owner" owner "$(zsh_complete 'localauthctl evaluate ow')"
expect_lines "zsh: enroll <TAB> offers the running daemon's sensors" \
    "$(printf '%s\n' face passcode)" "$(zsh_complete "localauthctl --socket $SOCK enroll ")"
expect_lines "zsh: rights <TAB> offers the actions" \
    "$(printf '%s\n' remove remove-all save secret show sign)" "$(zsh_complete 'localauthctl rights ')"
finish
