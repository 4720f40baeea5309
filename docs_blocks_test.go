package ptxmm_test

// This file reads the code blocks of README.md and docs/*.md for the
// documentation runner (docs_run_test.go): which are commands, what they
// should print, and the markers that say how to run them. The convention
// is written down in docs/documentation.md.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// docBlock is one fenced code block of a Markdown file.
type docBlock struct {
	file string // the Markdown file, relative to the repository root
	line int    // the line of the opening fence
	info string // what follows the opening ``` ("sh", "text", "")
	text string // the block's lines, without the fences and the fence's indentation
	// The markers written before the block (docs/documentation.md).
	fileName string   // file NAME: the block is that file
	needs    []string // needs PATH|TOOL ...: run only when all are there
	exit     int      // exit N: the status every command ends with
	skip     string   // skip REASON: never run, for this reason
}

// where names the block in messages: docs/litmus.md:106.
func (b *docBlock) where() string { return fmt.Sprintf("%s:%d", b.file, b.line) }

// isTranscript reports whether the block shows commands with "$ " and
// their output.
func (b *docBlock) isTranscript() bool {
	for _, l := range strings.Split(b.text, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		return strings.HasPrefix(l, "$ ")
	}
	return false
}

// isScript reports whether the block is commands to run without shown
// output: a sh, bash, shell or console block that is not a transcript.
func (b *docBlock) isScript() bool {
	switch b.info {
	case "sh", "bash", "shell", "console":
		return !b.isTranscript()
	}
	return false
}

var (
	fenceRE     = regexp.MustCompile("^([ \t]*)```([^`]*)$")
	longFenceRE = regexp.MustCompile("^[ \t]*(````+)[^`]*$")
	markerRE    = regexp.MustCompile(`^\s*<!--\s*doc-test:(.*?)-->\s*$`)
)

// readDocBlocks reads the fenced code blocks of a Markdown file, with the
// markers written on the lines right above each opening fence.
func readDocBlocks(root, file string) ([]*docBlock, error) {
	data, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(data), "\n")
	var blocks []*docBlock
	for i := 0; i < len(lines); i++ {
		if m := longFenceRE.FindStringSubmatch(lines[i]); m != nil {
			// A block fenced with four or more backquotes shows Markdown,
			// code blocks included, as text: skip to its end.
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != m[1]; i++ {
			}
			continue
		}
		m := fenceRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		indent := m[1]
		b := &docBlock{file: file, line: i + 1, info: strings.TrimSpace(m[2]), exit: 0}
		for j := i - 1; j >= 0; j-- {
			mm := markerRE.FindStringSubmatch(lines[j])
			if mm == nil {
				break
			}
			if err := b.addMarkers(mm[1]); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", file, j+1, err)
			}
		}
		var body []string
		closed := false
		for i++; i < len(lines); i++ {
			if strings.TrimSpace(lines[i]) == "```" {
				closed = true
				break
			}
			body = append(body, strings.TrimPrefix(lines[i], indent))
		}
		if !closed {
			return nil, fmt.Errorf("%s: the code block opened there is never closed", b.where())
		}
		b.text = strings.Join(body, "\n")
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// addMarkers reads the directives of one marker comment, separated by ';'.
func (b *docBlock) addMarkers(text string) error {
	for _, d := range strings.Split(text, ";") {
		words := strings.Fields(d)
		if len(words) == 0 {
			continue
		}
		args := words[1:]
		switch words[0] {
		case "file":
			if len(args) != 1 || filepath.IsAbs(args[0]) || strings.Contains(args[0], "..") {
				return fmt.Errorf("doc-test: file takes one relative file name, without '..'")
			}
			b.fileName = args[0]
		case "needs":
			if len(args) == 0 {
				return fmt.Errorf("doc-test: needs takes the paths and tools the block needs")
			}
			b.needs = append(b.needs, args...)
		case "exit":
			n, err := strconv.Atoi(strings.Join(args, " "))
			if err != nil || n < 0 {
				return fmt.Errorf("doc-test: exit takes the status the commands end with, a number")
			}
			b.exit = n
		case "skip":
			if len(args) == 0 {
				return fmt.Errorf("doc-test: skip needs a reason")
			}
			b.skip = strings.Join(args, " ")
		default:
			return fmt.Errorf("doc-test: unknown directive %q: expected file, needs, exit or skip", words[0])
		}
	}
	return nil
}

// transcriptStep is one command of a transcript: the command line, the
// lines it reads on standard input ("ptxmm> " lines, for the REPL), and
// what it prints.
type transcriptStep struct {
	command string
	input   []string
	output  []string
}

// steps splits a transcript into its commands. A command line ending in
// '\' goes on on the next line.
func (b *docBlock) steps() []transcriptStep {
	var out []transcriptStep
	lines := strings.Split(b.text, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "$ ") {
			if len(out) == 0 {
				continue
			}
			cur := &out[len(out)-1]
			if in, ok := strings.CutPrefix(l, "ptxmm> "); ok {
				cur.input = append(cur.input, in)
			} else {
				cur.output = append(cur.output, l)
			}
			continue
		}
		cmd := strings.TrimPrefix(l, "$ ")
		for strings.HasSuffix(cmd, `\`) && i+1 < len(lines) {
			i++
			cmd += "\n" + lines[i] // bash reads backslash-newline as a continuation
		}
		out = append(out, transcriptStep{command: cmd})
	}
	return out
}
