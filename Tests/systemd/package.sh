#!/bin/bash
# The Debian package, installed as an administrator would: `apt install ./localauthd_*.deb`
# in a systemd-nspawn container (systemd as PID 1) on a bookworm root with man-db and
# bash-completion (its own cache: $LOCALAUTHD_PACKAGE_CACHE, default
# /var/cache/localauthd-test/rootfs-package, so the shared root keeps its package list).
#
# Checks on the host: the binaries are stripped, their symbols are in the -dbgsym package,
# the dependencies are declared. In the container: sysusers made the user and group, the
# socket listens, `localauthctl status` works as root and as a normal user, the daemon runs as
# localauthd, the catalog was installed, `man` renders the three pages, bash completes
# `localauthctl ev<TAB>`; a drop-in overrides one key (AdminGroup=) on reload; a bad drop-in
# is refused with its own path and line (--check-config and reload); a reinstall keeps
# serving; `apt remove` stops and
# removes it and keeps state and configuration; `apt purge` removes the state.
# The desktop prompt's package (localauthd-prompt, beside it) is checked on the host: its
# program, user unit and manual page, enabled for every user, depending on GTK and on the daemon
# of the same version, while the daemon's package depends on no toolkit.
#
# Usage: package.sh DEB   (the -dbgsym package and the prompt's packages are looked for beside it)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
need_root
need_cmd systemd-nspawn nsenter unshare dpkg-deb readelf
DEB=$(readlink -f "${1:?usage: package.sh localauthd_VERSION_ARCH.deb}")
[ -f "$DEB" ] || die "no package at $DEB"
DBGSYM=$(dirname "$DEB")/$(basename "$DEB" | sed 's/^localauthd_/localauthd-dbgsym_/')

export LOCALAUTHD_NSPAWN_CACHE=${LOCALAUTHD_PACKAGE_CACHE:-/var/cache/localauthd-test/rootfs-package}
export LOCALAUTHD_NSPAWN_EXTRA_PACKAGES=man-db,bash-completion
ROOTFS=$("$HERE/rootfs.sh") || die "could not build the container root file system"
NAME=localauthd-package-$$
RUN=$(mktemp -d /var/tmp/localauthd-package.XXXXXX)
ROOT=$RUN/root
. "$HERE/container.sh"
trap container_cleanup EXIT
trap 'container_cleanup; trap - EXIT; exit 130' INT TERM

