package mockllm

import "github.com/faultbench/faultbench/mockllm/internal/wire"

// refusal is the last request a rule of the script refused with a 400 in
// a session: what when.unshrunk compares the next ones with.
type refusal struct {
	at        bool // a rule refused one
	input     int
	maxTokens int  // the model's max_output where the request set none
	inputOnly bool // the Gemini wire, whose window holds the input alone
}

// unshrunk says whether q is no smaller than the refused request: as
// much input or more and, where the window holds the output too, as many
// max_tokens or more. maxOutput stands for a max_tokens q leaves out.
func (r refusal) unshrunk(q *wire.Request, maxOutput int) bool {
	if !r.at || q.InputTokens() < r.input {
		return false
	}
	return r.inputOnly || orMax(q.MaxTokens, maxOutput) >= r.maxTokens
}

// orMax is n, or max where n is 0 (a request without max_tokens).
func orMax(n, max int) int {
	if n == 0 {
		return max
	}
	return n
}
