#!/usr/bin/env bash
# Measures what gpukvet costs as a vet tool per package on code that does
# not use the dialect (issue 24 item 8): the CPU time of the vet tool
# processes alone, with every package already compiled, against a vet tool
# that runs no analysis (cmd/gpukvet/internal/noopvet).
#
# One `go vet -work -x` with the no-op tool leaves a vet.cfg for every
# package go vet visits (the packages named and, for their facts, every
# dependency). Each tool then runs on every vet.cfg directly, in go vet's
# order, in its own copy of the work folder (facts of one tool are not read
# by another), under /usr/bin/time; the user+system seconds are summed.
# The tools take turns on each vet.cfg.
#
#   scripts/bench-vet-nodialect.sh [PATTERN ...]   # default: x/tools, gonum and pebble
#   ROUNDS=3 scripts/bench-vet-nodialect.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
rounds=${ROUNDS:-2}
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
[[ -x /usr/bin/time ]] || { echo "needs /usr/bin/time (Debian's time package)" >&2; exit 2; }

commit=$(git rev-parse --short HEAD) # of the tools built now
# A build ID of its own makes this no-op tool new to go vet, whose cache of
# vet results would otherwise skip every package it vetted before.
go build -ldflags="-buildid=bench-$(date +%s%N)" -o "$tmp/noopvet" ./cmd/gpukvet/internal/noopvet
go build -o "$tmp/gpukvet" ./cmd/gpukvet
go build -o "$tmp/gpukvet-vet" ./cmd/gpukvet-vet
tools=(noopvet gpukvet gpukvet-vet)

# A module that requires what is vetted, so that go vet can load it.
mod=$tmp/mod
mkdir -p "$mod"
if [[ $# -eq 0 ]]; then
	set -- golang.org/x/tools/... gonum.org/v1/gonum/... github.com/cockroachdb/pebble/...
	# -t: go vet builds the packages' tests too.
	(cd "$mod" && go mod init vetcost >/dev/null 2>&1 &&
		go get -t golang.org/x/tools/...@v0.52.0 gonum.org/v1/gonum/...@v0.17.0 github.com/cockroachdb/pebble/...@v1.1.5 >/dev/null 2>&1)
else
	(cd "$mod" && cp "$root/go.mod" "$root/go.sum" . && sed -i 's|^module .*|module vetcost|' go.mod && echo "replace github.com/gpukvet/gpukvet => $root" >>go.mod)
fi
cd "$mod"
go build "$@" >/dev/null 2>&1 || true # compile everything first: only vet is timed
go vet -work -x -vettool="$tmp/noopvet" "$@" >"$tmp/vet.log" 2>&1 || true
work=$(sed -n 's/^WORK=//p' "$tmp/vet.log" | head -1)
[[ -d $work ]] || { echo "go vet -work left no work folder:" >&2; tail -20 "$tmp/vet.log" >&2; exit 1; }
mapfile -t cfgs < <(cd "$work" && ls -tr --time=ctime */vet.cfg 2>/dev/null)
echo "# vet tool CPU (user+sys) over ${#cfgs[@]} vet.cfg files of go vet $*"
echo "# $(go version), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%M:%SZ), tools built at commit $commit"
for tool in "${tools[@]}"; do
	cp -r "$work" "$tmp/work-$tool"
	(cd "$tmp/work-$tool" && sed -i "s|$work|$tmp/work-$tool|g" "${cfgs[@]}")
	ls -la "$tmp/$tool" | awk -v t="$tool" '{printf "# %s: %d bytes\n", t, $5}'; done

# One round runs the tools in turn on each vet.cfg, so that the machine's
# drift (other work, frequency) falls on all of them alike.
for tool in "${tools[@]}"; do : >"$tmp/$tool.time"; done
cpu() { awk 'NF == 2 && $1 ~ /^[0-9.]+$/ {s += $1 + $2} END {printf "%.2f", s}' "$tmp/$1.time"; }
for r in $(seq "$rounds"); do
	for c in "${cfgs[@]}"; do
		for tool in "${tools[@]}"; do
			(cd "$tmp/work-$tool/$(dirname "$c")" && /usr/bin/time -a -o "$tmp/$tool.time" -f "%U %S" "$tmp/$tool" "$tmp/work-$tool/$c" >/dev/null 2>&1) || true
		done
	done
	for tool in "${tools[@]}"; do
		echo "after round $r: $tool $(cpu "$tool") s"
	done
done
for tool in gpukvet gpukvet-vet; do
	awk -v a="$(cpu "$tool")" -v b="$(cpu noopvet)" -v t="$tool" 'BEGIN {printf "ratio %s/noopvet: %.3f\n", t, a / b}'
done
chmod -R u+w "$work" && rm -rf "$work"
