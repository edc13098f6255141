#!/usr/bin/env bash
# Measures what gpukvet costs as a vet tool on code without kernels:
# `go vet -vettool=gpukvet std` against the same command with a vet tool that
# runs no analysis (cmd/gpukvet/internal/noopvet), both with a cold build
# cache (a fresh GOCACHE per run: vet caches its results). Runs alternate
# between the tools; the ratio is taken of the medians. gpukvet must report
# nothing on std.
#
#   scripts/bench-vet-std.sh            # 3 runs of each
#   RUNS=5 scripts/bench-vet-std.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT

go build -o "$tmp/gpukvet" ./cmd/gpukvet
go build -o "$tmp/noopvet" ./cmd/gpukvet/internal/noopvet

# vet TOOL: runs go vet std with TOOL and a fresh cache; prints
# "wall user+sys" in seconds.
vet() {
	local cache="$tmp/cache-$RANDOM$RANDOM" out="$tmp/out" t
	local TIMEFORMAT='%R %U %S'
	t=$( { time GOCACHE="$cache" GOFLAGS= go vet -vettool="$1" std >"$out" 2>&1; } 2>&1 ) || {
		echo "go vet -vettool=$(basename "$1") std failed:" >&2
		cat "$out" >&2
		exit 1
	}
	if [[ -s "$out" ]]; then
		echo "go vet -vettool=$(basename "$1") std reported something:" >&2
		cat "$out" >&2
		exit 1
	fi
	chmod -R u+w "$cache" 2>/dev/null || true
	rm -rf "$cache"
	awk '{printf "%.2f %.2f\n", $1, $2 + $3}' <<<"$t"
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

: >"$tmp/noop.wall"; : >"$tmp/noop.cpu"; : >"$tmp/gpukvet.wall"; : >"$tmp/gpukvet.cpu"
echo "# go vet -vettool=X std, cold GOCACHE per run, $runs runs each, alternating"
echo "# $(go version), $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "# packages: $(go list std | wc -l)"
for i in $(seq "$runs"); do
	for tool in noopvet gpukvet; do
		read -r wall cpu < <(vet "$tmp/$tool")
		echo "$wall" >>"$tmp/$tool.wall"
		echo "$cpu" >>"$tmp/$tool.cpu"
		printf 'run %d %-8s wall %6.2fs  cpu %6.2fs\n' "$i" "$tool" "$wall" "$cpu"
	done
done
nw=$(median <"$tmp/noopvet.wall"); nc=$(median <"$tmp/noopvet.cpu")
gw=$(median <"$tmp/gpukvet.wall"); gc=$(median <"$tmp/gpukvet.cpu")
echo "median noopvet wall ${nw}s cpu ${nc}s"
echo "median gpukvet wall ${gw}s cpu ${gc}s"
awk -v a="$gw" -v b="$nw" -v c="$gc" -v d="$nc" 'BEGIN {
	printf "ratio gpukvet/noopvet: wall %.3f, cpu %.3f (limit 1.3)\n", a / b, c / d
	exit (a / b > 1.3 && c / d > 1.3) ? 1 : 0
}'
