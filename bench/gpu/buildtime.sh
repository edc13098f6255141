#!/bin/sh
# Compile time of `gpukvet build -target=ptx` for each example and for all of
# them at once: median of 5 runs, wall-clock and CPU (user+sys) seconds. The
# build loads the packages, runs every gpukvet check and emits PTX. Run from
# the repository root; prints a Markdown table.
set -e
bin=$(mktemp -d)/gpukvet
go build -o "$bin" ./cmd/gpukvet
out=$(mktemp)
echo "| package | kernels | wall s (median of 5) | CPU s (user+sys) |"
echo "| --- | --- | --- | --- |"
for p in saxpy vecadd reduce histogram matmul scan transpose ...; do
	for i in 1 2 3 4 5; do
		/usr/bin/time -f "%e %U %S" "$bin" build -target=ptx -o "$out.ptx" ./examples/$p 2>&1 >/dev/null | tail -1
	done | sort -n | sed -n 3p | {
		read wall user sys
		k=$(grep -c '"entryParams"' "$out.ptx.json")
		echo "| examples/$p | $k | $wall | $(echo "$user + $sys" | bc) |"
	}
done
