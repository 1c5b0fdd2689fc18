// Command streamload measures the memory `faultbench serve` takes for
// many concurrent streams of the largest answer a scenario may ask for:
// it starts serve on a folder of scenarios, opens -conns connections that
// each ask for a streamed answer (-readers of them read it to its end, the
// others never read a byte), and prints serve's resident memory idle,
// at its peak while the streams are open, and after they close. It is
// bounded: every connection and the whole run have deadlines. See
// docs/performance.md for how it is run.
package main
