package vulkan

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"
)

// The Vulkan loader and its VkInstance are opened once per process (per
// loader path) and shared by every Backend; a Backend owns only its
// VkDevice and what it creates on it, and Close destroys those.
//
// Why not one instance per Backend: NVIDIA's driver (580, on an H200)
// refused the 31st vkCreateInstance in a process after 30
// vkCreateInstance/vkDestroyInstance cycles, all destroyed cleanly, with
// VK_ERROR_INCOMPATIBLE_DRIVER, and others report the same driver
// misbehaving after about ten such cycles (corrupt subgroup ids). The
// loader loads the driver's libraries at vkCreateInstance and unloads
// them at the last vkDestroyInstance, so every cycle re-initialises the
// driver; one instance for the process lifetime never does. The instance
// holds no device memory and no threads of its own, so keeping it after
// the last Close costs nothing a program would notice. (The backend
// registers no purego callbacks and no debug messenger: nothing else
// outlives a Close.)
var process struct {
	mu        sync.Mutex
	instances map[string]*sharedInst // by loader path
	created   int                    // vkCreateInstance calls that succeeded, for tests
}

// sharedInst is the process's instance on one loader: the loader's
// instance-level entry points and the VkInstance.
type sharedInst struct {
	l    loader
	inst vkInstance
}

// openInstance returns a copy of the loader at path with the instance
// level resolved (each Backend resolves its device's entry points into
// its own copy) and the process's VkInstance, creating both on first use.
// A failure is not remembered: the next Open tries again (the user may
// have installed a driver or set VK_DRIVER_FILES meanwhile).
func openInstance(path string) (*loader, vkInstance, error) {
	process.mu.Lock()
	defer process.mu.Unlock()
	if si := process.instances[path]; si != nil {
		l := si.l
		return &l, si.inst, nil
	}
	// A loader whose instance failed is opened again on the next try: the
	// dynamic linker hands back the library it loaded.
	l, err := openLoader(path)
	if err != nil {
		return nil, 0, err
	}
	inst, err := l.createInstance()
	if err != nil {
		return nil, 0, err
	}
	if err := l.resolveInstance(inst); err != nil {
		if l.destroyInstance != 0 {
			void(l.destroyInstance, uintptr(inst), 0)
		}
		return nil, 0, err
	}
	process.created++
	if process.instances == nil {
		process.instances = map[string]*sharedInst{}
	}
	process.instances[path] = &sharedInst{l: *l, inst: inst} // a copy: l is the caller's
	return l, inst, nil
}

// createInstance creates a Vulkan 1.2 instance.
func (l *loader) createInstance() (vkInstance, error) {
	version := uint32(1 << 22) // a 1.0 loader has no vkEnumerateInstanceVersion
	if l.enumerateInstanceVersion != 0 {
		call("vkEnumerateInstanceVersion", l.enumerateInstanceVersion, uintptr(unsafe.Pointer(&version)))
	}
	if version < apiVersion12 {
		return 0, fmt.Errorf("vulkan: the Vulkan loader is version %s; gpukvet needs 1.2 or newer", versionString(version))
	}
	app := &applicationInfo{sType: stApplicationInfo, pNext: nil, pApplicationName: cString("gpukvet"), applicationVersion: 1,
		pEngineName: cString("gpukvet"), engineVersion: 1, apiVersion: apiVersion12}
	ci := &instanceCreateInfo{sType: stInstanceCreateInfo, pApplicationInfo: app}
	var inst vkInstance
	err := call("vkCreateInstance", l.createInstanceFn, uintptr(unsafe.Pointer(ci)), 0, uintptr(unsafe.Pointer(&inst)))
	switch {
	case err == nil:
		return inst, nil
	case !isResult(err, vkErrIncompatibleDriver):
		return 0, fmt.Errorf("vulkan: creating an instance: %w", err)
	}
	// The loader says VK_ERROR_INCOMPATIBLE_DRIVER both when it finds no
	// driver and when the drivers it finds fail to load or to create an
	// instance: tell the two apart by the manifests it reads.
	found, searched := driverManifests()
	if len(found) == 0 {
		return 0, fmt.Errorf("vulkan: no Vulkan driver (ICD) found: no driver manifest in %s: install one (e.g. Mesa's lavapipe, scripts/install-vulkan.sh) or point VK_DRIVER_FILES at a driver's ICD json: %w",
			strings.Join(searched, ", "), err)
	}
	return 0, fmt.Errorf("vulkan: the Vulkan loader found the driver manifests %s, but no driver they name could create an instance (its library failed to load or to initialise; VK_LOADER_DEBUG=error,driver prints why): %w",
		strings.Join(found, ", "), err)
}

// driverManifests lists the driver (ICD) manifests the Vulkan loader
// reads on Linux, and where it looked: the files or directories of
// VK_DRIVER_FILES (or the older VK_ICD_FILENAMES) when set, else the
// icd.d directories of the XDG configuration and data directories and
// /etc, plus VK_ADD_DRIVER_FILES.
func driverManifests() (found, searched []string) {
	env := func(k, def string) string {
		if v := os.Getenv(k); v != "" {
			return v
		}
		return def
	}
	list := os.Getenv("VK_DRIVER_FILES")
	if list == "" {
		list = os.Getenv("VK_ICD_FILENAMES")
	}
	var places []string
	if list != "" {
		places = filepath.SplitList(list)
	} else {
		home, _ := os.UserHomeDir()
		for _, d := range filepath.SplitList(env("XDG_CONFIG_DIRS", "/etc/xdg")) {
			places = append(places, filepath.Join(d, "vulkan/icd.d"))
		}
		places = append(places, "/etc/vulkan/icd.d", filepath.Join(env("XDG_DATA_HOME", filepath.Join(home, ".local/share")), "vulkan/icd.d"))
		for _, d := range filepath.SplitList(env("XDG_DATA_DIRS", "/usr/local/share:/usr/share")) {
			places = append(places, filepath.Join(d, "vulkan/icd.d"))
		}
	}
	places = append(places, filepath.SplitList(os.Getenv("VK_ADD_DRIVER_FILES"))...)
	for _, p := range places {
		searched = append(searched, p)
		fi, err := os.Stat(p)
		switch {
		case err != nil:
		case !fi.IsDir():
			found = append(found, p)
		default:
			jsons, _ := filepath.Glob(filepath.Join(p, "*.json"))
			found = append(found, jsons...)
		}
	}
	return found, searched
}
