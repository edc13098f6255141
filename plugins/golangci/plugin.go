// Package golangci is gpukvet's golangci-lint (v2) module plugin: it
// registers the gpukvet suite as the linter "gpukvet", with per-analyzer
// settings. It is a module of its own so that gpukvet's module never
// takes golangci-lint's dependencies; golangci-lint builds it in with
// `golangci-lint custom` (see docs/using.md for .custom-gcl.yml and
// .golangci.yml).
//
// The analyzers are gpukvet's own exported values, with //gpukvet:ignore
// suppression and the panic guard applied where each is defined, so
// //gpukvet:ignore works under golangci-lint as under go vet; so does
// golangci-lint's //nolint:gpukvet. Facts flow between packages as under
// any go/analysis driver.
package golangci

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/gpukvet/gpukvet/analyzers"
)

// Name is the linter's name in .golangci.yml and in //nolint comments.
const Name = "gpukvet"

func init() {
	register.Plugin(Name, New)
}

// Settings are the plugin's settings, under
// linters.settings.custom.gpukvet.settings in .golangci.yml.
type Settings struct {
	// Enable, if not empty, names the only analyzers to run.
	Enable []string `json:"enable"`
	// Disable names analyzers not to run.
	Disable []string `json:"disable"`
	// Flags sets analyzer flags: analyzer name → flag name → value, as
	// gpukvet's -NAME.FLAG=VALUE does standalone.
	Flags map[string]map[string]string `json:"flags"`
}

type plugin struct {
	analyzers []*analysis.Analyzer
}

// New returns the plugin for settings conf, or an error naming a setting
// that names no analyzer or flag.
func New(conf any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](conf)
	if err != nil {
		return nil, fmt.Errorf("gpukvet plugin settings: %w", err)
	}
	all := analyzers.All()
	names := make([]string, len(all))
	for i, a := range all {
		names[i] = a.Name
	}
	check := func(what string, list []string) error {
		for _, n := range list {
			if !slices.Contains(names, n) {
				return fmt.Errorf("gpukvet plugin settings: %s names unknown analyzer %q; the analyzers are %s", what, n, strings.Join(names, ", "))
			}
		}
		return nil
	}
	if err := check("enable", s.Enable); err != nil {
		return nil, err
	}
	if err := check("disable", s.Disable); err != nil {
		return nil, err
	}
	var run []*analysis.Analyzer
	for _, a := range all {
		if (len(s.Enable) == 0 || slices.Contains(s.Enable, a.Name)) && !slices.Contains(s.Disable, a.Name) {
			run = append(run, a)
		}
	}
	for name, flags := range s.Flags {
		a := analyzers.Lookup(name)
		if a == nil {
			return nil, fmt.Errorf("gpukvet plugin settings: flags names unknown analyzer %q; the analyzers are %s", name, strings.Join(names, ", "))
		}
		for f, v := range flags {
			if a.Flags.Lookup(f) == nil {
				return nil, fmt.Errorf("gpukvet plugin settings: analyzer %s has no flag %q (gpukvet -h lists them as -%s.FLAG)", name, f, name)
			}
			if err := a.Flags.Set(f, v); err != nil {
				return nil, fmt.Errorf("gpukvet plugin settings: %s flag %s=%q: %v", name, f, v, err)
			}
		}
	}
	dropRelated.Do(func() {
		for _, a := range all {
			withoutRelated(a)
		}
	})
	return &plugin{analyzers: run}, nil
}

// dropRelated makes the suite's diagnostics carry no related information,
// once per process.
var dropRelated sync.Once

// withoutRelated makes a's diagnostics carry no related information.
// golangci-lint turns each related position into an issue of its own
// ("(related information)"), which //nolint on the finding's line does not
// silence; the messages already name the other line. It changes a in
// place: the analyzers require one another by identity (facts, results),
// so a copy would run beside the original, and in this plugin's binary no
// other driver uses them.
func withoutRelated(a *analysis.Analyzer) {
	run := a.Run
	a.Run = func(pass *analysis.Pass) (any, error) {
		p := *pass
		p.Report = func(d analysis.Diagnostic) {
			d.Related = nil
			pass.Report(d)
		}
		return run(&p)
	}
}

// BuildAnalyzers returns the analyzers the settings select.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) { return p.analyzers, nil }

// GetLoadMode asks for type information: every gpukvet analyzer needs it.
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
