package golangci

import (
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
)

func names(t *testing.T, conf any) []string {
	t.Helper()
	p, err := New(conf)
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, a := range as {
		out = append(out, a.Name)
	}
	return out
}

func TestSettings(t *testing.T) {
	if got := strings.Join(names(t, nil), " "); got != "memspace ownership races divergence ignore" {
		t.Errorf("no settings: %s", got)
	}
	if got := strings.Join(names(t, map[string]any{"disable": []string{"ownership"}}), " "); got != "memspace races divergence ignore" {
		t.Errorf("disable ownership: %s", got)
	}
	if got := strings.Join(names(t, map[string]any{"enable": []string{"races", "ignore"}}), " "); got != "races ignore" {
		t.Errorf("enable races, ignore: %s", got)
	}
	for _, bad := range []map[string]any{
		{"enable": []string{"race"}},
		{"disable": []string{"nosuch"}},
		{"flags": map[string]any{"races": map[string]string{"nosuch": "1"}}},
		{"flags": map[string]any{"nosuch": map[string]string{}}},
		{"unknown-setting": true},
	} {
		if _, err := New(bad); err == nil {
			t.Errorf("New(%v) accepted bad settings", bad)
		}
	}
}

func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin(Name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("load mode %q", p.GetLoadMode())
	}
}
