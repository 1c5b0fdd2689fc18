package wire

// Calls is the tool calls of a conversation that wait for an answer, in
// the order they were made: Take answers the earliest waiting call with
// an id, First is the earliest still waiting, Waiting lists them all. Each
// costs a map look-up, so a body of 80,000 calls and answers is checked in
// linear time.
type Calls struct {
	ids    []string         // every call, in order
	taken  []bool           // whether ids[i] is answered
	queues map[string][]int // the waiting positions of each id, in order
	head   int              // no call before it is waiting
	left   int              // how many wait
}

// Add makes a call with id wait.
func (c *Calls) Add(id string) {
	if c.queues == nil {
		c.queues = make(map[string][]int)
	}
	c.queues[id] = append(c.queues[id], len(c.ids))
	c.ids = append(c.ids, id)
	c.taken = append(c.taken, false)
	c.left++
}

// Take answers the earliest waiting call with id; false when none waits.
func (c *Calls) Take(id string) bool {
	q := c.queues[id]
	if len(q) == 0 {
		return false
	}
	c.taken[q[0]] = true
	c.queues[id] = q[1:]
	c.left--
	return true
}

// Len is how many calls wait.
func (c *Calls) Len() int { return c.left }

// First is the earliest waiting call ("" when none waits).
func (c *Calls) First() string {
	for c.head < len(c.ids) && c.taken[c.head] {
		c.head++
	}
	if c.head == len(c.ids) {
		return ""
	}
	return c.ids[c.head]
}

// Waiting lists the waiting calls in the order they were made.
func (c *Calls) Waiting() []string {
	out := make([]string, 0, c.left)
	for i := c.head; i < len(c.ids); i++ {
		if !c.taken[i] {
			out = append(out, c.ids[i])
		}
	}
	return out
}

// Reset forgets every call.
func (c *Calls) Reset() {
	clear(c.queues)
	c.ids, c.taken, c.head, c.left = c.ids[:0], c.taken[:0], 0, 0
}
