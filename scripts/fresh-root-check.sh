#!/usr/bin/env bash
# Proves the README's two commands on a fresh Debian 12 root, with nothing
# installed by hand (TESTING.md, "A fresh machine"):
#   1. debootstrap a minimal Debian 12 (bookworm, --variant=minbase) from
#      Debian's packages into DIR/root, with the apt sources a Debian 12
#      install has (bookworm, bookworm-updates, bookworm-security);
#   2. bind-mount the CUDA toolkit (/usr/local/cuda, read-only) and a fresh
#      clone of this checkout's HEAD (at /src) into it;
#   3. inside, as root, with a clean environment: `bash scripts/quickstart.sh`
#      then `bash scripts/test.sh`, each timed.
# Prints a summary and exits non-zero if either command fails. Run as root on
# a machine that can reach Debian's mirrors; about 20 minutes on 2 cores.
#   scripts/fresh-root-check.sh [DIR]      (default /var/tmp/attncc-fresh; emptied first)
# MIRROR=... picks another Debian mirror; KEEP=1 keeps DIR afterwards.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-/var/tmp/attncc-fresh}
mirror=${MIRROR:-http://deb.debian.org/debian}
cuda=$(readlink -f /usr/local/cuda)
[ "$(id -u)" = 0 ] || { echo "fresh-root-check: run as root (debootstrap, chroot, mount)"; exit 2; }
[ -d "$cuda" ] || { echo "fresh-root-check: no CUDA toolkit at /usr/local/cuda"; exit 2; }
command -v debootstrap >/dev/null || { echo "fresh-root-check: needs debootstrap (apt-get install debootstrap)"; exit 2; }
root=$dir/root
mounts=()
cleanup() {
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done
  [ "${KEEP:-0}" = 1 ] || rm -rf "$dir"
}
trap cleanup EXIT
bindmount() { # SRC DST [ro]
  mkdir -p "$2"
  mount --bind "$1" "$2"
  mounts+=("$2")
  [ "${3:-}" = ro ] && mount -o remount,bind,ro "$2"
  return 0
}

rm -rf "$dir"
mkdir -p "$dir"
t0=$(date +%s)
echo "== debootstrap bookworm (minbase) into $root"
debootstrap --variant=minbase bookworm "$root" "$mirror" > "$dir/debootstrap.log" 2>&1 \
  || { tail -20 "$dir/debootstrap.log"; exit 1; }
rm -f "$root/etc/apt/sources.list"
cat > "$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${mirror%/debian}/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
cp /etc/resolv.conf "$root/etc/resolv.conf"
echo "debootstrap: $(( $(date +%s) - t0 )) s; $(chroot "$root" dpkg-query -f '.\n' -W | wc -l) packages"

echo "== a fresh clone of $(git -C "$repo" rev-parse --short HEAD) at /src, CUDA at /usr/local/cuda"
git clone -q --no-hardlinks "$repo" "$dir/src"
bindmount "$dir/src" "$root/src"
bindmount "$cuda" "$root$cuda" ro
ln -sfn "$cuda" "$root/usr/local/cuda"
bindmount /proc "$root/proc"
bindmount /sys "$root/sys"
bindmount /dev "$root/dev"

inside() { # NAME COMMAND: runs COMMAND in /src inside the root, timed
  local s=$(date +%s) rc=0
  echo "== $2"
  chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/bash -c "cd /src && $2" > "$dir/$1.log" 2>&1 || rc=$?
  tail -25 "$dir/$1.log"
  echo "$1: exit $rc after $(( $(date +%s) - s )) s"
  return $rc
}
status=0
inside quickstart "bash scripts/quickstart.sh" || status=1
inside test "bash scripts/test.sh" || status=1
echo "== fresh-root-check: $([ $status = 0 ] && echo PASSED || echo FAILED) at commit" \
     "$(git -C "$repo" rev-parse --short HEAD), $(( $(date +%s) - t0 )) s in all"
[ "${KEEP:-0}" = 1 ] && echo "logs and the root stay in $dir"
exit $status
