package main

import (
	"strings"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

const skipPassesUsage = "comma-separated `names` of kernel-IR optimizer passes to leave out (every run of each), to measure on a GPU what a pass buys; an unknown name is an error that lists the passes"

// passList is the value of -skip-passes: optimizer pass names, checked
// when the flag is parsed.
type passList []string

func (l *passList) String() string { return strings.Join(*l, ",") }

func (l *passList) Set(s string) error {
	names := strings.Split(s, ",")
	if err := kir.CheckPassNames(names); err != nil {
		return err
	}
	*l = append(*l, names...)
	return nil
}
