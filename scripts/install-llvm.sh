#!/bin/sh
# install-llvm.sh installs LLVM 19's llc from Debian (package llvm-19), which
# the codegen tests use to compile the LLVM IR that codegen/llvm emits for
# AMD GPUs (and for LLVM's NVPTX back end). Idempotent; prints llc's path.
# Without root or apt it prints a message and exits 0: the LLVM tests skip.
set -eu

for name in llc-19 /usr/lib/llvm-19/bin/llc; do
	if command -v "$name" >/dev/null 2>&1; then
		command -v "$name"
		exit 0
	fi
done
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "install-llvm: not root or no apt-get; the LLVM IR tests will skip" >&2
	exit 0
fi
if ! apt-get install -y --no-install-recommends llvm-19 >&2; then
	apt-get update >&2
	apt-get install -y --no-install-recommends llvm-19 >&2
fi
command -v llc-19
