package stopsignal

import (
	"os"
	"os/signal"
	"syscall"
)

// Signals are the signals that stop a command: Ctrl-C and SIGTERM.
var Signals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// C receives Signals from this package's initialisation on, until
// signal.Stop(C); it holds two, the first and a second that insists.
var C = make(chan os.Signal, 2)

func init() { signal.Notify(C, Signals...) }
