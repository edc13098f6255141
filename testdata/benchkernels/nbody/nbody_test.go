package nbody

import (
	"math"
	"testing"

	"github.com/gpukvet/gpukvet/testdata/benchkernels/internal/bt"
)

func TestStep(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(10)
	n := 300 // not a multiple of Block: the last tile is partial
	pos := make([]Body, n)
	for i := range pos {
		pos[i] = Body{r.Float(), r.Float(), r.Float(), 0.5 + 0.5*r.Float()}
	}
	vel := r.Floats(3 * n)
	const dt, soft2 = 0.01, 0.01
	wantVel := append([]float32(nil), vel...)
	wantPos := make([]Body, n)
	for i, me := range pos {
		var ax, ay, az float32
		for _, o := range pos {
			dx, dy, dz := o.X-me.X, o.Y-me.Y, o.Z-me.Z
			inv := 1 / float32(math.Sqrt(float64(dx*dx+dy*dy+dz*dz+soft2)))
			s := o.M * inv * inv * inv
			ax, ay, az = ax+dx*s, ay+dy*s, az+dz*s
		}
		wantVel[3*i] += ax * dt
		wantVel[3*i+1] += ay * dt
		wantVel[3*i+2] += az * dt
		wantPos[i] = Body{me.X + wantVel[3*i]*dt, me.Y + wantVel[3*i+1]*dt, me.Z + wantVel[3*i+2]*dt, me.M}
	}
	bv, bn := bt.Up(t, d, vel), bt.Zeros[Body](t, d, n)
	bt.Run(t, d, Step, bt.Dim(bt.Blocks(n, Block)), bt.Dim(Block), float32(dt), float32(soft2), bt.Up(t, d, pos), bv, bn)
	bt.Near(t, "vel", bt.Down(t, bv), wantVel, 1e-3)
	got := bt.Down(t, bn)
	flat := func(bs []Body) []float32 {
		var v []float32
		for _, b := range bs {
			v = append(v, b.X, b.Y, b.Z, b.M)
		}
		return v
	}
	bt.Near(t, "pos", flat(got), flat(wantPos), 1e-4)
}
