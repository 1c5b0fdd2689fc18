// Package gendoc keeps text that code writes into a Markdown file true: a
// region between
//
//	<!-- generated:NAME -->
//	...
//	<!-- end generated -->
//
// belongs to a test, which compares it with what the code produces now and
// fails on a difference, or rewrites it when run with -update. Everything
// outside the markers is left as written.
package gendoc
