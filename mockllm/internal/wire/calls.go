package wire

import "hash/maphash"

// Calls is the tool calls of a conversation that wait for an answer, in
// the order they were made: Take answers the earliest waiting call with
// an id, First is the earliest still waiting, Waiting lists them all. Each
// costs a look-up in a hash table of its own (a Go map of strings spent
// half the check rehashing as it grew), and no call allocates but its
// place in three slices, so a body of 80,000 calls and answers is checked
// in linear time.
type Calls struct {
	ids   []string // every call, in order
	taken []bool   // whether ids[i] is answered
	next  []int32  // the next call with ids[i]'s id, -1 for none
	table []slot   // the ids, by their hash (open addressing; a power of two long)
	used  int      // the slots of table in use
	head  int      // no call before it is waiting
	left  int      // how many wait
}

// slot is one id of Calls.table: its hash, a call that has it (to tell
// ids of one hash apart), and the waiting calls with it, a list through
// Calls.next from first to last (first -1: none waits). A slot is never
// emptied, so a probe stops at the first empty one.
type slot struct {
	hash             uint64
	key, first, last int32
	inUse            bool
}

var callSeed = maphash.MakeSeed()

// find is the slot of id, or the empty slot where it goes.
func (c *Calls) find(id string, h uint64) *slot {
	mask := uint64(len(c.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &c.table[i]
		if !sl.inUse || (sl.hash == h && c.ids[sl.key] == id) {
			return sl
		}
	}
}

// grow doubles the table, placing each id by its stored hash: no id is
// hashed twice.
func (c *Calls) grow() {
	old := c.table
	c.table = make([]slot, max(16, 2*len(old)))
	mask := uint64(len(c.table) - 1)
	for _, sl := range old {
		if !sl.inUse {
			continue
		}
		i := sl.hash & mask
		for c.table[i].inUse {
			i = (i + 1) & mask
		}
		c.table[i] = sl
	}
}

// Add makes a call with id wait.
func (c *Calls) Add(id string) {
	if 4*(c.used+1) > 3*len(c.table) {
		c.grow()
	}
	i := int32(len(c.ids))
	c.ids = append(c.ids, id)
	c.taken = append(c.taken, false)
	c.next = append(c.next, -1)
	h := maphash.String(callSeed, id)
	sl := c.find(id, h)
	switch {
	case !sl.inUse:
		*sl = slot{hash: h, key: i, first: i, last: i, inUse: true}
		c.used++
	case sl.first < 0:
		sl.first, sl.last = i, i
	default:
		c.next[sl.last] = i
		sl.last = i
	}
	c.left++
}

// Take answers the earliest waiting call with id; false when none waits.
func (c *Calls) Take(id string) bool {
	if len(c.table) == 0 {
		return false
	}
	sl := c.find(id, maphash.String(callSeed, id))
	if !sl.inUse || sl.first < 0 {
		return false
	}
	c.taken[sl.first] = true
	sl.first = c.next[sl.first]
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
	clear(c.table)
	c.ids, c.taken, c.next, c.used, c.head, c.left = c.ids[:0], c.taken[:0], c.next[:0], 0, 0, 0
}
