#include "textflag.h"

// func callerPC() uintptr
//
// callerPC returns the return address of the function that called it, as
// runtime.Callers(2, ...) would, without walking the stack: a frameless
// assembly function sees its caller's frame pointer in BP, and the word
// above the saved frame pointer is the caller's return address.
TEXT ·callerPC(SB),NOSPLIT|NOFRAME,$0-8
	MOVQ	8(BP), AX
	MOVQ	AX, ret+0(FP)
	RET
