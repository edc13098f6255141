#!/bin/sh
# The GPU run of both twin suites (bench/heldout, held out, and
# bench/kernels, the project's own): nvcc compiles each suite's twins.cu,
# TestTwins times every pair with CUDA events (nvcc ms, gpukvet ms for the
# entry the runtime chooses and for the plain entry, registers, local
# memory), TestBackends times cuda against NVIDIA's Vulkan through package
# device (host clock, and on the GPU: CUDA events, Vulkan timestamps), and
# a second TestBackends of each suite, untimed (GPUKVET_BACKENDS_ONCE: each
# case launched once at its timing size), writes what NVIDIA's Vulkan driver
# compiled each pipeline to (GPUKVET_VK_PIPELINE_STATS: registers, shared
# memory, instruction counts, internal representations where the driver
# offers them) to vk-pipelines-heldout.md and vk-pipelines-kernels.md. Prepare here,
# in the repository root, after the last change to emitted code:
#   mkdir -p .dev/heldout/gl && cp .dev/run/gl/*.deb .dev/heldout/gl/  # the Vulkan loader (bench/gpu/h200-run.sh's; or:
#   (cd .dev/heldout/gl && apt-get download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)  # amd64)
#   for p in heldout kernels; do CGO_ENABLED=0 go test -c -ldflags=-s -o .dev/heldout/$p.test ./bench/$p; go run ./cmd/gpukvet build -o .dev/heldout/$p.ptx ./bench/$p; done
#   CGO_ENABLED=0 go test -c -ldflags=-s -o .dev/heldout/vulkan.test ./device/vulkan  # optional: timestamps and launch rate on the driver
# Run there (carry .dev/heldout): sh bench/heldout/run-h200.sh COMMIT
# Results in $OUT: heldout-twins.md, kernels-twins.md, heldout-backends.md,
# kernels-backends.md, vk-pipelines-{heldout,kernels}.md.gz, log.txt (every test's output),
# sass.tgz (nvcc's and gpukvet's SASS and ptxas -v of both suites). Under 7
# minutes.
C=${1:-unknown}
R=$PWD/.dev/heldout
T=/tmp/twins
mkdir -p $T
for f in $R/gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=/usr/local/nvidia/lib64:/usr/local/nvidia/lib:${LD_LIBRARY_PATH:-}
(echo "commit $C"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; date -u) > $T/env.txt 2>&1
cat $T/env.txt
for s in heldout kernels; do
  nvcc -O3 -arch=sm_90 -cubin -Xptxas -v -o $T/$s.cubin bench/$s/twins.cu > $T/$s-nvcc-ptxas.txt 2>&1 || { echo "nvcc failed on bench/$s/twins.cu"; cat $T/$s-nvcc-ptxas.txt; }
  ptxas -O3 -arch=sm_90 -v -o $T/$s-gk.cubin $R/$s.ptx > $T/$s-gk-ptxas.txt 2>&1
  cuobjdump -sass $T/$s.cubin > $T/$s-nvcc.sass 2>&1
  cuobjdump -sass $T/$s-gk.cubin > $T/$s-gk.sass 2>&1
done
run() { # suite, test, timeout in s, environment...
  s=$1 test=$2 limit=$3; shift 3
  echo "== $s $test" | tee -a $OUT/log.txt
  (cd bench/$s && env "$@" GPUKVET_COMMIT=$C timeout $limit $R/$s.test -test.run "^$test\$" -test.v -test.timeout ${limit}s >> $OUT/log.txt 2>&1)
  echo "rc=$?" | tee -a $OUT/log.txt
}
run heldout TestTwins 150 GPUKVET_TWINS_CUBIN=$T/heldout.cubin GPUKVET_TWINS_OUT=$OUT/heldout-twins.md
run kernels TestTwins 50 GPUKVET_TWINS_CUBIN=$T/kernels.cubin GPUKVET_TWINS_OUT=$OUT/kernels-twins.md
run heldout TestBackends 150 GPUKVET_BACKENDS_BENCH=1 GPUKVET_BACKENDS_OUT=$OUT/heldout-backends.md
run kernels TestBackends 60 GPUKVET_BACKENDS_BENCH=1 GPUKVET_BACKENDS_OUT=$OUT/kernels-backends.md
if [ -x $R/vulkan.test ]; then # the backend's timestamps, batching and launch rate on NVIDIA's driver
  echo "== device/vulkan" | tee -a $OUT/log.txt
  (cd device/vulkan && timeout 60 $R/vulkan.test -test.run 'TestTime|TestBatchOrder|TestPipelineStats|TestManyLaunches' -test.bench Launch -test.benchtime 20000x -test.v 2>&1 | grep -E -- '^(---|ok|FAIL|PASS|Benchmark)|_test.go' | tee -a $OUT/log.txt)
fi
# Apart from the timed runs: capturing a pipeline's internals could change
# how the driver builds it.
run heldout TestBackends 60 GPUKVET_BACKENDS_BENCH=1 GPUKVET_BACKENDS_ONCE=1 GPUKVET_VK_PIPELINE_STATS=$OUT/vk-pipelines-heldout.md
run kernels TestBackends 30 GPUKVET_BACKENDS_BENCH=1 GPUKVET_BACKENDS_ONCE=1 GPUKVET_VK_PIPELINE_STATS=$OUT/vk-pipelines-kernels.md
for f in $OUT/vk-pipelines-*.md; do # read them in the files (the tables end the output)
  [ -f $f ] && { echo "$f: $(grep -c '^## kernel' $f) pipelines; $(head -1 $f)"; gzip $f; }
done
grep -E -- '^\s*--- FAIL|_test.go:[0-9]+:' $OUT/log.txt | grep -v 'checking entry\|timing entry' | head -30
for f in heldout-twins kernels-twins heldout-backends kernels-backends; do [ -f $OUT/$f.md ] && cat $OUT/$f.md; done
cd $T && tar czf $OUT/sass.tgz env.txt *-ptxas.txt *.sass
