package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/faultbench/faultbench/internal/yamlfile"
)

// maxReportBytes is the most JSON report one command reads, over all its
// reports together (merge's files and --baseline): 64 MiB, some 14,000
// results with their attempt logs, or the baselines (no attempt logs) of
// some 200,000. At that size merge reads, checks and writes back the
// JSON in 5 s of CPU and 450 MB (docs/security.md); a cap per file would
// let N files take N times that.
const maxReportBytes = 64 << 20

// errReportsTooLarge refuses reports past maxReportBytes.
var errReportsTooLarge = fmt.Errorf("over %d MiB of reports in all, the most one command reads (docs/security.md)", maxReportBytes>>20)

// readBudget is what one command may still read of maxReportBytes.
type readBudget struct{ left int64 }

func newReadBudget() *readBudget { return &readBudget{left: maxReportBytes} }

// openReport opens a JSON report for reading: a regular file only (a FIFO
// or a device is refused, not read), within what is left of b. A file
// whose size is over it is refused before it is read; one that grows
// while it is read fails when it passes it.
func openReport(name string, b *readBudget) (io.ReadCloser, error) {
	f, info, err := yamlfile.OpenRegular(name)
	if err != nil {
		return nil, err
	}
	if info.Size() > b.left {
		f.Close()
		return nil, errReportsTooLarge
	}
	return struct {
		io.Reader
		io.Closer
	}{&budgetReader{r: f, b: b}, f}, nil
}

// budgetReader reads r while b lasts.
type budgetReader struct {
	r io.Reader
	b *readBudget
}

func (br *budgetReader) Read(p []byte) (int, error) {
	if br.b.left <= 0 {
		// At the ceiling: fine if the file ends here.
		var one [1]byte
		if n, err := br.r.Read(one[:]); n == 0 && errors.Is(err, io.EOF) {
			return 0, io.EOF
		}
		return 0, errReportsTooLarge
	}
	if int64(len(p)) > br.b.left {
		p = p[:br.b.left]
	}
	n, err := br.r.Read(p)
	br.b.left -= int64(n)
	return n, err
}
