#!/usr/bin/env bash
# test-golangci.sh tests gpukvet's golangci-lint plugin (plugins/golangci, a
# module of its own, which `go test ./...` at the root does not reach): its
# unit tests, and TestCustomGolangciLint, which builds golangci-lint v2.15.0
# from the Go module proxy, then a custom golangci-lint with the plugin
# (`golangci-lint custom`, cloning golangci-lint from a git repository made
# from the module cache), and runs it on a module with findings. Two
# golangci-lint builds: several minutes on a 2-core machine with a cold
# cache. scripts/test.sh calls it as its own step.
#
#   scripts/test-golangci.sh          # everything
#   scripts/test-golangci.sh -short   # unit tests only
set -euo pipefail
cd "$(dirname "$0")/../plugins/golangci"
start=$(date +%s)
go vet ./...
go test -v -timeout 40m "$@" ./...
echo "test-golangci: $(($(date +%s) - start)) s"
