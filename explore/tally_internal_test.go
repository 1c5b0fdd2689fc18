package explore

import "testing"

// TestTallyCountsWhatItLeftOut: a script whose record disagreed with the
// mock's journal is counted as left out (explore says how many), never
// kept as a finding, and every script judged moves the progress on.
func TestTallyCountsWhatItLeftOut(t *testing.T) {
	var tl tally
	var progress []int
	tell := func(done, _ int) { progress = append(progress, done) }
	tl.add(Case{Index: 0, Mismatch: true}, nil, tell, 3)
	tl.add(Case{Index: 1, Holds: true, Score: 2}, nil, tell, 3)
	tl.add(Case{Index: 2, Mismatch: true}, nil, tell, 3)
	if tl.found.Mismatches != 2 || tl.found.Held != 1 || tl.found.Worst == nil || tl.found.Worst.Index != 1 {
		t.Fatalf("found %+v: want 2 left out and script 1 the one finding", tl.found)
	}
	if len(progress) != 3 || progress[2] != 3 {
		t.Fatalf("progress told %v, want 1, 2, 3", progress)
	}
}
