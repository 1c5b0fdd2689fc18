// Package stopsignal catches SIGINT and SIGTERM from the first
// milliseconds of the program, before the heavy package initialisation of
// the SDKs (some 0.7 s on a loaded host) and before main: a signal that
// arrives then waits in [C] for the command line to read, instead of
// killing the process with no message and a stale report in place.
//
// Its init runs as soon as os/signal's has: a package is initialised as
// soon as its imports are, in import-path order (the Go specification),
// and this one imports only os, os/signal and syscall.
package stopsignal
