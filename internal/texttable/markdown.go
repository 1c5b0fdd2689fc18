package texttable

import "strings"

// markdownEscaper keeps text — names, figures, a scenario's description,
// a model name a client sent — from being read as Markdown or HTML: every
// character with a meaning in GitHub-flavoured Markdown gets a backslash;
// <, > and & become entities, so no tag (<!--, </details>, <img>) is opened
// or closed; an @ is followed by a zero-width space, so no one is
// mentioned.
var markdownEscaper = strings.NewReplacer(
	`\`, `\\`, "|", `\|`, "*", `\*`, "`", "\\`", "_", `\_`, "[", `\[`, "]", `\]`, "!", `\!`, "~", `\~`,
	"#", `\#`, "&", "&amp;", "<", "&lt;", ">", "&gt;", "@", "@&#8203;",
)

// MarkdownCell is s as one table cell of Markdown that shows s as
// written: white space collapsed (a newline would end the row), control
// characters made visible (Plain), and everything else escaped. Every
// Markdown report and grade's card escape what they did not write
// themselves with it.
func MarkdownCell(s string) string {
	return markdownEscaper.Replace(Plain(strings.Join(strings.Fields(s), " ")))
}
