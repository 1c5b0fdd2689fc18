package main

import (
	"io"

	"github.com/faultbench/faultbench/internal/yamlfile"
)

// maxReportBytes is the largest JSON report merge and --baseline read:
// 256 MiB, a run of some 500,000 scenario × strategy results. Past it the
// JSON is cut short, and reading it fails.
const maxReportBytes = 256 << 20

// openReport opens a JSON report for reading: a regular file only (a FIFO
// or a device is refused, not read), at most maxReportBytes of it.
func openReport(name string) (io.ReadCloser, error) {
	f, _, err := yamlfile.OpenRegular(name)
	if err != nil {
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{io.LimitReader(f, maxReportBytes), f}, nil
}
