// Package texttable draws the plain ASCII tables faultbench prints for
// people — the cost tables of reports and the parameter table of
// `faultbench strategies` — within a width: a table too wide for it first
// breaks its headers at hyphens, then is cut into parts that each repeat the
// key column(s) and take as many of the other columns as fit.
//
// Cells are drawn as given; the caller makes them safe for a terminal
// (see [Plain]).
package texttable
