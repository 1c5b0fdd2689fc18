package main

import (
	"os"
	"testing"

	"github.com/faultbench/faultbench/internal/fakeclient"
	"github.com/faultbench/faultbench/internal/leaktest"
)

// TestMain fails the package when a goroutine outlives its tests: serve
// and run start servers, and every one must be shut down. With
// fakeclient.Env set, the test binary is instead the fake client that
// grade's tests grade.
func TestMain(m *testing.M) {
	if p := os.Getenv(fakeclient.Env); p != "" {
		os.Exit(fakeclient.Run(p))
	}
	leaktest.VerifyTestMain(m)
}
