#!/bin/sh
# Finds the optimizer pass after which a generated kernel goes wrong on a
# GPU backend: runs it from modules built with the optimizer's first n
# passes only (GPUKVET_GEN_PASSES, codegen/generated_test.go), one line
# per n. This is how R022 was traced to the unroll pass on NVIDIA's Vulkan
# (testdata/generated/RESULTS.md).
#
# Prepare here, in the repository root (the GPU machine has no Go):
#
#	mkdir -p .dev/bisect/genmod
#	CGO_ENABLED=0 go test -c -o .dev/bisect/codegen.test ./codegen
#	for n in $(seq 0 27); do (cd codegen && GPUKVET_GEN_PASSES=$n \
#	    GPUKVET_GEN_SAVE=$PWD/../.dev/bisect/genmod go test -count=1 \
#	    -run '^TestGeneratedRandom$' .); done
#	xz .dev/bisect/codegen.test .dev/bisect/genmod/*.json
#	cp -r .dev/run/gl .dev/bisect/   # the Vulkan loader's packages, as for h200-run.sh
#
# (the operator suite: TestGeneratedOps and SUITE=Ops). Keep the carried
# folder under the device tool's limit: drop modules identical to another
# n. Then there, carrying .dev/bisect:
#
#	sh bench/gpu/bisect-passes.sh '^R022$' [vulkan|cuda] [Random|Ops]
ONLY=${1:?a regexp of kernel names} BACKEND=${2:-vulkan} SUITE=${3:-Random}
B=$PWD/.dev/bisect
pkg=$(echo $SUITE | tr A-Z a-z)
if [ -d $B/gl ]; then for f in $B/gl/*.deb; do dpkg -x $f /; done; ldconfig; fi
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=/usr/local/nvidia/lib64:/usr/local/nvidia/lib:${LD_LIBRARY_PATH:-}
(cd $B && for f in *.xz genmod/*.xz; do [ -f "$f" ] && xz -d -T0 "$f"; done; chmod +x codegen.test)
cd codegen
for f in $B/genmod/$pkg-passes-*.json; do
	n=${f##*passes-}
	n=${n%.json}
	r=$(env GPUKVET_GEN_PASSES=$n GPUKVET_GEN_LOAD=$B/genmod GPUKVET_GEN_BACKENDS=$BACKEND GPUKVET_GEN_VULKAN=all GPUKVET_GEN_ONLY="$ONLY" \
		$B/codegen.test -test.run "^TestGenerated$SUITE\$" -test.v 2>&1 | grep -E "generated_test.go:[0-9]+: ($BACKEND:|.*mismatching)" | cut -c1-200)
	echo "passes=$n: $r"
done | sort -t= -k2 -n
