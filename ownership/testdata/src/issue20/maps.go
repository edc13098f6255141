package issue20

import "github.com/gpukvet/gpukvet/device"

// A map that owns buffers loses an entry's buffer when the entry is deleted
// or overwritten without the buffer being freed or taken out first.

func freeMap(m map[string]*device.Buffer[float32]) { // want freeMap:`ownership: frees \[0\], takes \[0\]`
	for _, b := range m {
		b.Free()
	}
}

func deleteWithoutFree(d *device.Device, names []string) error {
	cache := map[string]*device.Buffer[float32]{}
	defer func() { freeMap(cache) }()
	for _, name := range names {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			return err
		}
		cache[name] = b
	}
	for _, name := range names[1:] {
		delete(cache, name) // want `the buffer in cache\[name\] is not freed before the entry is deleted at line 25`
	}
	return nil
}

func deleteConstKeyWithoutFree(d *device.Device) error {
	bufs := make(map[string]*device.Buffer[float32])
	defer freeMap(bufs)
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	bufs["tmp"] = b
	if err := d.Launch(nil, one, one, b); err != nil {
		return err
	}
	delete(bufs, "tmp") // want `the buffer in bufs\["tmp"\] is not freed before the entry is deleted at line 41`
	return nil
}

func overwriteConstKey(d *device.Device, n int) error {
	bufs := map[string]*device.Buffer[float32]{}
	defer freeMap(bufs)
	for i := 0; i < n; i++ {
		r, err := device.Alloc[float32](d, 8)
		if err != nil {
			return err
		}
		bufs["result"] = r // want `the buffer in bufs\["result"\] is not freed before the entry is overwritten at line 53`
	}
	return nil
}

// Cache owns the buffers of its map: Close frees them.
type Cache struct { // want Cache:`ownership: owns fields \[0\], released by Close`
	m map[string]*device.Buffer[float32]
}

func (c *Cache) Close() error {
	for _, b := range c.m {
		b.Free()
	}
	return nil
}

func (c *Cache) evictLeaky(name string) {
	delete(c.m, name) // want `the buffer in c.m\[name\] is not freed before the entry is deleted at line 71`
}

func (c *Cache) evict(name string) {
	if b, ok := c.m[name]; ok {
		b.Free()
		delete(c.m, name)
	}
}

// take removes an entry and hands its buffer to the caller.
func (c *Cache) take(name string) *device.Buffer[float32] {
	b := c.m[name]
	delete(c.m, name)
	return b
}

func okDeleteAfterFree(d *device.Device, names []string) error {
	cache := map[string]*device.Buffer[float32]{}
	defer func() { freeMap(cache) }()
	for _, name := range names {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			return err
		}
		cache[name] = b
	}
	for _, name := range names[1:] {
		if b, ok := cache[name]; ok {
			b.Free()
			delete(cache, name)
		}
	}
	return nil
}

func okDeleteInRangeAfterFree(d *device.Device, names []string) error {
	cache := map[string]*device.Buffer[float32]{}
	for _, name := range names {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			freeMap(cache)
			return err
		}
		cache[name] = b
	}
	for name, b := range cache {
		b.Free()
		delete(cache, name)
	}
	return nil
}

func okOverwriteAfterFree(d *device.Device, n int) error {
	bufs := map[string]*device.Buffer[float32]{}
	defer freeMap(bufs)
	for i := 0; i < n; i++ {
		r, err := device.Alloc[float32](d, 8)
		if err != nil {
			return err
		}
		if old, ok := bufs["result"]; ok {
			old.Free()
		}
		bufs["result"] = r
	}
	return nil
}

func okRangedAndFreedAtEnd(d *device.Device, names []string) error {
	cache := map[string]*device.Buffer[float32]{}
	for _, name := range names {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			freeMap(cache)
			return err
		}
		cache[name] = b
	}
	err := d.Sync()
	for _, b := range cache {
		b.Free()
	}
	return err
}

func okDeleteFromIndex(d *device.Device, names []string) error {
	var all []*device.Buffer[float32]
	defer func() { freeSlice(all) }()
	byName := map[string]*device.Buffer[float32]{}
	for _, name := range names {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			return err
		}
		all = append(all, b)
		byName[name] = b
	}
	delete(byName, names[0]) // the slice owns the buffers; the map only indexes them
	return nil
}
