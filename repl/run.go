package repl

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ptxmm/ptxmm/source"
	"golang.org/x/term"
)

// Run reads lines and executes them until :quit or the end of the input.
// When in is a terminal it shows a prompt, edits lines, keeps a history, and
// completes commands and relation names with Tab; otherwise it runs the
// lines as a script and prints only their results (errors prefixed with
// "error: "), so sessions can be scripted and tested.
func Run(s *Session, in *os.File, out io.Writer) error {
	if term.IsTerminal(int(in.Fd())) {
		return runTerminal(s, in, out)
	}
	return RunScript(s, in, out)
}

// RunScript executes every line of r, printing results and errors to w.
func RunScript(s *Session, r io.Reader, w io.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == ":quit" {
			return nil
		}
		if err := s.Exec(line, w); err != nil {
			fmt.Fprintf(w, "error: %s\n", quoted(err))
		}
	}
	return sc.Err()
}

// quoted is how the REPL prints an error: with the quoted source line
// when the error has one, and with control characters escaped
// (source.Escape), since an error may repeat what the user typed
// (":\x1b[2J is an unknown command") and must not act on the terminal.
func quoted(err error) string {
	if q, ok := err.(interface{ Quoted() string }); ok {
		return source.Escape(q.Quoted())
	}
	return source.Escape(err.Error())
}

// runTerminal is the interactive loop.
func runTerminal(s *Session, in *os.File, out io.Writer) error {
	fd := int(in.Fd())
	old, err := term.MakeRaw(fd)
	if err != nil {
		return RunScript(s, in, out)
	}
	defer term.Restore(fd, old)
	t := term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{interruptKeys{in}, out}, "ptxmm> ")
	if w, h, err := term.GetSize(fd); err == nil {
		t.SetSize(w, h)
	}
	t.AutoCompleteCallback = func(line string, pos int, key rune) (string, int, bool) {
		switch key {
		case cancelKey:
			// Ctrl-C: the line typed so far stays on the screen, marked,
			// and a fresh prompt takes its place, as in a shell.
			fmt.Fprintf(t, "ptxmm> %s^C\n", line)
			return "", 0, true
		case '\t':
			newLine, newPos, ok, options := s.complete(line, pos)
			if !ok && len(options) > 1 {
				// Ambiguous and nothing more in common: list them.
				fmt.Fprintln(t, strings.Join(options, "  "))
			}
			return newLine, newPos, ok
		}
		return "", 0, false
	}
	fmt.Fprintln(t, "ptxmm REPL — :help lists the commands, :quit leaves.")
	if s.test != nil {
		s.summary(t)
	}
	for {
		line, err := t.ReadLine()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if strings.TrimSpace(line) == ":quit" {
			return nil
		}
		if err := s.Exec(line, t); err != nil {
			fmt.Fprintf(t, "error: %s\n", quoted(err))
		}
	}
}

// cancelKey is the key interruptKeys turns Ctrl-C into: the terminal
// package ends the session on Ctrl-C itself, and hands this one, which
// no other key produces, to the completion callback.
const cancelKey = 0x1c

// interruptKeys reads a terminal in raw mode, where Ctrl-C is the byte
// 0x03 and no signal, turning it into cancelKey.
type interruptKeys struct{ r io.Reader }

func (k interruptKeys) Read(p []byte) (int, error) {
	n, err := k.r.Read(p)
	for i := range p[:n] {
		if p[i] == 0x03 {
			p[i] = cancelKey
		}
	}
	return n, err
}

// complete completes the word before the cursor: a command at the start of
// the line, a relation name elsewhere. With several candidates it inserts
// their longest common prefix; options are the candidates, for a caller to
// list when there is nothing more to insert.
func (s *Session) complete(line string, pos int) (newLine string, newPos int, ok bool, options []string) {
	start := pos
	for start > 0 && isWordByte(line[start-1]) {
		start--
	}
	word := line[start:pos]
	var names []string
	if start == 0 && strings.HasPrefix(word, ":") {
		for _, c := range commands() {
			names = append(names, c.name)
		}
	} else {
		names = s.relationNames()
	}
	var matches []string
	for _, o := range names {
		if strings.HasPrefix(o, word) {
			matches = append(matches, o)
		}
	}
	if len(matches) == 0 {
		return "", 0, false, nil
	}
	common := matches[0]
	for _, m := range matches[1:] {
		for !strings.HasPrefix(m, common) {
			common = common[:len(common)-1]
		}
	}
	if len(matches) == 1 && start == 0 && strings.HasPrefix(common, ":") {
		common += " "
	}
	if common == word {
		return "", 0, false, matches
	}
	return line[:start] + common + line[pos:], start + len(common), true, matches
}

func isWordByte(c byte) bool {
	return c == ':' || c == '_' || c == '$' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}
