package bad

//gpukvet:ignore races

func F() {}
