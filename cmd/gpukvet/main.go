// Command gpukvet checks Go GPU kernels and the host code that launches them.
package main

import "os"

func main() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "build":
			os.Exit(buildMain(os.Args[2:]))
		case "gen":
			os.Exit(genMain(os.Args[2:]))
		}
	}
	os.Exit(2)
}
