#!/bin/bash
# pam_localauthd as a drop-in for pam_fprintd, tried as an administrator would (issue 19).
#
# Boots the package test's bookworm root (its cache, plus fprintd, libpam-fprintd, polkitd, sudo,
# openssh-server and libpam-systemd in a derived cache of its own: $LOCALAUTHD_FPRINTD_CACHE,
# default /var/cache/localauthd-test/rootfs-fprintd) once, installs the .deb with apt, runs fprintd
# with libfprint's virtual device (the drop-in docs/fprintd-tryout.md shows), enrolls a finger for
# the test users, configures a Kind=fprintd sensor and puts docs/pam.md's /etc/pam.d/sudo block in
# place. Then, as the user in a logind session (su -l) on a pseudo-terminal, `sudo -k true` case by
# case: finger; wrong then right; the password typed while the sensor waits; Ctrl-C; fprintd masked;
# fprintd stopped but activatable; localauthd stopped; a real ssh login (a private sshd on
# 127.0.0.1); two sudo at once; a user with fingers and no localauthd passcode. The same cases run
# again with Debian's pam_fprintd (Debian's profile: max-tries=1 timeout=10) in place of the module.
# Every case is held to one bar: a finger alone gets sudo; without a finger the password prompt
# comes, once; nothing hangs. Times are measured and printed (never failed on), with a table of
# what the person sees; then sudo by finger with both modules interleaved (fprintd-race.sh, 10 runs
# each, LOCALAUTHD_FPRINTD_RUNS): both medians and the ratio against issue 19's 1.1x target.
# Also: no "Failed to set thread priority" line in localauthd's journal after a minute of service.
#
# Usage: fprintd-sudo.sh DEB   (make deb; or LOCALAUTHD_DEB=path). With LOCALAUTHD_TRYOUT=1 (make
# try-fprintd) it stops after the setup, prints how to enter the container and press the virtual
# finger, and keeps the container until Ctrl-C. With LOCALAUTHD_FPRINTD_RACE_ONLY=1 (make
# bench-fprintd-sudo) it runs only the interleaved timing runs after the setup.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
need_root
need_cmd systemd-nspawn nsenter unshare python3
DEB=$(readlink -f "${1:-${LOCALAUTHD_DEB:-}}" 2>/dev/null)
[ -f "$DEB" ] || die "usage: fprintd-sudo.sh localauthd_VERSION_ARCH.deb (make deb)"

# --- the root: the package test's cache, plus the packages this test needs (cached once) ---
. "$HERE/fprintd-root.sh"
NAME=localauthd-fprintd-$$
RUN=$(mktemp -d /var/tmp/localauthd-fprintd.XXXXXX)
ROOT=$RUN/root
. "$HERE/container.sh"
trap container_cleanup EXIT
trap 'container_cleanup; trap - EXIT; exit 130' INT TERM
PASSWORD='Sw0rdfish-fprintd'
SSH_PORT=$((20000 + $$ % 20000))

cp -a --reflink=auto "$CACHE" "$ROOT" || die "cannot copy $CACHE"
chmod 0755 "$ROOT"
cp "$DEB" "$ROOT/root/"
install -D -m 0755 "$HERE/pty-run.py" "$ROOT/usr/local/bin/pty-run"
install -D -m 0755 "$HERE/vfinger.py" "$ROOT/usr/local/bin/vfinger"
install -D -m 0755 "$HERE/timed-sudo.py" "$ROOT/usr/local/bin/timed-sudo"
install -D -m 0755 "$HERE/rpc.py" "$ROOT/usr/local/bin/localauthd-rpc"
printf '127.0.1.1 localauthd-test\n' >>"$ROOT/etc/hosts"  # sudo resolves its own host name
# fprintd with libfprint's virtual device (docs/fprintd-tryout.md): its unit has ProtectSystem=strict.
mkdir -p "$ROOT/etc/systemd/system/fprintd.service.d"
printf '[Service]\nEnvironment=FP_VIRTUAL_DEVICE=/run/fprintd-vdev/vdev.sock\nRuntimeDirectory=fprintd-vdev\n' \
    >"$ROOT/etc/systemd/system/fprintd.service.d/virtual-device.conf"
# docs/drivers.md's polkit rule for the daemon's user, verbatim.
mkdir -p "$ROOT/etc/polkit-1/rules.d"
sed -n '/^\/\/ \/etc\/polkit-1\/rules.d\/50-localauthd-fprintd.rules$/,/^```$/p' "$REPO/docs/drivers.md" | sed '$d' \
    >"$ROOT/etc/polkit-1/rules.d/50-localauthd-fprintd.rules"
grep -q localauthd "$ROOT/etc/polkit-1/rules.d/50-localauthd-fprintd.rules" || die "docs/drivers.md has no polkit rule for fprintd"
# docs/pam.md's /etc/pam.d/sudo block, and the same file with Debian's pam_fprintd line instead.
sed -n '/^<!-- pam.d\/sudo -->$/,/^<!-- end -->$/p' "$REPO/docs/pam.md" | sed '1,2d;$d' | sed '$d' >"$RUN/sudo.localauthd"
grep -q pam_localauthd.so "$RUN/sudo.localauthd" || die "docs/pam.md has no /etc/pam.d/sudo block"
sed 's/^auth[[:space:]]*sufficient[[:space:]]*pam_localauthd.so.*$/auth       sufficient pam_fprintd.so max-tries=1 timeout=10/' \
    "$RUN/sudo.localauthd" >"$RUN/sudo.fprintd"

