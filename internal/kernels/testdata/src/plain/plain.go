// Package plain imports neither gpu nor device and holds no directive, only
// text that looks like one: // gpu:kernel
package plain

var m = map[string]func(){}

func F() { go func() { defer println(len(m)) }() }
