#!/bin/sh
# install-neovim.sh installs Neovim from Debian (package neovim; 0.7.2 on
# Debian 12), whose built-in LSP client the editor test of gpukvet's
# language server drives headless (cmd/gpukvet/nvim_test.go). Idempotent;
# prints nvim's path.
# Without root or apt it prints a message and exits 0: that test skips.
set -eu

if command -v nvim >/dev/null 2>&1; then
	command -v nvim
	exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "install-neovim: not root or no apt-get; the Neovim editor test will skip" >&2
	exit 0
fi
if ! apt-get install -y --no-install-recommends neovim >&2; then
	apt-get update >&2
	apt-get install -y --no-install-recommends neovim >&2
fi
command -v nvim
