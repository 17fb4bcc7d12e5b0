# Boots a root file system under systemd-nspawn and drives it; sourced by package.sh (the
# steps of nspawn.sh, as functions). The caller sets NAME, RUN and ROOT (a copy of the
# cached root) and calls container_boot, then cx COMMAND..., then container_stop; the EXIT
# trap calls container_cleanup, which stops the container, removes its cgroups and RUN.
NSPAWN=
CGROUPS=()

# container_root_with_daemon: $ROOT a copy of $ROOTFS with $LOCALAUTHD installed by systemd/install.mk
# (the binaries, the units, the configuration; a localauthctl that only fails, for the scripts that
# need none); what make printed in $RUN/install.log.
container_root_with_daemon() {
    cp -a --reflink=auto "$ROOTFS" "$ROOT" || die "cannot copy $ROOTFS"
    chmod 0755 "$ROOT"
    mkdir -p "$RUN/bin"
    cp "$LOCALAUTHD" "$RUN/bin/localauthd"
    printf '#!/bin/sh\nexit 1\n' >"$RUN/bin/localauthctl"
    chmod +x "$RUN/bin/localauthctl"
    printf 'include %s/systemd/install.mk\n' "$REPO" >"$RUN/Makefile"
    make -s -C "$RUN" install-localauthd-binaries install-localauthd-systemd install-localauthd-config \
        DESTDIR="$ROOT" PREFIX=/usr BINDIR_BUILD="$RUN/bin" >"$RUN/install.log" 2>&1 \
        || die "make install (systemd/install.mk) failed: $(cat "$RUN/install.log")"
}

container_cleanup() {
    if [ -n "$NSPAWN" ] && ! gone "$NSPAWN"; then
        kill -TERM "$NSPAWN" 2>/dev/null
        wait_for 10 gone "$NSPAWN" || kill -KILL "$NSPAWN" 2>/dev/null
        wait "$NSPAWN" 2>/dev/null
    fi
    local group
    for group in "${CGROUPS[@]}"; do
        [ -d "$group" ] || continue
        # Anything still in there is ours: kill it, then remove the tree bottom-up.
        find "$group" -name cgroup.procs -exec cat {} + 2>/dev/null | xargs -r kill -KILL 2>/dev/null
        wait_for 5 bash -c "! find '$group' -name cgroup.procs -exec cat {} + 2>/dev/null | grep -q ."
        find "$group" -depth -type d -exec rmdir {} \; 2>/dev/null
        [ -d "$group" ] && echo "$HARNESS: WARNING: could not remove cgroup $group" >&2
    done
    if [ "${LOCALAUTHD_KEEP_RUN:-0}" = 1 ]; then echo "kept $RUN"; else rm -rf "$RUN"; fi
}

# cx COMMAND...: runs the command inside the container (all its namespaces, a clean environment).
cx() {
    nsenter -t "$PID1" -m -u -i -n -p -C -r -w \
        env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"
}

# container_boot: boots ROOT in a private mount namespace and its own cgroups, waits until
# systemd inside is running; sets NSPAWN and PID1 (exported, with cx, for `bash -c` checks).
container_boot() {
    local hierarchy state
    for hierarchy in systemd unified; do
        [ -d "/sys/fs/cgroup/$hierarchy" ] && CGROUPS+=("/sys/fs/cgroup/$hierarchy/$NAME")
    done
    [ ${#CGROUPS[@]} -gt 0 ] || die "no /sys/fs/cgroup/systemd or /sys/fs/cgroup/unified hierarchy"
    # LOCALAUTHD_NSPAWN_ARGS: more systemd-nspawn options, split on spaces (login-keyring.sh's
    # --system-call-filter=@memlock: nspawn's own filter refuses mlock, which the daemon and
    # gnome-keyring need for the kept password).
    export NAME ROOT LOCALAUTHD_NSPAWN_ARGS=${LOCALAUTHD_NSPAWN_ARGS:-}
    unshare -m --propagation private bash -c '
        set -e
        mount -n -t tmpfs tmpfs /run/systemd
        for group in "$@"; do mkdir -p "$group"; echo $$ >"$group/cgroup.procs"; done
        exec systemd-nspawn -D "$ROOT" -M "$NAME" --boot --register=no --keep-unit \
            --console=read-only $LOCALAUTHD_NSPAWN_ARGS
    ' launcher "${CGROUPS[@]}" >"$RUN/console.log" 2>&1 &
    NSPAWN=$!
    wait_for 20 bash -c "ps --ppid $NSPAWN -o comm= 2>/dev/null | grep -qx systemd" \
        || die "the container did not start: $(tail -n 20 "$RUN/console.log")"
    PID1=$(ps --ppid "$NSPAWN" -o pid=,comm= 2>/dev/null | awk '$2 == "systemd" { print $1; exit }')
    [[ ${PID1:-} =~ ^[1-9][0-9]*$ ]] || die "cannot find the container's PID 1"
    export PID1
    export -f cx
    wait_for 20 cx test -S /run/systemd/private || die "systemd in the container never created /run/systemd/private"
    state=$(cx timeout 60 systemctl is-system-running --wait 2>&1)
    if [[ $state == running ]]; then
        pass "container booted: $state"
    else
        fail "container state '$state'; failed units: $(cx systemctl --failed --no-legend --plain | tr '\n' ';')"
    fi
}

# container_stop: SIGTERM to nspawn, then cleanup; checks nothing is left behind.
container_stop() {
    kill -TERM "$NSPAWN"
    if wait_for 20 gone "$NSPAWN"; then
        wait "$NSPAWN" 2>/dev/null
        NSPAWN=
        pass "container stopped"
    else
        fail "container did not stop on SIGTERM"
    fi
    container_cleanup
    trap - EXIT
    local leftover
    leftover=$(for g in "${CGROUPS[@]}"; do [ -d "$g" ] && echo "$g"; done)
    check "no cgroup left behind" test -z "$leftover"
    check "no process of the container left" bash -c "! ps -eo args | grep -v grep | grep -q -- '-M $NAME'"
}
