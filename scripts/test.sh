#!/usr/bin/env bash
# test.sh runs gpukvet's whole test suite on a fresh machine: it installs
# what the tests need (every scripts/install-*.sh, e.g. NVIDIA's ptxas, which
# runs without a GPU), then builds, vets, checks the examples with gpukvet
# itself, and runs every test. Tests that need a GPU skip without one.
#
#   scripts/test.sh            # everything
#   scripts/test.sh -short     # extra flags go to go test
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

for installer in scripts/install-*.sh; do
	[[ -e $installer ]] || continue
	step "$installer"
	out=$(sh "$installer")
	printf '%s\n' "$out"
	# An installer prints the path of what it installed on its last line;
	# if PATH does not find it, append its folder (appended, so that a
	# system folder never shadows the go on PATH).
	tool=$(printf '%s\n' "$out" | tail -n 1)
	if [[ -f $tool && -x $tool && $(command -v "$(basename "$tool")") != "$tool" ]]; then
		PATH="$PATH:$(cd "$(dirname "$tool")" && pwd)"
		export PATH
	fi
done

step "go build ./..."
go build ./...

step "go vet ./..."
go vet ./...

step "gofmt -l (every Go file of the repository is formatted)"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	unformatted=$(git ls-files -z '*.go' | xargs -0 gofmt -l)
else
	unformatted=$(find . -name '*.go' -not -path './.git/*' -print0 | xargs -0 gofmt -l)
fi
if [[ -n $unformatted ]]; then
	printf 'not gofmt-formatted:\n%s\n' "$unformatted"
	exit 1
fi

step "go mod tidy -diff (root and plugins/golangci)"
go mod tidy -diff
(cd plugins/golangci && go mod tidy -diff)

if [[ -d examples ]]; then
	step "gpukvet ./examples/..."
	go run ./cmd/gpukvet ./examples/...
fi

step "gpukvet gen -check (generated GPU code matches its kernels)"
go run ./cmd/gpukvet gen -check ./examples/... ./testdata/differential/kernels/... ./bench/kernels ./bench/heldout ./testdata/phases ./testdata/unseen/s27/clean

# ./... skips testdata folders; these hold runnable test suites of their own:
# the cpu/GPU differential suite, the benchmark-kernel coverage suite, and
# the unseen batches' kernels run on every backend (testdata/unseen).
step "go test ./... ./testdata/differential/... ./testdata/benchkernels/... ./testdata/phases ./testdata/unseen/..."
# codegen's test binary alone runs about 6 minutes on 2 idle cores (the
# generated operator and random suites through every target and lavapipe),
# near go test's default 10-minute limit per binary on a busy runner.
go test -timeout=30m "$@" ./... ./testdata/differential/... ./testdata/benchkernels/... ./testdata/phases ./testdata/unseen/...

# The cpu backend's barriers and atomics must be ordering that Go's race
# detector sees: correct kernels are clean under -race.
race=()
for d in device examples; do
	[[ -d $d ]] && race+=("./$d/...")
done
if ((${#race[@]})); then
	step "go test -race ${race[*]}"
	go test -race "$@" "${race[@]}"
fi

# fuzz PKG TARGET COUNT runs fuzz target TARGET of package PKG for COUNT
# inputs and says how many it ran (the engine's last "execs:" count, the
# seed corpus included), failing if it ran none: a target whose inputs
# each run past the engine's 10 s limit on a loaded runner would
# otherwise fail with "fuzzing process hung" or fuzz nothing.
fuzz() {
	local log execs status=0
	log=$(mktemp)
	go test -run='^$' -fuzz="^$2\$" -fuzztime="$3x" "$1" 2>&1 | tee "$log" || status=$?
	execs=$(sed -n 's/.*execs: \([0-9]*\) .*/\1/p' "$log" | tail -n 1)
	rm -f "$log"
	printf 'fuzz: %s ran %s inputs (of %s asked)\n' "$2" "${execs:-0}" "$3"
	if ((status == 0 && ${execs:-0} == 0)); then
		printf 'fuzz: %s ran no input\n' "$2"
		status=1
	fi
	return "$status"
}

# The runtime's argument and launch-shape checks never panic: a bounded
# fuzzing run from the committed corpora (device/testdata/fuzz).
#
# Budgets are execution counts, not durations: Go 1.26's fuzz coordinator
# can report a bare "context deadline exceeded" when a -fuzztime duration
# ends while a worker is mid-call on a loaded machine (go.dev/issue/75804,
# fixed in Go 1.27), failing CI with no input to blame. A count has no
# deadline to race. Each count is about 10-20 s on a 2-core machine.
step "fuzz: device launch arguments and shapes"
fuzz ./device FuzzLaunchArgs 200000
fuzz ./device FuzzLaunchShape 100000
# Kernel shapes the checks pass must build for every target, with no panic,
# no run-away pass and errors that name the problem (codegen/fuzz_test.go;
# its generator bounds what one input costs, so that each stays well
# within the engine's 10 s on a loaded 2-core runner).
step "fuzz: generated kernel shapes through the checks and every target"
fuzz ./codegen FuzzKernelShapes 60

step "golangci-lint plugin: build a custom golangci-lint and run it"
scripts/test-golangci.sh

step "all tests passed"
