package mocktest_test

import (
	"fmt"
	"testing"
)

// recorder is a testing.TB that records what a test would be told, so a
// test can check the words of a failure; the rest goes to the real t.
type recorder struct {
	testing.TB
	errors []string
	fatal  string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// Fatalf records the message and stops the goroutine, as testing.T's
// does; run it on a goroutine of its own (fatally).
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	panic(fatalStop{})
}

type fatalStop struct{}

// fatally runs f with r and reports the message of its Fatalf, "" when
// it returned without one.
func fatally(r *recorder, f func()) (msg string) {
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(fatalStop); !ok {
				panic(v)
			}
			msg = r.fatal
		}
	}()
	f()
	return ""
}

// exampleTB is the testing.TB of an example: its name, its cleanups run
// by done, and a failure printed where the output shows it.
type exampleTB struct {
	testing.TB
	cleanups []func()
}

func exampleT() (testing.TB, func()) {
	t := &exampleTB{}
	return t, func() {
		for i := len(t.cleanups) - 1; i >= 0; i-- {
			t.cleanups[i]()
		}
	}
}

func (t *exampleTB) Helper()          {}
func (t *exampleTB) Name() string     { return "Example" }
func (t *exampleTB) Cleanup(f func()) { t.cleanups = append(t.cleanups, f) }
func (t *exampleTB) Errorf(format string, args ...any) {
	fmt.Printf("FAIL: "+format+"\n", args...)
}
func (t *exampleTB) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf("FAIL: "+format, args...))
}
