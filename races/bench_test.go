package races_test

import (
	"testing"

	"github.com/gpukvet/gpukvet/races"
)

// BenchmarkCorpus times the races analysis of each corpus kernel (SSA
// already built, as under go vet where kernelssa builds it once):
//
//	go test ./races -run '^$' -bench Corpus -benchtime 20x
func BenchmarkCorpus(b *testing.B) {
	ks := loadCorpus(b)
	for _, k := range ks {
		b.Run(k.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				races.Check(corpusSSA.Pkg.Prog.Fset, k.fn, k.shape, corpusUni)
			}
		})
	}
}
