package checker

// AlwaysPrune makes a check abandon the partial candidates the models
// reject however few candidates the test has (pruneMin), so that the
// oracle tests compare that search with the full enumeration on small
// random tests too.
func AlwaysPrune(o *Options) { o.pruneMin = 1 }
