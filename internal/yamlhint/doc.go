// Package yamlhint words a YAML syntax error for the person who made it:
// the field the error was found in, worked out from the lines above it, and,
// for the errors a misplaced indentation causes, a hint to check it. The
// YAML library reports where parsing broke, which is often the line before
// the one indented wrongly, and never the field. Meant and Suggestion name the
// field a mistyped key was probably meant to be ("did you mean").
package yamlhint
