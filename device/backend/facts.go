package backend

import "github.com/gpukvet/gpukvet/gpu"

// FactsHold reports whether launch facts (Code.Facts) hold for a launch
// whose entry-parameter cells read returns and whose shape is block and
// grid (extents below 1 count as 1, as the drivers get them): whether a
// backend may launch Code.EntryFast. read(i, off, size) returns the bits
// of size bytes at byte offset off of entry parameter i (the numbering of
// the manifest's entryParams: a slice is two, its pointer then its
// length; a struct one, of its size), little-endian and zero-extended, or
// false when they are not all inside the parameter. Nil facts, and facts
// that do not evaluate (a malformed program), give false: Code.Entry is
// correct for every launch. The cuda and vulkan backends both decide with
// it (codegen/ABI.md, "Launch facts").
func FactsHold(facts *Facts, read func(i, off, size int) (uint64, bool), block, grid gpu.Dim3) bool {
	if facts == nil {
		return false
	}
	one := func(v int) uint32 { return uint32(max(v, 1)) }
	ok, err := facts.Eval(read,
		[3]uint32{one(block.X), one(block.Y), one(block.Z)},
		[3]uint32{one(grid.X), one(grid.Y), one(grid.Z)})
	return err == nil && ok
}
