// Command sasscmp compares, statically, the SASS of a twin suite's two
// sides: nvcc's compilation of the suite's twins.cu and ptxas's of the
// PTX gpukvet builds for the Go kernels (the plain entry and the
// launch-facts variant `_fast`). Per kernel it prints registers, local
// memory, the instruction count in all and in the innermost loops (the
// regions between a backward branch and its target that hold no other),
// and counts of the instructions that decide a loop's speed: global and
// shared loads and stores, barriers, spills, 64-bit index arithmetic,
// compares, predicated branches, FFMA. These are instruction counts, not
// times: where a GPU is lent, TestTwins times the same pairs.
//
// Usage, from the repository root:
//
//	go run ./bench/internal/sasscmp [-cuda DIR] [-nvccflags FLAGS] [-ptx FILE] [-before FILE] [-o FILE] ./bench/heldout
//
// nvcc, ptxas and cuobjdump are taken from -cuda DIR (its bin directory),
// else $CUDA_HOME/bin, else $PATH; without them the command says so and
// exits 0, so it is never a dependency of a build or a test. Without -ptx
// it runs `go run ./cmd/gpukvet build` on the suite (the manifest next to
// the PTX names the entries). -before adds the rows of an earlier build's
// PTX (the same entries, compiled alike), to record what a change did.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
)

func main() {
	cuda := flag.String("cuda", "", "CUDA toolkit directory (default $CUDA_HOME, else nvcc on $PATH)")
	nvccFlags := flag.String("nvccflags", "", "extra nvcc flags, space-separated (e.g. -ccbin gcc-12 -allow-unsupported-compiler)")
	arch := flag.String("arch", "sm_90", "GPU architecture both sides compile for")
	ptx := flag.String("ptx", "", "gpukvet's PTX for the suite, built beforehand (its .json manifest beside it)")
	before := flag.String("before", "", "an earlier build's PTX of the suite, whose entries are shown too (rows was-plain, was-fast)")
	out := flag.String("o", "", "write the table here instead of standard output")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: sasscmp [flags] SUITE_DIR (holding twins.cu and the Go kernels)")
		os.Exit(2)
	}
	tools, err := findTools(*cuda)
	if err != nil {
		fmt.Println("sasscmp: skipped:", err)
		return
	}
	c := &compare{tools: tools, arch: *arch, nvccFlags: strings.Fields(*nvccFlags), suite: flag.Arg(0), ptx: *ptx, before: *before}
	if err := c.run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "sasscmp:", err)
		os.Exit(1)
	}
}

// toolkit is where the CUDA tools are.
type toolkit struct{ nvcc, ptxas, cuobjdump string }

func findTools(dir string) (toolkit, error) {
	if dir == "" {
		dir = os.Getenv("CUDA_HOME")
	}
	var bin string
	switch {
	case dir != "":
		bin = filepath.Join(dir, "bin")
	default:
		p, err := exec.LookPath("nvcc")
		if err != nil {
			return toolkit{}, errors.New("nvcc is not on $PATH and neither -cuda nor $CUDA_HOME is set")
		}
		bin = filepath.Dir(p)
	}
	t := toolkit{filepath.Join(bin, "nvcc"), filepath.Join(bin, "ptxas"), filepath.Join(bin, "cuobjdump")}
	for _, p := range []string{t.nvcc, t.ptxas, t.cuobjdump} {
		if _, err := os.Stat(p); err != nil {
			return toolkit{}, fmt.Errorf("%s is missing", p)
		}
	}
	return t, nil
}

// compare is one suite's comparison.
type compare struct {
	tools     toolkit
	arch      string
	nvccFlags []string
	suite     string
	ptx       string
	before    string
	tmp       string
}

func (c *compare) run(outPath string) error {
	var err error
	if c.tmp, err = os.MkdirTemp("", "sasscmp"); err != nil {
		return err
	}
	defer os.RemoveAll(c.tmp)
	if c.ptx == "" {
		if c.ptx, err = c.buildPTX(); err != nil {
			return err
		}
	}
	entries, err := readManifest(c.ptx + ".json")
	if err != nil {
		return err
	}
	twin, err := c.nvccSide()
	if err != nil {
		return err
	}
	ours, err := c.gpukvetSide(c.ptx, "gpukvet.cubin")
	if err != nil {
		return err
	}
	var was side
	if c.before != "" {
		if was, err = c.gpukvetSide(c.before, "before.cubin"); err != nil {
			return err
		}
	}
	if !anyTwin(entries, twin) {
		return fmt.Errorf("no function of %s is named as a Go kernel (are the twins extern \"C\"?)", filepath.Join(c.suite, "twins.cu"))
	}
	if outPath == "" {
		c.header(os.Stdout)
		return table(os.Stdout, entries, map[string]side{"nvcc": twin, "": ours, "was-": was})
	}
	f, err := os.Create(outPath)
	if err != nil {
		return err
	}
	c.header(f)
	err = table(f, entries, map[string]side{"nvcc": twin, "": ours, "was-": was})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// anyTwin reports whether nvcc's side has a function named as a kernel.
func anyTwin(entries []entry, twin side) bool {
	for _, e := range entries {
		if _, ok := twin.sass[e.Name]; ok {
			return true
		}
	}
	return false
}

func (c *compare) buildPTX() (string, error) {
	p := filepath.Join(c.tmp, "gpukvet.ptx")
	cmd := exec.Command("go", "run", "./cmd/gpukvet", "build", "-o", p, "./"+filepath.Clean(c.suite))
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("gpukvet build: %v\n%s", err, out)
	}
	return p, nil
}

