#!/bin/sh
# install-ptxas.sh installs NVIDIA's PTX assembler (ptxas) without a GPU and
# without root-wide changes: it downloads Debian's non-free nvidia-cuda-toolkit
# package into a private cache and unpacks it there. The apt source is derived
# from the machine's own sources file (with Components: non-free), so no
# package host is named here.
#
# Prints the path of ptxas on success. Idempotent: a second run finds the
# cached binary and does nothing else. Override the cache with PTXAS_CACHE.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
cache=${PTXAS_CACHE:-$root/.cache/ptxas}
bin=$cache/usr/bin/ptxas

if [ -x "$bin" ] && "$bin" --version >/dev/null 2>&1; then
	echo "$bin"
	exit 0
fi
if command -v ptxas >/dev/null 2>&1 && [ -z "${PTXAS_FORCE_DOWNLOAD:-}" ]; then
	command -v ptxas
	exit 0
fi

src=/etc/apt/sources.list.d/debian.sources
if [ ! -r "$src" ]; then
	echo "install-ptxas: $src not found; cannot derive an apt source for non-free" >&2
	exit 1
fi

mkdir -p "$cache/apt/lists/partial" "$cache/apt/archives/partial" "$cache/deb"
# The first stanza of the system's sources, with its components replaced by non-free.
awk 'BEGIN{RS=""; ORS="\n\n"} NR==1 {gsub(/Components:[^\n]*/, "Components: non-free"); print}' "$src" >"$cache/apt/nonfree.sources"

aptopts="-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts=$cache/apt/srcparts -o Dir::State::Lists=$cache/apt/lists -o Dir::Cache::Archives=$cache/apt/archives -o Dir::State::Status=/var/lib/dpkg/status -o Debug::NoLocking=1"
mkdir -p "$cache/apt/srcparts"
cp "$cache/apt/nonfree.sources" "$cache/apt/srcparts/nonfree.sources"

if ! ls "$cache"/deb/nvidia-cuda-toolkit_*.deb >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	apt-get $aptopts update >&2
	(cd "$cache/deb" && apt-get $aptopts download nvidia-cuda-toolkit >&2)
fi
deb=$(ls "$cache"/deb/nvidia-cuda-toolkit_*.deb | head -n 1)
dpkg -x "$deb" "$cache"
if [ ! -x "$bin" ]; then
	echo "install-ptxas: $deb holds no usr/bin/ptxas" >&2
	exit 1
fi
"$bin" --version >/dev/null
echo "$bin"
