package recovery

import "strings"

// bedrockKinds are the kinds of Amazon Bedrock Runtime's exceptions,
// keyed by their names in lower case: an error status's exception (in
// x-amzn-ErrorType) and a stream's (its :exception-type, spelled
// throttlingException) are read alike. ModelNotReadyException (429) and
// ServiceUnavailableException (503) say the model cannot serve now, not
// that the caller sends too much: an overload, which passes with a wait
// (the AWS SDKs retry ModelNotReadyException up to 5 times);
// ServiceQuotaExceededException (400) is a quota that no wait fixes.
var bedrockKinds = map[string]Kind{
	"throttlingexception":                 KindRateLimit,
	"modelnotreadyexception":              KindOverloaded,
	"serviceunavailableexception":         KindOverloaded,
	"modeltimeoutexception":               KindTimeout,
	"internalserverexception":             KindServer,
	"modelerrorexception":                 KindServer,
	"modelstreamerrorexception":           KindServer,
	"servicequotaexceededexception":       KindQuotaExhausted,
	"accessdeniedexception":               KindPermission,
	"resourcenotfoundexception":           KindNotFound,
	"missingauthenticationtokenexception": KindAuth,
	"unrecognizedclientexception":         KindAuth,
	"expiredtokenexception":               KindAuth,
}

// bedrockException is the name of the Bedrock exception e is: its type,
// else the x-amzn-ErrorType header's name (before the colon); "" when
// e is no Bedrock exception.
func bedrockException(e *APIError) string {
	name := e.Type
	if name == "" && e.Header != nil {
		name, _, _ = strings.Cut(e.Header.Get("X-Amzn-Errortype"), ":")
	}
	if !strings.HasSuffix(strings.ToLower(name), "exception") {
		return ""
	}
	return name
}

// bedrockKind reads a Bedrock exception where it settles the kind. A
// ValidationException is left to the status, so that "Input is too long
// for requested model." is read as an overflow first.
func bedrockKind(e *APIError) (Kind, bool) {
	name := bedrockException(e)
	if name == "" {
		return "", false
	}
	k, ok := bedrockKinds[strings.ToLower(name)]
	return k, ok
}
