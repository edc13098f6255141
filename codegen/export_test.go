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
