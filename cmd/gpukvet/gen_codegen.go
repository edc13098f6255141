package main

import "errors"

// compileForGen compiles a package's kernels with the codegen library.
var compileForGen = func(gp *genPackage, arch string) (*compiled, error) {
	return nil, errors.New("the PTX codegen is not available in this build")
}
