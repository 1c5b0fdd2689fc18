package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/pflag"
)

// profileFlags take a pprof profile of a command (docs/performance.md):
// run, serve and grade have them.
type profileFlags struct {
	cpu, mem string
}

func (p *profileFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&p.cpu, "cpuprofile", "", "write a CPU profile of the command to FILE (go tool pprof FILE)")
	fl.StringVar(&p.mem, "memprofile", "", "write a heap profile to FILE as the command ends: what it allocated and what was live (go tool pprof FILE)")
}

// start opens the profile files and starts the CPU profile; a file that
// cannot be created is bad input. The returned stop ends the CPU profile
// and writes the heap profile; call it once, as the command ends.
func (p profileFlags) start() (stop func() error, err error) {
	var cpu, mem *os.File
	closeAll := func() {
		for _, f := range []*os.File{cpu, mem} {
			if f != nil {
				f.Close()
			}
		}
	}
	if p.mem != "" {
		if mem, err = os.Create(p.mem); err != nil {
			return nil, bad(fmt.Errorf("--memprofile: %w", err))
		}
	}
	if p.cpu != "" {
		if cpu, err = os.Create(p.cpu); err != nil {
			closeAll()
			return nil, bad(fmt.Errorf("--cpuprofile: %w", err))
		}
		if err := pprof.StartCPUProfile(cpu); err != nil {
			closeAll()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
	}
	return func() error {
		var errs []error
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Close(); err != nil {
				errs = append(errs, fmt.Errorf("--cpuprofile: %w", err))
			}
		}
		if mem != nil {
			runtime.GC() // the live heap as of now, not of the last collection
			if err := pprof.Lookup("allocs").WriteTo(mem, 0); err != nil {
				errs = append(errs, fmt.Errorf("--memprofile: %w", err))
			}
			if err := mem.Close(); err != nil {
				errs = append(errs, fmt.Errorf("--memprofile: %w", err))
			}
		}
		return errors.Join(errs...)
	}, nil
}

// profiled runs the command body under the profiles p asks for.
func profiled(p profileFlags, body func() error) error {
	stop, err := p.start()
	if err != nil {
		return err
	}
	err = body()
	if perr := stop(); err == nil {
		err = perr
	}
	return err
}
