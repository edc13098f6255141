package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompletion checks each shell's script with the shell's own syntax
// check (bash always; zsh and fish where installed), and runs the bash one:
// it must offer the subcommands, the checks' flags, a subcommand's flags
// and the analyzers after -explain.
func TestCompletion(t *testing.T) {
	dir := t.TempDir()
	for _, shell := range []string{"bash", "zsh", "fish"} {
		r := gpukvet(t, dir, "completion", shell)
		wantCode(t, r, exitClean)
		script := filepath.Join(dir, shell)
		if err := os.WriteFile(script, []byte(r.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := exec.LookPath(shell); err != nil {
			if shell == "bash" {
				t.Fatal("no bash")
			}
			t.Logf("%s is not installed: its script is not checked", shell)
			continue
		}
		if out, err := exec.Command(shell, "-n", script).CombinedOutput(); err != nil {
			t.Errorf("%s -n: %v\n%s\n%s", shell, err, out, r.stdout)
		}
	}
	for _, tc := range []struct{ words, want string }{
		{"gpukvet ''", "build gen lsp completion"},
		{"gpukvet -ex", "-explain"},
		{"gpukvet -explain r", "races"},
		{"gpukvet gen -ch", "-check"},
		{"gpukvet completion z", "zsh"},
	} {
		words := "COMP_WORDS=(" + tc.words + "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))"
		if strings.HasSuffix(tc.words, "''") {
			words = "COMP_WORDS=(gpukvet ''); COMP_CWORD=1"
		}
		var out bytes.Buffer
		cmd := exec.Command("bash", "--norc", "-c", "source "+filepath.Join(dir, "bash")+"; "+words+`; _gpukvet; echo "${COMPREPLY[*]}"`)
		cmd.Dir = dir
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil || !strings.Contains(out.String(), tc.want) {
			t.Errorf("completing %s: %v %q, want %q", tc.words, err, out.String(), tc.want)
		}
	}
	if r := gpukvet(t, dir, "completion", "powershell"); r.code != exitError {
		t.Errorf("completion powershell: exit %d, want %d", r.code, exitError)
	}
}
