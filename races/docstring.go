package races

import "strings"

// analyzerDoc turns the package comment of doc.go into Analyzer.Doc: the
// text after "# Analyzer races", without comment markers.
func analyzerDoc(src string) string {
	var lines []string
	for _, l := range strings.Split(src, "\n") {
		if !strings.HasPrefix(l, "//") {
			continue
		}
		l = strings.TrimPrefix(strings.TrimPrefix(l, "//"), " ")
		lines = append(lines, l)
	}
	text := strings.Join(lines, "\n")
	if i := strings.Index(text, "# Analyzer races\n"); i >= 0 {
		text = text[i+len("# Analyzer races\n"):]
	}
	return strings.TrimSpace(text)
}
