package main

import (
	"strings"
	"testing"
)

// A loop of cuobjdump's form, with a nested inner loop, a predicated exit
// and the padding after the function.
const sample = `
		Function : K
	.headerflags    @"EF_CUDA_SM90 EF_CUDA_PTX_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                        /* 0x00000a00ff017b82 */
                                                                                 /* 0x000e240000000800 */
        /*0010*/                   ISETP.GE.U32.AND P0, PT, R0, UR4, PT ;
        /*0020*/                   @P0 EXIT ;
        /*0030*/                   LDG.E R2, desc[UR4][R4.64] ;
        /*0040*/                   IADD3.X R5, R0, UR5, RZ, P0, !PT ;
        /*0050*/                   FFMA R8, R8, R12, R17 ;
        /*0060*/              @!P1 BRA P0, 0x30 ;
        /*0070*/                   BRA 0x10 ;
        /*0080*/                   STG.E desc[UR4][R6.64], R9 ;
        /*0090*/                   EXIT ;
        /*00a0*/                   BRA 0xa0;
        /*00b0*/                   NOP;
`

func TestParseAndCount(t *testing.T) {
	fs, err := parseSASS(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	is := fs["K"]
	if len(is) != 10 {
		t.Fatalf("K has %d instructions, want 10 (padding dropped): %v", len(is), is)
	}
	if is[2].pred != "@P0" || is[2].op != "EXIT" {
		t.Errorf("predicated exit read as %+v", is[2])
	}
	c := count(is)
	if c.loopCell() != "4" {
		t.Errorf("innermost loops %q, want 4 (0x30..0x60)", c.loopCell())
	}
	want := map[string]string{"LDG": "1/1", "STG": "1/0", ".X": "1/1", "FFMA": "1/1", "ISETP": "1/0", "cbr": "2/1"}
	for k, cl := range classes {
		if w, ok := want[cl.name]; ok && c.classCell(k) != w {
			t.Errorf("%s: %s, want %s", cl.name, c.classCell(k), w)
		}
	}
}

func TestResUsage(t *testing.T) {
	u, err := resUsage(strings.NewReader(" Function PathRow:\n  REG:12 STACK:8 SHARED:2056 LOCAL:4 CONSTANT[0]:560 TEXTURE:0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := u["PathRow"]; got != (usage{12, 8, 4}) {
		t.Errorf("PathRow: %+v", got)
	}
}
