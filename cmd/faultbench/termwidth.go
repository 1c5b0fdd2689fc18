package main

import (
	"io"
	"os"
	"strconv"
	"strings"
)

// defaultWidth is the width of a text table when neither COLUMNS nor a
// terminal says: what a CI log or a pager shows without wrapping.
const defaultWidth = 100

// maxColumns bounds COLUMNS: a larger value is taken as this.
const maxColumns = 1000

// outputWidth is the width a text table is drawn to: COLUMNS when it holds
// a positive number (as a shell sets it), else the width of the terminal
// the table goes to (stdout, unless --out names a file), else 100.
func outputWidth(stdout io.Writer, out string) int {
	if n, err := strconv.Atoi(strings.TrimSpace(os.Getenv("COLUMNS"))); err == nil && n > 0 {
		return min(n, maxColumns)
	}
	if out == "" {
		if f, ok := stdout.(*os.File); ok {
			if n := terminalWidth(f); n > 0 {
				return min(n, maxColumns)
			}
		}
	}
	return defaultWidth
}
