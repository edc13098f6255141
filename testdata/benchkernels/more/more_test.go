package more

import (
	"math"
	"testing"

	"github.com/gpukvet/gpukvet/testdata/benchkernels/internal/bt"
)

func TestLayerForward(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(40)
	in, hid := 48, 32 // 3×2 blocks
	input, weights := r.Floats(in), r.Floats(in*hid)
	partial := bt.Zeros[float32](t, d, (in/B)*hid)
	bt.Run(t, d, LayerForward, bt.Dim(hid/B, in/B), bt.Dim(B, B), hid, bt.Up(t, d, input), bt.Up(t, d, weights), partial)
	want := make([]float32, (in/B)*hid)
	for by := 0; by < in/B; by++ {
		for j := 0; j < hid; j++ {
			for i := by * B; i < (by+1)*B; i++ {
				want[by*hid+j] += input[i] * weights[i*hid+j]
			}
		}
	}
	bt.Near(t, "partial", bt.Down(t, partial), want, 1e-5)
}

func TestTransposeConv(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(41)
	n := 48
	in := r.Floats(n * n)
	out := bt.Zeros[float32](t, d, n*n)
	bt.Run(t, d, TransposeDiag, bt.Dim(n/B, n/B), bt.Dim(B, B), n, bt.Up(t, d, in), out)
	want := make([]float32, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			want[j*n+i] = in[i*n+j]
		}
	}
	bt.Equal(t, "transpose diag", bt.Down(t, out), want)

	rows, cols := 5, 150
	k, src := r.Floats(2*Radius+1), r.Floats(rows*cols)
	dst := bt.Zeros[float32](t, d, rows*cols)
	bt.Run(t, d, ConvRows, bt.Dim(bt.Blocks(cols, 64), rows), bt.Dim(64), rows, cols, bt.Up(t, d, k), bt.Up(t, d, src), dst)
	wc := make([]float32, rows*cols)
	for y := 0; y < rows; y++ {
		for x := 0; x < cols; x++ {
			var s float32
			for j := -Radius; j <= Radius; j++ {
				if c := x + j; c >= 0 && c < cols {
					s += k[Radius-j] * src[y*cols+c]
				}
			}
			wc[y*cols+x] = s
		}
	}
	bt.Near(t, "conv rows", bt.Down(t, dst), wc, 1e-5)
}

func TestSyrkDoitgen(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(42)
	n, m := 30, 17
	a, b, c := r.Floats(n*m), r.Floats(n*m), r.Floats(n*n)
	w1, w2 := make([]float32, n*n), make([]float32, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v1, v2 := c[i*n+j]*0.5, c[i*n+j]*0.5
			for k := 0; k < m; k++ {
				v1 += 2 * a[i*m+k] * a[j*m+k]
				v2 += 2*a[i*m+k]*b[j*m+k] + 2*b[i*m+k]*a[j*m+k]
			}
			w1[i*n+j], w2[i*n+j] = v1, v2
		}
	}
	grid := bt.Dim(bt.Blocks(n, 32), bt.Blocks(n, 8))
	c1, c2 := bt.Up(t, d, c), bt.Up(t, d, c)
	ba := bt.Up(t, d, a)
	bt.Run(t, d, Syrk, grid, bt.Dim(32, 8), n, m, float32(2), float32(0.5), ba, c1)
	bt.Run(t, d, Syr2k, grid, bt.Dim(32, 8), n, m, float32(2), float32(0.5), ba, bt.Up(t, d, b), c2)
	bt.Near(t, "syrk", bt.Down(t, c1), w1, 1e-4)
	bt.Near(t, "syr2k", bt.Down(t, c2), w2, 1e-4)

	nr, nq, np := 3, 10, 12
	A, C4 := r.Floats(nr*nq*np), r.Floats(np*np)
	sum := bt.Zeros[float32](t, d, nr*nq*np)
	bA, bC := bt.Up(t, d, A), bt.Up(t, d, C4)
	for rr := 0; rr < nr; rr++ {
		bt.Run(t, d, Doitgen, bt.Dim(1, bt.Blocks(nq, 8)), bt.Dim(32, 8), rr, nq, np, bA, bC, sum)
	}
	ws := make([]float32, nr*nq*np)
	for rr := 0; rr < nr; rr++ {
		for q := 0; q < nq; q++ {
			for p := 0; p < np; p++ {
				for s := 0; s < np; s++ {
					ws[(rr*nq+q)*np+p] += A[(rr*nq+q)*np+s] * C4[s*np+p]
				}
			}
		}
	}
	bt.Near(t, "doitgen", bt.Down(t, sum), ws, 1e-5)
}

