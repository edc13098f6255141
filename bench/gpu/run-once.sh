#!/bin/sh
# Every GPU measurement in one call of at most 10 minutes (the device tool's
# limit): first the timings, alone on the GPU (both twin suites against nvcc,
# then cuda against Vulkan through package device), then the functional
# suites side by side (device, device/cuda, device/vulkan, the differential
# suite on cuda and on Vulkan, and the generated suites, each suite and
# backend its own process so that a slow one cannot hide the others).
#
# Prepare here, in the repository root, after the last change to emitted
# code: the test binaries and saved modules of bench/gpu/h200-run.sh's
# header (in .dev/run, xz-compressed) and those of
# bench/heldout/run-h200.sh's (in .dev/heldout, gzip-compressed). Run there,
# carrying .dev/run and .dev/heldout: sh bench/gpu/run-once.sh COMMIT.
# Everything comes back under $OUT.
C=${1:-unknown}
S=$(date +%s)
R=$PWD/.dev/run H=$PWD/.dev/heldout T=/tmp/twins
mkdir -p $T $OUT/logs
for f in $R/gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=/usr/local/nvidia/lib64:/usr/local/nvidia/lib:${LD_LIBRARY_PATH:-}
(cd $R && for f in *.xz genmod/*.xz; do xz -d -T0 $f; done; chmod +x *.test)
(cd $H && gzip -d *.gz; chmod +x *.test)
GPU=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)
(echo "commit $C"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; date -u) > $OUT/env.txt 2>&1
cat $OUT/env.txt
for s in heldout kernels; do
  nvcc -O3 -arch=sm_90 -cubin -Xptxas -v -o $T/$s.cubin bench/$s/twins.cu > $T/$s-nvcc-ptxas.txt 2>&1 || cat $T/$s-nvcc-ptxas.txt
done
twin() { # suite, test, timeout in s, environment...
  s=$1 test=$2 limit=$3; shift 3
  (cd bench/$s && env "$@" GPUKVET_COMMIT=$C timeout $limit $H/$s.test -test.run "^$test\$" -test.v -test.timeout ${limit}s >> $OUT/logs/twins.log 2>&1)
  echo "$s $test rc=$?" >> $OUT/logs/rc.txt
}
twin heldout TestTwins 120 GPUKVET_TWINS_CUBIN=$T/heldout.cubin GPUKVET_TWINS_OUT=$OUT/heldout-twins.md
twin kernels TestTwins 50 GPUKVET_TWINS_CUBIN=$T/kernels.cubin GPUKVET_TWINS_OUT=$OUT/kernels-twins.md
twin heldout TestBackends 90 GPUKVET_BACKENDS_BENCH=1 GPUKVET_BACKENDS_OUT=$OUT/heldout-backends.md
twin kernels TestBackends 45 GPUKVET_BACKENDS_BENCH=1 GPUKVET_BACKENDS_OUT=$OUT/kernels-backends.md GPUKVET_VK_PIPELINE_STATS=$OUT/vk-pipelines-kernels.md
# The same without the strict float modes (for measurement only: Go's
# signed zeros, NaNs and infinities are then not guaranteed): whether
# NVIDIA's compiler optimizes less under them (Horner, the scans).
twin kernels TestBackends 45 GPUKVET_BACKENDS_BENCH=1 GPUKVET_BACKENDS_OUT=$OUT/kernels-backends-nofloatmodes.md GPUKVET_VK_DROP_FLOAT_MODES=SignedZeroInfNanPreserve,RoundingModeRTE GPUKVET_VK_PIPELINE_STATS=$OUT/vk-pipelines-kernels-nofloatmodes.md
# The same with barriers ordering shared memory only, not global memory
# (for measurement only: a kernel communicating through global memory
# across a barrier may read stale values): what UniformMemory costs the
# barrier kernels (ReduceTree, Scan).
twin kernels TestBackends 45 GPUKVET_BACKENDS_BENCH=1 GPUKVET_BACKENDS_OUT=$OUT/kernels-backends-workgroupbarriers.md GPUKVET_VK_BARRIER_SEMANTICS=workgroup GPUKVET_VK_PIPELINE_STATS=$OUT/vk-pipelines-kernels-workgroupbarriers.md
echo "timings done at $(( $(date +%s) - S )) s"
L=$OUT/logs
left=$(( 570 - ($(date +%s) - S) ))
bg() { # name, dir, timeout, command...
  n=$1 d=$2 lim=$3; shift 3
  (cd $d && timeout $lim "$@" > $L/$n.log 2>&1; echo "$n rc=$?" >> $L/rc.txt) &
}
bg vulkan device/vulkan 200 $R/vulkan.test -test.v
bg cuda device/cuda 200 $R/cuda.test -test.v
bg device device 200 $R/device.test -test.v
bg diff-cuda testdata/differential 240 env GPUKVET_DIFF_BACKEND=cuda GPUKVET_DIFF_RESULTS=$OUT/differential-cuda.md GPUKVET_COMMIT=$C GPUKVET_GPU_NAME="$GPU" $R/differential.test -test.v -test.timeout 230s
bg diff-vulkan testdata/differential 240 env GPUKVET_DIFF_BACKEND=vulkan GPUKVET_DIFF_TIMEOUT=60s GPUKVET_DIFF_RESULTS=$OUT/differential-vulkan.md GPUKVET_COMMIT=$C GPUKVET_GPU_NAME="$GPU, Vulkan" $R/differential.test -test.v -test.skip 'Deadline|CloseStops' -test.timeout 230s
bg diff-vulkan-stops testdata/differential 150 env GPUKVET_DIFF_BACKEND=vulkan GPUKVET_DIFF_TIMEOUT=20s $R/differential.test -test.v -test.run 'Deadline|CloseStops' -test.timeout 140s
for t in Ops Random; do
  bg gen$t-cuda codegen $left env GPUKVET_GEN_LOAD=$R/genmod GPUKVET_GEN_BACKENDS=cuda $R/codegen.test -test.run "^TestGenerated$t\$" -test.v -test.timeout ${left}s
  bg gen$t-vulkan codegen $left env GPUKVET_GEN_LOAD=$R/genmod GPUKVET_GEN_BACKENDS=vulkan GPUKVET_GEN_VULKAN=all $R/codegen.test -test.run "^TestGenerated$t\$" -test.v -test.timeout ${left}s
done
bg genOps-vulkan-subset codegen $left env GPUKVET_GEN_LOAD=$R/genmod GPUKVET_GEN_BACKENDS=vulkan $R/codegen.test -test.run '^TestGeneratedOps$' -test.v -test.timeout ${left}s
wait
echo "functional done at $(( $(date +%s) - S )) s"
for f in heldout-twins kernels-twins heldout-backends kernels-backends kernels-backends-nofloatmodes kernels-backends-workgroupbarriers; do [ -f $OUT/$f.md ] && cat $OUT/$f.md; done
# At most 8 files come back from the device machine: the six timing
# tables and one archive with the rest (env, the pipeline statistics, the
# two differential results, the logs).
# The functional summary is printed last, so that the reply's tail holds it.
cat $L/rc.txt > $L/functional-summary.txt
for f in $L/*.log; do echo "== $f"; grep -E '^\s*--- (FAIL|SKIP)|^(FAIL|ok|PASS)|panic|runs per backend|mismatching' $f | cut -c1-240 | head -12; done >> $L/functional-summary.txt
mv $OUT/env.txt $OUT/vk-pipelines-*.md $OUT/differential-*.md $L/ 2>/dev/null
(cd $OUT && tar czf logs.tgz logs)
cat $L/functional-summary.txt; rm -rf $L
