#!/bin/sh
# sandbox.sh DIR COMMAND...: run COMMAND as root in a throw-away copy of this machine: an
# overlay of / (writes go to a tmpfs that vanishes with the mount namespace), so apt-get
# can install our .deb files, remove Debian's PAPI packages they conflict with, or
# install lmod or environment-modules (which conflict with each other) without changing
# the machine. Downloads land in the machine's apt cache (bind-mounted) and are reused.
# Exit status 77 when overlays cannot be mounted here (not root, no overlayfs).
set -eu
dir=$1
shift
mkdir -p "$dir/up" "$dir/root"
if [ "$(id -u)" -ne 0 ] || ! grep -qw overlay /proc/filesystems; then
  echo "SKIPPED: sandbox needs root and overlayfs"; exit 77
fi
exec unshare -m sh -c '
  set -e
  d=$1; shift
  mount -t tmpfs tmpfs "$d/up"
  mkdir -p "$d/up/u" "$d/up/w"
  mount -t overlay overlay -o "lowerdir=/,upperdir=$d/up/u,workdir=$d/up/w" "$d/root"
  for m in proc sys dev; do mount --rbind "/$m" "$d/root/$m"; done
  mount --bind /var/cache/apt/archives "$d/root/var/cache/apt/archives"
  exec chroot "$d/root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive "$@"
' sh "$dir" "$@"
