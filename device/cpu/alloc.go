package cpu

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
)

// checkAlloc refuses an allocation of n elements of type elem that cannot
// fit in the memory left to the process, instead of letting the Go runtime
// end the program (an allocation beyond memory is a fatal error, not a
// panic). The memory left is the least of: the machine's available memory
// (MemAvailable of /proc/meminfo), the cgroup's limit less its usage
// (cgroup v2), and GOMEMLIMIT less the heap in use. Where none is known the
// only bound is the address space.
func checkAlloc(elem reflect.Type, n int) error {
	size := uint64(elem.Size())
	if size != 0 && uint64(n) > math.MaxInt64/size {
		return fmt.Errorf("cpu backend: %d elements of %v (%d bytes each) overflow the address space", n, elem, size)
	}
	bytes := uint64(n) * size
	if bytes < 64<<20 {
		return nil // small: reading the limits costs more than it saves
	}
	free, source := freeMemory()
	if source != "" && bytes > free {
		return fmt.Errorf("cpu backend: %d bytes (%d × %v) do not fit: %d bytes (%.1f GiB) are free (%s)",
			bytes, n, elem, free, float64(free)/(1<<30), source)
	}
	return nil
}

// freeMemory returns the memory the process may still allocate and where
// that bound comes from ("" when nothing is known).
func freeMemory() (free uint64, source string) {
	free = math.MaxUint64
	take := func(v uint64, from string) {
		if v < free {
			free, source = v, from
		}
	}
	if v, ok := meminfoAvailable(); ok {
		take(v, "MemAvailable in /proc/meminfo")
	}
	if lim, ok := readUint("/sys/fs/cgroup/memory.max"); ok {
		if cur, ok := readUint("/sys/fs/cgroup/memory.current"); ok && cur <= lim {
			take(lim-cur, "the cgroup's memory.max less memory.current")
		}
	}
	if lim := debug.SetMemoryLimit(-1); lim != math.MaxInt64 && lim > 0 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if inuse := ms.HeapInuse + ms.StackInuse; uint64(lim) > inuse {
			take(uint64(lim)-inuse, "GOMEMLIMIT less the heap in use")
		} else {
			take(0, "GOMEMLIMIT less the heap in use")
		}
	}
	return free, source
}

func meminfoAvailable() (uint64, bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

func readUint(path string) (uint64, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64)
	return v, err == nil // "max" fails: no limit
}
