package main

import (
	"testing"

	"github.com/faultbench/faultbench/internal/leaktest"
)

// TestMain fails the package when a goroutine outlives its tests: serve
// and run start servers, and every one must be shut down.
func TestMain(m *testing.M) { leaktest.VerifyTestMain(m) }
