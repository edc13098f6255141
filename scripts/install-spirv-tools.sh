#!/bin/sh
# install-spirv-tools.sh installs SPIRV-Tools (Debian's spirv-tools: spirv-val,
# spirv-dis, spirv-opt), which the codegen tests use to validate every SPIR-V
# module the emitter (codegen/spirv) writes, with
# spirv-val --target-env vulkan1.2. Idempotent; prints spirv-val's path on
# its last line. Without root or apt it prints a message and exits 0: the
# SPIR-V validation tests skip, saying so.
set -eu

if command -v spirv-val >/dev/null 2>&1; then
	command -v spirv-val
	exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "install-spirv-tools: not root or no apt-get; the SPIR-V validation tests will skip" >&2
	exit 0
fi
if ! apt-get install -y --no-install-recommends spirv-tools >&2; then
	apt-get update >&2
	apt-get install -y --no-install-recommends spirv-tools >&2
fi
command -v spirv-val
