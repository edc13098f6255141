#!/bin/sh
# Runs every twin of a suite's twins.cu on the host (g++, a thread per CUDA
# thread: emu.h) on the inputs of the suite's cases at their checking size
# and compares the outputs with the Go kernels' on the cpu backend, so that
# a twin that computes something else is found without a GPU. Usage, in
# the repository root: sh bench/internal/twinharness/cuemu/run.sh bench/heldout
# Code that relies on warp-synchronous execution (SHOC's reduce in
# bench/heldout) races on host threads and is reported as differing.
set -e
suite=$1
E=$(cd "$(dirname "$0")" && pwd)
D=$(mktemp -d)
trap 'rm -rf $D' EXIT
GPUKVET_TWINS_DUMP=$D go test "./$suite" -run '^TestDumpTwins$' -count=1 >/dev/null
names=$(cd $D && ls *.bin | sed 's/\.bin$//')
list=$(for n in $names; do printf 'K(%s),' $n; done)
g++ -std=c++20 -O1 -pthread -w -I"$E" -DTWINS="\"$PWD/$suite/twins.cu\"" "-DKERNELS=$list" -o $D/cuemu "$E/main.cpp"
fail=0
for n in $names; do $D/cuemu $n $D/$n.bin || fail=1; done
exit $fail
