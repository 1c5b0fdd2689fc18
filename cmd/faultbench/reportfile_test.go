package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The ceiling on reports is over all of one command's reports together:
// N files each under it cannot make N times the work. A file at the
// ceiling exactly is read; one past it, refused by its size or, when it
// grows as it is read, at the ceiling.
func TestReportsShareOneCeiling(t *testing.T) {
	dir := t.TempDir()
	report := `{"seed": 1, "results": []}`
	name := filepath.Join(dir, "r.json")
	if err := os.WriteFile(name, []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	b := &readBudget{left: int64(len(report)) * 2}
	for i := range 2 {
		f, err := openReport(name, b)
		if err != nil {
			t.Fatalf("file %d: %v", i+1, err)
		}
		if data, err := io.ReadAll(f); err != nil || string(data) != report {
			t.Fatalf("file %d: %v %q", i+1, err, data)
		}
		f.Close()
	}
	if _, err := openReport(name, b); !errors.Is(err, errReportsTooLarge) {
		t.Fatalf("a third file: %v, want the ceiling", err)
	}
	grown := &budgetReader{r: strings.NewReader(report + " "), b: &readBudget{left: int64(len(report))}}
	if _, err := io.ReadAll(grown); !errors.Is(err, errReportsTooLarge) {
		t.Fatalf("a file that grew: %v, want the ceiling", err)
	}
}
