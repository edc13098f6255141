// Package directive parses the //gpu: directives of the kernel dialect. Both
// the analyses (through internal/kernels) and the runtime (for kernels it
// reads from source) use it, so that the two never disagree.
package directive

import (
	"fmt"
	"go/ast"
	"strconv"
	"strings"

	"github.com/gpukvet/gpukvet/internal/targets"
)

// Kind says which directive a comment holds.
type Kind int

const (
	None   Kind = iota
	Kernel      // //gpu:kernel
	Device      // //gpu:device
)

// Directive is one parsed //gpu: directive.
type Directive struct {
	Kind Kind
	// Block and Grid are the shapes fixed by block= and grid=; missing
	// dimensions are 1, and an all-zero shape means "not fixed".
	Block, Grid [3]int
	// Comment is the comment the directive was found in.
	Comment *ast.Comment
}

// Error is a malformed directive.
type Error struct {
	Comment *ast.Comment
	Msg     string
}

func (e *Error) Error() string { return e.Msg }

// Find returns the //gpu: directive of a doc comment, if any. A doc comment
// with more than one //gpu: directive, an unknown directive or a malformed
// option is an *Error.
func Find(doc *ast.CommentGroup) (Directive, error) {
	var d Directive
	if doc == nil {
		return d, nil
	}
	for _, c := range doc.List {
		text, ok := strings.CutPrefix(c.Text, "//gpu:")
		if !ok {
			continue
		}
		if d.Kind != None {
			return d, &Error{c, "more than one //gpu: directive on one declaration"}
		}
		nd, err := parse(c, text)
		if err != nil {
			return d, err
		}
		d = nd
	}
	return d, nil
}

func parse(c *ast.Comment, text string) (Directive, error) {
	d := Directive{Comment: c}
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return d, &Error{c, "empty //gpu: directive (want //gpu:kernel or //gpu:device)"}
	}
	switch fields[0] {
	case "kernel":
		d.Kind = Kernel
	case "device":
		d.Kind = Device
		if len(fields) > 1 {
			return d, &Error{c, fmt.Sprintf("//gpu:device takes no options, found %q", fields[1])}
		}
		return d, nil
	default:
		return d, &Error{c, fmt.Sprintf("unknown directive //gpu:%s (want //gpu:kernel or //gpu:device)", fields[0])}
	}
	seen := map[string]bool{}
	for _, opt := range fields[1:] {
		key, val, ok := strings.Cut(opt, "=")
		if !ok || (key != "block" && key != "grid") {
			return d, &Error{c, fmt.Sprintf("unknown //gpu:kernel option %q (want block=X[,Y[,Z]] or grid=X[,Y[,Z]])", opt)}
		}
		if seen[key] {
			return d, &Error{c, fmt.Sprintf("//gpu:kernel option %s given twice", key)}
		}
		seen[key] = true
		shape, err := parseShape(val)
		if err == nil {
			// A shape no target can launch would fail every launch:
			// refuse it here, where every reader of directives sees it.
			if key == "block" {
				err = targets.Static.CheckBlock(shape)
			} else {
				err = targets.Static.CheckGrid(shape)
			}
		}
		if err != nil {
			return d, &Error{c, fmt.Sprintf("//gpu:kernel %s=%s: %v", key, val, err)}
		}
		if key == "block" {
			d.Block = shape
		} else {
			d.Grid = shape
		}
	}
	return d, nil
}

func parseShape(s string) ([3]int, error) {
	shape := [3]int{1, 1, 1}
	parts := strings.Split(s, ",")
	if len(parts) > 3 {
		return shape, fmt.Errorf("at most three dimensions")
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return shape, fmt.Errorf("%q is not a positive integer", p)
		}
		if n <= 0 {
			return shape, fmt.Errorf("dimension %d must be positive", n)
		}
		shape[i] = n
	}
	return shape, nil
}

// Fixed reports whether a shape was given.
func Fixed(shape [3]int) bool { return shape[0] != 0 }

// Mentioned reports whether any comment of the files holds a //gpu:
// directive. Analyzers use it, with the imports, for their fast path.
func Mentioned(files []*ast.File) bool {
	for _, f := range files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//gpu:") {
					return true
				}
			}
		}
	}
	return false
}
