//go:build !unix

package main

import "os"

// terminalWidth is 0 where the terminal's width is not asked: the table
// takes COLUMNS or the default.
func terminalWidth(*os.File) int { return 0 }
