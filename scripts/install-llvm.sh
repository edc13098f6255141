#!/bin/sh
# install-llvm.sh installs LLVM 19's llc and ld.lld from Debian (packages
# llvm-19 and lld-19), which `gpukvet build -target=hsaco` and the codegen
# tests use to compile the LLVM IR that codegen/llvm emits for AMD GPUs (and
# for LLVM's NVPTX back end). Idempotent; prints llc's path.
# Without root or apt it prints a message and exits 0: the LLVM tests skip.
set -eu

if command -v llc-19 >/dev/null 2>&1 && command -v ld.lld-19 >/dev/null 2>&1; then
	command -v llc-19
	exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "install-llvm: not root or no apt-get; the LLVM IR tests will skip" >&2
	exit 0
fi
if ! apt-get install -y --no-install-recommends llvm-19 lld-19 >&2; then
	apt-get update >&2
	apt-get install -y --no-install-recommends llvm-19 lld-19 >&2
fi
command -v llc-19
