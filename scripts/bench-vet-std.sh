#!/usr/bin/env bash
# Measures what gpukvet costs as a vet tool on code without kernels:
# `go vet -vettool=gpukvet std` against the same command with a vet tool that
# runs no analysis (cmd/gpukvet/internal/noopvet), both with a cold build
# cache (a fresh GOCACHE per run: vet caches its results). Runs alternate
# between the tools; the ratio is taken of the medians. gpukvet must report
# nothing on std.
#
# Besides the whole command's wall and CPU time (which the go command's
# compilation of std dominates, identically for both tools), it sums the CPU
# time of the vet tool processes alone (through /usr/bin/time, when it is
# installed): the strictest measure of what gpukvet adds.
#
#   scripts/bench-vet-std.sh            # 2 runs of each
#   RUNS=5 scripts/bench-vet-std.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-2}
pkgs=${PKGS:-std} # another pattern, for trying the script out
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT

go build -o "$tmp/gpukvet" ./cmd/gpukvet
go build -o "$tmp/noopvet" ./cmd/gpukvet/internal/noopvet

# Each tool runs behind a wrapper that appends its user and system CPU
# seconds to $tmp/TOOL.log.
timer=/usr/bin/time
[[ -x $timer ]] || timer=
for tool in noopvet gpukvet; do
	if [[ -n $timer ]]; then
		printf '#!/bin/sh\nexec %s -a -o %s -f "%%U %%S" %s "$@"\n' "$timer" "$tmp/$tool.log" "$tmp/$tool" >"$tmp/$tool.sh"
	else
		printf '#!/bin/sh\nexec %s "$@"\n' "$tmp/$tool" >"$tmp/$tool.sh"
	fi
	chmod +x "$tmp/$tool.sh"
done

# vet TOOL: runs go vet std with TOOL and a fresh cache; prints
# "wall user+sys" in seconds.
vet() {
	local cache="$tmp/cache-$RANDOM$RANDOM" out="$tmp/out" t
	local TIMEFORMAT='%R %U %S'
	t=$( { time GOCACHE="$cache" GOFLAGS= go vet -vettool="$1.sh" $pkgs >"$out" 2>&1; } 2>&1 ) || {
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

# toolcpu TOOL: the CPU seconds its processes logged since the last call.
toolcpu() {
	local log="$tmp/$1.log" s
	[[ -f $log ]] || { echo 0; return; }
	s=$(awk 'NF == 2 && $1 ~ /^[0-9.]+$/ {s += $1 + $2} END {printf "%.2f", s}' "$log")
	: >"$log"
	echo "$s"
}

for tool in noopvet gpukvet; do : >"$tmp/$tool.wall"; : >"$tmp/$tool.cpu"; : >"$tmp/$tool.tool"; done
echo "# go vet -vettool=X $pkgs, cold GOCACHE per run, $runs runs each, alternating"
echo "# $(go version), $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "# packages: $(go list $pkgs | wc -l) ($pkgs)"
for i in $(seq "$runs"); do
	for tool in noopvet gpukvet; do
		read -r wall cpu < <(vet "$tmp/$tool")
		tc=$(toolcpu "$tool")
		echo "$wall" >>"$tmp/$tool.wall"
		echo "$cpu" >>"$tmp/$tool.cpu"
		echo "$tc" >>"$tmp/$tool.tool"
		printf 'run %d %-8s wall %7.2fs  cpu %7.2fs  vet tool processes cpu %7.2fs\n' "$i" "$tool" "$wall" "$cpu" "$tc"
	done
done
nw=$(median <"$tmp/noopvet.wall"); nc=$(median <"$tmp/noopvet.cpu"); nt=$(median <"$tmp/noopvet.tool")
gw=$(median <"$tmp/gpukvet.wall"); gc=$(median <"$tmp/gpukvet.cpu"); gt=$(median <"$tmp/gpukvet.tool")
echo "median noopvet wall ${nw}s cpu ${nc}s vet tool processes cpu ${nt}s"
echo "median gpukvet wall ${gw}s cpu ${gc}s vet tool processes cpu ${gt}s"
awk -v a="$gw" -v b="$nw" -v c="$gc" -v d="$nc" -v e="$gt" -v f="$nt" 'BEGIN {
	printf "ratio gpukvet/noopvet: wall %.3f, cpu %.3f (limit 1.3)", a / b, c / d
	if (f > 0) printf "; vet tool processes alone: cpu %.3f", e / f
	printf "\n"
	exit (a / b > 1.3 && c / d > 1.3) ? 1 : 0
}'