# --- on the host: what is in the package ---
dpkg-deb -x "$DEB" "$RUN/contents"
# Neither links Foundation (and with it ICU's data), so each is under 20 MiB: localauthctl links
# LocalAuthClientCore; only apps' LocalAuthClient (Apple's NSError bridging) brings Foundation.
for entry in usr/libexec/localauthd:20 usr/bin/localauthctl:20; do
    binary=${entry%%:*} limit=${entry##*:}
    size=$(stat -c %s "$RUN/contents/$binary")
    check "$binary is $((size / 1024 / 1024)) MiB (under $limit: stripped)" test "$size" -lt $((limit << 20))
    check "$binary is stripped (no .symtab, no .debug_info)" \
        bash -c "! readelf -S '$RUN/contents/$binary' | grep -Eq '\.symtab|\.debug_info'"
done
pam_module=$(cd "$RUN/contents" && ls usr/lib/*/security/pam_localauthd.so 2>/dev/null)
check "the package ships the PAM module, stripped (${pam_module:-missing})" \
    bash -c "[ -n '$pam_module' ] && ! readelf -S '$RUN/contents/$pam_module' | grep -Eq '\.symtab|\.debug_info'"
check "the package ships the password helper, stripped, with its units and PAM service" \
    bash -c "cd '$RUN/contents' && ! readelf -S usr/libexec/localauthd-password-helper | grep -Eq '\.symtab|\.debug_info' &&
      test -f lib/systemd/system/localauthd-password.socket -a -f lib/systemd/system/localauthd-password@.service \
        -a -f etc/pam.d/localauthd-password -a -f usr/share/man/man8/localauthd-password-helper.8.gz"
depends=$(dpkg-deb -f "$DEB" Depends)
echo "     Depends: $depends"
for library in libssl3 libsqlite3-0 libsystemd0 libpam0g libtss2-esys-3.0.2-0 tpm-udev; do
    check "the package depends on $library" grep -q "\b$library\b" <<<"$depends"
done
if [ -f "$DBGSYM" ]; then
    symbols=$(dpkg-deb -c "$DBGSYM" | grep -c 'usr/lib/debug/.build-id/.*\.debug$')
    check "the -dbgsym package holds the debug symbols of both binaries, the PAM module and the password helper ($symbols files)" \
        test "$symbols" -eq 4
else
    fail "no -dbgsym package beside the package ($DBGSYM)"
fi
check "the package ships the three manual pages and both completions" bash -c "
    cd '$RUN/contents' && test -f usr/share/man/man8/localauthd.8.gz -a -f usr/share/man/man1/localauthctl.1.gz \
      -a -f usr/share/man/man5/localauthd.conf.5.gz -a -f usr/share/bash-completion/completions/localauthctl \
      -a -f usr/share/zsh/vendor-completions/_localauthctl"

# --- on the host: the desktop prompt's package, apart so that servers never pull GTK ---
PROMPT_DEB=$(dirname "$DEB")/$(basename "$DEB" | sed 's/^localauthd_/localauthd-prompt_/')
PROMPT_DBGSYM=$(dirname "$DEB")/$(basename "$DEB" | sed 's/^localauthd_/localauthd-prompt-dbgsym_/')
check "the daemon's package depends on no toolkit (no GTK: servers install it)" \
    bash -c "! grep -qi gtk <<<'$depends'"
check "the daemon's package ships nothing of the desktop prompt" \
    bash -c "! dpkg-deb -c '$DEB' | grep -q localauthd-prompt"
if [ -f "$PROMPT_DEB" ]; then
    dpkg-deb -x "$PROMPT_DEB" "$RUN/prompt-contents"
    dpkg-deb -e "$PROMPT_DEB" "$RUN/prompt-control"
    for program in localauthd-prompt localauthd-prompt-window; do
        check "localauthd-prompt ships /usr/bin/$program, stripped" bash -c "
            test -x '$RUN/prompt-contents/usr/bin/$program' &&
            ! readelf -S '$RUN/prompt-contents/usr/bin/$program' | grep -Eq '\.symtab|\.debug_info'"
    done
    check "localauthd-prompt ships its user unit and its manual page" bash -c "
        cd '$RUN/prompt-contents' && test -f usr/lib/systemd/user/localauthd-prompt.service \
          -a -f usr/share/man/man1/localauthd-prompt.1.gz"
    check "the user unit runs the packaged program with the graphical session" bash -c "
        unit='$RUN/prompt-contents/usr/lib/systemd/user/localauthd-prompt.service'
        grep -qx 'ExecStart=/usr/bin/localauthd-prompt --scope user' \$unit &&
        grep -qx 'WantedBy=graphical-session.target' \$unit && grep -qx 'PartOf=graphical-session.target' \$unit"
    check "its postinst enables the user unit for every user (deb-systemd-helper --user)" \
        bash -c "grep -q 'deb-systemd-helper --user' '$RUN/prompt-control/postinst' && grep -q 'localauthd-prompt.service' '$RUN/prompt-control/postinst'"
    prompt_depends=$(dpkg-deb -f "$PROMPT_DEB" Depends)
    echo "     localauthd-prompt Depends: $prompt_depends"
    check "localauthd-prompt depends on GTK 4 (libgtk-4-1)" grep -q '\blibgtk-4-1\b' <<<"$prompt_depends"
    check "localauthd-prompt depends on the daemon of its own version" \
        grep -q "localauthd (= $(dpkg-deb -f "$DEB" Version))" <<<"$prompt_depends"
    check "the prompt's symbols are in localauthd-prompt-dbgsym" \
        bash -c "[ -f '$PROMPT_DBGSYM' ] && dpkg-deb -c '$PROMPT_DBGSYM' | grep -q 'usr/lib/debug/.build-id/.*\.debug$'"
else
    fail "no localauthd-prompt package beside the package ($PROMPT_DEB)"
fi

# --- the container: a copy of the cached root, booted with systemd ---
cp -a --reflink=auto "$ROOTFS" "$ROOT" || die "cannot copy $ROOTFS"
chmod 0755 "$ROOT"
cp "$DEB" "$ROOT/root/"
container_boot
SOCK=/run/localauthd/localauthd.sock

# 1. apt install ./localauthd_*.deb
if cx env DEBIAN_FRONTEND=noninteractive sh -c "cd /root && apt install -y ./$(basename "$DEB")" >"$RUN/apt-install.log" 2>&1; then
    pass "apt install ./$(basename "$DEB")"
else
    fail "apt install ./$(basename "$DEB"): $(tail -n 15 "$RUN/apt-install.log")"
fi
check "sysusers created the user localauthd and the group localauth" \
    bash -c 'cx getent passwd localauthd >/dev/null && cx getent group localauth >/dev/null'
check "localauthd.socket is enabled" cx systemctl is-enabled --quiet localauthd.socket
check "localauthd.socket is active" cx systemctl is-active --quiet localauthd.socket
check "the socket $SOCK is listening" cx test -S "$SOCK"

# 2. localauthctl status, as root and as a normal user.
status=$(cx localauthctl status 2>&1)
echo "$status" | sed 's/^/     /'
check "localauthctl status works as root" bash -c 'cx localauthctl status >/dev/null'
cx useradd --create-home --shell /bin/bash lauser 2>/dev/null
as_user() { local who=$1; shift; cx setpriv --reuid="$who" --regid="$who" --init-groups env HOME=/home/$who "$@"; }
export -f as_user
check "localauthctl status works as a normal user" bash -c 'as_user lauser localauthctl status >/dev/null' 
PID=$(cx systemctl show -P MainPID localauthd.service)
check "the first connection started the service, running as user localauthd" \
    bash -c '[ "$(cx ps -o user= -p '"$PID"')" = localauthd ]'
check "the journal catalog was installed (journalctl --update-catalog by the trigger)" \
    bash -c 'cx journalctl --list-catalog 007c3e8bb647412cb52813f1c7944d99 | grep -q 007c3e8b'
check "the daemon created its state in /var/lib/localauthd" \
    bash -c '[ -n "$(cx ls -A /var/lib/localauthd)" ]'

# 3. Manual pages and completion.
for page in "1 localauthctl:control and observe" "8 localauthd:LocalAuthentication broker" \
    "5 localauthd.conf:systemd-style INI"; do
    words=${page%%:*}
    text=${page#*:}
    check "man $words renders" bash -c "cx env MANWIDTH=80 man -P cat $words 2>/dev/null | grep -q '$text'"
done
completion=$(cx bash -c '
    source /usr/share/bash-completion/bash_completion
    _completion_loader localauthctl
    function=$(complete -p localauthctl | sed -n "s/.*-F \([^ ]*\).*/\1/p")
    COMP_WORDS=(localauthctl ev); COMP_CWORD=1; COMP_LINE="localauthctl ev"; COMP_POINT=${#COMP_LINE}
    "$function" localauthctl ev localauthctl
    echo "${COMPREPLY[*]}"')
check "bash completes localauthctl ev<TAB> to evaluate (got '$completion')" test "$completion" = evaluate

# 4. Drop-ins: one key overridden on reload; a bad one refused with its path and line.
cx usermod -a -G localauth lauser
check "a member of localauth may administer (reset-lockout)" bash -c 'as_user lauser localauthctl reset-lockout >/dev/null' 
cx mkdir -p /etc/localauthd/localauthd.conf.d
cx sh -c 'printf "[Broker]\nAdminGroup=\n" >/etc/localauthd/localauthd.conf.d/50-root-only.conf'
check "localauthd --check-config accepts the drop-in" bash -c 'cx /usr/libexec/localauthd --check-config >/dev/null' 
check "systemctl reload localauthd" cx timeout 30 systemctl reload localauthd.service
denied=$(as_user lauser localauthctl reset-lockout 2>&1)
echo "     after the drop-in: reset-lockout as a member of localauth -> $denied"
check "the drop-in's AdminGroup= (empty: root only) now refuses the member" grep -q permissionDenied <<<"$denied"
BAD=/etc/localauthd/localauthd.conf.d/60-bad.conf
cx sh -c "printf '[Broker]\n\nMaxQueue=lots\n' >$BAD"
checked=$(cx /usr/libexec/localauthd --check-config 2>&1)
echo "     --check-config -> $checked"
check "--check-config refuses the bad drop-in with its own path and line" grep -q "$BAD:3: MaxQueue=lots" <<<"$checked"
check "systemctl reload with the bad drop-in" cx timeout 30 systemctl reload localauthd.service
check "the journal names the bad drop-in and its line (configuration rejected)" \
    bash -c "cx journalctl -b --no-pager -u localauthd.service | grep 'configuration rejected' | grep -q '$BAD:3'"
check "the daemon still serves after the refused reload" bash -c 'cx localauthctl status >/dev/null' 
cx rm -f "$BAD"

# 4b. Reinstall (the upgrade path of the maintainer scripts): the socket is restarted, the
# administrator's drop-in kept, and the daemon answers again.
if cx env DEBIAN_FRONTEND=noninteractive sh -c "cd /root && apt install -y --reinstall ./$(basename "$DEB")" >"$RUN/apt-reinstall.log" 2>&1; then
    pass "apt install --reinstall ./$(basename "$DEB")"
else
    fail "apt install --reinstall: $(tail -n 15 "$RUN/apt-reinstall.log")"
fi
check "the socket is active after the reinstall" cx systemctl is-active --quiet localauthd.socket
check "the drop-in survived the reinstall" cx test -f /etc/localauthd/localauthd.conf.d/50-root-only.conf
check "localauthctl status works after the reinstall" bash -c 'cx localauthctl status >/dev/null'

# 5. apt remove: stopped and removed; configuration and state kept.
if cx env DEBIAN_FRONTEND=noninteractive apt-get remove -y localauthd >"$RUN/apt-remove.log" 2>&1; then
    pass "apt-get remove localauthd"
else
    fail "apt-get remove localauthd: $(tail -n 15 "$RUN/apt-remove.log")"
fi
check "localauthd.service is no longer running" bash -c '! cx systemctl is-active --quiet localauthd.service'
check "localauthd.socket is no longer active" bash -c '! cx systemctl is-active --quiet localauthd.socket'
check "the socket file is gone" bash -c '! cx test -e '"$SOCK"
check "no localauthd process is left" bash -c '! cx pgrep -x localauthd >/dev/null'
check "the binaries are gone" bash -c '! cx test -e /usr/libexec/localauthd && ! cx test -e /usr/bin/localauthctl'
check "remove keeps the state in /var/lib/localauthd" bash -c '[ -n "$(cx ls -A /var/lib/localauthd)" ]'
check "remove keeps the configuration and the administrator's drop-in" \
    cx test -f /etc/localauthd/localauthd.conf -a -f /etc/localauthd/localauthd.conf.d/50-root-only.conf
check "dpkg lists the package as removed, configuration kept (rc)" \
    bash -c '[ "$(cx dpkg-query -W -f="\${db:Status-Abbrev}" localauthd)" = "rc " ]'

# 6. apt purge: the state goes; the administrator's drop-in stays.
if cx env DEBIAN_FRONTEND=noninteractive apt-get purge -y localauthd >"$RUN/apt-purge.log" 2>&1; then
    pass "apt-get purge localauthd"
else
    fail "apt-get purge localauthd: $(tail -n 15 "$RUN/apt-purge.log")"
fi
check "purge removes the state (/var/lib/localauthd)" bash -c '! cx test -e /var/lib/localauthd'
check "purge removes the conffile" bash -c '! cx test -e /etc/localauthd/localauthd.conf'
check "purge keeps a drop-in the administrator wrote" cx test -f /etc/localauthd/localauthd.conf.d/50-root-only.conf
check "dpkg no longer knows the package" bash -c '! cx dpkg-query -W localauthd >/dev/null 2>&1'
check "no failed units" bash -c '[ -z "$(cx systemctl --failed --no-legend --plain)" ]'

if [ "$FAILED" -gt 0 ]; then
    echo "     --- journalctl -u localauthd (last 30 lines) ---"
    cx journalctl -b --no-pager -u localauthd.service -u localauthd.socket | tail -n 30 | sed 's/^/     /'
fi
container_stop
finish
