#!/bin/sh
# install-vulkan.sh installs the Vulkan loader (Debian's libvulkan1) and
# Mesa's lavapipe (mesa-vulkan-drivers: a conformant Vulkan 1.3 driver that
# runs on the CPU), so that the vulkan backend's tests and the differential
# suite run real Vulkan compute on a machine without a GPU. Idempotent;
# prints the path of lavapipe's ICD json (or, where another driver is
# installed and lavapipe is not, of libvulkan.so.1) on its last line.
# Without root or apt it prints a message and exits 0: the Vulkan tests skip.
set -eu

find_icd() {
	for d in /usr/share/vulkan/icd.d /etc/vulkan/icd.d /usr/local/share/vulkan/icd.d; do
		for f in "$d"/lvp_icd*.json; do
			[ -e "$f" ] && { echo "$f"; return 0; }
		done
	done
	return 1
}
find_loader() {
	for f in /usr/lib/x86_64-linux-gnu/libvulkan.so.1 /usr/lib/aarch64-linux-gnu/libvulkan.so.1 /usr/lib64/libvulkan.so.1 /usr/lib/libvulkan.so.1; do
		[ -e "$f" ] && { echo "$f"; return 0; }
	done
	ldconfig -p 2>/dev/null | awk '/libvulkan\.so\.1 /{print $NF; exit}' | grep . 
}

if loader=$(find_loader) && icd=$(find_icd); then
	echo "$loader" >&2
	echo "$icd"
	exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "install-vulkan: not root or no apt-get; the Vulkan tests will skip" >&2
	if loader=$(find_loader); then
		echo "$loader"
	fi
	exit 0
fi
pkgs="libvulkan1 mesa-vulkan-drivers"
if ! apt-get install -y --no-install-recommends $pkgs >&2; then
	apt-get update >&2
	apt-get install -y --no-install-recommends $pkgs >&2
fi
loader=$(find_loader) || { echo "install-vulkan: libvulkan.so.1 not found after installing libvulkan1" >&2; exit 1; }
echo "$loader" >&2
icd=$(find_icd) || { echo "install-vulkan: lavapipe's ICD (lvp_icd*.json) not found after installing mesa-vulkan-drivers" >&2; exit 1; }
echo "$icd"
