package races_test

import (
	"github.com/gpukvet/gpukvet/internal/cputime"
	"testing"

	"github.com/gpukvet/gpukvet/races"
)

// BenchmarkCorpus times the races analysis of each corpus kernel (SSA
// already built, as under go vet where kernelssa builds it once), witness
// replay included:
//
//	go test ./races -run '^$' -bench Corpus -benchtime 20x
//
// Beside the wall-clock ns/op it reports cpu-ms/op, the process's CPU
// time per analysis, which a loaded machine does not inflate the way it
// inflates wall time (the analysis runs on one goroutine; the collector's
// work on other threads is counted too, as it is part of the cost).
func BenchmarkCorpus(b *testing.B) {
	ks := loadCorpus(b)
	for _, k := range ks {
		b.Run(k.name, func(b *testing.B) {
			start := cputime.Process()
			for i := 0; i < b.N; i++ {
				races.Check(corpusSSA.Pkg.Prog.Fset, k.fn, k.shape, corpusUni)
			}
			b.ReportMetric(float64(cputime.Process()-start)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}
