package canonjson

import (
	"errors"
	"testing"
)

func TestEncode(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "{}"},
		{"  \n", "{}"},
		{`{"b":2, "a":1}`, `{"a":1,"b":2}`},
		{`{ "a" : { "d": [1, 2.50, "x<y"], "c": null } }`, `{"a":{"c":null,"d":[1,2.50,"x<y"]}}`},
		{`[3, 1e3]`, `[3,1e3]`},
	}
	for _, c := range cases {
		got, err := Encode([]byte(c.in))
		if err != nil || string(got) != c.want {
			t.Errorf("Encode(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestEncodeRefusesWhatIsNotOneValue(t *testing.T) {
	if _, err := Encode([]byte(`{"a":`)); err == nil {
		t.Error("truncated JSON: no error")
	}
	if _, err := Encode([]byte(`{} {}`)); !errors.Is(err, ErrTrailing) {
		t.Errorf("two values: err = %v, want ErrTrailing", err)
	}
}
