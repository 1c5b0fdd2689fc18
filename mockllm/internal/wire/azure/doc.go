// Package azure is the mock's Azure OpenAI wire: Chat Completions under
// a resource's deployment, POST
// <base>openai/deployments/{deployment}/chat/completions?api-version=V
// (the deployment names the model), and under the v1 path, POST
// <base>openai/v1/chat/completions (the body names it). It decodes and
// renders as the chat wire does and answers in Azure's own words where
// Azure's gateway, not the model, answers: a request without api-key or
// Authorization is a 401, a deployment path without api-version a 404, a
// model the scenario does not serve DeploymentNotFound, a rate limit a
// 429 {"error":{"code":"429","message":"Requests to the
// ChatCompletions_Create Operation ..."}} with retry-after,
// retry-after-ms and x-ms-retry-after-ms; a scripted content_filter a 400
// with its innererror. A stream opens, as Azure's do, with a chunk whose choices
// are empty and which carries the prompt's filter results.
package azure
