// Command faultbench runs scripted LLM faults against recovery strategies
// and prints what each strategy cost.
//
//	faultbench run [PATH...]       run scenarios against strategies, print the tables
//	faultbench validate [PATH...]  check scenario files
//
// Exit codes: 0 fine, 1 a run failed, 2 bad input (a broken scenario, an
// unknown flag, strategy or format).
package main
