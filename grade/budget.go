package grade

// spent judges a scenario whose every answer says the account's budget
// is spent — Anthropic's 400 "You have reached your specified API usage
// limits. You will regain access on <date>", a 402 in OpenRouter's
// envelope (error.metadata.limit_source), DeepSeek's 402 "Insufficient
// Balance" — as noRetry does: no wait refills a budget before the date
// it names, so the first answer is final. The status of none of them
// says "rate limit", and a router that cools a deployment on 429s alone
// keeps sending to it.
func spent(r Run, b Bounds) (Status, string) {
	st, ev := noRetry(r, b)
	if st == Fail {
		ev = "retried a spent budget, which no wait refills: " + ev
	}
	return st, ev
}
