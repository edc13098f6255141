#!/bin/sh
# compare-gpukvet.sh BASE [SEED] runs gpukvet as built at commit BASE and as
# in the working tree on 300 random kernels (scripts/gen-random-kernels.go)
# and says whether they agree: the findings (JSON) must be byte-identical,
# and, with every finding suppressed so that each kernel builds, the PTX,
# SPIR-V and LLVM modules and manifests of every package too. For a change
# that must not change behaviour (a refactor), on code neither version saw.
set -eu
base=$1 seed=${2:-19}
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'git -C "$repo" worktree remove --force "$tmp/base" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
git -C "$repo" worktree add -q "$tmp/base" "$base"
(cd "$tmp/base" && go build -o "$tmp/gk-base" ./cmd/gpukvet)
(cd "$repo" && go build -o "$tmp/gk-head" ./cmd/gpukvet)

mod=$tmp/mod
go run "$repo/scripts/gen-random-kernels.go" "$mod" "$seed"
printf 'module example.com/rv\n\ngo 1.26.0\n\nrequire github.com/gpukvet/gpukvet v0.0.0\n\nreplace github.com/gpukvet/gpukvet => %s\n' "$repo" >"$mod/go.mod"
cp "$repo/go.sum" "$mod/go.sum"

status=0
for v in base head; do
	(cd "$mod" && "$tmp/gk-$v" -f=json ./... >"$tmp/findings-$v.json" || true)
done
if cmp -s "$tmp/findings-base.json" "$tmp/findings-head.json"; then
	echo "findings: identical ($(grep -c '"analyzer"' "$tmp/findings-head.json") on 300 kernels)"
else
	echo "findings differ:"; diff "$tmp/findings-base.json" "$tmp/findings-head.json" | head -20; status=1
fi

# Suppress every finding on its line, so that every kernel builds.
# posn is relative to $mod; the lines go bottom up so that each insertion
# leaves the lines above it where they were.
grep -o '"posn": "[^"]*"' "$tmp/findings-head.json" | sed 's/.*"\(.*\):\([0-9]*\):[0-9]*"/\1 \2/' | sort -u -k1,1 -k2,2nr |
	while read -r file line; do
		sed -i "${line}i //gpukvet:ignore races,divergence generated program" "$mod/$file"
	done
for v in base head; do
	mkdir -p "$tmp/out-$v"
	for p in "$mod"/p*; do
		for target in ptx spirv llvm-amdgcn; do
			(cd "$mod" && "$tmp/gk-$v" build -target=$target -o "$tmp/out-$v/${p##*/}.$target" "./${p##*/}" >/dev/null) || status=1
		done
	done
done
if diff -r "$tmp/out-base" "$tmp/out-head" >/dev/null; then
	echo "modules: identical ($(ls "$tmp/out-head" | grep -vc json) modules)"
else
	echo "modules differ:"; diff -rq "$tmp/out-base" "$tmp/out-head" | head; status=1
fi
exit $status
