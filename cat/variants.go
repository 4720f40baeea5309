package cat

import "strings"

// herdVariants are the variant names herd7 knows (herdtools7's
// herd/variant.ml), in lower case. A model's if variant "name" on a name
// that is neither one of these nor set draws a warning, as in herd7.
var herdVariants = strings.Fields(`success instr specialx0 amox0 x0 normw acqrelasfence backcompat back
fullscdepend scdepend splittedrmw switchdepscwrite switchdepscresult lrscdiffok mixed unaligned
dontcheckmixed notweakpredicated notweakpred lkmmv1 lkmmv2 tagmem memtag mte store-only cutoff
morello neon sve sme deps instances instance kvm vmsa ets ets2 ets3 exs eis eos noptebranch nobranch
pte2 pte-squared optrfrmw constrainedunpredictable cu exp ifetch self dic idc shadowstack cos-opt
test asl asl_aarch64 aslaarch64 asl+aarch64 aslv0 asl0 asl_0 aslv1 asl1 asl_1 asltype+warn
asltype+silence asltype+check asl+aarch64+udf s128 strict warn telechat nv2 oldsolver oota pauth1
pauth2 no-key-da no-key-db no-key-ia no-key-ib const-pac-field fpac d128 synchronous sync
asynchronous async asymmetric asym handled fatal faulttonext`)

// IsVariant reports whether name (in any case) is one of herd7's variant
// names.
func IsVariant(name string) bool {
	name = strings.ToLower(name)
	for _, v := range herdVariants {
		if v == name {
			return true
		}
	}
	if len(name) == 3 && name[0] == 't' && isDigit(name[1]) && isDigit(name[2]) {
		return true // herd's t00 ... t99
	}
	for _, p := range []string{"sve:", "sme:"} {
		if rest, ok := strings.CutPrefix(name, p); ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
			return true
		}
	}
	return false
}

// HerdVariants lists herd7's variant names.
func HerdVariants() []string { return append([]string(nil), herdVariants...) }
