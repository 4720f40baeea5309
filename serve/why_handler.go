package serve

import (
	"errors"

	"github.com/ptxmm/ptxmm/internal/explore"
)

// MaxDerivationNodes bounds the derivation tree of one answer; a larger one
// is refused with this limit named rather than cut short.
const MaxDerivationNodes = 5000

func (s *Server) handleWhy(c *apiCall, req *WhyRequest) (any, error) {
	if req.Rel == "" {
		return nil, badRequest("rel: name the relation whose tuple to explain")
	}
	sel, done, err := s.selectExec(c, req.Test, req.Model, req.Exec, 0)
	if err != nil {
		return nil, err
	}
	defer done()
	v := sel.view()
	n, err := v.Why(req.Rel, req.Args, MaxDerivationNodes)
	var notEvent *explore.NotEventError
	if errors.As(err, &notEvent) {
		return nil, badRequest("args: e%d is not an event of execution %d (it has e0 to e%d)", notEvent.Atom, sel.index, notEvent.Events-1)
	}
	if err != nil {
		return nil, &apiError{status: 422, msg: err.Error()}
	}
	text, ids := v.DerivationText(n)
	all := v.Events()
	resp := &WhyResponse{Tree: derivationNode(n), Events: []EventInfo{}, Text: text}
	for _, a := range ids {
		if v.IsEvent(a) {
			resp.Events = append(resp.Events, eventInfo(all[a]))
		}
	}
	return resp, nil
}

// derivationNode is a derivation tree as the API gives it.
func derivationNode(n *explore.Node) *DerivationNode {
	out := &DerivationNode{Rel: n.Rel, Args: n.Args, Rule: n.Rule, Base: n.Base}
	for _, c := range n.Children {
		out.Children = append(out.Children, derivationNode(c))
	}
	return out
}
