package reports

import (
	"bytes"
	"testing"
)

// A width under MinWidth draws as MinWidth: a terminal of 10 columns gets
// the 40-column answer, not tables cut into columns of a rune or two.
func TestAWidthUnderTheMinimumDrawsAtTheMinimum(t *testing.T) {
	draw := func(width int) string {
		var buf bytes.Buffer
		if err := Table(&buf, fixtureReport(), Options{Width: width}); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	at := draw(MinWidth)
	for _, w := range []int{1, MinWidth - 1} {
		if got := draw(w); got != at {
			t.Errorf("width %d draws otherwise than width %d", w, MinWidth)
		}
	}
}
