#!/bin/bash
# Starts a private system bus, polkitd and fprintd with libfprint's virtual device, for tests.
# Never touches the host's bus or polkit: everything runs in a private mount namespace where empty
# directories are bound over /run/dbus, the bus-activation directory and polkit's rules.
# Usage: private-stack.sh DIR [activatable]   (prints READY when fprintd answers; runs until killed;
# the pids of everything it started are in DIR/pids). With "activatable", fprintd is not started
# by this script: the bus starts it on the first call to net.reactivated.Fprint (bus activation,
# through DIR/services/net.reactivated.Fprint.service and dbus-daemon's launch helper), as the
# system bus of a real host does, again after each exit.
# Clients outside the namespace use DBUS_SYSTEM_BUS_ADDRESS=unix:path=DIR/bus/system_bus_socket.
# The virtual device's socket is DIR/vdev.sock (one command per connection, e.g. "SCAN print-id").
set -euo pipefail
dir=$(realpath "$1")
mode=${2:-started}
if [ "${LOCALAUTHD_PRIVATE_NS:-}" != 1 ]; then
  exec env LOCALAUTHD_PRIVATE_NS=1 unshare -m --propagation private "$0" "$@"
fi
mkdir -p "$dir/bus" "$dir/services" "$dir/rules" "$dir/state" "$dir/runtime"
mount --bind "$dir/bus" /run/dbus
mount --bind "$dir/services" /usr/share/dbus-1/system-services
mount --bind "$dir/rules" /etc/polkit-1/rules.d
cat > "$dir/rules/50-localauthd-test.rules" <<'RULES'
// Test only: every caller may use fprintd (the service's real rule is in docs/drivers.md).
polkit.addRule(function(action, subject) {
  if (action.id.indexOf("net.reactivated.fprint.") == 0) { return polkit.Result.YES; }
});
RULES
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
trap 'exit 0' TERM INT
echo $$ >>"$dir/pids"
dbus-daemon --system --nofork --nopidfile --address=unix:path=/run/dbus/system_bus_socket &
pids+=($!)
echo $! >>"$dir/pids"
for _ in $(seq 200); do [ -S /run/dbus/system_bus_socket ] && break; sleep 0.01; done
/usr/lib/polkit-1/polkitd --no-debug >"$dir/polkitd.log" 2>&1 &
pids+=($!)
echo $! >>"$dir/pids"
for _ in $(seq 500); do
  dbus-send --system --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner \
    string:org.freedesktop.PolicyKit1 2>/dev/null | grep -q true && break
  sleep 0.01
done
start_fprintd() {
  rm -f "$dir/vdev.sock"
  FP_VIRTUAL_DEVICE="$dir/vdev.sock" FP_DRIVERS_WHITELIST=virtual_device \
    STATE_DIRECTORY="$dir/state" RUNTIME_DIRECTORY="$dir/runtime" \
    /usr/libexec/fprintd -t >>"$dir/fprintd.log" 2>&1 &
  echo $! >"$dir/fprintd.pid"
  echo $! >>"$dir/pids"
}
if [ "$mode" = activatable ]; then
  # The launch helper clears the environment: the virtual device's settings live in a wrapper that
  # also records each activation's pid.
  cat >"$dir/fprintd-activated.sh" <<WRAPPER
#!/bin/sh
echo \$\$ >"$dir/fprintd.pid"
echo \$\$ >>"$dir/pids"
echo activated >>"$dir/activations"
rm -f "$dir/vdev.sock"
export FP_VIRTUAL_DEVICE="$dir/vdev.sock" FP_DRIVERS_WHITELIST=virtual_device
export STATE_DIRECTORY="$dir/state" RUNTIME_DIRECTORY="$dir/runtime"
exec /usr/libexec/fprintd -t >>"$dir/fprintd.log" 2>&1
WRAPPER
  chmod 0755 "$dir/fprintd-activated.sh"
  printf '[D-BUS Service]\nName=net.reactivated.Fprint\nExec=%s\nUser=root\n' \
    "$dir/fprintd-activated.sh" >"$dir/services/net.reactivated.Fprint.service"
  dbus-send --system --type=method_call --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.ReloadConfig
else
  start_fprintd
  pids+=($(cat "$dir/fprintd.pid"))
fi
for _ in $(seq 500); do
  dbus-send --system --print-reply --dest=net.reactivated.Fprint /net/reactivated/Fprint/Manager \
    net.reactivated.Fprint.Manager.GetDefaultDevice >/dev/null 2>&1 && break
  sleep 0.01
done
echo READY
# "restart" on stdin restarts fprintd (tests kill it by the pid in DIR/fprintd.pid first).
while read -r command; do
  if [ "$command" = restart ]; then start_fprintd; echo RESTARTED; fi
done
