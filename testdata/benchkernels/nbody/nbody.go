// Package nbody is the CUDA SDK's all-pairs n-body step: every block stages
// tiles of body positions in shared memory and each thread accumulates the
// acceleration of its body with a softened inverse-square law.
package nbody

import (
	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/gpu/math32"
)

// Block is the number of bodies per block and per tile.
const Block = 128

// Body is a body's position and mass.
type Body struct{ X, Y, Z, M float32 }

// Step advances velocities vel (3 per body) and positions of pos by dt.
// newPos receives the new bodies.
//
//gpu:kernel block=128
func Step(t gpu.Thread, dt, soft2 float32, pos []Body, vel []float32, newPos []Body) {
	tile := gpu.Shared[[Block]Body](t)
	i := t.GlobalIdx().X
	tid := t.ThreadIdx().X
	n := len(pos)
	var me Body
	if i < n {
		me = pos[i]
	}
	var ax, ay, az float32
	for base := 0; base < n; base += Block {
		var b Body
		if base+tid < n {
			b = pos[base+tid]
		}
		tile[tid] = b
		t.Barrier()
		for k := 0; k < Block; k++ {
			o := tile[k]
			dx, dy, dz := o.X-me.X, o.Y-me.Y, o.Z-me.Z
			d2 := dx*dx + dy*dy + dz*dz + soft2
			inv := 1 / math32.Sqrt(d2)
			s := o.M * inv * inv * inv
			ax += dx * s
			ay += dy * s
			az += dz * s
		}
		t.Barrier()
	}
	if i < n && 3*i+2 < len(vel) {
		vx := vel[3*i] + ax*dt
		vy := vel[3*i+1] + ay*dt
		vz := vel[3*i+2] + az*dt
		vel[3*i], vel[3*i+1], vel[3*i+2] = vx, vy, vz
		newPos[i] = Body{me.X + vx*dt, me.Y + vy*dt, me.Z + vz*dt, me.M}
	}
}
