package good

// F is fine.
func F() int { return 1 }
