package docrun

// What the test does not run as written, and why: each entry names its
// file and a piece of the command's text. The test prints every skip, and
// fails on an entry that matches no command.
var skips = []struct{ file, match, why string }{
	{"README.md", "go test -race ./... && go test ./cmd/faultbench/ ./explore/ ./proptest/", "the whole test suite: .ci/run runs it"},
	{"README.md", "faultbench validate my-scenario.yaml", "the reader's own scenario file, in prose"},
	{"docs/ci.md", "cmd/faultbench@latest", "installs from the network; the test runs the faultbench built from this checkout"},
	{"docs/development.md", "go test -race -json", "the whole test suite under -race: .ci/run runs it"},
	{"docs/development.md", "slowest-tests.py", "reads the whole suite's -json run, which .ci/run does not keep"},
	{"docs/development.md", "-update", "rewrites the docs' generated regions; CI runs the same tests without -update"},
	{"docs/README.md", "-update", "rewrites the docs' generated regions; CI runs the same tests without -update"},
	{"README.md", "grade -- node client.mjs", "a client of yours, which the docs do not ship"},
	{"README.md", "python agent.py", "a client of yours, which the docs do not ship"},
	{"README.md", "go test ./scenario/", "the repository's own tests, not a command of the docs' folder; .ci/run runs them all"},
	{"docs/grade.md", "node client.mjs", "a client of yours, which the docs do not ship"},
	{"docs/grade.md", "python agent.py", "a client of yours, which the docs do not ship"},
	{"docs/grade.md", "./agent", "a client of yours, which the docs do not ship"},
	{"docs/grade.md", "node clients/node/client.mjs", "needs the official SDKs that npm ci installs into clients/node; .ci/run's Node suite runs that client"},
	{"docs/grade.md", "ceiling.mjs giveup60", "a minute of a Node client at 60x beside every preset; the warp's specs (FAULTBENCH_WARP_SPECS=1 in .ci/run) grade the same probe"},
	{"docs/mutation.md", "go run ./internal/mutate", "the mutation run: minutes to an hour in the repository (docs/mutation.md)"},
	{"docs/performance.md", "-bench", "benchmarks: minutes of CPU, measured by hand"},
	{"docs/performance.md", "mkdir -p /tmp/sc1700", "a measurement of 1,700 scenarios: minutes"},
	{"docs/performance.md", "while [ $i -lt 1700 ]", "a measurement of 1,700 scenarios: minutes"},
	{"docs/performance.md", "i=0; files=", "a measurement of 1,700 scenarios: minutes"},
	{"docs/performance.md", "go build -o /tmp/faultbench", "a measurement of 1,700 scenarios: minutes"},
	{"docs/performance.md", "/tmp/sc1700", "a measurement of 1,700 scenarios: minutes"},
	{"docs/performance.md", "<commit>", "a benchmark comparison against a commit you choose"},
	{"docs/performance.md", "../base", "a benchmark comparison against a commit you choose"},
	{"docs/performance.md", "go test -c -o /tmp/h", "benchmarks: minutes of CPU, measured by hand"},
	{"docs/performance.md", "for round in", "a benchmark comparison against a commit you choose"},
	{"docs/performance.md", "for c in", "benchmarks: minutes of CPU, measured by hand"},
	{"docs/performance.md", "/tmp/h.test", "benchmarks: minutes of CPU, measured by hand"},
	{"docs/performance.md", "internal/streamload", "a measurement of 256 streams of a 1M-token answer: minutes and hundreds of MiB, run by hand"},
	{"docs/properties.md", "RAPID_CHECKS=1000", "the deep property run: many minutes (CI runs it at 100 checks)"},
	{"docs/reports.md", "chromium", "needs chromium; TestHTMLInChromium opens the report in it in CI"},
	{"docs/security.md", "go build -o /tmp/faultbench", "a measurement of the ceilings: each file runs up to its 10 s bound"},
	{"docs/security.md", "testdata/ceilings", "a measurement of the ceilings: each file runs up to its 10 s bound"},
	{"docs/security.md", "FAULTBENCH_STRESS=1", "stress tests: minutes and gigabytes, run by hand"},
	{"docs/security.md", "-bench ParseAtCeilings", "a benchmark, measured by hand"},
	{"docs/wire.md", "npm ci", "installs packages over the network; .ci/run runs the Node suite"},
	{"docs/wire.md", "node --test", "the Node suite, which needs the packages npm ci installs; .ci/run runs it"},
}

// exits are the commands the docs show exiting other than 0.
var exits = []struct {
	file, match string
	code        int
	why         string
}{
	{"docs/explore.md", "run --check --strategies blind,classify explored/", 1, `the sample prints "faultbench: 4 broken budgets": the explored budgets fail today`},
}

// rewrites are the changes the test makes to a command before it runs it.
var rewrites = []struct{ old, new, why string }{
	{"go run ./cmd/faultbench", "faultbench", "the binary built from this checkout, first on PATH"},
	{"go install ./cmd/faultbench", `(cd "$FAULTBENCH_REPO" && GOBIN="$FAULTBENCH_BIN" go install ./cmd/faultbench)`, "installs into the test's own bin folder, first on PATH"},
	{"run scenarios-large/", `run "$FAULTBENCH_REPO/scenarios-large/"`, "faultbench init writes the default suite, not the large one: the checkout's"},
	{"run scenarios-clouds/", `run "$FAULTBENCH_REPO/scenarios-clouds/"`, "faultbench init writes the default suite, not the clouds' scenarios: the checkout's"},
	{"run scenarios-bedrock/", `run "$FAULTBENCH_REPO/scenarios-bedrock/"`, "faultbench init writes the default suite, not Bedrock's scenarios: the checkout's"},
	{" grade/testdata/", ` "$FAULTBENCH_REPO"/grade/testdata/`, "the probe clients and packs of the source, not of faultbench init's folder"},
	{"cd /some/empty/folder", `cd "$(mktemp -d)"`, "the docs' placeholder for an empty folder"},
	{"127.0.0.1:8080", "$FAULTBENCH_ADDR", "serve listens on a free port, not 8080"},
}
