#!/bin/sh
# Installs Debian's faketime package (libfaketime), which `faultbench grade
# --speed N` preloads into the client to run its clock N times fast
# (docs/grade.md#the-warped-clock---speed). Idempotent: does nothing when
# libfaketime is already there; skips, saying so, when not root or
# without apt-get — the specs that need it then skip, naming themselves.
set -eu
for lib in /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 \
	/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1 \
	/usr/lib/faketime/libfaketime.so.1; do
	if [ -e "$lib" ]; then
		echo "install-faketime: $lib is installed"
		exit 0
	fi
done
if [ "$(id -u)" != 0 ]; then
	echo "install-faketime: not root: skipped (the warp's specs will skip)"
	exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "install-faketime: no apt-get: skipped (the warp's specs will skip)"
	exit 0
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq faketime >/dev/null
echo "install-faketime: installed faketime"
