// Package vertex is the mock's Vertex AI wire for Anthropic models:
// POST /v1/projects/{project}/locations/{region}/publishers/anthropic/models/{model}:rawPredict
// and :streamRawPredict, and .../models/count-tokens:rawPredict. The
// model is in the path, never in the body, and the body names the API
// version in its anthropic_version field (Vertex's SDKs move the
// anthropic-version header there). Its bodies and answers are the
// Messages API's (the anthropic wire's decoder and renderer); the errors
// Vertex's own gateway answers are Google's {"error":{"code","message",
// "status"}}: a request without a bearer token is a 401 UNAUTHENTICATED,
// a model the scenario does not serve a 404 NOT_FOUND naming the
// publisher model, a rate limit a 429 RESOURCE_EXHAUSTED "Quota exceeded
// for aiplatform.googleapis.com/online_prediction_requests_per_base_model"
// sent as a JSON array of one error and with no retry-after, as Vertex
// sends it. Errors of the model itself (overloaded_error, a 400 of the
// body) keep Anthropic's envelope, as Vertex passes them on.
//
// Anthropic's SDKs make the path absolute (anthropic-sdk-go) or append it
// to a base URL that ends in /v1 (the TypeScript and Python SDKs), so
// the scenario is named either by a path segment before /v1/projects/ or,
// when there is none, by the project: a project of the form
// <scenario>--<session> (split at the last --) also names the session,
// unless the X-Faultbench-Session header names one.
package vertex