// side is one compiler's SASS and resources, by function.
type side struct {
	sass map[string][]inst
	res  map[string]usage
}

func (c *compare) nvccSide() (side, error) {
	cubin := filepath.Join(c.tmp, "twins.cubin")
	args := append(append([]string{}, c.nvccFlags...), "-O3", "-arch="+c.arch, "-cubin", "-o", cubin, filepath.Join(c.suite, "twins.cu"))
	if out, err := exec.Command(c.tools.nvcc, args...).CombinedOutput(); err != nil {
		return side{}, fmt.Errorf("nvcc: %v\n%s", err, out)
	}
	return c.disassemble(cubin)
}

func (c *compare) gpukvetSide(ptx, name string) (side, error) {
	cubin := filepath.Join(c.tmp, name)
	if out, err := exec.Command(c.tools.ptxas, "-O3", "-arch="+c.arch, "-o", cubin, ptx).CombinedOutput(); err != nil {
		return side{}, fmt.Errorf("ptxas: %v\n%s", err, out)
	}
	return c.disassemble(cubin)
}

func (c *compare) disassemble(cubin string) (side, error) {
	sass, err := exec.Command(c.tools.cuobjdump, "-sass", cubin).Output()
	if err != nil {
		return side{}, fmt.Errorf("cuobjdump -sass %s: %v", cubin, err)
	}
	res, err := exec.Command(c.tools.cuobjdump, "-res-usage", cubin).Output()
	if err != nil {
		return side{}, fmt.Errorf("cuobjdump -res-usage %s: %v", cubin, err)
	}
	var s side
	if s.sass, err = parseSASS(strings.NewReader(string(sass))); err != nil {
		return side{}, err
	}
	s.res, err = resUsage(strings.NewReader(string(res)))
	return s, err
}

// entry is a kernel of the manifest: its name (the twin's) and entry
// points.
type entry struct {
	Name      string `json:"name"`
	Entry     string `json:"entry"`
	EntryFast string `json:"entryFast"`
}

func readManifest(path string) ([]entry, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m struct {
		Kernels []entry `json:"kernels"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return m.Kernels, nil
}

func (c *compare) header(w io.Writer) {
	ver, _ := exec.Command(c.tools.nvcc, "--version").Output()
	lines := strings.Split(strings.TrimSpace(string(ver)), "\n")
	commit, _ := exec.Command("git", "describe", "--always", "--dirty").Output()
	if c.ptx != "" && !strings.HasPrefix(c.ptx, c.tmp) {
		commit = []byte("(the PTX of -ptx " + c.ptx + ")")
	}
	fmt.Fprintf(w, "# SASS of %s's twins: nvcc's against gpukvet's (plain entry and launch-facts variant _fast)\n", filepath.Clean(c.suite))
	fmt.Fprintf(w, "# %s; -O3 -arch=%s on both sides (nvcc on twins.cu, ptxas on gpukvet build's PTX); gpukvet at %s\n", lines[len(lines)-1], c.arch, strings.TrimSpace(string(commit)))
	fmt.Fprintln(w, "# Static counts from cuobjdump, not times. regs, stack, lmem: per thread. insts: all instructions;")
	fmt.Fprintln(w, "# loops: instructions of each innermost loop (backward branch to its target, holding no other).")
	fmt.Fprintln(w, "# Other columns: all/in innermost loops. .X: high halves of 64-bit adds (IADD3.X, LEA.HI.X);")
	fmt.Fprintln(w, "# WIDE: IMAD.WIDE; cbr: predicated branches and exits; CALL: calls of ptxas's routines (64-bit division).")
	if c.before != "" {
		fmt.Fprintf(w, "# was-plain, was-fast: the entries of an earlier build (%s), compiled alike.\n", filepath.Base(c.before))
	}
	fmt.Fprintln(w, "# Generated by go run ./bench/internal/sasscmp (its doc comment says how).")
	fmt.Fprintln(w)
}

// table prints the rows of each kernel: nvcc's, then gpukvet's plain
// entry and variant, then those of the earlier build where sides has one
// (sides by row prefix: "nvcc", "" and "was-").
func table(w io.Writer, entries []entry, sides map[string]side) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{"kernel", "side", "regs", "stack", "lmem", "insts", "loops"}
	for _, cl := range classes {
		head = append(head, cl.name)
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, e := range entries {
		rows := []struct{ side, label, fn string }{{"nvcc", "", e.Name}, {"", "plain", e.Entry}, {"", "fast", e.EntryFast},
			{"was-", "plain", e.Entry}, {"was-", "fast", e.EntryFast}}
		for _, r := range rows {
			s := sides[r.side]
			is, ok := s.sass[r.fn]
			if r.fn == "" || !ok {
				continue
			}
			cells := []string{e.Name, r.side + r.label}
			u := s.res[r.fn]
			cn := count(is)
			cells = append(cells, fmt.Sprint(u.regs), fmt.Sprint(u.stack), fmt.Sprint(u.local), fmt.Sprint(cn.insts), cn.loopCell())
			for k := range classes {
				cells = append(cells, cn.classCell(k))
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
		}
	}
	return tw.Flush()
}
