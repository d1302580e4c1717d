// Package safetext makes untrusted text — target names, label values, file
// contents, URLs — safe for each kind of output limitscope writes: one
// function per output kind, used by every writer of that kind. Control
// characters (C0, DEL, C1), bidirectional overrides and invalid UTF-8 never
// reach a terminal or a document raw; the data itself keeps the original.
//
// It is written here rather than taken from a library because each output
// kind needs a specific, small rule set (a terminal, an HTML template, an XML
// document, JSON, Markdown and GitHub workflow commands) and the rules must
// agree; the package imports only the standard library.
package safetext

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxEcho is how much of one untrusted value an error message repeats.
const MaxEcho = 80

// unsafeRune reports a rune that must not reach an output raw: C0 controls,
// DEL, C1 controls, bidirectional overrides, isolates and marks, the line and
// paragraph separators, and the replacement character standing for invalid
// UTF-8.
func unsafeRune(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) ||
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f ||
		r == 0x2028 || r == 0x2029 || r == utf8.RuneError
}

// Terminal returns s safe to write to a terminal (stdout, stderr, the TUI):
// unsafe runes become visible escapes such as \x1b or \u202e and each byte of
// invalid UTF-8 becomes \xNN, so a hostile name cannot move the cursor,
// recolour the screen or reorder text.
func Terminal(s string) string {
	clean := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if unsafeRune(r) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return s
	}
	b := make([]byte, 0, len(s)+16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = fmt.Appendf(b, `\x%02x`, s[i])
		case unsafeRune(r) && r < 0x100:
			b = fmt.Appendf(b, `\x%02x`, r)
		case unsafeRune(r):
			b = fmt.Appendf(b, `\u%04x`, r)
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}

// Echo is Terminal capped to MaxEcho runes with "…": for repeating an
// untrusted value in an error message.
func Echo(s string) string { return Cap(Terminal(s), MaxEcho) }

// Cap cuts s to n runes, marking the cut with "…".
func Cap(s string, n int) string {
	k := 0
	for i := range s {
		if k == n {
			return s[:i] + "…"
		}
		k++
	}
	return s
}

// HTML returns s ready for an html/template pipeline, which then escapes
// <, >, & and quotes: only the unsafe runes need replacing first.
func HTML(s string) string { return Terminal(s) }

// XML returns s safe inside an XML 1.0 document (encoding/xml escapes the
// markup characters): unsafe runes escaped as for a terminal, newlines kept.
func XML(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Terminal(l)
	}
	return strings.Join(lines, "\n")
}

// Markdown returns s safe inside Markdown text and table cells: unsafe runes
// escaped, Markdown punctuation backslash-escaped, HTML neutralised.
func Markdown(s string) string {
	var b strings.Builder
	for _, r := range Terminal(s) {
		switch r {
		case '\\', '`', '*', '_', '{', '}', '[', ']', '(', ')', '#', '+', '!', '|', '~', '>':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '<':
			b.WriteString("&lt;")
		case '&':
			b.WriteString("&amp;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// GitHubMessage returns s safe as a GitHub workflow-command message.
func GitHubMessage(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(Terminal(s))
}

// GitHubProperty returns s safe as a workflow-command property value
// (title=…): also ':' and ',' are encoded.
func GitHubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(Terminal(s))
}

// JSON rewrites encoded JSON so no unsafe rune appears raw: encoding/json
// already escapes C0 and replaces invalid UTF-8; DEL, C1 controls and the
// bidirectional runes it leaves raw become \u escapes, which decode to the
// same string (lossless).
func JSON(enc []byte) []byte {
	clean := true
	for i := 0; i < len(enc); {
		r, n := utf8.DecodeRune(enc[i:])
		if unsafeRune(r) && r >= 0x20 && !(r == utf8.RuneError && n == 3) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return enc
	}
	var b bytes.Buffer
	for i := 0; i < len(enc); {
		r, n := utf8.DecodeRune(enc[i:])
		if unsafeRune(r) && r >= 0x20 && !(r == utf8.RuneError && n == 3) {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.Write(enc[i : i+n])
		}
		i += n
	}
	return b.Bytes()
}
