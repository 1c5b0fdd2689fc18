// Command faultbench runs scripted LLM faults against recovery strategies
// and prints what each strategy cost.
//
//	faultbench run [PATH...]         run scenarios against strategies, print the cost tables
//	faultbench serve [PATH...]       serve the mock on 127.0.0.1 for any client, with a journal
//	faultbench validate [PATH...]    check scenario files
//	faultbench strategies            list the presets and their parameters
//	faultbench merge FILE...         join shard outputs into one report
//
// Exit codes (docs/security.md): 0 fine; 1 the run's verdict failed (a
// budget broke under --check, a cost regressed against --baseline, or the
// run reached --timeout); 2 bad input (a broken scenario or strategy file,
// an unknown flag, command, strategy or format); 3 an internal failure (the
// harness, a report that cannot be rendered, a panic); 130 interrupted by
// Ctrl-C, after reporting the runs that finished.
package main
