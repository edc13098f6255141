package vulkan

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenCloseCycles opens and closes the backend 200 times, with an
// allocation each time, as a test suite or a long-running service does:
// the process creates one VkInstance in all (NVIDIA's driver refused the
// 31st after 30 create/destroy cycles), and neither open files nor
// threads grow with the cycles.
func TestOpenCloseCycles(t *testing.T) {
	openOrSkip(t) // the process's instance exists from here on
	cycles := 200
	if testing.Short() {
		cycles = 30
	}
	process.mu.Lock()
	created := process.created
	process.mu.Unlock()
	fds, threads := openFiles(t), osThreads(t)
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
