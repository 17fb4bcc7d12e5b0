#!/bin/bash
# `make install` into a staging root and `make uninstall` from it: every file lands where the
# manual pages and units say, binaries stripped, and uninstall removes every file again
# (keeping a changed localauthd.conf). Then the same for the desktop prompt, apart
# (`make install-prompt`, `make uninstall-prompt`). Uses the release builds already made
# (`make release prompt-release`).
#
# Usage: make-install.sh
set -uo pipefail
. "$(dirname "$0")/../systemd/lib.sh"
need_cmd make readelf
STAGE=$(mktemp -d /tmp/localauthd-install.XXXXXX)
trap 'rm -rf "$STAGE" "$STAGE.log"' EXIT
cd "$REPO" || die "no repository at $REPO"

check "make install DESTDIR=… PREFIX=/usr" bash -c "make -s install DESTDIR='$STAGE' PREFIX=/usr >'$STAGE.log' 2>&1 || { cat '$STAGE.log'; false; }"
for file in usr/libexec/localauthd usr/bin/localauthctl usr/lib/systemd/system/localauthd.socket \
    usr/lib/systemd/system/localauthd.service usr/lib/systemd/catalog/localauthd.catalog \
    usr/lib/systemd/user/localauthd-ssh-agent.socket usr/lib/systemd/user/localauthd-ssh-agent.service \
    usr/lib/sysusers.d/localauthd.conf etc/localauthd/localauthd.conf \
    usr/share/doc/localauthd/localauthd.conf.example usr/share/man/man8/localauthd.8 \
    usr/share/man/man1/localauthctl.1 usr/share/man/man5/localauthd.conf.5 usr/share/man/man8/pam_localauthd.8 \
    usr/share/bash-completion/completions/localauthctl usr/share/zsh/vendor-completions/_localauthctl \
    usr/libexec/localauthd-password-helper usr/lib/systemd/system/localauthd-password.socket \
    usr/lib/systemd/system/localauthd-password@.service etc/pam.d/localauthd-password \
    usr/share/man/man8/localauthd-password-helper.8 \
    "usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/security/pam_localauthd.so"; do
    check "installed /$file" test -f "$STAGE/$file"
done
for binary in usr/libexec/localauthd usr/bin/localauthctl usr/libexec/localauthd-password-helper; do
    check "/$binary is stripped" bash -c "! readelf -S '$STAGE/$binary' | grep -Eq '\.symtab|\.debug_info'"
done
check "the stripped localauthd runs (--version)" "$STAGE/usr/libexec/localauthd" --version
check "the stripped localauthctl runs (--help)" bash -c "'$STAGE/usr/bin/localauthctl' --help >/dev/null"
check "the password unit runs the installed helper" \
    grep -qx 'ExecStart=/usr/libexec/localauthd-password-helper localauthd' "$STAGE/usr/lib/systemd/system/localauthd-password@.service"

check "make install installs nothing of the desktop prompt" bash -c "! find '$STAGE' -name 'localauthd-prompt*' | grep -q ."

check "make install-prompt DESTDIR=… PREFIX=/usr" bash -c "make -s install-prompt DESTDIR='$STAGE' PREFIX=/usr >'$STAGE.log' 2>&1 || { cat '$STAGE.log'; false; }"
for file in usr/bin/localauthd-prompt usr/bin/localauthd-prompt-window usr/lib/systemd/user/localauthd-prompt.service \
    usr/share/man/man1/localauthd-prompt.1; do
    check "installed /$file" test -f "$STAGE/$file"
done
for program in localauthd-prompt localauthd-prompt-window; do
    check "/usr/bin/$program is stripped" bash -c "! readelf -S '$STAGE/usr/bin/$program' | grep -Eq '\.symtab|\.debug_info'"
done
check "the prompt's user unit runs the installed program" \
    grep -qx 'ExecStart=/usr/bin/localauthd-prompt --scope user' "$STAGE/usr/lib/systemd/user/localauthd-prompt.service"
check "make uninstall-prompt" make -s uninstall-prompt DESTDIR="$STAGE" PREFIX=/usr
check "uninstall-prompt removed the prompt's files" bash -c "! find '$STAGE' -name 'localauthd-prompt*' | grep -q ."

check "make uninstall (unchanged configuration)" make -s uninstall DESTDIR="$STAGE" PREFIX=/usr
left=$(find "$STAGE" -type f -o -type l)
check "uninstall removed every file${left:+ (left: $left)}" test -z "$left"

make -s install DESTDIR="$STAGE" PREFIX=/usr >/dev/null
echo "# changed" >>"$STAGE/etc/localauthd/localauthd.conf"
make -s uninstall DESTDIR="$STAGE" PREFIX=/usr >/dev/null
left=$(cd "$STAGE" && find . -type f -o -type l)
check "uninstall keeps a changed localauthd.conf and nothing else (left: $left)" \
    test "$left" = ./etc/localauthd/localauthd.conf
finish
