package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// defaultSuite is `faultbench run --format json ../../scenarios/`, run once
// for every test that reads the whole default suite's report: the run is
// deterministic, and each copy of it costs a minute under -race.
var defaultSuite struct {
	once sync.Once
	json string
	err  string
}

// defaultSuiteJSON is the default suite's JSON report.
func defaultSuiteJSON(t *testing.T) string {
	t.Helper()
	defaultSuite.once.Do(func() {
		var out, errOut bytes.Buffer
		if code := Main([]string{"run", "--format", "json", "../../scenarios/"}, &out, &errOut); code != exitOK {
			defaultSuite.err = fmt.Sprintf("run --format json ../../scenarios/: exit %d, stderr: %s", code, errOut.String())
		}
		defaultSuite.json = out.String()
	})
	if defaultSuite.err != "" {
		t.Fatal(defaultSuite.err)
	}
	return defaultSuite.json
}

// defaultSuiteFile writes the default suite's JSON report to a file of
// the test's own, for merge to read.
func defaultSuiteFile(t *testing.T) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(file, []byte(defaultSuiteJSON(t)), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}
