package scenario_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/faultbench/faultbench/scenario"
)

// FuzzParse checks that no input makes Parse panic, that every problem it
// reports is a *scenario.Error naming the file, and that what it accepts
// passes Validate.
func FuzzParse(f *testing.F) {
	err := filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ext := filepath.Ext(path); ext == ".yaml" || ext == ".yml" {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			f.Add(data)
		}
		return nil
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte("compaction: &x {<<: *x}\n"))
	f.Add([]byte("name: &a [*a]\n---\n"))
	f.Add([]byte("%YAML 1.2\n---\nname: x\n<<: 5\n"))

	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := scenario.Parse("fuzz.yaml", data)
		if err == nil {
			if s == nil || s.Path != "fuzz.yaml" {
				t.Fatalf("Parse accepted the input but returned %+v", s)
			}
			if err := s.Validate(); err != nil {
				t.Fatalf("Parse accepted a scenario that Validate rejects: %v", err)
			}
			return
		}
		if s != nil {
			t.Fatalf("Parse returned a scenario and an error: %v", err)
		}
		var first *scenario.Error
		if !errors.As(err, &first) || first.File == "" {
			t.Fatalf("error %q is no *scenario.Error naming the file", err)
		}
		errs := []error{err}
		if joined, ok := err.(interface{ Unwrap() []error }); ok {
			errs = joined.Unwrap()
		}
		for _, e := range errs {
			se, ok := e.(*scenario.Error)
			if !ok || se.File != "fuzz.yaml" || se.Msg == "" {
				t.Fatalf("%#v is no *scenario.Error with file and message", e)
			}
		}
	})
}
