package harness

import (
	"context"
	"net/http"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/vertex"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"

	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/recovery"
	anthropicprovider "github.com/faultbench/faultbench/recovery/anthropic"
	"github.com/faultbench/faultbench/scenario"
)

// VertexRegion is the region the Vertex transport names in its path.
const VertexRegion = "us-east5"

// newVertexProvider is the Vertex AI transport of a run: anthropic-sdk-go's
// vertex option (the model in the path, anthropic_version in the body, a
// bearer token) over the run's HTTP client, with a static dummy token, so
// that no credential is looked up and nothing leaves the machine.
//
// The option makes the request's path absolute
// (/v1/projects/{project}/…), so the base URL keeps only the mock's
// address, and the project names the scenario and the run's session
// (<scenario>--<session>); the run's transport names each request's
// session by its header too, as on the other wires.
func newVertexProvider(sc *scenario.Scenario, base, session string, hc *http.Client) recovery.Provider {
	root := base
	if i := strings.Index(strings.TrimPrefix(base, "http://"), "/"); i >= 0 {
		root = base[:len("http://")+i+1]
	}
	creds := &google.Credentials{TokenSource: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "faultbench"})}
	return anthropicprovider.New(
		option.WithHTTPClient(hc),
		vertex.WithCredentials(context.Background(), VertexRegion, sc.Name+"--"+session, creds),
		option.WithBaseURL(root),
		option.WithHeader(mockllm.SessionHeader, session),
	).WithRequestOptions(func(r recovery.Request) []option.RequestOption {
		return []option.RequestOption{option.WithHeader(mockllm.PurposeHeader, string(r.Purpose))}
	}).WithStream(sc.Turn.Stream)
}
