package azure

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/openai"
)

// The error type a scenario's rule names to get Azure's content filter
// (respond.type).
const (
	// TypeContentFilter is a prompt Azure's content filter refused: a 400
	// whose code is content_filter and whose innererror says which
	// category was filtered.
	TypeContentFilter = "content_filter"
)

// gateway is an error Azure's gateway answers itself:
// {"error":{"code":"429","message":...}}, no type and no param (an Error
// whose Type is empty renders so).
func gateway(status int, code, kind, msg string) *wire.Error {
	return &wire.Error{Status: status, Code: code, Kind: kind, Message: msg}
}

// NotFound is Azure's 404 for a path it does not serve (a deployment path
// without api-version among them).
func (Wire) NotFound(_, _, scenario string, known bool) *wire.Error {
	msg := "Resource not found"
	if known {
		msg += fmt.Sprintf(" (faultbench serves no scenario %q.)", scenario)
	}
	return gateway(http.StatusNotFound, "404", wire.KindNotFound, msg)
}

// UnknownModel is Azure's DeploymentNotFound, then the models the
// scenario serves.
func (Wire) UnknownModel(name string, served []string) *wire.Error {
	return gateway(http.StatusNotFound, "DeploymentNotFound", wire.KindNotFound,
		"The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again."+
			" (faultbench: no deployment "+strconv.Quote(name)+"; the scenario serves: "+strings.Join(served, ", ")+".)")
}

// Refused is the 429 of a deployment's bucket that cannot pay, in
// Azure's words: a call rate limit (requests) or a token rate limit
// (tokens), and the wait in whole seconds.
func (Wire) Refused(r wire.Refusal) *wire.Error {
	return rateLimited(r.Tokens, "", r.Wait)
}

// rateLimited is Azure's 429: msg, or Azure's message for the limit that
// is shut, which states the wait in whole seconds rounded up.
func rateLimited(tokens bool, msg string, wait time.Duration) *wire.Error {
	what := "call"
	if tokens {
		what = "token"
	}
	if msg == "" {
		msg = "Requests to the ChatCompletions_Create Operation under Azure OpenAI API have exceeded " + what +
			" rate limit of your current OpenAI S0 pricing tier. Please retry after " + strconv.FormatInt(seconds(wait), 10) +
			" seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit."
	}
	e := gateway(http.StatusTooManyRequests, "429", wire.KindRateLimit, msg)
	if !tokens {
		e.Bucket = wire.BucketRequests
	}
	return e
}

// seconds is a wait in whole seconds, rounded up; nothing asked is 1.
func seconds(d time.Duration) int64 {
	if d <= 0 {
		return 1
	}
	return int64((d + time.Second - 1) / time.Second)
}

// Scripted is the error a rule answers with on Azure: a 429 (its type
// unset) is Azure's gateway 429; the type TypeContentFilter is Azure's
// content filter; a 401 and a
// 404 are the gateway's; the rest are OpenAI's, which Azure passes on.
func (w Wire) Scripted(s wire.Scripted) *wire.Error {
	switch {
	case s.Type == TypeContentFilter:
		status := s.Status
		if status == 0 {
			status = http.StatusBadRequest
		}
		msg := s.Msg
		if msg == "" {
			msg = "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. " +
				"Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: " +
				"https://go.microsoft.com/fwlink/?linkid=2198766"
		}
		return &wire.Error{Status: status, Code: TypeContentFilter, Param: "prompt", Kind: wire.KindInvalidRequest, Message: msg}
	case s.Status == http.StatusTooManyRequests && s.Type == "":
		return rateLimited(false, s.Msg, s.Wait)
	case s.Status == http.StatusUnauthorized && s.Type == "":
		e := w.Check(nil)
		if s.Msg != "" {
			e.Message = s.Msg
		}
		return e
	case s.Status == http.StatusNotFound && s.Type == "":
		e := w.UnknownModel(s.Model, nil)
		e.Message, _, _ = strings.Cut(e.Message, " (faultbench:")
		if s.Msg != "" {
			e.Message = s.Msg
		}
		return e
	}
	return w.Base.Scripted(s)
}

// safeFilters are the filter results of a prompt or an answer no category
// filtered.
const safeFilters = `{"hate":{"filtered":false,"severity":"safe"},"jailbreak":{"filtered":false,"detected":false},` +
	`"self_harm":{"filtered":false,"severity":"safe"},"sexual":{"filtered":false,"severity":"safe"},"violence":{"filtered":false,"severity":"safe"}}`

// appendError appends an error in the envelope Azure answers it in: the
// gateway's {"error":{"code",
// "message"}}; a content filter's OpenAI envelope with a null type, its
// status and an innererror naming the category filtered; else OpenAI's.
func appendError(b []byte, e *wire.Error) []byte {
	switch {
	case e.Code == TypeContentFilter:
		b = append(b, `{"error":{"message":`...)
		b = jsonscan.AppendString(b, e.Message)
		b = append(b, `,"type":null,"param":"prompt","code":"content_filter","status":`...)
		b = strconv.AppendInt(b, int64(e.Status), 10)
		return append(b, `,"innererror":{"code":"ResponsibleAIPolicyViolation","content_filter_result":{"hate":{"filtered":false,"severity":"safe"},`+
			`"jailbreak":{"filtered":false,"detected":false},"self_harm":{"filtered":false,"severity":"safe"},"sexual":{"filtered":false,"severity":"safe"},`+
			`"violence":{"filtered":true,"severity":"medium"}}}}}`...)
	case e.Type == "":
		b = append(b, `{"error":{"code":`...)
		code := e.Code
		if code == "" {
			code = strconv.Itoa(e.Status)
		}
		b = jsonscan.AppendString(b, code)
		b = append(b, `,"message":`...)
		b = jsonscan.AppendString(b, e.Message)
		return append(b, `}}`...)
	}
	return openai.AppendError(b, e)
}
