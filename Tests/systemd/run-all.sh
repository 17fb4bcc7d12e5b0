#!/bin/bash
# Runs every real-systemd harness against one daemon binary, in order:
# verify-units.sh, socket-activation.sh, notify-watchdog.py, journal.sh, doctor.sh,
# nspawn.sh, pam-sudo.sh and login-keyring.sh (need the PAM module: make pam), session-lock.sh, fprintd-sudo.sh (needs the .deb: make deb). Installs missing Debian packages first (apt-get install
# --no-install-recommends). Must run as root. Prints each harness's result
# and a final "N passed, N failed" over all of them; exits non-zero when any
# check failed or any harness could not run.
#
# Usage: run-all.sh [LOCALAUTHD]   (or LOCALAUTHD=path; default .build/release/localauthd)
# The daemon should be built with: swift build -c release --static-swift-stdlib
set -uo pipefail
. "$(dirname "$0")/lib.sh"
need_root
resolve_daemon "${1:-}"
export LOCALAUTHD

# package:command pairs the harnesses need.
REQUIRED="systemd:systemd-socket-activate systemd-container:systemd-nspawn debootstrap:debootstrap
socat:socat python3:python3 iproute2:ss procps:ps util-linux:nsenter make:make"
missing=()
for pair in $REQUIRED; do
    command -v "${pair#*:}" >/dev/null 2>&1 || missing+=("${pair%%:*}")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "run-all.sh: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends "${missing[@]}" >/tmp/localauthd-run-all-apt.log 2>&1 ||
        { apt-get update >>/tmp/localauthd-run-all-apt.log 2>&1 &&
          apt-get install -y --no-install-recommends "${missing[@]}" >>/tmp/localauthd-run-all-apt.log 2>&1; } ||
        die "apt-get install ${missing[*]} failed (see /tmp/localauthd-run-all-apt.log)"
fi
for pair in $REQUIRED; do need_cmd "${pair#*:}"; done

TOTAL_PASSED=0
TOTAL_FAILED=0
SUMMARY=()
# fprintd-sudo.sh and login-password.sh try the .deb ($LOCALAUTHD_DEB, else the newest .build/deb/localauthd_*.deb).
LOCALAUTHD_DEB=${LOCALAUTHD_DEB:-$(ls -t "$REPO"/.build/deb/localauthd_*.deb 2>/dev/null | grep -v dbgsym | head -n 1)}
for harness in verify-units.sh socket-activation.sh notify-watchdog.py journal.sh doctor.sh nspawn.sh pam-sudo.sh login-keyring.sh session-lock.sh fprintd-sudo.sh login-password.sh; do
    echo "=== $harness ($LOCALAUTHD)"
    log=$(mktemp /tmp/localauthd-run-all.XXXXXX)
    argument=$LOCALAUTHD
    [ "$harness" = fprintd-sudo.sh ] || [ "$harness" = login-password.sh ] && argument=$LOCALAUTHD_DEB
    "$HERE/$harness" "$argument" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    counts=$(tail -n 1 "$log")
    rm -f "$log"
    if [[ $counts =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
        TOTAL_PASSED=$((TOTAL_PASSED + BASH_REMATCH[1]))
        TOTAL_FAILED=$((TOTAL_FAILED + BASH_REMATCH[2]))
    else
        TOTAL_FAILED=$((TOTAL_FAILED + 1))
        counts="no summary line (crashed?)"
    fi
    # A non-zero exit without a counted failure is still a failure.
    if [ "$rc" -ne 0 ] && [[ ! $counts =~ [1-9][0-9]*\ failed$ ]]; then TOTAL_FAILED=$((TOTAL_FAILED + 1)); fi
    SUMMARY+=("$(printf '%-22s exit %-3s %s' "$harness" "$rc" "$counts")")
done
echo "=== summary"
printf '%s\n' "${SUMMARY[@]}"
echo "$TOTAL_PASSED passed, $TOTAL_FAILED failed"
[ "$TOTAL_FAILED" -eq 0 ]
