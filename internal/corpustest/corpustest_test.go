package corpustest

import "testing"

func TestReplaceSection(t *testing.T) {
	doc := "# r\n\nintro\n\n## Static\n\nold\nrows\n\n### sub\n\nold too\n\n## Next\n\nkept\n"
	got, err := replaceSection(doc, "## Static", "new\nrows\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "# r\n\nintro\n\n## Static\n\nnew\nrows\n\n## Next\n\nkept\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	got, err = replaceSection("## Last\n\nold\n", "## Last", "new\n")
	if err != nil || got != "## Last\n\nnew\n" {
		t.Errorf("last section: got %q, %v", got, err)
	}
	if _, err := replaceSection(doc, "## Missing", "x"); err == nil {
		t.Error("a missing section gave no error")
	}
}

func TestScore(t *testing.T) {
	s := Score{TP: 9, FP: 1, FN: 0, TN: 5}
	if s.Precision() != 0.9 || s.Recall() != 1 {
		t.Errorf("precision %v recall %v, want 0.9 1", s.Precision(), s.Recall())
	}
	if (Score{}).Precision() != 1 || (Score{}).Recall() != 1 {
		t.Error("an empty score is not 1, 1")
	}
}
