package gemini

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// The methods of a model's route, after the colon.
const (
	methodGenerate = "generateContent"
	methodStream   = "streamGenerateContent"
	methodCount    = "countTokens"
)

// Route splits /<scenario>/v1beta/models/{model}:{method} into the
// scenario's name and what the path says: the model, whether the method
// streams (streamGenerateContent, answered as server-sent events when
// ?alt=sse, as the SDKs ask, else as one JSON array), whether it counts (countTokens), and a key
// given as ?key=.
func (Wire) Route(path, query string) (string, wire.Route, bool) {
	name, rest, ok := strings.Cut(path, "/v1beta/models/")
	if !ok || len(name) < 2 || name[0] != '/' || strings.Contains(name[1:], "/") {
		return "", wire.Route{}, false
	}
	model, method, ok := strings.Cut(rest, ":")
	if !ok || model == "" || strings.Contains(model, "/") {
		return "", wire.Route{}, false
	}
	if m, err := url.PathUnescape(model); err == nil {
		model = m
	}
	rt := wire.Route{Model: model, KeyHeader: "X-Goog-Api-Key"}
	switch method {
	case methodGenerate:
	case methodStream:
		rt.Stream = true
	case methodCount:
		rt.Count = true
	default:
		return "", wire.Route{}, false
	}
	if q, err := url.ParseQuery(query); err == nil {
		rt.Key = q.Get("key")
		rt.Array = rt.Stream && q.Get("alt") != "sse"
	} else {
		rt.Array = rt.Stream
	}
	return name[1:], rt, true
}

// CountBody is countTokens' answer: {"totalTokens": N} with the prompt's
// tokens by modality, as the API sends it.
func (Wire) CountBody(b []byte, n int) []byte {
	b = append(b, `{"totalTokens":`...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, `,"promptTokensDetails":[{"modality":"TEXT","tokenCount":`...)
	b = strconv.AppendInt(b, int64(n), 10)
	return append(b, `}]}`...)
}
