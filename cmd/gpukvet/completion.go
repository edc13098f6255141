package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gpukvet/gpukvet/analyzers"
	"github.com/gpukvet/gpukvet/cmd/gpukvet/internal/lint"
)

// A subcommand is one of gpukvet's commands other than the checks
// themselves: main dispatches to run, -h lists it, and the shell
// completions offer its flags.
type subcommand struct {
	name, summary string
	run           func(args []string) int
	flags         func() *flag.FlagSet
}

// subcommands returns gpukvet's subcommands, in the order -h lists them.
func subcommands() []subcommand {
	return []subcommand{
		{"build", "compile a package's kernels to a module and its manifest", buildMain,
			func() *flag.FlagSet { fs, _ := newBuildFlags(io.Discard); return fs }},
		{"gen", "embed compiled kernels and typed launch functions (go:generate)", genMain,
			func() *flag.FlagSet { fs, _ := newGenFlags(io.Discard); return fs }},
		{"lsp", "language server for editors, beside gopls", lspMain,
			func() *flag.FlagSet { fs, _ := newLSPFlags(); return fs }},
		{"completion", "print a shell completion script", completionMain,
			func() *flag.FlagSet { return flag.NewFlagSet("completion", flag.ContinueOnError) }},
	}
}

// completionMain prints the completion script of the shell named by args.
func completionMain(args []string) int {
	shells := map[string]func(io.Writer, completionWords){"bash": bashCompletion, "zsh": zshCompletion, "fish": fishCompletion}
	if len(args) != 1 || shells[args[0]] == nil {
		fmt.Fprint(os.Stderr, `usage: gpukvet completion bash|zsh|fish

Prints a completion script for the shell:
	source <(gpukvet completion bash)                            # bash, or in ~/.bashrc
	gpukvet completion zsh > "${fpath[1]}/_gpukvet"              # zsh
	gpukvet completion fish > ~/.config/fish/completions/gpukvet.fish
`)
		return exitError
	}
	shells[args[0]](os.Stdout, wordsToComplete())
	return exitClean
}

// completionWords are what the completion scripts offer.
type completionWords struct {
	subcommands []string
	flags       []string            // the checks' flags, with their dash
	subFlags    map[string][]string // each subcommand's flags
	analyzers   []string            // for -explain
	formats     []string            // for -f
	shells      []string            // for completion
}

func wordsToComplete() completionWords {
	w := completionWords{
		subFlags: map[string][]string{},
		formats:  lint.FormatNames(),
		shells:   []string{"bash", "fish", "zsh"},
	}
	w.flags = flagNames(newFlagSet(&options{}, io.Discard))
	for _, c := range subcommands() {
		w.subcommands = append(w.subcommands, c.name)
		w.subFlags[c.name] = flagNames(c.flags())
	}
	for _, a := range analyzers.All() {
		w.analyzers = append(w.analyzers, a.Name)
	}
	return w
}

func flagNames(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, "-"+f.Name) })
	return names
}

func bashCompletion(w io.Writer, c completionWords) {
	fmt.Fprintf(w, `# bash completion for gpukvet: source <(gpukvet completion bash)
_gpukvet() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} flags
	case $prev in
	-explain) COMPREPLY=($(compgen -W %[1]q -- "$cur")); return ;;
	-f) COMPREPLY=($(compgen -W %[2]q -- "$cur")); return ;;
	esac
	if ((COMP_CWORD == 1)) && [[ $cur != -* ]]; then
		COMPREPLY=($(compgen -W %[3]q -- "$cur") $(compgen -d -- "$cur"))
		return
	fi
	case ${COMP_WORDS[1]} in
`, join(c.analyzers), join(c.formats), join(c.subcommands))
	for _, s := range c.subcommands {
		fmt.Fprintf(w, "\t%s) flags=%q ;;\n", s, join(c.subFlags[s]))
	}
	fmt.Fprintf(w, `	*) flags=%[1]q ;;
	esac
	if [[ ${COMP_WORDS[1]} == completion ]]; then
		COMPREPLY=($(compgen -W %[2]q -- "$cur"))
	elif [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$flags" -- "$cur"))
	else
		COMPREPLY=($(compgen -d -- "$cur"))
	fi
}
complete -F _gpukvet gpukvet
`, join(c.flags), join(c.shells))
}

func zshCompletion(w io.Writer, c completionWords) {
	fmt.Fprintf(w, `#compdef gpukvet
# zsh completion for gpukvet: gpukvet completion zsh > "${fpath[1]}/_gpukvet"
_gpukvet() {
	case $words[CURRENT-1] in
	-explain) compadd -- %[1]s; return ;;
	-f) compadd -- %[2]s; return ;;
	esac
	local -a flags
	case $words[2] in
`, join(c.analyzers), join(c.formats))
	for _, s := range c.subcommands {
		fmt.Fprintf(w, "\t%s) flags=(%s) ;;\n", s, join(c.subFlags[s]))
	}
	fmt.Fprintf(w, `	*) flags=(%[1]s) ;;
	esac
	if [[ $words[2] == completion && CURRENT -eq 3 ]]; then
		compadd -- %[2]s
	elif [[ $PREFIX == -* ]]; then
		compadd -- $flags
	else
		(( CURRENT == 2 )) && compadd -- %[3]s
		_files -/
	fi
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
	_gpukvet "$@"
else
	compdef _gpukvet gpukvet
fi
`, join(c.flags), join(c.shells), join(c.subcommands))
}

func fishCompletion(w io.Writer, c completionWords) {
	subs := join(c.subcommands)
	checks := fmt.Sprintf("not __fish_seen_subcommand_from %s", subs)
	fmt.Fprintf(w, "# fish completion for gpukvet: gpukvet completion fish > ~/.config/fish/completions/gpukvet.fish\n")
	fmt.Fprintf(w, "complete -c gpukvet -f # packages are folders: offered below\n")
	fmt.Fprintf(w, "complete -c gpukvet -n __fish_use_subcommand -a %q\n", subs)
	fmt.Fprintf(w, "complete -c gpukvet -n %q -a '(__fish_complete_directories)'\n", checks)
	fmt.Fprintf(w, "complete -c gpukvet -n '__fish_seen_subcommand_from completion' -x -a %q\n", join(c.shells))
	for _, f := range c.flags {
		switch f {
		case "-explain":
			fmt.Fprintf(w, "complete -c gpukvet -n %q -o explain -x -a %q\n", checks, join(c.analyzers))
		case "-f":
			fmt.Fprintf(w, "complete -c gpukvet -n %q -o f -x -a %q\n", checks, join(c.formats))
		default:
			fmt.Fprintf(w, "complete -c gpukvet -n %q -o %s\n", checks, strings.TrimPrefix(f, "-"))
		}
	}
	for _, s := range c.subcommands {
		for _, f := range c.subFlags[s] {
			fmt.Fprintf(w, "complete -c gpukvet -n '__fish_seen_subcommand_from %s' -o %s\n", s, strings.TrimPrefix(f, "-"))
		}
	}
}

func join(words []string) string { return strings.Join(words, " ") }
