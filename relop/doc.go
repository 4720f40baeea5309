// Package relop is what ptxmm's modelling language (package datalog) and
// herd7's cat language (package cat) share in their syntax: the relational
// operators (BinOp, UnOp), their precedence, one parser of the operator
// layer of an expression (Parse), and the cursor over a file's tokens
// (Tokens); the cursor over a file's text is source.Cursor. Each front
// end keeps its own lexer and its own operands; the
// operators mean the same and bind the same in both, as herd7's cat
// defines them.
package relop
