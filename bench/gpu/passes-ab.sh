#!/bin/sh
# Times the twin suites against nvcc built with some kernel-IR optimizer
# passes left out, in one device call: what a pass buys or costs on the GPU
# (gpukvet gen -skip-passes). The GPU machine has no Go toolchain, so the
# variants are built here.
#
# Here, in the repository root (the variants are of HEAD, built in a
# scratch worktree: uncommitted changes are not in them):
#
#	sh bench/gpu/passes-ab.sh prepare NAME PASSES [NAME PASSES ...]
#
# e.g. `prepare all "" nort unroll-runtime` builds, for each suite of
# $SUITES (default heldout; also kernels), SUITE-all.test with every pass
# and SUITE-nort.test without unroll-runtime, into .dev/ab. There,
# carrying .dev/ab:
#
#	sh bench/gpu/passes-ab.sh run
#
# writes $OUT/twins-SUITE-NAME.md per variant (at most 7 come back with the
# log) and prints each table's geomean. Each variant runs the whole suite
# with its own nvcc twins, so the ratios compare across variants even
# where the GPU's clocks drift between them.
A=$PWD/.dev/ab
SUITES=${SUITES:-heldout}
case ${1:?prepare NAME PASSES ... or run} in
prepare)
	shift
	[ $# -ge 2 ] || { echo "prepare wants pairs of NAME and PASSES" >&2; exit 2; }
	rm -rf $A && mkdir -p $A
	W=$(mktemp -d)/tree
	git worktree add -q --detach $W HEAD || exit 1
	trap 'git worktree remove --force $W' EXIT
	while [ $# -ge 2 ]; do
		name=$1 skip=$2
		shift 2
		for s in $SUITES; do
			(cd $W && go run ./cmd/gpukvet gen ${skip:+-skip-passes=$skip} ./bench/$s >/dev/null &&
				CGO_ENABLED=0 go test -c -ldflags=-s -o $A/$s-$name.test ./bench/$s &&
				git checkout -q -- bench/$s) || exit 1
			echo "$s-$name: -skip-passes=$skip" >> $A/variants.txt
		done
	done
	git rev-parse --short HEAD > $A/commit
	gzip $A/*.test
	cat $A/variants.txt; du -sh $A ;;
run)
	(cd $A && gzip -d -f *.test.gz && chmod +x *.test)
	for s in $SUITES; do
		nvcc -O3 -arch=sm_90 -cubin -o /tmp/$s.cubin bench/$s/twins.cu || exit 1
	done
	C=$(cat $A/commit)
	for t in $A/*.test; do
		n=$(basename $t .test) s=${n%%-*}
		(cd bench/$s && GPUKVET_COMMIT="$C, $(grep "^$n:" $A/variants.txt)" GPUKVET_TWINS_CUBIN=/tmp/$s.cubin GPUKVET_TWINS_OUT=$OUT/twins-$n.md \
			timeout ${LIMIT:-100} $t -test.run '^TestTwins$' -test.timeout ${LIMIT:-100}s >> $OUT/log.txt 2>&1
		echo "$n rc=$?")
	done
	for f in $OUT/twins-*.md; do echo "== $f"; grep geomean $f; done ;;
esac
