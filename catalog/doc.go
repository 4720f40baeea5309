// Package catalog owns the base relations a memory model may read with
// .input: their names, arities and meanings (Entries), and the check that
// a model asks only for relations the catalog provides (Validate). It is
// names only, so that the language front ends (cat) and hosts evaluating
// executions of their own read it without the enumerator; package
// catalog/fill fills the relations from a candidate execution.
//
// Sets are upper case, as in herd7's cat models (R, W, F, ACQ, GPU, ...);
// binary relations are lower case (po, rf, loc, scta, ...). The catalog
// reports facts about the execution only: what each instruction is, its
// qualifiers, where its thread sits in the hierarchy, which addresses and
// locations it touches, and the choices of the candidate (rf, barrier
// groups). Every interpretation of those facts (which operations are
// strong, which scopes include which threads, which operations are morally
// strong) belongs to the model in spec.dl.
package catalog
