// Package repocheck holds tests of the repository itself rather than of
// any one package: the layering between the mock and the engine, the
// citations and links of the documentation, and the README's generated
// tables. It has no code; its tests read the tree from the module root.
package repocheck
