package herdlog

import (
	"sort"
	"strconv"
	"strings"
)

// stateError is a problem at a column (from 0) of a state line.
type stateError struct {
	col int
	msg string
}

// parseStateLine reads the bindings "loc=value;" and faults
// "Fault(P0,x);" of a state line from column col, up to the end or a #
// comment, into st. The bindings are kept as "loc=value" with a location
// written without brackets ("[x]" and "x" are one location to herd's
// tools) and numbers in decimal, sorted, so that equal states print
// alike.
func parseStateLine(line string, col int, st *State) *stateError {
	p := &stateScanner{s: line, i: col}
	for {
		p.blanks()
		if p.i == len(p.s) || p.s[p.i] == '#' {
			break
		}
		if p.fault() {
			f, err := p.faultItem()
			if err != nil {
				return err
			}
			st.Faults = append(st.Faults, f)
			continue
		}
		b, err := p.binding()
		if err != nil {
			return err
		}
		st.Bindings = append(st.Bindings, b)
	}
	sort.Strings(st.Bindings)
	sort.Strings(st.Faults)
	return nil
}

type stateScanner struct {
	s string
	i int
}

func (p *stateScanner) errorf(msg string) *stateError { return &stateError{col: p.i, msg: msg} }

func (p *stateScanner) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *stateScanner) blanks() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHexDigit(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// name reads (alpha | _ . $)(alpha | digit | _ .)*, or returns "".
func (p *stateScanner) name() string {
	start := p.i
	if c := p.peek(); !(isAlpha(c) || c == '_' || c == '.' || c == '$') {
		return ""
	}
	p.i++
	for p.i < len(p.s) {
		c := p.s[p.i]
		if !(isAlpha(c) || isDigit(c) || c == '_' || c == '.') {
			break
		}
		p.i++
	}
	return p.s[start:p.i]
}

func (p *stateScanner) digits() string {
	start := p.i
	for p.i < len(p.s) && isDigit(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

// number reads a decimal or 0x hexadecimal number, or returns "".
func (p *stateScanner) number() string {
	start := p.i
	if strings.HasPrefix(p.s[p.i:], "0x") && p.i+2 < len(p.s) && isHexDigit(p.s[p.i+2]) {
		p.i += 2
		for p.i < len(p.s) && isHexDigit(p.s[p.i]) {
			p.i++
		}
		return p.s[start:p.i]
	}
	return p.digits()
}

// fault tells whether a fault item starts here: ~?[fF]ault.
func (p *stateScanner) fault() bool {
	rest := strings.TrimPrefix(p.s[p.i:], "~")
	return strings.HasPrefix(rest, "Fault") || strings.HasPrefix(rest, "fault")
}

// faultItem reads "~?Fault(...)" and the ";" after it, kept as written.
func (p *stateScanner) faultItem() (string, *stateError) {
	start := p.i
	end := strings.IndexByte(p.s[p.i:], ')')
	if end < 0 {
		p.i = len(p.s)
		return "", p.errorf("a fault has no closing parenthesis")
	}
	p.i += end + 1
	item := p.s[start:p.i]
	p.blanks()
	if p.peek() != ';' {
		return "", p.errorf("expected ; after a fault")
	}
	p.i++
	return item, nil
}

// binding reads "loc = value ;".
func (p *stateScanner) binding() (string, *stateError) {
	loc, err := p.location()
	if err != nil {
		return "", err
	}
	p.blanks()
	if p.peek() != '=' {
		return "", p.errorf("expected = after the location " + loc)
	}
	p.i++
	p.blanks()
	v, err := p.value()
	if err != nil {
		return "", err
	}
	p.blanks()
	if p.peek() != ';' {
		return "", p.errorf("expected ; after " + loc + "=" + v)
	}
	p.i++
	return loc + "=" + v, nil
}

// location reads a register "P:reg", a location "x" or "[x]", or an array
// cell "x[3]".
func (p *stateScanner) location() (string, *stateError) {
	if isDigit(p.peek()) {
		proc := p.digits()
		if p.peek() != ':' {
			return "", p.errorf("expected a register P:reg or a location")
		}
		p.i++
		reg := p.name()
		if reg == "" {
			return "", p.errorf("expected a register name after " + proc + ":")
		}
		return proc + ":" + reg, nil
	}
	bracket := p.peek() == '['
	if bracket {
		p.i++
	}
	loc := p.name()
	if loc == "" {
		return "", p.errorf("expected a register P:reg or a location")
	}
	switch {
	case p.peek() == '[' && !bracket:
		start := p.i
		p.i++
		n := p.digits()
		if n == "" || p.peek() != ']' {
			p.i = start
			return "", p.errorf("expected an array cell " + loc + "[N]")
		}
		p.i++
		return loc + "[" + n + "]", nil
	case p.peek() == ']':
		p.i++
	}
	return loc, nil
}

// value reads a binding's value: a number, a symbolic value name or
// name:name, name+offset, a set {...}, a page-table value (...), a label
// label:"P0:L0", :tag, or instr:"...".
func (p *stateScanner) value() (string, *stateError) {
	start := p.i
	switch c := p.peek(); {
	case c == '-' || isDigit(c):
		if c == '-' {
			p.i++
		}
		n := p.number()
		if n == "" {
			return "", p.errorf("expected a number after -")
		}
		return decimal(p.s[start:p.i]), nil
	case c == '{':
		end := strings.IndexByte(p.s[p.i:], '}')
		if end < 0 {
			return "", p.errorf("a set has no closing }")
		}
		p.i += end + 1
		return p.s[start:p.i], nil
	case c == '(':
		depth := 0
		for p.i < len(p.s) {
			switch p.s[p.i] {
			case '(':
				depth++
			case ')':
				depth--
			}
			p.i++
			if depth == 0 {
				return p.s[start:p.i], nil
			}
		}
		p.i = start
		return "", p.errorf("a page-table value has no closing parenthesis")
	case c == ':':
		p.i++
		for p.i < len(p.s) && isAlpha(p.s[p.i]) {
			p.i++
		}
		if p.i == start+1 {
			return "", p.errorf("expected a tag after :")
		}
		return p.s[start:p.i], nil
	}
	for _, quoted := range []string{`label:"`, `instr:"`} {
		if strings.HasPrefix(p.s[p.i:], quoted) {
			end := strings.IndexByte(p.s[p.i+len(quoted):], '"')
			if end < 0 {
				return "", p.errorf("a quoted value has no closing quote")
			}
			p.i += len(quoted) + end + 1
			return p.s[start:p.i], nil
		}
	}
	n := p.name()
	if n == "" {
		return "", p.errorf("expected a value: a number, a name, a set {...}")
	}
	switch c := p.peek(); {
	case c == ':' && p.i+1 < len(p.s) && (isAlpha(p.s[p.i+1]) || p.s[p.i+1] == '_' || p.s[p.i+1] == '.' || p.s[p.i+1] == '$'):
		p.i++
		p.name()
	case (c == '+' || c == '-') && p.i+1 < len(p.s) && isDigit(p.s[p.i+1]):
		p.i++
		p.number()
	}
	return p.s[start:p.i], nil
}

// decimal writes a number in decimal, as herd's tools compare them; a
// number beyond 64 bits stays as written.
func decimal(s string) string {
	digits, base := strings.TrimPrefix(s, "-"), 10
	if hex, ok := strings.CutPrefix(digits, "0x"); ok {
		digits, base = hex, 16
	}
	n, err := strconv.ParseInt(digits, base, 64)
	if err != nil {
		return s
	}
	if strings.HasPrefix(s, "-") {
		n = -n
	}
	return strconv.FormatInt(n, 10)
}
