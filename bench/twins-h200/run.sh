#!/bin/sh
# One measurement: compile the CUDA twins with nvcc on this machine, list
# both sides' PTX and SASS, run the twin benchmark and the differential suite.
cd "$(dirname "$0")"
D=$(pwd)
(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2; date -u) > $OUT/env.txt 2>&1
nvcc -O3 -arch=sm_90 -cubin -o $OUT/twins.cubin twins.cu > $OUT/nvcc.txt 2>&1 || { cat $OUT/nvcc.txt; exit 1; }
nvcc -O3 -arch=sm_90 -ptx -o $OUT/twins.ptx twins.cu
ptxas -O3 -arch=sm_90 -v -o $OUT/gk.cubin kernels.ptx > $OUT/gk-ptxas.txt 2>&1
nvcc -O3 -arch=sm_90 -cubin -Xptxas -v -o /dev/null twins.cu > $OUT/twins-ptxas.txt 2>&1
cuobjdump -sass $OUT/twins.cubin > $OUT/twins.sass 2>&1
cuobjdump -sass $OUT/gk.cubin > $OUT/gk.sass 2>&1
GPUKVET_TWINS_CUBIN=$OUT/twins.cubin GPUKVET_TWINS_OUT=$OUT/table.md timeout 300 ./kernels.test -test.run 'TestTwins|TestCasesRunOnCPU' -test.v > $OUT/twins.txt 2>&1
echo "twins rc=$?"
if [ -n "$DIFF" ]; then
  cd ../testdata/differential && GPUKVET_DIFF_RESULTS=$OUT/diff.md timeout 150 $D/differential.test -test.v > $OUT/diff.txt 2>&1
  echo "diff rc=$?"; tail -3 $OUT/diff.txt
fi
grep -v "^=== RUN\|^--- PASS\|^PASS" $OUT/twins.txt | tail -40
cd $OUT && tar czf all.tgz twins.ptx twins.sass gk.sass gk-ptxas.txt twins-ptxas.txt twins.txt env.txt && rm -f twins.ptx twins.sass gk.sass gk.cubin twins.cubin twins-ptxas.txt
