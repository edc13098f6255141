#!/usr/bin/env bash
# Measures `gpukvet ./...` (the standalone driver: go/packages loads every
# package and its dependencies from source, then the whole suite runs) on
# this repository. Prints wall and CPU time per run, and what gpukvet found.
#
#   scripts/bench-gpukvet-repo.sh          # 3 runs
#   RUNS=5 scripts/bench-gpukvet-repo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/gpukvet" ./cmd/gpukvet

echo "# gpukvet ./... on this repository, $runs runs"
echo "# $(go version), $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "# packages: $(go list ./... 2>/dev/null | wc -l) (with test variants and dependencies loaded from source)"
for i in $(seq "$runs"); do
	TIMEFORMAT='%R %U %S'
	set +e
	t=$( { time "$tmp/gpukvet" ./... >"$tmp/out" 2>"$tmp/err"; } 2>&1 )
	code=$?
	set -e
	awk -v i="$i" -v c="$code" '{printf "run %d: wall %.2fs cpu %.2fs exit %d\n", i, $1, $2 + $3, c}' <<<"$t"
done
# go vet caches results under the tool binary's content hash: a copy with
# bytes appended after the ELF image (ignored when it runs) is a new tool,
# so the first go vet run analyzes every package and its dependencies (with
# the compiled dependencies in the build cache), and the second is a cache
# hit.
cp "$tmp/gpukvet" "$tmp/gpukvet-vet"
printf 'bench %s %s' "$(date +%s%N)" "$RANDOM" >>"$tmp/gpukvet-vet"
for i in 1 2; do
	TIMEFORMAT='%R %U %S'
	set +e
	t=$( { time go vet -vettool="$tmp/gpukvet-vet" ./... >"$tmp/vetout" 2>&1; } 2>&1 )
	code=$?
	set -e
	what=$([[ $i == 1 ]] && echo "fresh tool" || echo "cached")
	awk -v w="$what" -v c="$code" -v n="$(grep -c . "$tmp/vetout")" '{printf "go vet -vettool=gpukvet ./... (%s): wall %.2fs cpu %.2fs exit %d, %d lines of output\n", w, $1, $2 + $3, c, n}' <<<"$t"
done
echo "findings by analyzer (last run):"
awk -F': ' '/^[^\t]/ {n[$2]++} END {for (a in n) printf "  %-12s %d\n", a, n[a]}' "$tmp/out" | sort
if [[ -s $tmp/err ]]; then
	echo "errors (last run):"
	sed 's/^/  /' "$tmp/err"
fi
