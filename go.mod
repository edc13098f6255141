module github.com/gpukvet/gpukvet

go 1.26.0

require (
	github.com/aymanbagabas/go-udiff v0.4.2
	github.com/ebitengine/purego v0.11.3
	github.com/sourcegraph/jsonrpc2 v0.2.3
	github.com/tliron/glsp v0.2.2
	golang.org/x/tools v0.52.0
	honnef.co/go/tools v0.8.2
)

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)

tool github.com/gpukvet/gpukvet/cmd/gpukvet
