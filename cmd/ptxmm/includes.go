package main

import "flag"

// addIncludeFlag registers -I, the directories searched for the files a cat
// model includes (herd7's -I), repeatable.
func addIncludeFlag(fs *flag.FlagSet) *modelList {
	var dirs modelList
	fs.Var(&dirs, "I", "`DIR` searched for the files a cat model includes (repeatable; herd7's -I)")
	return &dirs
}
