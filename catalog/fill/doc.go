// Package fill fills the catalog's base relations (package catalog) from a
// candidate execution of a litmus test (package execution) into an
// evaluation instance of a model (package rules): a Filler, made once per
// model, fills every candidate, and fills what a candidate's choices
// change since the last one. It states facts only; their interpretation
// belongs to the model.
package fill
