#!/bin/bash
# Static checks of the files in systemd/, on the host (no daemon run):
# install.mk stages everything with the right modes (the desktop prompt's user
# unit too, with install-prompt), `systemd-analyze verify` accepts the units, `systemd-analyze security --offline=yes` scores the
# service <= 2.0, the catalog compiles with all eight MESSAGE_IDs,
# systemd-sysusers accepts the sysusers file (and makes the tss group), the unit
# reaches /dev/tpmrm0 and no other device, and (when a daemon binary is
# given) `localauthd --check-config` accepts the example configuration.
#
# Usage: verify-units.sh [LOCALAUTHD]   (or LOCALAUTHD=path; optional here)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
need_cmd systemd-analyze journalctl systemd-sysusers make install
SRC=$REPO/systemd
WORK=$(mktemp -d /tmp/localauthd-units.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
STAGE=$WORK/stage

# install.mk with stand-in binaries.
mkdir -p "$WORK/bin"
for binary in localauthd localauthctl localauthd-prompt localauthd-prompt-window; do printf '#!/bin/sh\nexit 0\n' >"$WORK/bin/$binary"; done
chmod 0755 "$WORK/bin"/*
printf 'include %s/install.mk\n' "$SRC" >"$WORK/Makefile"
if make -s -C "$WORK" install DESTDIR="$STAGE" BINDIR_BUILD="$WORK/bin" >"$WORK/make.log" 2>&1; then
    pass "make install (systemd/install.mk) with DESTDIR"
else
    fail "make install failed: $(cat "$WORK/make.log")"
fi
expect_mode() { [ "$(stat -c %a "$STAGE$2" 2>/dev/null)" = "$1" ]; }
for entry in 755:/usr/libexec/localauthd 755:/usr/bin/localauthctl \
    644:/usr/lib/systemd/system/localauthd.service 644:/usr/lib/systemd/system/localauthd.socket \
    644:/usr/lib/systemd/catalog/localauthd.catalog 644:/usr/lib/sysusers.d/localauthd.conf \
    644:/etc/localauthd/localauthd.conf 644:/usr/share/doc/localauthd/localauthd.conf.example \
    644:/usr/lib/systemd/user/localauthd-ssh-agent.socket \
    644:/usr/lib/systemd/user/localauthd-ssh-agent.service; do
    check "installed ${entry#*:} mode ${entry%%:*}" expect_mode "${entry%%:*}" "${entry#*:}"
done
make -s -C "$WORK" install DESTDIR="$WORK/local" PREFIX=/usr/local BINDIR_BUILD="$WORK/bin" >/dev/null 2>&1
check "PREFIX=/usr/local moves ExecStart= to /usr/local/libexec/localauthd" \
    grep -qx 'ExecStart=/usr/local/libexec/localauthd' "$WORK/local/usr/local/lib/systemd/system/localauthd.service"
check "PREFIX=/usr/local moves the SSH agent's ExecStart= to /usr/local/bin/localauthctl" \
    grep -qx 'ExecStart=/usr/local/bin/localauthctl ssh-agent' "$WORK/local/usr/local/lib/systemd/user/localauthd-ssh-agent.service"
check "the SSH agent socket is 0600 in a 0700 directory of the user's runtime directory" \
    bash -c "grep -qx 'ListenStream=%t/localauthd/ssh-agent.sock' '$SRC/localauthd-ssh-agent.socket' && grep -qx 'SocketMode=0600' '$SRC/localauthd-ssh-agent.socket' && grep -qx 'DirectoryMode=0700' '$SRC/localauthd-ssh-agent.socket'"

# The desktop prompt (the localauthd-prompt package): install-prompt stages its binary, its user
# unit and its manual page; the unit follows PREFIX, belongs to the graphical session (PartOf=,
# WantedBy=graphical-session.target), restarts on failure, and a user manager accepts it.
check "make install (the daemon's) installs nothing of the prompt" \
    bash -c "! find '$STAGE' -name 'localauthd-prompt*' | grep -q ."
if make -s -C "$WORK" install-prompt DESTDIR="$STAGE" BINDIR_BUILD="$WORK/bin" >"$WORK/make-prompt.log" 2>&1; then
    pass "make install-prompt (systemd/install.mk) with DESTDIR"
else
    fail "make install-prompt failed: $(cat "$WORK/make-prompt.log")"
fi
for entry in 755:/usr/bin/localauthd-prompt 644:/usr/lib/systemd/user/localauthd-prompt.service \
    644:/usr/share/man/man1/localauthd-prompt.1; do
    check "installed ${entry#*:} mode ${entry%%:*}" expect_mode "${entry%%:*}" "${entry#*:}"
done
make -s -C "$WORK" install-prompt DESTDIR="$WORK/local" PREFIX=/usr/local BINDIR_BUILD="$WORK/bin" >/dev/null 2>&1
check "PREFIX=/usr/local moves the prompt's ExecStart= to /usr/local/bin/localauthd-prompt" \
    grep -qx 'ExecStart=/usr/local/bin/localauthd-prompt --scope user' "$WORK/local/usr/local/lib/systemd/user/localauthd-prompt.service"
prompt_unit=$STAGE/usr/lib/systemd/user/localauthd-prompt.service
for line in 'PartOf=graphical-session.target' 'After=graphical-session.target' \
    'WantedBy=graphical-session.target' 'Restart=on-failure' 'ExecStart=/usr/bin/localauthd-prompt --scope user'; do
    check "localauthd-prompt.service has $line" grep -qx "$line" "$prompt_unit"
done
mkdir -p "$WORK/user-units" "$WORK/user-runtime" && chmod 0700 "$WORK/user-runtime"
sed "s|^ExecStart=[^ ]*|ExecStart=$WORK/bin/localauthd-prompt|" "$prompt_unit" >"$WORK/user-units/localauthd-prompt.service"
prompt_verify=$(XDG_RUNTIME_DIR=$WORK/user-runtime systemd-analyze --user verify --man=no \
    "$WORK/user-units/localauthd-prompt.service" 2>&1)
check "systemd-analyze --user verify localauthd-prompt.service (no finding${prompt_verify:+: $prompt_verify})" \
    test -z "$prompt_verify"
check "make uninstall-prompt removes the prompt's three files" bash -c "
    make -s -C '$WORK' uninstall-prompt DESTDIR='$STAGE' >/dev/null 2>&1 &&
    ! test -e '$STAGE/usr/bin/localauthd-prompt' -o -e '$prompt_unit' -o -e '$STAGE/usr/share/man/man1/localauthd-prompt.1'"

# systemd-analyze verify needs ExecStart= to exist: point it at the staged binary.
mkdir -p "$WORK/units"
cp "$STAGE/usr/lib/systemd/system/localauthd.socket" "$WORK/units/"
sed "s|^ExecStart=.*|ExecStart=$STAGE/usr/libexec/localauthd|" \
    "$STAGE/usr/lib/systemd/system/localauthd.service" >"$WORK/units/localauthd.service"
if systemd-analyze verify --man=no "$WORK/units/localauthd.socket" "$WORK/units/localauthd.service" >"$WORK/verify.log" 2>&1; then
    pass "systemd-analyze verify localauthd.socket localauthd.service"
else
    fail "systemd-analyze verify: $(cat "$WORK/verify.log")"
fi

# The password helper's units (mk/password-helper.mk installs them): the socket with its template,
# verified as one instance; the helper's sandbox scored like the daemon's.
cp "$SRC/localauthd-password.socket" "$WORK/units/"
sed "s|^ExecStart=/usr/libexec/localauthd-password-helper|ExecStart=$WORK/bin/localauthd|" \
    "$SRC/localauthd-password@.service" >"$WORK/units/localauthd-password@.service"
cp "$WORK/units/localauthd-password@.service" "$WORK/units/localauthd-password@0.service"
check "systemd-analyze verify localauthd-password.socket localauthd-password@.service" \
    systemd-analyze verify --man=no "$WORK/units/localauthd-password.socket" "$WORK/units/localauthd-password@0.service"
check "the password socket: Accept=yes, the daemon's, mode 0600" bash -c \
    "grep -qx 'Accept=yes' '$SRC/localauthd-password.socket' && grep -qx 'SocketUser=localauthd' '$SRC/localauthd-password.socket' && grep -qx 'SocketMode=0600' '$SRC/localauthd-password.socket'"
helper_score=$(systemd-analyze security --offline=yes "$WORK/units/localauthd-password@0.service" 2>/dev/null |
    sed -n 's/.*Overall exposure level for localauthd-password@0.service: \([0-9.]*\).*/\1/p')
check "the password helper's security exposure ${helper_score:-?} <= 2.0" \
    python3 -c "import sys; sys.exit(0 if float('${helper_score:-99}') <= 2.0 else 1)"

score=$(systemd-analyze security --offline=yes "$SRC/localauthd.service" 2>/dev/null |
    sed -n 's/.*Overall exposure level for localauthd.service: \([0-9.]*\).*/\1/p')
echo "     systemd-analyze security --offline=yes systemd/localauthd.service: ${score:-?}"
check "security exposure ${score:-?} <= 2.0" python3 -c "import sys; sys.exit(0 if float('${score:-99}') <= 2.0 else 1)"

mkdir -p "$WORK/catroot/usr/lib/systemd/catalog"
cp "$SRC/localauthd.catalog" "$WORK/catroot/usr/lib/systemd/catalog/"
check "journalctl --update-catalog compiles localauthd.catalog" journalctl --root="$WORK/catroot" --update-catalog
listed=$(journalctl --root="$WORK/catroot" --list-catalog 2>/dev/null)
for id in 07b31cac78114fedb2092ee82603c926 58f85e6fc39a4c9093b7a9704736f258 007c3e8bb647412cb52813f1c7944d99 \
    eae9485abfa647bba4c1d4180a854a19 dbedbc1757cb44488a5975299ea0b3f9 f24b3e84428a4dff9bdcc690b23358d5 \
    49001afd51cd4d85ba2de6ab6d588703 0c7d4e7e45ac4bdca8cc25d31b4f92e6; do
    check "catalog entry $id" grep -q "^$id " <<<"$listed"
done

mkdir -p "$WORK/sysroot/etc"
sysusers=$(systemd-sysusers --root="$WORK/sysroot" --dry-run "$SRC/localauthd.sysusers" 2>&1)
check "systemd-sysusers accepts localauthd.sysusers (user localauthd, group localauth)" \
    bash -c 'grep -q "localauthd" <<<"$1" && grep -q "localauth\b" <<<"$1"' _ "$sysusers"
check "localauthd.sysusers makes the group tss when nothing else did (SupplementaryGroups=tss)" \
    grep -q "group 'tss'" <<<"$sysusers"

# The TPM ([Keys] Store=auto|tpm): /dev/tpmrm0 and nothing more. PrivateDevices= stays on, the one
# node is bound into its /dev (optional: no TPM, no failure), the device cgroup allows it alone, and
# the tss group opens it; never the raw /dev/tpm0 and never PrivateDevices=no.
unit_has() { grep -qx "$1" "$SRC/localauthd.service"; }
for line in 'PrivateDevices=yes' 'BindPaths=-/dev/tpmrm0' 'DevicePolicy=closed' \
    'DeviceAllow=/dev/tpmrm0 rw' 'SupplementaryGroups=tss'; do
    check "localauthd.service has $line" unit_has "$line"
done
check "localauthd.service grants no other device (no /dev/tpm0, no other DeviceAllow=)" \
    bash -c "! grep -E '^(DeviceAllow=|BindPaths=|BindReadOnlyPaths=)' '$SRC/localauthd.service' | grep -v tpmrm0 | grep -q . &&
      ! grep -v '^#' '$SRC/localauthd.service' | grep -q '/dev/tpm0'"

LOCALAUTHD=${LOCALAUTHD:-${1:-}}
if [ -n "$LOCALAUTHD" ]; then
    check "localauthd --check-config accepts systemd/localauthd.conf" \
        "$LOCALAUTHD" --check-config --config "$SRC/localauthd.conf"
else
    echo "     (no LOCALAUTHD given: example configuration not checked by the daemon)"
fi
finish
