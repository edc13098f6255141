#!/bin/sh
# Shrinks a random program whose results on a GPU backend differ from Go's
# (R022 of seed 1 on NVIDIA's Vulkan: testdata/generated/RESULTS.md), one
# level per device call, since the GPU machine has no Go toolchain to build
# the candidates (codegen's TestShrinkOnDevice says how a level works).
#
# Here, in the repository root, once:
#
#	mkdir -p .dev/shrink && cp -r .dev/run/gl .dev/shrink/
#	CGO_ENABLED=0 go test -c -o .dev/shrink/codegen.test ./codegen && xz .dev/shrink/codegen.test
#
# then for each level, here:
#
#	sh bench/gpu/shrink-on-device.sh prepare R022
#
# and there, carrying .dev/shrink (backend vulkan by default):
#
#	sh bench/gpu/shrink-on-device.sh run [vulkan|cuda]
#
# and bring the results back: cp <files_at>/results.txt .dev/shrink/. The
# next "prepare" moves to the smallest candidate that still failed, or,
# when none did, writes the shrunk program to .dev/shrink/shrunk.go.
S=$PWD/.dev/shrink
case ${1:?prepare PROGRAM or run [BACKEND]} in
prepare)
	(cd codegen && GPUKVET_GEN_SHRINK_DIR=$S GPUKVET_GEN_SHRINK_PROG=${2:?a program of testdata/generated/random} \
		go test -count=1 -run '^TestShrinkOnDevice$' -v -timeout 60m .) | grep -v '^=== RUN' ;;
run)
	if [ -d $S/gl ]; then for f in $S/gl/*.deb; do dpkg -x $f /; done; ldconfig; fi
	export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=/usr/local/nvidia/lib64:/usr/local/nvidia/lib:${LD_LIBRARY_PATH:-}
	[ -f $S/codegen.test.xz ] && xz -d -f $S/codegen.test.xz; chmod +x $S/codegen.test
	cd codegen && GPUKVET_GEN_SHRINK_RUN=$S GPUKVET_GEN_SHRINK_OUT=${OUT:-$S} GPUKVET_GEN_BACKENDS=${2:-vulkan} \
		$S/codegen.test -test.run '^TestShrinkOnDevice$' -test.timeout ${GPUKVET_SHRINK_TIMEOUT:-480s} > ${OUT:-$S}/run.log 2>&1
	echo "rc=$?"; grep -c ' ok$' ${OUT:-$S}/results.txt; grep -v ' ok$' ${OUT:-$S}/results.txt | cut -c1-240 ;;
esac
