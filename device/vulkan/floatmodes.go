package vulkan

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
)

// envDropFloatModes names float-controls execution modes that every
// module is loaded without, for measuring what a driver makes of them
// (in DXVK's review of these modes an NVIDIA engineer wrote that they can
// cost performance on drivers that would not have broken the semantics
// anyway): GPUKVET_VK_DROP_FLOAT_MODES=SignedZeroInfNanPreserve
// or a comma-separated list of the names in floatModes. Without them the
// driver may ignore signed zeros, NaNs and infinities, or round otherwise,
// so kernels may no longer compute what Go does; Info().Deviations says so
// while it is set.
const envDropFloatModes = "GPUKVET_VK_DROP_FLOAT_MODES"

// envModes is the modes envDropFloatModes names.
func envModes() ([]string, error) {
	v := os.Getenv(envDropFloatModes)
	if v == "" {
		return nil, nil
	}
	var names []string
	for _, name := range strings.Split(v, ",") {
		name = strings.TrimSpace(name)
		if _, ok := floatModes[name]; !ok {
			known := strings.Join(slices.Sorted(maps.Keys(floatModes)), ", ")
			return nil, fmt.Errorf("vulkan: %s=%q: no float-controls mode %q (known: %s)", envDropFloatModes, v, name, known)
		}
		names = append(names, name)
	}
	return names, nil
}

// droppedFloatModes is the modes envDropFloatModes drops, every width of
// each, as dropFloatModes takes them.
func droppedFloatModes() (map[uint32][]uint32, error) {
	names, err := envModes()
	if err != nil {
		return nil, err
	}
	drop := map[uint32][]uint32{}
	for _, name := range names {
		drop[floatModes[name].mode] = nil
	}
	return drop, nil
}

// addWidth adds float width w to those of mode m that drop removes,
// unless it removes every width of m already.
func addWidth(drop map[uint32][]uint32, m, w uint32) {
	if ws, ok := drop[m]; !ok || ws != nil {
		drop[m] = append(ws, w)
	}
}

// floatModesDeviation is the Info().Deviations entry while
// envDropFloatModes is set.
func floatModesDeviation() []string {
	names, err := envModes()
	if err != nil || len(names) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s=%s: modules are loaded without %s, so the driver may ignore signed zeros, NaNs and infinities or round otherwise than Go (for measurement only)",
		envDropFloatModes, os.Getenv(envDropFloatModes), strings.Join(names, ", "))}
}
