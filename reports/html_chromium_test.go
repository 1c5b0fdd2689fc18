package reports

import (
	"bytes"
	"context"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// chromium finds a headless-capable Chromium: $FAULTBENCH_CHROMIUM when set
// (then it must exist: CI sets it so that this test cannot skip), else the
// first of chromium, chromium-browser and google-chrome on the PATH. With
// none, the test is skipped.
func chromium(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("FAULTBENCH_CHROMIUM"); bin != "" {
		path, err := exec.LookPath(bin)
		if err != nil {
			t.Fatalf("FAULTBENCH_CHROMIUM=%s: %v", bin, err)
		}
		return path
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	t.Skip("no Chromium on the PATH: apt-get install chromium, or set FAULTBENCH_CHROMIUM")
	return ""
}

// headless runs Chromium on page with flags that keep it off the network
// and out of the user's profile, and returns what it printed on stdout.
func headless(t *testing.T, bin, page string, extra ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-breakpad",
		"--force-color-profile=srgb", "--hide-scrollbars", "--user-data-dir=" + t.TempDir()}, extra...)
	cmd := exec.CommandContext(ctx, bin, append(args, "file://"+page)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, stderr.String())
	}
	return stdout.Bytes()
}

// TestHTMLInChromium opens the HTML report in headless Chromium: the page
// parses into the DOM the report wrote, and a screenshot shows the
// timelines drawn — pixels of the 529 red and the answer green the marks are
// filled with. Run it alone with
//
//	go test ./reports -run TestHTMLInChromium -v
func TestHTMLInChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	var buf bytes.Buffer
	opts := Options{Descriptions: fixtureDescriptions, Violations: fixtureViolations(), Checked: true}
	if err := HTML(&buf, fixtureReport(), opts); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	dom := string(headless(t, bin, page, "--dump-dom"))
	for _, want := range []string{`<h1>faultbench: 2 scenarios, 2 strategies, seed 42</h1>`, `2 broken budgets`,
		`<h2>` + overloadScenario + `</h2>`, `<h2>` + overflowScenario + `</h2>`} {
		if !strings.Contains(dom, want) {
			t.Errorf("the DOM lacks %q", want)
		}
	}
	if n := strings.Count(dom, `<svg class="timeline"`); n != 2 {
		t.Errorf("%d timelines in the DOM, want 2", n)
	}
	if got, want := strings.Count(dom, `<rect class="mark `), 18; got != want { // 17 attempts, 1 repair call
		t.Errorf("%d marks in the DOM, want %d", got, want)
	}

	shot := filepath.Join(dir, "report.png")
	headless(t, bin, page, "--screenshot="+shot, "--window-size=1200,1400")
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 1400 {
		t.Fatalf("screenshot is %v, want 1200x1400", b)
	}
	count := map[string]int{}
	colors := map[string]color.RGBA{
		"overloaded (529) red": {0xcf, 0x22, 0x2e, 0xff},
		"answer (200) green":   {0x1a, 0x7f, 0x37, 0xff},
		"wait blue":            {0x9e, 0xc5, 0xfe, 0xff},
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			for name, c := range colors {
				if uint8(r>>8) == c.R && uint8(g>>8) == c.G && uint8(bl>>8) == c.B {
					count[name]++
				}
			}
		}
	}
	for name := range colors {
		if count[name] < 40 {
			t.Errorf("the screenshot has %d pixels of the %s, want a drawn timeline (at least 40)", count[name], name)
		}
	}
}
