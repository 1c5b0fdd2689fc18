// Package harness runs every scenario against every strategy: each
// scenario × strategy run gets its own mock session, its own virtual clock
// and its own random source seeded from the run's seed and its name, and
// talks to the mock over real HTTP on 127.0.0.1 through the official
// Anthropic SDK. Runs go in parallel; results come back in a fixed order
// (scenarios as loaded, strategies as given), so the output does not depend
// on scheduling, on -parallel or on GOMAXPROCS.
//
// The harness judges each turn's outcome (docs/reports.md) and checks that the
// engine's record agrees with the server's journal, attempt for attempt.
package harness
