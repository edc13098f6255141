package suppress

func bad() {}

func calls() {
	bad() // want "call to bad"
	bad() //gpukvet:ignore races a trailing directive covers its own line
	//gpukvet:ignore races a directive covers the line below it
	bad()
	//gpukvet:ignore divergence another analyzer's directive does not count
	bad() // want "call to bad"
	//gpukvet:ignore divergence,races a list of analyzers
	bad()
	//gpukvet:ignore races
	bad() // want "call to bad"
	//gpukvet:ignore race a misspelled name silences nothing
	bad() // want "call to bad"
	//gpukvet:ignore races a directive two lines up does not reach

	bad() // want "call to bad"
	/*gpukvet:ignore races a block comment is not a directive */
	bad() // want "call to bad"
	// gpukvet:ignore races a space after the slashes is not a directive
	bad() // want "call to bad"
}
