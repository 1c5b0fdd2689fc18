//go:build race

package grade

// Under the race detector the error-rate test draws few journals, checks
// no rate and leaves docs/grade.md alone: the checks are pure functions,
// and 10,000 journals per family take minutes there.
const raceDetector = true
