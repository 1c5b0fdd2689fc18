// Package faultbench builds the default suite into the binary: Suite is
// the repository's scenarios/ and strategies/ folders, embedded, so that
// an installed faultbench runs and writes out the suite from any folder.
// The tool itself is cmd/faultbench; the packages beside this file are
// its parts.
package faultbench