func TestGramSchmidt(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(43)
	m, n := 40, 12
	a := r.Floats(m * n)
	ba, br, bq := bt.Up(t, d, a), bt.Zeros[float32](t, d, n*n), bt.Zeros[float32](t, d, m*n)
	for k := 0; k < n; k++ {
		bt.Run(t, d, GramNorm, bt.Dim(1), bt.Dim(1), m, n, k, ba, br)
		bt.Run(t, d, GramQ, bt.Dim(1), bt.Dim(256), m, n, k, ba, br, bq)
		bt.Run(t, d, GramUpdate, bt.Dim(1), bt.Dim(256), m, n, k, ba, br, bq)
	}
	q, rr := bt.Down(t, bq), bt.Down(t, br)
	// Q has orthonormal columns and Q·R = A.
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			var dot float64
			for k := 0; k < m; k++ {
				dot += float64(q[k*n+i]) * float64(q[k*n+j])
			}
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(dot-want) > 1e-4 {
				t.Errorf("qᵀq[%d][%d] = %v", i, j, dot)
			}
		}
	}
	qr := make([]float32, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			for k := 0; k <= j; k++ {
				qr[i*n+j] += q[i*n+k] * rr[k*n+j]
			}
		}
	}
	bt.Near(t, "q·r", qr, a, 1e-4)
}

func TestLudDiagonal(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(44)
	n, off := 40, 16
	a := r.Floats(n * n)
	for i := 0; i < n; i++ {
		a[i*n+i] += 20 // diagonally dominant: no pivoting needed
	}
	ba := bt.Up(t, d, a)
	bt.Run(t, d, LudDiagonal, bt.Dim(1), bt.Dim(B), n, off, ba)
	got := bt.Down(t, ba)
	// L (unit lower) times U (upper) of the block must give the block back.
	for i := 0; i < B; i++ {
		for j := 0; j < B; j++ {
			var s float32
			for k := 0; k <= min(i, j); k++ {
				l := got[(off+i)*n+off+k]
				if k == i {
					l = 1
				}
				s += l * got[(off+k)*n+off+j]
			}
			if w := a[(off+i)*n+off+j]; math.Abs(float64(s-w)) > 1e-4*math.Max(1, math.Abs(float64(w))) {
				t.Errorf("(L·U)[%d][%d] = %v, want %v", i, j, s, w)
			}
		}
	}
}

func TestAtomics(t *testing.T) {
	d := bt.Open(t)
	const blocks, threads = 3, 64
	i32 := bt.Zeros[int32](t, d, 5+3*blocks)
	u32 := bt.Zeros[uint32](t, d, 2)
	i64 := bt.Zeros[int64](t, d, 2)
	u64 := bt.Zeros[uint64](t, d, 2)
	f32 := bt.Zeros[float32](t, d, 1)
	f64 := bt.Zeros[float64](t, d, 2)
	bt.Run(t, d, Atomics, bt.Dim(blocks), bt.Dim(threads), i32, u32, i64, u64, f32, f64)
	const n = blocks * threads
	gi := bt.Down(t, i32)
	if gi[4] < 1 || gi[4] > n {
		t.Errorf("compare-and-swap left %d, want one thread's g+1", gi[4])
	}
	gi[4] = 0
	want := []int32{n, n - 1, -(n - 1), 7, 0}
	for b := 0; b < blocks; b++ {
		want = append(want, threads, int32(threads*b+threads-1), -int32(threads*b+threads-1))
	}
	bt.Equal(t, "int32", gi, want)
	bt.Equal(t, "uint32", bt.Down(t, u32), []uint32{2 * n, n - 1})
	bt.Equal(t, "int64", bt.Down(t, i64), []int64{n * (n - 1) / 2, -(n - 1)})
	bt.Equal(t, "uint64", bt.Down(t, u64), []uint64{n << 33, (n - 1) << 32})
	bt.Equal(t, "float32", bt.Down(t, f32), []float32{n * 0.5})
	bt.Equal(t, "float64", bt.Down(t, f64), []float64{n * 0.25, 1.5})
}
