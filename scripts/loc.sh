#!/bin/sh
# Lines of Go per package at two commits, as a Markdown table: code (not
# tests, not generated files) and tests, for every directory outside
# testdata that holds Go files. Usage: scripts/loc.sh BASE [HEAD]
set -eu
base=$1 head=${2:-HEAD}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() { # commit → lines "dir code tests"
	mkdir -p "$tmp/$1" && git archive "$1" | tar -x -C "$tmp/$1"
	(cd "$tmp/$1" && find . -name '*.go' -not -path '*/testdata/*' | sed 's#^\./##' | while read -r f; do
		n=$(wc -l < "$f")
		case "$f" in
		*_test.go) echo "$(dirname "$f") 0 $n" ;;
		*) if head -5 "$f" | grep -q '^// Code generated'; then :; else echo "$(dirname "$f") $n 0"; fi ;;
		esac
	done | awk '{c[$1]+=$2; t[$1]+=$3} END {for (d in c) print d, c[d], t[d]}' | sort)
}
count "$base" > "$tmp/a"
count "$head" > "$tmp/b"
echo "| package | code $base | code $head | tests $base | tests $head |"
echo "| --- | ---: | ---: | ---: | ---: |"
join -a1 -a2 -e - -o 0,1.2,2.2,1.3,2.3 "$tmp/a" "$tmp/b" | awk '{printf "| `%s` | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5}'
awk '{c+=$2; t+=$3} END {printf "| total | %d |", c}' "$tmp/a"; awk '{c+=$2} END {printf " %d |", c}' "$tmp/b"
awk '{t+=$3} END {printf " %d |", t}' "$tmp/a"; awk '{t+=$3} END {printf " %d |\n", t}' "$tmp/b"
