package codegen

// Prepare and Compile split Build for the benchmark: loading and checking
// once, lowering and emitting per iteration.
func Prepare(patterns []string, opts Options) (func() (*Module, error), error) {
	var pp *prepared
	saved := buildHook
	buildHook = func(p *prepared) { pp = p }
	defer func() { buildHook = saved }()
	if _, err := Build(patterns, opts); err != nil {
		return nil, err
	}
	return func() (*Module, error) { return pp.compile(patterns) }, nil
}

// PrepareTargets loads and checks patterns once and returns a function
// that compiles them for a target: the ptx module is the one Build made,
// the others are compiled from the same checked program. The error is
// Build's when it failed before compiling (loading, checking).
func PrepareTargets(patterns []string, opts Options) (func(target string) (*Module, error), error) {
	var pp *prepared
	saved := buildHook
	buildHook = func(p *prepared) { pp = p }
	defer func() { buildHook = saved }()
	opts.Target = "ptx"
	mod, err := Build(patterns, opts)
	if pp == nil {
		return nil, err
	}
	return func(target string) (*Module, error) {
		if target == "ptx" {
			return mod, err
		}
		o := *pp
		o.opts.Target = target
		switch target {
		case "spirv":
			o.opts.Arch = "vulkan1.2"
		case "hsaco":
			o.opts.Arch = "gfx90a"
		}
		return o.compile(patterns)
	}, nil
}
