// Package ownership defines an Analyzer that checks the lifetime of device
// buffers in host code.
//
// # Analyzer ownership
//
// ownership: report device buffers that are leaked, used after Free, or freed twice
//
// Device memory is outside Go's garbage collector: a *device.Buffer that is
// never freed leaks device memory for the life of the process, and a buffer
// used after Free is a use-after-free on the device. The analyzer follows
// every buffer that host code obtains from device.Alloc, device.Upload or a
// function that returns a new buffer, along every path of the function's
// control-flow graph (go/ssa), and reports
//
//   - a path on which the buffer is neither freed nor handed on: "buffer from
//     device.Alloc at line 10 is not freed on the return at line 14";
//   - a use after Free (Launch argument, Download, Len, a call that receives
//     it, a return): "buffer x is used by Download at line 20 after Free at
//     line 18". A launch reads every buffer it is given: each argument of
//     Launch's ...any is a use of its own, so a freed buffer among several
//     (`Launch(k, g, b, y, x, y)` after `x.Free()`) is reported;
//   - a second Free, directly or by a deferred Free; also through a local
//     slice of buffers: an element freed (`bufs[2].Free()`, or in a loop
//     over bufs) while a deferred call frees every element of the slice
//     (`defer func() { for _, b := range bufs { b.Free() } }()`), or while
//     a deferred Free of a buffer appended to it (`defer b.Free()`) is
//     pending (not when the element is set to nil right after the Free,
//     for a deferred loop that skips nil elements);
//   - a buffer returned to the caller that a deferred Free frees after the
//     return, or used by a deferred call after a Free before the return.
//
// Each report carries the other positions it speaks of as related
// information (JSON "related", SARIF relatedLocations, LSP
// relatedInformation): the buffer's allocation, and the Free or deferred
// Free before a use or a second Free.
//
// A buffer is handed on, and no longer the function's to free, when it is
// returned, stored (a struct field, a global, a slice or array element, a
// map, a channel send; a send in a select case only where that case is
// chosen), captured by a function literal that frees or takes it and
// escapes (passed to t.Cleanup or a task runner, started with go, stored,
// returned; a literal that only uses the buffer leaves it to the function,
// which may free it after waiting), or passed to a function that takes
// ownership of that parameter. The analysis computes for every function
// which parameters it frees or takes (stores, or passes to another function
// that takes them), which results are new buffers, and which owned fields
// of its parameters and new results it fills or overwrites, and exports
// these as facts, so the check works across packages.
//
// A deferred function literal that frees a captured variable releases
// whatever the variable holds at exit: after `b.Free(); b = nil` a guarded
// `defer func() { if b != nil { b.Free() } }()` frees nothing more, and
// after `b = nil` alone the buffer is the function's to free again. A
// buffer stored into the variable after the defer statement (`var a
// *device.Buffer[T]; defer func() { ... a.Free() ... }(); a, err =
// device.Upload(...)`, also a cleanup literal that ranges over
// `[]*device.Buffer[T]{a, b, c}`) is the literal's to release; one the
// variable held before another was stored into it is not.
//
// A deferred call evaluates its arguments when the defer statement runs:
// `defer freeAll(bufs)` frees the buffers bufs holds then, not those
// appended afterwards (a leak), while `defer func() { freeAll(bufs) }()`
// reads bufs at exit. A slice filled by index, or a map, shares its storage
// with the deferred call's copy, so it sees what is stored later. Likewise
// a struct passed by value (`defer freePlan(p)`) holds the fields it had
// then, and a pointer (`defer freePlanPtr(&p)`) the fields at exit.
//
// `defer b.Free()` inside a loop frees each iteration's buffer when the
// function returns: the buffers are not leaked, may be used after the loop
// (also from a slice they were appended to, which does not become
// responsible for them), and a Free of the same buffer in the loop as well
// is a double free (not on the branch where that Free returned an error).
//
// Owned fields overwritten: storing a buffer (or nil) into an owned field of
// a struct of an owning type while the field may still hold a buffer loses
// that buffer: "the buffer held in w.scratch is not freed before it is
// overwritten at line 20", with the store that put it there as related
// information. Freeing it first (`w.scratch.Free()`), reading it out in a
// way that may hand it on (`old := w.scratch`, a call that receives it),
// storing only where it is nil (`if w.scratch == nil`, or a retry after
// the allocation stored into the field failed), or closing the struct is
// correct; a buffer that a deferred Free releases, stored into a field,
// makes neither the field nor the struct responsible for it, and a struct
// that held nothing, which a failing call (its error result non-nil) was to
// fill, holds nothing on that branch. A method that stores into a field of its receiver
// without releasing the old buffer is summarized as overwriting it, so a
// caller whose struct holds a buffer there is told at the call ("... before
// a call to grow overwrites it"); a struct from a constructor of the
// package holds the fields the constructor filled. One buffer stored in
// the owned fields of two structs is freed twice when both are closed (not
// after a store into one of them: which field held it is not kept).
//
// Map entries: a map that owns buffers (a local map of buffers that holds
// some, or whose release is deferred; an owned map field, whose release
// method ranges over it and frees the values) loses an entry's buffer at
// `delete(m, k)` unless a read of m[k] comes first on every path (the same
// map and key, or the value of the range loop whose key k is) and may free
// or hand on the value; and at `m[k] = b` under a constant key that may
// still hold a buffer stored under it and not read out since. A map that
// only indexes buffers another collection owns is not responsible for them.
// A delete after the entry's buffer was freed through its own variable
// loses nothing, and `bufs["k"].Free(); delete(bufs, "k")` leaves nothing
// for a deferred loop over the map to free again. `clear(m)`, `clear(s)`
// and a slice cut to nothing (`tmp = tmp[:0]`, where tmp is not read
// after the cut, unlike the filter-in-place idiom `kept := bufs[:0]`) drop
// what a collection holds: a leak unless it was freed first. On the branch
// where a collection's length is zero (`if len(bufs) == 0`) it holds
// nothing. Releasing an element (`first.Close()`, `bufs[0].Free()`) after
// a loop released every element of the collection is a double free.
// Collections of structs of an owning type are released by its release
// method like slices of buffers by Free.
//
// A variable declared outside a loop that a deferred literal releases at
// exit (`defer func() { if s != nil { s.Close() } }()`), given a new value
// each time round (`s = ns`), loses the previous one unless it was released
// first. A Free of a loop-carried variable (`in.Free(); in = out` in a
// ping-pong loop) frees the previous iteration's buffer or the first one,
// which is not known: neither a double free nor a use after Free is
// reported for it. A Free of a variable that is one of several buffers
// (`src` after `src, dst = dst, src`) each of which a deferred call
// certainly frees at exit (`defer a.Free()`, `defer b.Free()`) is a double
// free whichever it is.
//
// Paths: early returns, loops (a buffer allocated in a loop must be freed
// before the next iteration allocates it again), switch, select, defer
// (`defer b.Free()`, deferred function literals that free captured
// buffers, also inside loops, and `defer func(x *device.Buffer[T]) {
// x.Free() }(b)`). A path that ends in a panic, os.Exit,
// log.Fatal or testing's t.Fatal/FailNow leaks nothing.
//
// Go's error convention: on the branch where the error result of the
// allocating call is non-nil (`if err != nil`), the buffer is nil and needs
// no Free; likewise on the branch where the buffer itself is nil
// (`if b == nil`).
//
// Slices and maps of buffers: a local slice (from make, or a nil slice,
// also one captured by a deferred literal) or
// a local map (from make or a literal) that buffers are appended to or
// stored into holds them, and must itself be freed on every path, element
// by element in a loop over it (`for _, b := range bufs { b.Free() }`, a
// function that does so, or a loop that sends every element on a channel),
// or handed on. This
// catches the loop that allocates n buffers and returns on an error
// without freeing those it already has. A collection whose buffers were
// each made once, outside loops, and freed through their own variables
// (`bufs = append(bufs, a, b)`, later `a.Free(); b.Free()`) holds nothing
// left to free.
//
// Arrays of buffers: a local array variable of buffers (`var in
// [nStreams]*device.Buffer[T]`, a ping-pong pair `var buf
// [2]*device.Buffer[T]`) is such a collection too, filled by element
// stores in a loop (`in[i], err = device.Upload(...)`) or under constant
// indices, and freed by a loop over it (`for i := range in`, `for i := 0;
// i < nStreams; i++`, also in a deferred or cleanup literal; not one whose
// counter starts past the first element) or element by element: it holds
// nothing left to free once every element stored under a constant index
// (or every element, after a store under a variable one) was freed by its
// constant index, now or by a defer (`buf[0].Free(); buf[1].Free()`), so a
// pair of which one half is freed still leaks the other, also after the
// halves were swapped. On the error branch of an allocation stored into
// `buf[k]` that element holds nothing. Storing into `buf[k]` while it holds
// a buffer stored there under that index loses it, unless the element was
// read out first (`old := ws[0]`) or freed (`ws[0].Free()`); a Free of
// `ws[0]` right after the store there frees that buffer, so a second Free
// or a use of it is reported as for a variable. A slice of buffers indexed
// as made (`bufs := make([]*device.Buffer[T], k)`, never reassigned; a
// deferred literal may read it) has its elements followed the same way
// (the first 64; an append, or a store under a variable index, may fill
// any): `bufs[0]` stored over without a Free is reported, and Frees of
// every element stored by constant index free it.
//
// Collections of plain structs: a struct type without a release method
// whose fields hold buffers (directly, in fields of nested struct values,
// or in a field holding a slice of buffers) makes a local slice, map or
// array of it (or of pointers to it) a collection of buffers too. A struct
// value built from buffers and appended or stored into it (`plans =
// append(plans, plan{od, cv})`, `m[k] = plan{...}`, nested literals, a
// pointer to a literal that only goes into the collection: `&plan{in, out}`),
// or a buffer stored into an element's field (`ranks[i].send, err =
// device.Alloc(...)`, also in a local array `var devs [8]plan`), puts them
// into it; putting a struct that holds a freed buffer there is not a use of
// it. A loop over the collection frees its elements only where it frees
// every buffer field of the element type, also fields this function never
// fills: `for _, p := range plans { p.a.Free(); p.b.Free() }`,
// `plans[i].a.Free()`, `p.panel.x.Free()`, a loop over a field holding a
// slice of buffers inside it, or a method or function of the package that
// frees those fields of its struct parameter (`plans[i].destroy()`,
// `freePlan(p)`; one call deep). A loop whose counter starts past the
// first element (`for j := 1; j < len(s); j++`) does not free every
// element. Buffers are lost where an entry is deleted (`delete(m, k)`)
// without being read out first and its fields freed or handed on, where
// the slice is cut short in place (`s = s[:k]`, k not 0 or len(s); not the
// pop idiom `last := s[len(s)-1]; s = s[:len(s)-1]`), and where an
// element's field is stored into while it holds a buffer: every element
// was put into the collection whole with a buffer in that field
// (`plans[0].out = big`, `plans[i].a = a` in a loop), or a second counted
// loop over the same bounds stores into the field a first loop filled in
// every element (`devs[i].buf, err = device.Alloc(...)` in two loops over
// the devices), or where an element is stored over whole (`plans[0] = p`);
// not where that field, or the element, was read out first and may be
// freed or handed on (`plans[0].out.Free()`). Freeing an element's field
// (`plans[i].a.Free()`) while a deferred call frees every element is a
// double free, unless the field (or the element) is set to nil or replaced
// right after, or the entry deleted, or the element was cut off the slice
// (`last := s[len(s)-1]; s = s[:len(s)-1]`).
//
// Structs that own buffers: a named struct type whose Close, Free or Release
// method frees some of its fields (directly, or every element of a slice
// field in a range loop) owns those fields. Storing a buffer in such a field
// hands it on, and a struct value built in the function that holds a buffer
// must itself be closed (or returned, stored, handed on) on every path, just
// like a buffer; a function that returns such a struct is a constructor for
// its callers. Closing it frees the buffers stored in its owned fields: a
// Free of such a buffer after the Close is a double free, and passing an
// owned field (s.out) to any call after the Close is a use after free. A
// buffer field of a struct type without such a method, which some function
// of the package frees through (`w.buf.Free()`), owns its buffer too, as
// far as growing goes: a function that found it non-nil (`if w.buf != nil
// && w.buf.Len() >= n { return nil }`) and then stores into it, without a
// Free, a copy or a hand-on of the old value, or a call in between that
// may release it (a function of the package, or one given the struct),
// loses the old buffer. A store into the field without a nil test first
// (an initializer) is not reported. A
// struct filled field by field (`s.in, err = device.Upload(...)`) holds
// nothing where each buffer stored in it is nil (the error branch of its
// allocation) or freed (`s.in.Free()`): returning there is no leak.
//
// Loops: a variable carried around a loop (prev = b at the end of the
// body) holds the previous iteration's buffer; `prev.Free()` after the next
// allocation frees that one, not the new one, and allocating again while
// the old buffer is kept there and freed by the loop is no leak.
//
// Correlated branches: a buffer allocated under `if c` and freed under a
// later `if c` (the same parameter, or the same comparison of parameters
// and constants, outside loops) is not reported: where c is false it was
// never allocated.
//
// A package that does not import device but uses buffers through another
// package's API (that package's functions return, take or free buffers, or
// its types own them) is checked too.
//
// Limits: the analysis follows a buffer through local variables (struct
// variables field by field), variables captured by function literals,
// local slices and maps of buffers, and the variadic arguments of Launch;
// it does not follow buffers through arrays, slices or maps that are not
// local (a field, a parameter, a global; deleting an entry of an owned map
// field is checked, nothing more), the array behind a slice literal, an
// element of an array of buffers stored into under a constant index after
// a loop filled every element (only stores under that index are known to
// have filled it), an element of a slice of buffers stored over where the
// slice was reassigned, re-sliced, or captured by a literal that is not
// deferred, a collection of plain structs filled field
// by field whose fields are stored into again other than by a second loop
// over the same bounds (which element held a buffer is not known), or struct
// fields of types that do not own them (a store there hands the buffer on,
// so no leak is reported; only the overwrite of a field found non-nil,
// above, is), nor a use of a slice's buffers after they were
// freed, nor through calls of function values, interface methods, or
// functions that receive the buffer as an interface or a type parameter
// (all treated as taking the buffer). Branches correlated in other ways
// (two different conditions that imply each other, a condition read from
// memory, a condition inside a loop) are not related to each other, so
// freeing under one and allocating under the other may be reported. A
// Close method counts as releasing the fields it frees itself, in function
// literals it calls or defers, through helpers of its own package (three
// calls deep), or through functions of other packages that free their
// parameter. Overwritten fields: another package's function is taken to
// keep the fields it does not store into (its facts carry the fields it
// stores into and overwrites, and those its constructors fill, not those it
// releases), and a map entry overwritten under a key that is not a
// constant is not followed (a loop's key variable takes a new value each
// time round).
// A use after Free is reported only when the used value can only be that
// one buffer.
//
// Loop counters: a buffer freed on a counted loop's last iteration (`for i
// := 0; i < n; i++ { ... if i == n-1 { b.Free() } }`, also `i == last` with
// last := n-1, `i+1 == n`, `i == len(xs)-1` in a range loop, `for i :=
// range n`, `i != n-1` with the Free on the other side, constant bounds)
// is freed once: the next
// iteration's uses are not uses after Free, and where the loop certainly
// runs (constant bounds, or a guard before it such as `if n < 1 { return
// }` or `if len(xs) == 0 { return }`) the buffer is not live after it. A
// use or Free after that Free in the same iteration, or after the loop, is
// still reported, as is the leak when the loop may run zero times. The test
// must run on every iteration that goes round, and the Free must be the
// first thing under it. Other correlations with the counter (`if i == 0`,
// `if i%2 == 1`) are not followed.
package ownership
