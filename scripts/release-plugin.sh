#!/usr/bin/env bash
# release-plugin.sh prepares the golangci-lint plugin module for its release
# vX.Y.Z (docs/releasing.md): it drops the development replace of gpukvet by
# this checkout and requires gpukvet vX.Y.Z, which must already be tagged and
# reachable through GOPROXY; then it tidies, builds and vets the plugin
# against that release. Commit the result and tag it plugins/golangci/vX.Y.Z;
# scripts/release-plugin.sh -dev restores the replace for development.
#
#   scripts/release-plugin.sh v0.1.0    # the release commit's go.mod
#   scripts/release-plugin.sh -dev      # back to developing against ../..
#
# PLUGIN_DIR names another copy of the plugin module (the tests use one).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${PLUGIN_DIR:-$root/plugins/golangci}
main=github.com/gpukvet/gpukvet

if [[ $# -ne 1 ]]; then
	echo "usage: scripts/release-plugin.sh vX.Y.Z | -dev" >&2
	exit 2
fi
cd "$dir"
export GOWORK=off
if [[ $1 == -dev ]]; then
	go mod edit -replace="$main=../.."
	go mod tidy
	exit 0
fi
version=$1
if ! [[ $version =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
	echo "release-plugin.sh: $version is not a semantic version vX.Y.Z" >&2
	exit 2
fi
go mod edit -dropreplace="$main" -require="$main@$version"
go mod tidy
go build ./...
go vet ./...
if grep -q '^replace' go.mod; then
	echo "release-plugin.sh: go.mod still has a replace directive" >&2
	exit 1
fi
echo "plugins/golangci requires $main $version; commit go.mod and go.sum, tag plugins/golangci/$version"
