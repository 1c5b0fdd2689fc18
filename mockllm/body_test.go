package mockllm

import (
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
)

// A body that declares 32 MB and sends a few bytes must cost what it sent,
// not what it promised: 150 such connections used to hold 5 GB.
func TestDecodeBodyAllocatesWhatArrives(t *testing.T) {
	const declared = maxBodyBytes - 1
	r := httptest.NewRequest("POST", "/v1/messages", strings.NewReader(`{"model":"x"}`))
	r.ContentLength = declared
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var in incoming
	_ = decodeBody(httptest.NewRecorder(), r, &in, anthropicWire)
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > declared/4 {
		t.Fatalf("decoding a 13-byte body that declared %d bytes allocated %d bytes", declared, got)
	}
}
