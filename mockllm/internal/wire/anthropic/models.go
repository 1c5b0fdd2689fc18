package anthropic

import "github.com/faultbench/faultbench/internal/jsonscan"

// Models appends the Messages API's models listing:
// {"data":[{"type":"model","id",...}],"has_more":false,"first_id","last_id"}.
func (Wire) Models(b []byte, ids []string) []byte {
	b = append(b, `{"data":[`...)
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":"model","id":`...)
		b = jsonscan.AppendString(b, id)
		b = append(b, `,"display_name":`...)
		b = jsonscan.AppendString(b, id)
		b = append(b, `,"created_at":"2025-01-01T00:00:00Z"}`...)
	}
	b = append(b, `],"has_more":false,"first_id":`...)
	b = appendEnd(b, ids, 0)
	b = append(b, `,"last_id":`...)
	b = appendEnd(b, ids, len(ids)-1)
	return append(b, '}')
}

// appendEnd appends ids[i] as a JSON string, or null when there is none.
func appendEnd(b []byte, ids []string, i int) []byte {
	if len(ids) == 0 {
		return append(b, "null"...)
	}
	return jsonscan.AppendString(b, ids[i])
}
