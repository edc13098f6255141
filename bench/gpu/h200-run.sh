#!/bin/sh
# The H200 run of the merged tree (vulkan tests, differential suite on cuda and on
# NVIDIA's Vulkan, saxpy/vecadd cuda vs vulkan, validation overhead). Prepare here:
#   mkdir -p .dev/run/gl; (cd .dev/run/gl && apt-get download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)  # amd64, see the device notes
#   for p in testdata/differential:differential bench/gpu:gpubench device/vulkan:vulkan; do CGO_ENABLED=0 go test -c -ldflags=-s -o .dev/run/${p#*:}.test ./${p%%:*}; done
#   cp bench/gpu/h200-run.sh .dev/run/h200.sh
# Run there (carry .dev/run): sh .dev/run/h200.sh COMMIT; results land in $OUT.
C=$1
for f in .dev/run/gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=/usr/local/nvidia/lib64:/usr/local/nvidia/lib:${LD_LIBRARY_PATH:-}
R=$PWD/.dev/run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== vulkan.test"
(cd device/vulkan && timeout 120 $R/vulkan.test -test.v > $OUT/vulkan-test.log 2>&1; tail -3 $OUT/vulkan-test.log; grep -E '^--- (FAIL|SKIP)' $OUT/vulkan-test.log | cut -c1-300)
echo "== differential cuda"
(cd testdata/differential && GPUKVET_DIFF_BACKEND=cuda GPUKVET_DIFF_RESULTS=$OUT/RESULTS-h200.md GPUKVET_COMMIT=$C GPUKVET_GPU_NAME="NVIDIA H200" timeout 200 $R/differential.test -test.v -test.timeout 3m > $OUT/diff-cuda.log 2>&1; grep -E '^\s*--- FAIL' $OUT/diff-cuda.log | head; tail -2 $OUT/diff-cuda.log)
echo "== differential vulkan"
(cd testdata/differential && GPUKVET_DIFF_BACKEND=vulkan GPUKVET_DIFF_TIMEOUT=60s GPUKVET_DIFF_RESULTS=$OUT/RESULTS-h200-vulkan.md GPUKVET_COMMIT=$C GPUKVET_GPU_NAME="NVIDIA H200, driver 580, Vulkan" timeout 200 $R/differential.test -test.v -test.timeout 3m > $OUT/diff-vulkan.log 2>&1; grep -E '^\s*--- FAIL' $OUT/diff-vulkan.log | head -20; tail -2 $OUT/diff-vulkan.log)
echo "== bench cuda vs vulkan"
(cd bench/gpu && GPUKVET_BENCH_OUT=$OUT/bench-h200-vulkan.md timeout 120 $R/gpubench.test -test.run TestReport -test.v > $OUT/bench.log 2>&1; tail -25 $OUT/bench-h200-vulkan.md; grep -E 'FAIL|Error' $OUT/bench.log | head)
echo "== validation overhead"
(cd bench/gpu && for v in "GPUKVET_VALIDATE=0" "GPUKVET_VALIDATE=1" "GPUKVET_VALIDATE=1 GPUKVET_VALIDATE_EVERY=10"; do echo "== $v"; env $v timeout 150 $R/gpubench.test -test.run='^$' -test.bench='^BenchmarkSaxpy$' -test.benchtime=5x -test.count=2 2>&1 | grep -v '^goos\|^goarch\|^pkg\|^cpu' | cut -c1-300 | head -12; done) > $OUT/validate-h200.txt 2>&1; cat $OUT/validate-h200.txt