container_boot
SOCK=/run/localauthd/localauthd.sock

if cx env DEBIAN_FRONTEND=noninteractive sh -c "cd /root && apt install -y ./$(basename "$DEB")" >"$RUN/apt.log" 2>&1; then
    pass "apt install ./$(basename "$DEB")"
else
    die "apt install failed: $(tail -n 15 "$RUN/apt.log")"
fi
cx sh -c 'printf "[Sensor.finger]\nKind=fprintd\n\n[Sensor.passcode]\nKind=passcode\n" >/etc/localauthd/localauthd.conf'
cx systemctl restart localauthd.socket
cp "$RUN/sudo.localauthd" "$ROOT/etc/pam.d/sudo"

# --- users: alice (finger and passcode), bob (finger only); both may sudo ---
for who in alice bob; do
    cx useradd -m -s /bin/bash "$who" || die "useradd $who failed"
    printf '%s:%s\n' "$who" "$PASSWORD" | cx chpasswd || die "chpasswd $who failed"
    printf '%s ALL=(ALL:ALL) ALL\n' "$who" | cx tee "/etc/sudoers.d/$who" >/dev/null
    cx chmod 0440 "/etc/sudoers.d/$who"
    cx sh -c "fprintd-enroll -f right-index-finger $who >/tmp/enroll-$who.log 2>&1 & pid=\$!
        for i in \$(seq 30); do kill -0 \$pid 2>/dev/null || break; vfinger --timeout 2 $who-print; sleep 0.1; done
        wait \$pid"
    check "fprintd-enroll: $who's right index finger enrolled" \
        bash -c "cx fprintd-list $who 2>/dev/null | grep -q right-index-finger"
done
set_passcode=$(cx localauthd-rpc --socket "$SOCK" --timeout 20 \
    '{"method":"sensors.setPasscode","params":{"passcode":"1234","user":"alice"}}' 2>&1)
check "alice's localauthd passcode set (bob has none): $set_passcode" grep -q '"result"' <<<"$set_passcode"

if [ "${LOCALAUTHD_TRYOUT:-0}" = 1 ]; then
    cat <<TRYOUT

The try-out container is running (make try-fprintd; docs/fprintd-tryout.md). In another terminal:
  enter it as alice, who has a finger enrolled and may sudo (password: $PASSWORD):
      nsenter -t $PID1 -a su -l alice
      sudo -k true
  press alice's virtual finger while sudo waits (or stranger-print for a finger that does not match):
      nsenter -t $PID1 -a vfinger alice-print
  the daemon's and the module's journal:
      nsenter -t $PID1 -a journalctl -b -u localauthd.service -t pam_localauthd
bob has a finger and no localauthd passcode. Ctrl-C here stops the container and removes it.
TRYOUT
    trap 'container_stop; exit 0' INT TERM
    wait "$NSPAWN"
    exit 0
fi
. "$HERE/fprintd-race.sh"
if [ "${LOCALAUTHD_FPRINTD_RACE_ONLY:-0}" = 1 ]; then
    # make bench-fprintd-sudo: the setup, then only the interleaved timing runs.
    echo "     --- sudo by finger, both modules interleaved ---"
    race "${LOCALAUTHD_FPRINTD_RUNS:-10}"
    echo "     --- the finger pressed the moment the prompt appears, both modules interleaved ---"
    race_at_prompt "${LOCALAUTHD_FPRINTD_RUNS:-10}"
    container_stop
    finish
    exit
fi
. "$HERE/fprintd-cases.sh"

# --- issue 22's setup, as docs/rights-and-keys.md gives it, in bob's own user manager (su -l opens
# a logind session, pam_systemd starts user@UID.service): the packaged user units serve his key ---
agent_out=$(cx su -l bob -c 'systemctl --user enable --now localauthd-ssh-agent.socket &&
    localauthctl ssh-key create unit-check >/dev/null &&
    SSH_AUTH_SOCK=$XDG_RUNTIME_DIR/localauthd/ssh-agent.sock ssh-add -L &&
    systemctl --user is-active localauthd-ssh-agent.service' 2>&1)
before=$FAILED
check "systemctl --user enable --now localauthd-ssh-agent.socket: ssh-add -L lists bob's key through the socket-activated agent" \
    bash -c 'grep -q "^ecdsa-sha2-nistp256 AAAA[^ ]* unit-check$" <<<"$1" && grep -qx active <<<"$1"' - "$agent_out"
[ "$FAILED" -gt "$before" ] && printf '     %s\n' "$agent_out" | tail -n 8

# --- the journal: no thread-priority noise after a minute of service ---
# (the daemon restarted during the cases: wait until its process has served a minute)
pid=$(cx systemctl show -P MainPID localauthd.service)
served=$(cx ps -o etimes= -p "$pid" 2>/dev/null | tr -d ' ')
[[ ${served:-} =~ ^[0-9]+$ ]] && [ "$served" -lt 65 ] && sleep $((65 - served))
noise=$(cx journalctl -b --no-pager -u localauthd.service | grep -c 'Failed to set thread priority')
check "no 'Failed to set thread priority' in localauthd's journal after a minute of service ($noise lines)" test "$noise" -eq 0

container_stop
finish
