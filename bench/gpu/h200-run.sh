#!/bin/sh
# One GPU run of the functional suites: device/vulkan, device/cuda and device
# tests, the differential suite on cuda and on NVIDIA's Vulkan (with the
# deadline and Close tests on both), and the generated suites
# (testdata/generated: operator suite and random programs) on cuda and
# Vulkan against Go; then, unless NOTWINS is set, bench/kernels' twins
# against nvcc and cuda against Vulkan. The twin suites of bench/heldout
# have their own script (bench/heldout/run-h200.sh).
#
# Prepare here, in the repository root (the GPU machine has no Go):
#   mkdir -p .dev/run/gl .dev/run/genmod; cp .gl/*.deb .dev/run/gl/   # the Vulkan loader, see the device notes
#   for p in testdata/differential:differential device/vulkan:vulkan device/cuda:cuda device:device bench/kernels:kernels codegen:codegen; do
#     CGO_ENABLED=0 go test -c -ldflags=-s -o .dev/run/${p#*:}.test ./${p%%:*}; done
#   (cd codegen && GPUKVET_GEN_SAVE=$PWD/../.dev/run/genmod go test -run TestGenerated .)  # the built modules
#   xz .dev/run/*.test .dev/run/genmod/*.json                           # to fit the 64 MiB a call carries
#   cp bench/gpu/h200-run.sh .dev/run/h200.sh
# Run there (carry .dev/run): sh .dev/run/h200.sh COMMIT; the logs come back as $OUT/logs.tgz.
C=$1
R=$PWD/.dev/run
for f in $R/gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=/usr/local/nvidia/lib64:/usr/local/nvidia/lib:${LD_LIBRARY_PATH:-}
(cd $R && for f in *.xz genmod/*.xz; do xz -d -T0 $f; done; chmod +x *.test)
L=$OUT/logs; mkdir -p $L
(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; date -u; echo "commit $C") > $L/env.txt 2>&1
cat $L/env.txt
T0=$(date +%s); GPU=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)
(cd device/vulkan && timeout 240 $R/vulkan.test -test.v > $L/vulkan.log 2>&1; echo "vulkan.test rc=$?" >> $L/rc.txt) &
(cd device/cuda && timeout 240 $R/cuda.test -test.v > $L/cuda.log 2>&1; echo "cuda.test rc=$?" >> $L/rc.txt) &
(cd device && timeout 240 $R/device.test -test.v > $L/device.log 2>&1; echo "device.test rc=$?" >> $L/rc.txt) &
(cd testdata/differential && GPUKVET_DIFF_BACKEND=cuda GPUKVET_DIFF_RESULTS=$L/RESULTS-h200.md GPUKVET_COMMIT=$C GPUKVET_GPU_NAME="$GPU" timeout 250 $R/differential.test -test.v -test.timeout 240s > $L/diff-cuda.log 2>&1; echo "diff cuda rc=$?" >> $L/rc.txt) &
(cd testdata/differential && GPUKVET_DIFF_BACKEND=vulkan GPUKVET_DIFF_TIMEOUT=60s GPUKVET_DIFF_RESULTS=$L/RESULTS-h200-vulkan.md GPUKVET_COMMIT=$C GPUKVET_GPU_NAME="$GPU, Vulkan" timeout 250 $R/differential.test -test.v -test.skip 'Deadline|CloseStops' -test.timeout 240s > $L/diff-vulkan.log 2>&1; echo "diff vulkan rc=$?" >> $L/rc.txt) &
(cd codegen && GPUKVET_GEN_LOAD=$R/genmod GPUKVET_GEN_BACKENDS=cuda,vulkan GPUKVET_GEN_VULKAN=all timeout 270 $R/codegen.test -test.run 'TestGenerated' -test.v -test.timeout 260s > $L/generated.log 2>&1; echo "generated rc=$?" >> $L/rc.txt) &
wait
echo "functional: $(( $(date +%s) - T0 )) s"; cat $L/rc.txt
for f in $L/*.log; do echo "== $f"; grep -E '^\s*--- (FAIL|SKIP)|^(FAIL|ok|PASS)|panic' $f | cut -c1-240 | head -15; done
grep -E 'runs per backend|mismatching' $L/generated.log | cut -c1-300
if [ -f bench/kernels/twins.cu ] && [ -z "$NOTWINS" ]; then
  nvcc -O3 -arch=sm_90 -cubin -o $L/twins.cubin bench/kernels/twins.cu > $L/nvcc.txt 2>&1 || cat $L/nvcc.txt
  (cd bench/kernels && GPUKVET_TWINS_CUBIN=$L/twins.cubin GPUKVET_TWINS_OUT=$L/twins-table.md timeout 150 $R/kernels.test -test.run 'TestTwins|TestCasesRunOnCPU' -test.v > $L/twins.log 2>&1; echo "twins rc=$?";
   GPUKVET_BACKENDS_BENCH=1 GPUKVET_BACKENDS_OUT=$L/backends.md timeout 120 $R/kernels.test -test.run TestBackends -test.v > $L/backends.log 2>&1; echo "backends rc=$?")
  rm -f $L/twins.cubin; cat $L/twins-table.md $L/backends.md 2>/dev/null | tail -45
fi
echo "total: $(( $(date +%s) - T0 )) s"
cd $OUT && tar czf logs.tgz logs && rm -rf logs
