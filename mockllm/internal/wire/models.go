package wire

// Lister is a wire that lists models as its real API does, at GET
// <base>v1/models: the server hands it the scenario's model names, sorted,
// and sends the body it appends. A wire that is not one answers the
// listing with the first wire's shape.
type Lister interface {
	Models(b []byte, ids []string) []byte
}
