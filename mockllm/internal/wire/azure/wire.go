package azure

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/chat"
)

// Wire is Azure OpenAI's Chat Completions. It is the chat wire (its
// decoder, its rules, its answers) behind Azure's routes, auth, errors
// and headers.
type Wire struct{ chat.Wire }

var (
	_ wire.Wire   = Wire{}
	_ wire.Router = Wire{}
)

// Spec names the wire "azure", its routes' prefix /openai/deployments/ (a
// Router's Path: a stray path under it gets Azure's 404); its answers are
// chatcmpl- and its tool calls call_, as OpenAI's; Azure caches prompts
// by itself, as OpenAI does.
func (Wire) Spec() wire.Spec {
	return wire.Spec{Name: "azure", Path: "/" + prefix + deployments, AnswerTag: 'z', AnswerPrefix: "chatcmpl-", ToolPrefix: "call_", CacheAuto: true}
}

// Check refuses a request that carries neither an api-key header nor an
// Authorization header (an Entra ID token) with Azure's 401; any value is
// accepted.
func (Wire) Check(h http.Header) *wire.Error {
	if strings.TrimSpace(h.Get("Api-Key")) != "" || strings.TrimSpace(h.Get("Authorization")) != "" {
		return nil
	}
	return gateway(http.StatusUnauthorized, "401", wire.KindAuth, "Access denied due to invalid subscription key or wrong API endpoint. "+
		"Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.")
}

// Decode reads the body as the chat wire does; a deployment route's
// deployment names the model whatever the body says, as Azure serves the
// deployment the path names.
func (w Wire) Decode(b []byte, q *wire.Request) *wire.Error {
	dep := ""
	if q.HasModel {
		dep = q.Model
	}
	if err := w.Wire.Decode(b, q); err != nil {
		return err
	}
	if dep != "" {
		q.Model = dep
	}
	return nil
}

// The headers of Azure's answers.
const (
	headerRetryAfterMS   = "Retry-After-Ms"
	headerMSRetryAfterMS = "X-Ms-Retry-After-Ms"
	headerAPIMRequestID  = "Apim-Request-Id"
	headerRegion         = "X-Ms-Region"
	headerRemainingReqs  = "X-Ratelimit-Remaining-Requests"
	headerRemainingToks  = "X-Ratelimit-Remaining-Tokens"
)

// The limits the mock's Azure headers claim for a deployment that
// declares none.
const (
	azureRequestLimit = 1000
	azureTokenLimit   = 150000
)

// Headers sets what Azure's answers carry: x-request-id and
// apim-request-id, the region, what remains of the deployment's requests
// and tokens (Azure sends no limit or reset headers); a 429 adds its wait
// in milliseconds as retry-after-ms and x-ms-retry-after-ms, beside the
// retry-after in seconds the server adds.
func (Wire) Headers(h http.Header, r *wire.Reply) {
	h["X-Request-Id"] = []string{r.RequestID}
	h[headerAPIMRequestID] = []string{r.RequestID}
	h[headerRegion] = []string{"East US"}
	reqs, toks := int64(azureRequestLimit-1), int64(max(0, azureTokenLimit-r.Input))
	if r.Rate != nil {
		if l := r.Rate.Requests; l.Limit > 0 {
			reqs = l.Remaining
		}
		if l := r.Rate.Tokens(); l.Limit > 0 {
			toks = l.Remaining
		}
	}
	limited := r.Err != nil && r.Err.Kind == wire.KindRateLimit
	if limited {
		switch r.Err.Bucket {
		case wire.BucketRequests:
			reqs = 0
		case "":
			reqs, toks = 0, 0
		default:
			toks = 0
		}
	}
	h[headerRemainingReqs] = []string{strconv.FormatInt(reqs, 10)}
	h[headerRemainingToks] = []string{strconv.FormatInt(toks, 10)}
	if limited && r.Wait > 0 {
		ms := []string{strconv.FormatInt(r.Wait.Milliseconds(), 10)}
		h[headerRetryAfterMS], h[headerMSRetryAfterMS] = ms, ms
	}
}

// Body appends Azure's error (errors.go) or the chat.completion.
func (w Wire) Body(b []byte, r *wire.Reply) []byte {
	if r.Err != nil {
		return appendError(b, r.Err)
	}
	return w.Wire.Body(b, r)
}

// Stream appends the chunks of a streamed completion as Azure sends them:
// first a chunk with no choices that carries the prompt's filter results,
// then the chat wire's chunks.
func (w Wire) Stream(ev *wire.Events, r *wire.Reply) {
	ev.End(append(ev.Begin(""), `{"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":`+
		safeFilters+`}]}`...))
	w.Wire.Stream(ev, r)
}

// Failed appends the error a stream ends with, in Azure's envelope.
func (Wire) Failed(ev *wire.Events, _ *wire.Reply, e *wire.Error) {
	ev.End(appendError(ev.Begin(""), e))
}
