package main

import (
	"runtime/debug"
	"strings"
)

// version says which build this is, from the build information the Go
// toolchain records: the module version ("v1.2.0", or "(devel)" for a build
// from a checkout), the commit with its time and whether the tree had
// changes, and the Go version: "(devel) 4fd2d21 2026-11-30T23:51:10Z
// modified go1.26.0". `go run` and test binaries record no commit.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (no build information)"
	}
	parts := []string{info.Main.Version}
	if parts[0] == "" {
		parts[0] = "(devel)"
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		parts = append(parts, rev[:min(len(rev), 7)])
		if t := settings["vcs.time"]; t != "" {
			parts = append(parts, t)
		}
		if settings["vcs.modified"] == "true" {
			parts = append(parts, "modified")
		}
	}
	return strings.Join(append(parts, info.GoVersion), " ")
}
