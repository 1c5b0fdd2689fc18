package mockllm

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/scenario"
)

func numbered(n int) record {
	return record{seq: uint64(n), Entry: Entry{N: n, Model: "m"}}
}

func kept(j *journal) []int {
	var out []int
	for _, r := range j.appendTo(nil) {
		out = append(out, r.N)
	}
	return out
}

// A session keeps its newest entries up to its limit and counts the rest.
func TestJournalIsARing(t *testing.T) {
	j := journal{limit: 3}
	for i := 1; i <= 600; i++ { // past two chunks
		j.add(numbered(i))
	}
	if got := kept(&j); len(got) != 3 || got[0] != 598 || got[2] != 600 || j.dropped != 597 {
		t.Fatalf("kept %v, dropped %d", got, j.dropped)
	}
	if len(j.chunks) > 2 {
		t.Fatalf("%d chunks held for 3 records", len(j.chunks))
	}
}

// A session of one request (a turn of a workload, of which there are
// thousands) holds a small first chunk, not a whole one; a long session
// grows into whole chunks and keeps every record in order.
func TestJournalGrowsFromASmallChunk(t *testing.T) {
	short := journal{}
	short.add(numbered(1))
	if c := cap(short.chunks[0]); c > firstChunk {
		t.Fatalf("one record holds a chunk of %d", c)
	}
	long := journal{}
	for i := 1; i <= 1000; i++ {
		long.add(numbered(i))
	}
	got := kept(&long)
	for i, n := range got {
		if n != i+1 {
			t.Fatalf("record %d is %d", i+1, n)
		}
	}
	if len(got) != 1000 || len(long.chunks) != 4 || len(long.chunks[0]) != chunkSize {
		t.Fatalf("kept %d records in %d chunks, the first of %d", len(got), len(long.chunks), len(long.chunks[0]))
	}
}

// The sessions of a server share one budget: a full server makes the
// recording session drop its own oldest entry, and a closed session gives
// its entries back.
func TestJournalBudgetIsShared(t *testing.T) {
	b := &entryBudget{max: 4}
	a, c := journal{budget: b}, journal{budget: b}
	for i := 1; i <= 3; i++ {
		a.add(numbered(i))
	}
	c.add(numbered(4))
	c.add(numbered(5)) // over budget: c drops its own oldest
	if got := kept(&c); len(got) != 1 || got[0] != 5 || c.dropped != 1 || b.live.Load() != 4 {
		t.Fatalf("c kept %v, dropped %d, live %d", got, c.dropped, b.live.Load())
	}
	d := journal{budget: b}
	d.add(numbered(6)) // holds nothing to drop: the new entry goes
	if d.n != 0 || d.dropped != 1 {
		t.Fatalf("d kept %d, dropped %d", d.n, d.dropped)
	}
	a.release()
	if b.live.Load() != 1 {
		t.Fatalf("live %d after releasing 3 of 4", b.live.Load())
	}
}

func TestJournalClipsClientStrings(t *testing.T) {
	j := journal{}
	r := numbered(1)
	r.Model, r.Purpose = strings.Repeat("é", 20<<20), strings.Repeat("p", 1000)
	j.add(r)
	got := j.appendTo(nil)[0]
	if len(got.Model) > maxEntryString+len("…") || len(got.Purpose) > maxEntryString+len("…") || !strings.HasSuffix(got.Model, "é…") {
		t.Fatalf("kept %d and %d bytes", len(got.Model), len(got.Purpose))
	}
}

// The journal is written an entry at a time, in the bytes the encoder
// writes for the whole slice.
func TestWriteEntriesMatchesTheEncoder(t *testing.T) {
	one := 1
	recs := []record{numbered(1), numbered(2), numbered(3)}
	recs[1].RetryCount = &one
	recs[2].Model = "<a&b>"
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetIndent("", "  ")
	_ = enc.Encode(entriesOf(recs))
	for _, rs := range [][]record{recs, nil} {
		var got bytes.Buffer
		if err := writeEntries(&got, rs); err != nil {
			t.Fatal(err)
		}
		if rs == nil {
			want.Reset()
			want.WriteString("[]\n")
		}
		if got.String() != want.String() {
			t.Fatalf("got\n%s\nwant\n%s", got.String(), want.String())
		}
	}
}

// An error answer quotes at most a short prefix of what the client sent.
func TestErrorsClipWhatTheClientSent(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	sc := &scenario.Scenario{Name: "s", Models: map[string]scenario.Model{"m": {}}}
	srv := New([]*scenario.Scenario{sc}, clock.NewVirtual())
	for _, path := range []string{"/s/v1/messages", "/s/v1/chat/completions", "/s/v1/responses"} {
		body := `{"model":"` + long + `","max_tokens":100,"messages":[{"role":"user","content":"hi"}]}`
		if strings.HasSuffix(path, "responses") {
			body = `{"model":"` + long + `","input":"hi"}`
		}
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest(http.MethodPost, path, strings.NewReader(body)))
		if w.Code != http.StatusNotFound || w.Body.Len() > 2*maxEntryString+1024 {
			t.Errorf("%s: %d, a %d-byte answer", path, w.Code, w.Body.Len())
		}
	}
}
