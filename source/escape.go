package source

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape makes text safe to print on a terminal: control characters (other
// than tab and newline), DEL, the C1 controls (among them the terminal's
// escape sequences), the bidirectional overrides that can make code read
// otherwise than it parses, and bytes that are not UTF-8 are written as Go
// escapes (\x1b, \u202e). A test or model could otherwise retitle or clear
// the terminal of whoever reads a diagnostic quoting it.
func Escape(text string) string {
	if !needsEscape(text) {
		return text
	}
	var b strings.Builder
	for _, part := range escaped(text) {
		b.WriteString(part)
	}
	return b.String()
}

func needsEscape(text string) bool {
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if escapedRune(r, size) != "" {
			return true
		}
		i += size
	}
	return false
}

// escaped splits text into its characters as printed: one string per
// rune, a rune to escape replaced by its escape.
func escaped(text string) []string {
	var out []string
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if e := escapedRune(r, size); e != "" {
			if r == utf8.RuneError {
				e = fmt.Sprintf(`\x%02x`, text[i])
			}
			out = append(out, e)
		} else {
			out = append(out, text[i:i+size])
		}
		i += size
	}
	return out
}

// escapedRune returns the escape of r (decoded from size bytes), or "" when
// r prints as itself.
func escapedRune(r rune, size int) string {
	switch {
	case r == utf8.RuneError && size == 1:
		return `\x??` // the byte itself is written by escaped
	case r == '\t' || r == '\n':
		return ""
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf(`\x%02x`, r)
	case r >= 0x80 && r < 0xa0, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return ""
}
