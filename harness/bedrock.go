package harness

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2/bedrock"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/recovery"
	anthropicprovider "github.com/faultbench/faultbench/recovery/anthropic"
	"github.com/faultbench/faultbench/scenario"
)

// BedrockRegion is the region the Bedrock transport names: any would do,
// since the mock takes any signature.
const BedrockRegion = "us-east-1"

// newBedrockProvider is the Amazon Bedrock transport of a run:
// anthropic-sdk-go's bedrock option (InvokeModel and
// InvokeModelWithResponseStream, the request signed with SigV4 by dummy
// static credentials) over the run's HTTP client, its retries off.
//
// The option makes the request's path absolute (/model/{model}/invoke),
// dropping the path of the base URL that names the scenario; the
// client's transport (underPath) puts that path back in front, as
// aws-sdk-go-v2 keeps its endpoint's path. The signature then no longer
// matches the path, which the mock does not check.
func newBedrockProvider(sc *scenario.Scenario, base, session string, hc *http.Client) recovery.Provider {
	root, prefix := base, ""
	if u, err := url.Parse(base); err == nil {
		prefix = strings.TrimSuffix(u.Path, "/")
		u.Path = ""
		root = u.String()
	}
	client := *hc
	client.Transport = underPath{prefix: prefix, next: hc.Transport}
	cfg := aws.Config{Region: BedrockRegion, Credentials: credentials.NewStaticCredentialsProvider("AKIDFAULTBENCH", "faultbench", "")}
	return anthropicprovider.New(
		bedrock.WithConfig(cfg),
		option.WithBaseURL(root),
		option.WithHTTPClient(&client),
		option.WithHeader(mockllm.SessionHeader, session),
	).WithRequestOptions(func(r recovery.Request) []option.RequestOption {
		return []option.RequestOption{option.WithHeader(mockllm.PurposeHeader, string(r.Purpose))}
	}).WithStream(sc.Turn.Stream)
}

// underPath sends each request under prefix, a base URL's path.
type underPath struct {
	prefix string
	next   http.RoundTripper
}

func (t underPath) RoundTrip(r *http.Request) (*http.Response, error) {
	next := t.next
	if next == nil {
		next = http.DefaultTransport
	}
	if t.prefix == "" {
		return next.RoundTrip(r)
	}
	r2 := r.Clone(r.Context())
	r2.URL.Path = t.prefix + r.URL.Path
	if r.URL.RawPath != "" {
		r2.URL.RawPath = t.prefix + r.URL.RawPath
	}
	return next.RoundTrip(r2)
}
