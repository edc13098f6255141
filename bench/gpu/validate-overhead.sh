#!/bin/sh
# Measures the overhead of validation (GPUKVET_VALIDATE=1: every launch run
# again on the cpu backend from a copy of its inputs, and every buffer
# compared) for saxpy over 2^26 float32 on the cuda backend.
#
# Build here (no cgo):   CGO_ENABLED=0 go test -c -o gpubench.test ./bench/gpu
# Run on the GPU machine, beside gpubench.test:
#   sh validate-overhead.sh > validate-h200.txt
set -e
B=./gpubench.test
run() { echo "== $*"; env "$@" $B -test.run='^$' -test.bench='^BenchmarkSaxpy$' -test.benchtime=10x -test.count=3; }
nproc; nvidia-smi --query-gpu=name --format=csv,noheader || true
run GPUKVET_VALIDATE=0
run GPUKVET_VALIDATE=1
run GPUKVET_VALIDATE=1 GPUKVET_VALIDATE_EVERY=10
