module github.com/gpukvet/gpukvet

go 1.26.8

require (
	github.com/aymanbagabas/go-udiff v0.4.2 // indirect
	github.com/ebitengine/purego v0.11.3 // indirect
	github.com/sourcegraph/jsonrpc2 v0.2.3 // indirect
	github.com/tliron/glsp v0.2.2 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
	honnef.co/go/tools v0.8.2 // indirect
)
