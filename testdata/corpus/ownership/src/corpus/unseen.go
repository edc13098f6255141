//go:build unseen

package corpus

// Held-out programs the analyzer still gets wrong, kept out of TestCorpus
// (which requires recall 1) by the unseen build tag; HELDOUT-host.md counts
// them in the round that found them. Score them with the tag removed.

import "github.com/gpukvet/gpukvet/device"

// verdict: leak
// Rodinia pathfinder: gpuResult[2] ping-pong buffers; only the first is
// freed at the end.
func h9PathfinderFreesOneResult(d *device.Device, wall []float32, rows int) error {
	var res [2]*device.Buffer[float32]
	for i := range res {
		b, err := device.Alloc[float32](d, len(wall))
		if err != nil {
			for _, p := range res[:i] {
				p.Free()
			}
			return err
		}
		res[i] = b
	}
	src, dst := 0, 1
	for r := 0; r < rows; r++ {
		if err := d.Launch(Add, grid(len(wall)), block, res[src], res[src], res[dst]); err != nil {
			res[0].Free()
			res[1].Free()
			return err
		}
		src, dst = dst, src
	}
	return res[0].Free()
}
