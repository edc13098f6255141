package backend

import (
	"strings"
	"testing"
)

type mem struct{ freed bool }

func (m *mem) Len() int    { return 0 }
func (m *mem) Freed() bool { return m.freed }

type other struct{}

func (other) Len() int { return 0 }

func TestOwn(t *testing.T) {
	m := &mem{}
	if got, err := Own[*mem](m, "x", "Write"); got != m || err != nil {
		t.Errorf("Own of its own memory = %v, %v", got, err)
	}
	for _, c := range []struct {
		m    Memory
		want string
	}{
		{other{}, "x backend: Write: memory backend.other that the x backend did not allocate"},
		{nil, "x backend: Write: memory <nil> that the x backend did not allocate"},
		{(*mem)(nil), "did not allocate"},
		{&mem{freed: true}, "x backend: Write: freed memory"},
	} {
		if _, err := Own[*mem](c.m, "x", "Write"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Own(%#v) = %v, want an error containing %q", c.m, err, c.want)
		}
	}
}
