package faultbench

import (
	"embed"
	"io/fs"
)

//go:embed scenarios/*.yaml strategies/*.yaml
var suite embed.FS

// Suite is the default suite as the repository holds it: the scenario
// files under scenarios/ and the example strategy files under
// strategies/, read-only. `faultbench init` writes it out; `faultbench
// run` without a folder runs it when there is no scenarios/ folder.
func Suite() fs.FS { return suite }
