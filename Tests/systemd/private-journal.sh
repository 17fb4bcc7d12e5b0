# Sourced by journal.sh and doctor.sh, inside their private mount namespace (unshare -m): a real
# systemd-journald on private directories bind-mounted (mount -n, LIBMOUNT_UTAB of our own) over
# /run/systemd, /run/log and /var/log/journal, with a journald drop-in (Storage=volatile,
# ReadKMsg=no, Audit=no, no forwarding, no rate limit), localauthd.catalog compiled into a private
# catalog database, and the demo daemon on a socket of its own. The host's journal and catalog
# are never touched.

# private_journal_outside DAEMON_ARG: true (after checking what the test needs and resolving
# LOCALAUTHD) when the script runs outside its private mount namespace; it then re-runs itself
# there with `exec unshare -m … "$0"`, after any exports of its own.
private_journal_outside() {
    [ "${LOCALAUTHD_JOURNAL_INSIDE:-}" = 1 ] && return 1
    need_root
    need_cmd unshare python3 journalctl
    [ -x /lib/systemd/systemd-journald ] || die "missing /lib/systemd/systemd-journald"
    resolve_daemon "$1"
    export LOCALAUTHD LOCALAUTHD_JOURNAL_INSIDE=1
}

# private_journal_start NAME: makes WORK (/tmp/localauthd-NAME.*), mounts, starts journald
# (JOURNALD) and installs the cleanup trap.
private_journal_start() {
    WORK=$(mktemp -d "/tmp/localauthd-$1.XXXXXX")
    export LIBMOUNT_UTAB=$WORK/utab
    JOURNALD=
    DAEMON=
    trap private_journal_cleanup EXIT
    mkdir -p "$WORK"/{run-systemd/journald.conf.d,run-log,var-log-journal,state,run,catroot/usr/lib/systemd/catalog,catroot/var/lib/systemd/catalog}
    mount -n --bind "$WORK/run-systemd" /run/systemd || die "cannot bind-mount /run/systemd"
    mount -n --bind "$WORK/run-log" /run/log || die "cannot bind-mount /run/log"
    mount -n --bind "$WORK/var-log-journal" /var/log/journal || die "cannot bind-mount /var/log/journal"
    cat >/run/systemd/journald.conf.d/localauthd-test.conf <<CONF
[Journal]
Storage=volatile
ReadKMsg=no
Audit=no
ForwardToSyslog=no
ForwardToWall=no
ForwardToConsole=no
RateLimitBurst=0
CONF
    cp "$REPO/systemd/localauthd.catalog" "$WORK/catroot/usr/lib/systemd/catalog/"
    journalctl --root="$WORK/catroot" --update-catalog || die "journalctl --update-catalog failed on localauthd.catalog"
    mount -n --bind "$WORK/catroot/var/lib/systemd/catalog" /var/lib/systemd/catalog || die "cannot bind-mount the catalog"
    /lib/systemd/systemd-journald >"$WORK/journald.log" 2>&1 &
    JOURNALD=$!
    wait_for 5 test -S /run/systemd/journal/socket || die "journald did not create its socket: $(cat "$WORK/journald.log")"
    pass "private systemd-journald running (pid $JOURNALD)"
}

private_journal_cleanup() {
    [ -n "$DAEMON" ] && kill -KILL "$DAEMON" 2>/dev/null
    [ -n "$JOURNALD" ] && kill "$JOURNALD" 2>/dev/null && wait "$JOURNALD" 2>/dev/null
    umount -n /var/lib/systemd/catalog /var/log/journal /run/log /run/systemd 2>/dev/null
    rm -rf "$WORK"
}

# private_journal_daemon CONFIG_TEXT: the demo daemon with that configuration on SOCK (DAEMON).
private_journal_daemon() {
    SOCK=$WORK/localauthd.sock
    CONF=$WORK/localauthd.conf
    printf '%b' "$1" >"$CONF"
    STATE_DIRECTORY=$WORK/state RUNTIME_DIRECTORY=$WORK/run \
        "$LOCALAUTHD" --socket "$SOCK" --config "$CONF" --demo >"$WORK/daemon.log" 2>&1 &
    DAEMON=$!
    wait_for 10 test -S "$SOCK" || die "daemon did not create $SOCK: $(cat "$WORK/daemon.log")"
}

# journal_json MATCH...: the matching entries as JSON lines.
journal_json() { journalctl --no-pager -o json "$@" 2>/dev/null; }
# entries_with N MATCH...: whether at least N entries match (use with wait_for).
entries_with() {
    local n=$1
    shift
    [ "$(journal_json "$@" | grep -c .)" -ge "$n" ]
}
