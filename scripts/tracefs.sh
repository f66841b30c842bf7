# tracefs.sh - sourced by the scripts that trace the kernel (as root).
#
# tracefs is not always mounted on these machines (2026-12-02: a fresh VM
# had /sys/kernel/tracing empty). tracefs_mount mounts it there when it is
# not, and remembers that it did; tracefs_umount unmounts it again only in
# that case, so a tracefs someone else mounted is left alone.
TRACEFS=/sys/kernel/tracing
tracefs_mounted=

tracefs_mount() {
	if [ ! -d "$TRACEFS/instances" ] && [ -d "$TRACEFS" ] && ! mountpoint -q "$TRACEFS"; then
		mount -t tracefs nodev "$TRACEFS" && tracefs_mounted=1
	fi
	return 0
}

tracefs_umount() {
	[ -z "$tracefs_mounted" ] || umount "$TRACEFS"
	tracefs_mounted=
}
