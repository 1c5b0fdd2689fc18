package harness

import (
	"net/http"
	"strings"

	"github.com/openai/openai-go/v3/azure"
	oaoption "github.com/openai/openai-go/v3/option"

	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/recovery"
	openaiprovider "github.com/faultbench/faultbench/recovery/openai"
	"github.com/faultbench/faultbench/scenario"
)

// AzureAPIVersion is the api-version the Azure transport sends: Azure
// OpenAI's GA data-plane version.
const AzureAPIVersion = "2024-10-21"

// newAzureProvider is the Azure OpenAI transport of a run: openai-go's
// azure package (the deployment in the path, api-version in the query,
// the key in api-key) over the run's HTTP client.
//
// The package sends a key over plain HTTP only through a loopback
// transport of its own, which would bypass the run's RoundTripper (its
// virtual clock, its sessions); so the endpoint it is given says https,
// and the client's transport (plainLoopback) sends each request to the
// mock over the plain HTTP it speaks on 127.0.0.1.
func newAzureProvider(sc *scenario.Scenario, base, session string, hc *http.Client) recovery.Provider {
	endpoint := "https://" + strings.TrimPrefix(base, "http://")
	client := *hc
	client.Transport = plainLoopback{next: hc.Transport}
	return openaiprovider.New(
		azure.WithEndpoint(endpoint, AzureAPIVersion),
		azure.WithAPIKey("faultbench"),
		oaoption.WithHTTPClient(&client),
		oaoption.WithHeader(mockllm.SessionHeader, session),
	).WithRequestOptions(func(r recovery.Request) []oaoption.RequestOption {
		return []oaoption.RequestOption{oaoption.WithHeader(mockllm.PurposeHeader, string(r.Purpose))}
	}).WithStream(sc.Turn.Stream)
}

// plainLoopback sends a request made for https://127.0.0.1 over plain
// HTTP, as the mock serves it.
type plainLoopback struct{ next http.RoundTripper }

func (t plainLoopback) RoundTrip(r *http.Request) (*http.Response, error) {
	next := t.next
	if next == nil {
		next = http.DefaultTransport
	}
	if r.URL.Scheme != "https" {
		return next.RoundTrip(r)
	}
	r2 := r.Clone(r.Context())
	r2.URL.Scheme = "http"
	return next.RoundTrip(r2)
}
