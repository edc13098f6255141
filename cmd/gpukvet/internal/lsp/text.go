package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// LSP names files by URI and positions by line and UTF-16 code unit;
// go/token by path and byte offset. These convert between them.

// uriToPath returns the file path of a file: URI.
func uriToPath(uri protocol.DocumentUri) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("bad document URI %q: %v", uri, err)
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("document URI %q is not a file: URI", uri)
	}
	p := u.Path
	if runtime.GOOS == "windows" {
		p = strings.TrimPrefix(p, "/") // /C:/x → C:/x
	}
	return filepath.Clean(filepath.FromSlash(p)), nil
}

// pathToURI returns the file: URI of an absolute file path.
func pathToURI(path string) protocol.DocumentUri {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// position returns the LSP position of byte offset off in content. An
// offset past the end is the end.
func position(content []byte, off int) protocol.Position {
	off = min(max(off, 0), len(content))
	line, start := 0, 0
	for i := 0; i < off; i++ {
		if content[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return protocol.Position{Line: uint32(line), Character: uint32(utf16Len(content[start:off]))}
}

// offset returns the byte offset in content of an LSP position: a
// character past the end of its line is the line's end, a line past the
// last is the end of content.
func offset(content []byte, pos protocol.Position) int {
	start := 0
	for line := uint32(0); line < pos.Line; line++ {
		i := strings.IndexByte(string(content[start:]), '\n')
		if i < 0 {
			return len(content)
		}
		start += i + 1
	}
	end := len(content)
	if i := strings.IndexByte(string(content[start:]), '\n'); i >= 0 {
		end = start + i
	}
	units := 0
	for off := start; off < end; {
		if units >= int(pos.Character) {
			return off
		}
		r, size := utf8.DecodeRune(content[off:end])
		n := utf16.RuneLen(r)
		if n < 0 {
			n = 1
		}
		units += n
		off += size
	}
	return end
}

// utf16Len is the length of b in UTF-16 code units; an invalid byte counts
// as one.
func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		if u := utf16.RuneLen(r); u > 0 {
			n += u
		} else {
			n++
		}
	}
	return n
}

// applyChange applies one content change of textDocument/didChange to
// content: a whole new text, or a range replaced.
func applyChange(content []byte, change any) ([]byte, error) {
	switch c := change.(type) {
	case protocol.TextDocumentContentChangeEventWhole:
		return []byte(c.Text), nil
	case protocol.TextDocumentContentChangeEvent:
		if c.Range == nil {
			return []byte(c.Text), nil
		}
		start, end := offset(content, c.Range.Start), offset(content, c.Range.End)
		if start > end {
			return nil, fmt.Errorf("change range ends before it starts: %+v", *c.Range)
		}
		out := make([]byte, 0, len(content)-(end-start)+len(c.Text))
		out = append(out, content[:start]...)
		out = append(out, c.Text...)
		return append(out, content[end:]...), nil
	}
	return nil, fmt.Errorf("unknown content change %T", change)
}
