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
echo "findings by analyzer (last run):"
awk -F': ' '/^[^\t]/ {n[$2]++} END {for (a in n) printf "  %-12s %d\n", a, n[a]}' "$tmp/out" | sort
if [[ -s $tmp/err ]]; then
	echo "errors (last run):"
	sed 's/^/  /' "$tmp/err"
fi
