package lint

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/gpukvet/gpukvet/analyzers"
)

// Explain writes the documentation of the analyzer called name, and a
// link to it, to w, as -explain prints it. An unknown name is an error
// that lists the analyzers.
func Explain(w io.Writer, name string) error {
	a := analyzers.Lookup(name)
	if a == nil {
		var names []string
		for _, a := range analyzers.All() {
			names = append(names, a.Name)
		}
		return fmt.Errorf("no analyzer named %q; the analyzers are %s", name, strings.Join(names, ", "))
	}
	doc := strings.TrimSpace(a.Doc)
	if !strings.HasPrefix(doc, a.Name+":") {
		doc = a.Name + ": " + doc
	}
	fmt.Fprintln(w, doc)
	if a.URL != "" {
		fmt.Fprintf(w, "\n%s\n", a.URL)
	}
	return nil
}

// Summary is the first paragraph of an analyzer's documentation on one
// line, without the analyzer's name in front: the command's usage lists
// it, and it is the short description of the analyzer's SARIF rule.
func Summary(a *analysis.Analyzer) string {
	s, _, _ := strings.Cut(strings.TrimSpace(a.Doc), "\n\n")
	s = strings.Join(strings.Fields(s), " ")
	return strings.TrimSpace(strings.TrimPrefix(s, a.Name+":"))
}
