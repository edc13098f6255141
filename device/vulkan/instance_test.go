package vulkan

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOpenCloseCycles opens and closes the backend 200 times, with an
// allocation freed and one left for Close each time, as a test suite or a
// long-running service does: the process creates one VkInstance in all
// (NVIDIA's driver refused the 31st after 30 create/destroy cycles), and
// neither open files, threads nor memory grow with the cycles (a 1 MiB
// buffer left to each Close leaked before Close freed it).
func TestOpenCloseCycles(t *testing.T) {
	openOrSkip(t) // the process's instance exists from here on
	cycles := 200
	if testing.Short() {
		cycles = 30
	}
	process.mu.Lock()
	created := process.created
	process.mu.Unlock()
	fds, threads, rss := openFiles(t), osThreads(t), residentMiB(t)
	for i := range cycles {
		b, err := OpenBackend()
		if err != nil {
			t.Fatalf("cycle %d: %v", i, err)
		}
		m, err := b.Alloc(f32, 1024)
		if err != nil {
			t.Fatalf("cycle %d: %v", i, err)
		}
		if err := b.Free(m); err != nil {
			t.Fatalf("cycle %d: %v", i, err)
		}
		if _, err := b.Alloc(f32, 1<<18); err != nil { // left for Close
			t.Fatalf("cycle %d: %v", i, err)
		}
		if err := b.Close(); err != nil {
			t.Fatalf("cycle %d: %v", i, err)
		}
	}
	process.mu.Lock()
	defer process.mu.Unlock()
	if process.created != created {
		t.Errorf("%d cycles created %d instances; the process's one should serve them all", cycles, process.created-created)
	}
	// A few threads may come and go with the runtime's scheduling; a
	// leak grows with the cycles.
	if n := openFiles(t); n > fds+4 {
		t.Errorf("open files grew from %d to %d over %d cycles", fds, n, cycles)
	}
	if n := osThreads(t); n > threads+8 {
		t.Errorf("threads grew from %d to %d over %d cycles", threads, n, cycles)
	}
	if n := residentMiB(t); n > rss+64 {
		t.Errorf("resident memory grew from %d MiB to %d MiB over %d cycles", rss, n, cycles)
	}
}

// residentMiB is the process's resident memory (VmRSS) in MiB.
func residentMiB(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if kb, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")))
			return n / 1024
		}
	}
	t.Skip("no VmRSS in /proc/self/status")
	return 0
}

func openFiles(t *testing.T) int {
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	return len(es)
}

func osThreads(t *testing.T) int {
	es, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Skipf("no /proc/self/task: %v", err)
	}
	return len(es)
}

// TestNoDriver checks the error of vkCreateInstance's
// VK_ERROR_INCOMPATIBLE_DRIVER: with no driver manifest it says there is
// no driver; with a manifest whose driver cannot load it names the
// manifest and does not claim there is no driver. The instance is the
// process's, so each case runs in a child process.
func TestNoDriver(t *testing.T) {
	if os.Getenv("GPUKVET_VK_CHILD") != "" {
		_, err := OpenBackend()
		if err == nil {
			t.Fatal("Open succeeded")
		}
		os.Stdout.WriteString("ERR: " + err.Error() + "\n")
		return
	}
	if _, err := OpenBackend(); err != nil {
		t.Skipf("no Vulkan here: %v", err)
	}
	broken := filepath.Join(t.TempDir(), "broken_icd.json")
	os.WriteFile(broken, []byte(`{"file_format_version": "1.0.0", "ICD": {"library_path": "/nonexistent/libvulkan_broken.so", "api_version": "1.3.0"}}`), 0o644)
	for _, c := range []struct {
		files, want, not string
	}{
		{"/nonexistent/icd.json", "no Vulkan driver (ICD) found: no driver manifest in /nonexistent/icd.json", ""},
		{broken, "found the driver manifests " + broken + ", but no driver they name could create an instance", "no Vulkan driver"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestNoDriver$", "-test.v")
		cmd.Env = append(os.Environ(), "GPUKVET_VK_CHILD=1", "VK_DRIVER_FILES="+c.files, "VK_ICD_FILENAMES="+c.files)
		out, _ := cmd.CombinedOutput()
		_, msg, _ := strings.Cut(string(out), "ERR: ")
		msg, _, _ = strings.Cut(msg, "\n")
		if !strings.Contains(msg, c.want) || c.not != "" && strings.Contains(msg, c.not) {
			t.Errorf("VK_DRIVER_FILES=%s: got %q\nwant it to say %q", c.files, msg, c.want)
		}
		t.Logf("VK_DRIVER_FILES=%s: %s", c.files, msg)
	}
}
