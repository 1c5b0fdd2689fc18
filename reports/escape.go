package reports

// MarkdownCell is s as one cell of a Markdown table, escaped as every
// Markdown report escapes what it did not write itself — a scenario's
// name, a model name a client sent: white space collapsed, control
// characters made visible, Markdown's characters backslashed, <, > and &
// as entities (no <img>, no <!--), and no @mention.
func MarkdownCell(s string) string { return markdownCell(s) }
