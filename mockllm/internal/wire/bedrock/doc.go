// Package bedrock is the mock's Amazon Bedrock Runtime wire for
// Anthropic's models: InvokeModel, POST <base>model/{modelId}/invoke, and
// InvokeModelWithResponseStream, POST
// <base>model/{modelId}/invoke-with-response-stream (the path names the
// model and whether it streams). The body is the Messages API's without
// model and stream and with anthropic_version "bedrock-2023-05-31"; the
// answer is the Messages API's message, or its events each carried, base64,
// in a chunk event of the AWS event stream (frame.go: the binary framing,
// its prelude and message CRCs, an encoder and a decoder).
//
// It answers in Bedrock's words: an error is {"message": …} with the
// exception's name in x-amzn-ErrorType (ThrottlingException 429,
// ModelNotReadyException 429, ServiceUnavailableException 503,
// ModelTimeoutException 408, ValidationException 400 for a malformed body,
// an unknown model or an over-long input, …); an error inside a stream is
// an exception message whose :exception-type is spelled as the stream's
// union spells it (throttlingException, modelStreamErrorException). A
// request without an Authorization header is AWS's 403
// MissingAuthenticationTokenException; any signature is accepted. Bedrock
// states no wait, so the wire's 429s carry no retry-after.
package bedrock
