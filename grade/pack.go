package grade

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/faultbench/faultbench/scenario"
)

//go:embed pack/*.yaml
var pack embed.FS

// PackDir is the folder under which the built-in pack's files are named:
// its scenarios load as "pack/<name>.yaml".
const PackDir = "pack"

// Pack loads the built-in pack: one short scenario per check and wire,
// each at most 30 s of real waits for a well-behaved client, sorted by
// file name.
func Pack() ([]*scenario.Scenario, error) {
	names, err := fs.Glob(pack, PackDir+"/*.yaml")
	if err != nil {
		return nil, fmt.Errorf("grade: the built-in pack: %w", err)
	}
	slices.Sort(names)
	out := make([]*scenario.Scenario, 0, len(names))
	for _, n := range names {
		data, err := pack.ReadFile(n)
		if err != nil {
			return nil, fmt.Errorf("grade: the built-in pack: %w", err)
		}
		sc, err := scenario.Parse(n, data)
		if err != nil {
			return nil, fmt.Errorf("grade: the built-in pack: %w", err)
		}
		out = append(out, sc)
	}
	return out, nil
}

// WritePack writes the built-in pack's files into dir, creating it; a
// file already there is not overwritten, and is an error naming it.
func WritePack(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("grade: write the pack: %w", err)
	}
	names, err := fs.Glob(pack, PackDir+"/*.yaml")
	if err != nil {
		return nil, fmt.Errorf("grade: write the pack: %w", err)
	}
	slices.Sort(names)
	var written []string
	for _, n := range names {
		data, err := pack.ReadFile(n)
		if err != nil {
			return written, fmt.Errorf("grade: write the pack: %w", err)
		}
		to := filepath.Join(dir, filepath.Base(n))
		f, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			return written, fmt.Errorf("grade: write the pack: %s exists; remove it or write into another folder", to)
		}
		if err != nil {
			return written, fmt.Errorf("grade: write the pack: %w", err)
		}
		_, werr := f.Write(data)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return written, fmt.Errorf("grade: write the pack: %w", werr)
		}
		written = append(written, to)
	}
	return written, nil
}
