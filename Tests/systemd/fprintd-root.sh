# The root file system of the fprintd containers, sourced by fprintd-sudo.sh and login-password.sh:
# the package test's cache, plus fprintd, libpam-fprintd, polkitd, sudo, openssh and libpam-systemd,
# in a derived cache of its own ($LOCALAUTHD_FPRINTD_CACHE, default
# /var/cache/localauthd-test/rootfs-fprintd), built once. Sets BASE and CACHE.
export LOCALAUTHD_NSPAWN_CACHE=${LOCALAUTHD_PACKAGE_CACHE:-/var/cache/localauthd-test/rootfs-package}
export LOCALAUTHD_NSPAWN_EXTRA_PACKAGES=man-db,bash-completion
BASE=$("$HERE/rootfs.sh") || die "could not build the container root file system"
CACHE=${LOCALAUTHD_FPRINTD_CACHE:-/var/cache/localauthd-test/rootfs-fprintd}
EXTRA="fprintd libpam-fprintd polkitd sudo openssh-server openssh-client libpam-systemd"
MARKER=.localauthd-fprintd-complete
if [ "$(cat "$CACHE/$MARKER" 2>/dev/null)" != "$(cat "$BASE/.localauthd-rootfs-complete") + $EXTRA" ]; then
    echo "$HARNESS: adding $EXTRA to a copy of $BASE" >&2
    build=$(mktemp -d "$CACHE.build.XXXXXX")
    cp -a --reflink=auto "$BASE/." "$build/" || die "cannot copy $BASE"
    # shellcheck disable=SC2086
    unshare -m --propagation private bash -c 'mount -n -t proc proc "$1/proc" &&
        DEBIAN_FRONTEND=noninteractive chroot "$1" apt-get install -y -q --no-install-recommends ${@:2}' \
        extra "$build" $EXTRA >"$build.log" 2>&1 \
        || { tail -n 30 "$build.log" >&2; rm -rf "$build" "$build.log"; die "apt-get install $EXTRA failed"; }
    rm -f "$build.log" "$build"/var/cache/apt/archives/*.deb
    # The container shares the host's network: no sshd on port 22, only the test's private one.
    systemctl --root="$build" disable ssh.service ssh.socket >/dev/null 2>&1
    systemctl --root="$build" mask ssh.service ssh.socket >/dev/null 2>&1
    echo "$(cat "$BASE/.localauthd-rootfs-complete") + $EXTRA" >"$build/$MARKER"
    rm -rf "$CACHE"
    mv -T "$build" "$CACHE"
fi
