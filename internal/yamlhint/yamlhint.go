package yamlhint

import (
	"bytes"
	"regexp"
	"strings"
)

// maxScan bounds the lines Near reads, so that a huge file costs little.
const maxScan = 100_000

// keyRE is a block mapping key at the start of a line's content.
var keyRE = regexp.MustCompile(`^([A-Za-z0-9_.-]+)\s*:(\s|$)`)

// Near returns the dotted path of the block mapping key on line (1-based)
// of data, or of the nearest key above it, by indentation: "turn.messages"
// for a "messages:" indented under "turn:". List items add no index. It
// returns "" when it finds none.
func Near(data []byte, line int) string {
	type key struct {
		indent int
		name   string
	}
	var stack []key
	path := ""
	for n, raw := range bytes.SplitN(data, []byte("\n"), min(line, maxScan)+1) {
		if n >= line {
			break
		}
		text := strings.TrimRight(string(raw), "\r")
		content := strings.TrimLeft(text, " ")
		indent := len(text) - len(content)
		for strings.HasPrefix(content, "- ") { // a list item: its key sits further in
			content = strings.TrimLeft(content[2:], " ")
			indent = len(text) - len(content)
		}
		if content == "" || content[0] == '#' {
			continue
		}
		m := keyRE.FindStringSubmatch(content)
		if m == nil {
			continue
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, key{indent, m[1]})
		names := make([]string, len(stack))
		for i, k := range stack {
			names[i] = k.name
		}
		path = strings.Join(names, ".")
	}
	return path
}

// indentMessages are what the YAML parser says when a line is indented
// more or less than its mapping.
var indentMessages = []string{
	"not allowed in this context",
	"could not find expected",
	"did not find expected",
	"unexpected key name",
	"found character that cannot start any token",
	"tab character",
}

// indentHint ends the message of an error a wrong indentation causes.
const indentHint = "check the indentation of this line and the next; the keys of one mapping line up, with spaces, not tabs"

// Hint returns msg, when it is one a wrong indentation causes, with the
// field it was found in (from Near) and a hint to check the indentation:
// "mapping value is not allowed in this context (near turn.max_tokens:
// check the indentation of this line and the next; ...)". Any other
// message is returned as it is.
func Hint(msg string, data []byte, line int) string {
	indent := false
	for _, m := range indentMessages {
		indent = indent || strings.Contains(msg, m)
	}
	if !indent {
		return msg
	}
	if field := Near(data, line); field != "" {
		return msg + " (near " + field + ": " + indentHint + ")"
	}
	return msg + " (" + indentHint + ")"
}
