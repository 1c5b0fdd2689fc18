package wire

// Role is a message's role as one of the constant strings the rules
// compare with (no copy of the body's bytes), or "" for another.
func Role(b []byte) string {
	switch string(b) {
	case "user":
		return "user"
	case "assistant":
		return "assistant"
	case "tool":
		return "tool"
	case "system":
		return "system"
	case "developer":
		return "developer"
	}
	return ""
}
