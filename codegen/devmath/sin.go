package devmath

import (
	"math"
	"math/bits"
)

const (
	pi4A = 7.85398125648498535156e-1  // 0x3fe921fb40000000, Pi/4 split into three parts
	pi4B = 3.77489470793079817668e-8  // 0x3e64442d00000000,
	pi4C = 2.69515142907905952645e-15 // 0x3ce8469898cc5170,

	reduceThreshold = 1 << 29

	sin0 = 1.58962301576546568060e-10 // 0x3de5d8fd1fd19ccd
	sin1 = -2.50507477628578072866e-8 // 0xbe5ae5e5a9291f5d
	sin2 = 2.75573136213857245213e-6  // 0x3ec71de3567d48a1
	sin3 = -1.98412698295895385996e-4 // 0xbf2a01a019bfdf03
	sin4 = 8.33333333332211858878e-3  // 0x3f8111111110f7d0
	sin5 = -1.66666666666666307295e-1 // 0xbfc5555555555548

	cos0 = -1.13585365213876817300e-11 // 0xbda8fa49a0861a9b
	cos1 = 2.08757008419747316778e-9   // 0x3e21ee9d7b4e3f05
	cos2 = -2.75573141792967388112e-7  // 0xbe927e4f7eac4bc6
	cos3 = 2.48015872888517045348e-5   // 0x3efa01a019c844f5
	cos4 = -1.38888888888730564116e-3  // 0xbf56c16c16c14f91
	cos5 = 4.16666666666665929218e-2   // 0x3fa555555555554b
)

// reduce returns the octant j and the reduced argument z of x ≥ 0.
func reduce(x float64) (j uint64, z float64) {
	if x >= reduceThreshold {
		return trigReduce(x)
	}
	j = uint64(x * (4 / math.Pi)) // integer part of x/(Pi/4)
	y := float64(j)
	if j&1 == 1 { // map zeros to origin
		j++
		y++
	}
	j &= 7
	z = ((x - y*pi4A) - y*pi4B) - y*pi4C // extended precision modular arithmetic
	return j, z
}

func sinPoly(z, zz float64) float64 {
	return z + z*zz*((((((sin0*zz)+sin1)*zz+sin2)*zz+sin3)*zz+sin4)*zz+sin5)
}

func cosPoly(zz float64) float64 {
	return 1.0 - 0.5*zz + zz*zz*((((((cos0*zz)+cos1)*zz+cos2)*zz+cos3)*zz+cos4)*zz+cos5)
}

// Sin is math.Sin.
//
//gpu:device
func Sin(x float64) float64 {
	switch {
	case x == 0 || math.IsNaN(x):
		return x
	case IsInf(x, 0):
		return math.NaN()
	}
	sign := false
	if x < 0 {
		x = -x
		sign = true
	}
	j, z := reduce(x)
	if j > 3 {
		sign = !sign
		j -= 4
	}
	zz := z * z
	var y float64
	if j == 1 || j == 2 {
		y = cosPoly(zz)
	} else {
		y = sinPoly(z, zz)
	}
	if sign {
		y = -y
	}
	return y
}

// Cos is math.Cos.
//
//gpu:device
func Cos(x float64) float64 {
	if math.IsNaN(x) || IsInf(x, 0) {
		return math.NaN()
	}
	sign := false
	x = math.Abs(x)
	j, z := reduce(x)
	if j > 3 {
		j -= 4
		sign = !sign
	}
	if j > 1 {
		sign = !sign
	}
	zz := z * z
	var y float64
	if j == 1 || j == 2 {
		y = sinPoly(z, zz)
	} else {
		y = cosPoly(zz)
	}
	if sign {
		y = -y
	}
	return y
}

// Tan is math.Tan computed as Sin/Cos (within 2 ULP of it).
//
//gpu:device
func Tan(x float64) float64 {
	return Sin(x) / Cos(x)
}

// mPi4 returns digit i of the binary digits of 4/pi (Go's table, held in
// code because kernels cannot read package-level variables).
func mPi4(i uint) uint64 {
	switch i {
	case 0:
		return 0x0000000000000001
	case 1:
		return 0x45f306dc9c882a53
	case 2:
		return 0xf84eafa3ea69bb81
	case 3:
		return 0xb6c52b3278872083
	case 4:
		return 0xfca2c757bd778ac3
	case 5:
		return 0x6e48dc74849ba5c0
	case 6:
		return 0x0c925dd413a32439
	case 7:
		return 0xfc3bd63962534e7d
	case 8:
		return 0xd1046bea5d768909
	case 9:
		return 0xd338e04d68befc82
	case 10:
		return 0x7323ac7306a673e9
	case 11:
		return 0x3908bf177bf25076
	case 12:
		return 0x3ff12fffbc0b301f
	case 13:
		return 0xde5e2316b414da3e
	case 14:
		return 0xda6cfd9e4f96136e
	case 15:
		return 0x9e8c7ecd3cbfd45a
	case 16:
		return 0xea4f758fd7cbe2f6
	case 17:
		return 0x7a0e73ef14a525d4
	case 18:
		return 0xd7f6bf623f1aba10
	}
	return 0xac06608df8f6d757
}

// trigReduce is Go's Payne-Hanek reduction for x ≥ 2**29.
func trigReduce(x float64) (j uint64, z float64) {
	const PI4 = math.Pi / 4
	if x < PI4 {
		return 0, x
	}
	ix := math.Float64bits(x)
	exp := int(ix>>shift&mask) - bias - shift
	ix &^= mask << shift
	ix |= 1 << shift
	digit, bitshift := uint(exp+61)/64, uint(exp+61)%64
	z0 := (mPi4(digit) << bitshift) | (mPi4(digit+1) >> (64 - bitshift))
	z1 := (mPi4(digit+1) << bitshift) | (mPi4(digit+2) >> (64 - bitshift))
	z2 := (mPi4(digit+2) << bitshift) | (mPi4(digit+3) >> (64 - bitshift))
	z2hi, _ := bits.Mul64(z2, ix)
	z1hi, z1lo := bits.Mul64(z1, ix)
	z0lo := z0 * ix
	lo, c := bits.Add64(z1lo, z2hi, 0)
	hi, _ := bits.Add64(z0lo, z1hi, c)
	j = hi >> 61
	hi = hi<<3 | lo>>61
	lz := uint(bits.LeadingZeros64(hi))
	e := uint64(bias - (lz + 1))
	hi = (hi << (lz + 1)) | (lo >> (64 - (lz + 1)))
	hi >>= 64 - shift
	hi |= e << shift
	z = math.Float64frombits(hi)
	if j&1 == 1 {
		j++
		j &= 7
		z--
	}
	return j, z * PI4
}
