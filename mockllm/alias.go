package mockllm

import (
	"maps"
	"slices"

	"github.com/faultbench/faultbench/scenario"
)

// Option configures a [Server] at [New].
type Option func(*Server)

// WithAliases serves each model name of aliases as the model it maps to,
// in every scenario that serves that model, so that a client can keep its
// real model name; the key [scenario.AnyModel] ("any") maps every name not
// otherwise known. A scenario's own aliases come first (by name, then
// "any"), then these (by name, then "any"). An alias whose target a
// scenario does not serve does not apply there. The map is copied.
func WithAliases(aliases map[string]string) Option {
	aliases = maps.Clone(aliases)
	return func(s *Server) { s.aliases = aliases }
}

// resolve returns the model of the scenario that a client's model name is
// served as: the name itself when the scenario serves it, else the first
// alias that applies (see [WithAliases]).
func (sv *served) resolve(name string) (string, bool) {
	if _, ok := sv.sc.Models[name]; ok {
		return name, true
	}
	for _, try := range []struct {
		aliases map[string]string
		key     string
	}{{sv.sc.Aliases, name}, {sv.global, name}, {sv.sc.Aliases, scenario.AnyModel}, {sv.global, scenario.AnyModel}} {
		if to, ok := try.aliases[try.key]; ok {
			if _, served := sv.sc.Models[to]; served {
				return to, true
			}
		}
	}
	return "", false
}

// modelNames are the models the scenario serves, sorted: what a 404 for an
// unknown model lists.
func (sv *served) modelNames() []string {
	return slices.Sorted(maps.Keys(sv.sc.Models))
}
