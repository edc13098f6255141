/*
Package memspace defines an Analyzer that keeps kernel code in device memory
and checks that host code launches kernels the way the kernels declare.

# Analyzer memspace

memspace: kernel code reaching host memory or host services, malformed
kernels, and wrong kernel launches

Kernel code is the body of every //gpu:kernel function and of every device
function: a function marked //gpu:device, or any function of the package that
a kernel or device function calls, directly or through other calls. On a GPU
none of it can reach the host, so memspace reports, at the offending
expression, kernel code that uses

  - a package-level variable (constants are fine), of any package;
  - a function literal (closure), a function or method as a value, or a call
    through a function value;
  - a go, defer or select statement, a channel, a channel send or receive;
  - a map;
  - make, new, append or a slice literal (kernel code cannot allocate; use a
    fixed-size local array, or gpu.Shared for block-shared memory);
  - gpu.Shared[T] of a T that is not a fixed-size value of bool, integers,
    float32 and float64 (arrays and structs of those, as [256]float32 or
    [16][17]float32): a slice, pointer, string, map, interface or complex
    number in T is reported at the call (a T that is a type parameter of a
    generic device function is not checked);
  - a string that is not a constant (constant strings may be indexed and
    ranged over), or a copy from a string;
  - a complex number (no GPU target compiles complex arithmetic);
  - an interface: a variable or value of interface type, a conversion to one,
    a method call through one (fmt and other host packages are reported as
    calls, below);
  - package reflect or package unsafe;
  - package device (host code: allocation, copies and launches);
  - print, println or recover;
  - recursion, direct or mutual, reported at each call that closes a cycle;
  - more code than the inlining budget allows (internal/budget): each call
    of a device function is compiled as a copy of its body, so a kernel is
    its own code plus, for every call, the inlined code of the function
    called. A kernel or device function that inlines more than 40,000
    syntax nodes, or nests calls more than 64 deep, is reported at the call
    that pushes it over, in the deepest function that exceeds the budget
    (the kernels that call it are refused through that call); a device
    function of another package counts with its size and depth from a fact;
  - a function declared without a body (implemented in assembly, or a
    //go:linkname to another package's function) that is a kernel, a device
    function, or a function of the package that kernel code calls: it has no
    Go source to compile. It is reported at its declaration, with the chain
    of calls from the kernel that reaches it; a device function of another
    package that reaches one is reported at each call of it;
  - a call of a function of another package that is not a //gpu:device
    function, the gpu package, or one of the allowed functions below;
  - a call of a //gpu:device function of another package that breaks one of
    these rules itself or through its calls (the diagnostic names what it does
    and where, from a fact exported when that package was analyzed);
  - in a device function, a pointer into or a slice of its own local memory
    that outlives it: return &x, &x.f, &a[i], a[i:j] of a local array a, or a
    local variable assigned one of those;
  - the address of a variable declared in a loop (a loop variable, which Go
    1.22 makes new in every iteration, or a variable of the loop's body) kept
    from one iteration to the next, read after the loop from an iteration it
    did not leave by, or stored in memory, where the compiler cannot give
    each iteration a copy of its own: kernel code has no heap, so it does so
    with a slot per iteration, which needs a constant bound on every loop
    around the declaration (a counter from a constant to a constant; a
    three-clause loop's own variable counts when its address is not written
    through or handed to a call) and copies that fit in one local variable.
    internal/itervars decides it on the SSA, and the compiler refuses the
    same variables. Uses within the iteration, and after a break, are fine.

A violation in a function that is neither a kernel nor marked //gpu:device is
reported with the chain of calls from the first kernel (in source order) that
reaches it, as in "(reached from kernel Foo via bar → baz)"; each call of the
chain comes with it as related information ("Foo calls bar" at the call). Device functions
and methods of the package also get the same checks on their parameter and
result types.

Besides kernels and device functions, kernel code may call the builtins
(len, cap, min, max, copy, clear, panic, and conversions), every function of
package gpu, and these functions of the standard library:

	math: Sqrt Abs Floor Ceil Trunc FMA Copysign Signbit Exp Log Sin Cos Pow
	      Float64bits Float64frombits Float32bits Float32frombits
	      Round RoundToEven Exp2 Expm1 Log2 Log10 Log1p Tan Asin Acos Atan
	      Atan2 Sinh Cosh Tanh Hypot Cbrt Mod Remainder Dim Max Min
	      Inf IsInf IsNaN NaN Frexp Ldexp Modf
	math/bits: LeadingZeros* TrailingZeros* OnesCount* RotateLeft* Reverse*
	      ReverseBytes* Len* Add* Sub* Mul* Div* Rem* (every size)

The constants of math (Pi, MaxFloat32, ...) are constants and always allowed.
The list is internal/kernelapi's table, which the compiler reads too: it
compiles every function listed for every target (codegen's TestKernelAPI
builds and runs each) and refuses every other function of the standard
library, so a kernel that passes memspace never fails to build for calling
one.

memspace also reports the problems that kernel discovery (internal/kernels)
finds: a malformed //gpu: directive (block=0, block=a, an unknown option, two
directives on one function, a directive not on a function), a block= or grid=
shape wider than the kernel's dimensionality, a kernel that is a method, is
generic, has results, is variadic, is named _, or whose first parameter is
not a gpu.Thread, and a kernel beyond the limits of the ptx target
(internal/targets; CUDA's, the ceiling of every target): block= beyond 1024
threads or 1024×1024×64, grid= beyond (2^31−1)×65535×65535 (at the
directive), gpu.Shared variables in its call tree beyond 48 KiB (at the
gpu.Shared call that overflows) and parameters beyond 4096 bytes (at the
parameter list); and a local variable of kernel code beyond 64 KiB, the
compiler's bound on one variable of a thread (at its declaration). A Vulkan device's own, possibly lower, limits are checked
when a kernel is launched on it. A
kernel parameter after the gpu.Thread must be a bool, an integer type,
float32, float64, a struct of those (nested structs included) passed by
value, or a slice of any of those; memspace reports any other.

On the host side, memspace checks every call of (*device.Device).Launch
(and of LaunchWithin, which is Launch with a validation tolerance first) as
vet's printf check checks format strings:

  - the kernel argument must name a //gpu:kernel function (of any package,
    through facts), or a function the package registers with
    device.RegisterKernel; a function literal never is one;
  - a kernel argument that is a function value is checked as what the
    package shows it holds: a variable (local, or unexported and
    package-level) holds every value assigned to it (k := Saxpy; var f sig
    = func(...) {...}), an element of a map, slice or array variable the
    values of the composite literal it is initialised with (only the
    element of a constant key, byName["fill"]), and a field of a struct
    variable the value its literal gives that field (tb.main). A function
    literal or method value among them is reported, as is a function that
    is not a kernel; when they name exactly one kernel, the launch is
    checked in full as if it were named (argument count and types, untyped
    constants, shapes). A variable whose address is taken, whose elements
    or fields are assigned, or that is passed as a map, slice or pointer to
    a call holds values the package does not show, and is left to the run
    time, as is a parameter;
  - a launch wrapper, a function of the package that passes its own kernel
    parameter and its own ...any parameter to Launch as they are
    (func launch(d *device.Device, k any, block gpu.Dim3, n int, args
    ...any) error { ...; return d.Launch(k, grid, block, args...) }), is
    checked at each of its calls as a Launch of the kernel and arguments
    given there (and of the shapes, where they are the wrapper's
    parameters): untyped constants, argument counts and types, non-kernels;
  - a []T parameter takes a *device.Buffer[T]: a host slice, a buffer of
    another element type, nil or any other value is reported;
  - the number of arguments must match the kernel's parameters after the
    gpu.Thread (unless they are passed as args...);
  - a scalar or struct argument must have the parameter's type. An untyped
    constant reaches Launch with its default type (int, float64, rune, ...);
    Launch converts an int or float64 to a numeric parameter type if Go would
    convert the constant exactly, so memspace reports only constants it cannot
    convert (2.5 for an int, 1<<40 for an int32, 'a' for a float32) and, where
    the constant fits, suggests the conversion (float32('a')). A typed
    argument of another type is reported, with a suggested conversion between
    numeric types;
  - a grid or block written as a gpu.Dim3 literal (or as a local or
    unexported package-level variable that is only ever assigned one
    literal, in its declaration) must have constant extents
    of at least 1 (a missing field is 0), equal to the kernel's block= or
    grid= when it fixes one, and 1 in the dimensions the kernel never reads
    (DIALECT.md: a kernel that never reads Y is launched with extent 1 in Y).
    One diagnostic per shape names its first wrong extent.

memspace does no work on a package that imports neither gpu nor device and
has no //gpu: directive, which is most of any tree: see TestFastPath.

Known limits: a pointer to local memory stored through a pointer parameter or
into device memory (rather than returned) is not tracked; a Launch with
args..., through a wrapper of another package or a wrapper of a wrapper,
or through a function value the package does not show (a parameter, a
call's result, a variable changed through a pointer) is checked only at
run time.
*/
package memspace
