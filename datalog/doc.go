// Package datalog owns the ptxmm modelling language: its lexer, parser,
// abstract syntax tree, include resolution, desugaring of relational
// definitions into rules, and the static checks that run before evaluation.
//
// The language is Datalog with Soufflé's conventions (.decl, .input, .output,
// .printsize, rules and facts ending in a period) plus two things memory
// models need: relational definitions written in herd7's cat operators
// ("let cause = po ; (sync ; po)+"), which desugar into ordinary rules, and
// named checks (".check causality: irreflexive(rf ; cause)"), one per axiom.
// docs/language.md documents every construct.
//
// Every node carries a source.Pos, and every problem is reported as a
// source.Error at file:line:col with what was expected.
package datalog
