#!/bin/bash
# Builds (once) and caches a Debian bookworm minbase root file system with
# systemd for nspawn.sh. Prints the root's path. The cache directory is
# $LOCALAUTHD_NSPAWN_CACHE (default /var/cache/localauthd-test/rootfs), with the extra
# packages in $LOCALAUTHD_NSPAWN_EXTRA_PACKAGES (comma separated); it is
# built in a temporary sibling directory and renamed into place atomically.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_root
need_cmd debootstrap unshare

CACHE=${LOCALAUTHD_NSPAWN_CACHE:-/var/cache/localauthd-test/rootfs}
# localauthd needs libsystemd0 (with systemd), libssl3, libsqlite3-0 and tpm2-tss's ESAPI
# (libtss2-*, issue 32) at run time.
PACKAGES=systemd,systemd-sysv,procps,socat,python3,dbus,libssl3,libsqlite3-0
PACKAGES=$PACKAGES,libtss2-esys-3.0.2-0,libtss2-mu0,libtss2-rc0,libtss2-tctildr0
# A harness that needs more (package.sh: man-db, bash-completion) names them here and uses a
# cache of its own, so the shared one keeps its package list.
PACKAGES=$PACKAGES${LOCALAUTHD_NSPAWN_EXTRA_PACKAGES:+,$LOCALAUTHD_NSPAWN_EXTRA_PACKAGES}
# Packages whose maintainer scripts fail under debootstrap (polkitd, for pam-sudo.sh) are installed
# afterwards with apt-get in a chroot: $LOCALAUTHD_NSPAWN_LATE_PACKAGES (space separated).
LATE_PACKAGES=${LOCALAUTHD_NSPAWN_LATE_PACKAGES:-}
MARKER=.localauthd-rootfs-complete

# The cache is valid when it was built with this package list.
if [ -x "$CACHE/lib/systemd/systemd" ] && [ "$(cat "$CACHE/$MARKER" 2>/dev/null)" = "$PACKAGES${LATE_PACKAGES:+ $LATE_PACKAGES}" ]; then
    echo "$CACHE"
    exit 0
fi

# The machine's own Debian mirror (deb822 .sources or one-line .list).
mirror=$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\)\/\{0,1\}[[:space:]]*$/\1/p' \
    /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1)
if [ -z "$mirror" ]; then
    mirror=$(awk '$1 == "deb" && $2 ~ /\/debian\/?$/ { print $2; exit }' \
        /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true)
fi
[ -n "$mirror" ] || die "no Debian mirror found in /etc/apt/sources.list*"

mkdir -p "$(dirname "$CACHE")"
build=$(mktemp -d "$CACHE.build.XXXXXX")
trap 'rm -rf "$build"' EXIT
echo "rootfs.sh: debootstrap bookworm from $mirror into $build" >&2
unshare -m --propagation private debootstrap --variant=minbase --include="$PACKAGES" \
    bookworm "$build" "$mirror" >"$build.log" 2>&1 \
    || { tail -n 30 "$build.log" >&2; rm -f "$build.log"; die "debootstrap failed"; }
if [ -n "$LATE_PACKAGES" ]; then
    # shellcheck disable=SC2086
    unshare -m --propagation private bash -c 'mount -n -t proc proc "$1/proc" &&
        DEBIAN_FRONTEND=noninteractive chroot "$1" apt-get install -y -q --no-install-recommends ${@:2}' \
        late "$build" $LATE_PACKAGES >>"$build.log" 2>&1 \
        || { tail -n 30 "$build.log" >&2; rm -f "$build.log"; die "apt-get install $LATE_PACKAGES in the root failed"; }
fi
rm -f "$build.log" "$build"/var/cache/apt/archives/*.deb
# No getty or network setup to wait for in a test container.
rm -f "$build"/etc/systemd/system/getty.target.wants/* 2>/dev/null || true
echo localauthd-test >"$build/etc/hostname"
: >"$build/etc/machine-id"
# mktemp made the directory 0700: the container's / must be 0755 for its non-root users.
chmod 0755 "$build"
echo "$PACKAGES${LATE_PACKAGES:+ $LATE_PACKAGES}" >"$build/$MARKER"
rm -rf "$CACHE"
mv -T "$build" "$CACHE"
trap - EXIT
echo "$CACHE"
