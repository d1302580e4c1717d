package safetext

import (
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
)

func TestTerminalEscapesWhatCouldMoveTheCursorOrReorderText(t *testing.T) {
	for in, want := range map[string]string{
		"payments":                  "payments",
		"\x1b[31mred\x1b[0m":        `\x1b[31mred\x1b[0m`,
		"two\nlines\r":              `two\x0alines\x0d`,
		"rtl\u202eevil":             `rtl\u202eevil`,
		"服务-ünï":                    "服务-ünï",
		"bad\xffutf8":               `bad\xffutf8`,
		"del\x7f c1\u009b bel\a":    `del\x7f c1\x9b bel\x07`,
		"<script>alert(1)</script>": "<script>alert(1)</script>", // HTML is the HTML writer's job
	} {
		if got := Terminal(in); got != want {
			t.Errorf("Terminal(%q) = %q, want %q", in, got, want)
		}
	}
}

const hostile = "x\x00\x07\x0b\x0c\r\x1b[2J\x7f\u0085\u009b\u202e\u2066\xff\xfe<b>&\"':,%|*_`"

// hasRaw reports any rune that must not appear raw in a document.
func hasRaw(s string, allowNewline bool) bool {
	for _, r := range s {
		if allowNewline && r == '\n' {
			continue
		}
		if unsafeRune(r) && r != '\ufffd' {
			return true
		}
	}
	return false
}

func TestEveryOutputKindCarriesNoRawControl(t *testing.T) {
	for name, out := range map[string]string{
		"terminal": Terminal(hostile),
		"echo":     Echo(hostile),
		"html":     HTML(hostile),
		"markdown": Markdown(hostile),
		"gh-msg":   GitHubMessage(hostile),
		"gh-prop":  GitHubProperty(hostile),
	} {
		if hasRaw(out, false) || strings.Contains(out, "\xff") {
			t.Errorf("%s: raw control in %q", name, out)
		}
	}
	if x := XML(hostile + "\nline2"); hasRaw(x, true) {
		t.Errorf("xml: %q", x)
	} else if err := xml.Unmarshal([]byte("<a>"+strings.NewReplacer("<", "&lt;", "&", "&amp;").Replace(x)+"</a>"), new(string)); err != nil {
		t.Errorf("xml does not parse: %v", err)
	}
	if p := GitHubProperty("a:b,c"); p != "a%3Ab%2Cc" {
		t.Errorf("property %q", p)
	}
	enc, _ := json.Marshal(map[string]string{"name": hostile})
	out := JSON(enc)
	if hasRaw(string(out), false) {
		t.Errorf("json: raw control in %q", out)
	}
	var back, plain map[string]string
	_ = json.Unmarshal(enc, &plain)
	if err := json.Unmarshal(out, &back); err != nil || back["name"] != plain["name"] {
		t.Errorf("json is not lossless: %v %q", err, back["name"])
	}
}

func TestEchoIsCapped(t *testing.T) {
	if e := Echo(strings.Repeat("é", 500)); !strings.HasSuffix(e, "…") || len([]rune(e)) != MaxEcho+1 {
		t.Fatalf("%d runes", len([]rune(e)))
	}
}

func FuzzEveryOutputKind(f *testing.F) {
	f.Add(hostile)
	f.Add("payments")
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Terminal(s), Echo(s), Markdown(s), GitHubMessage(s), GitHubProperty(s)} {
			if hasRaw(out, false) || !isValidUTF8(out) {
				t.Fatalf("%q → %q", s, out)
			}
		}
		enc, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		out := JSON(enc)
		var back string
		if err := json.Unmarshal(out, &back); err != nil || hasRaw(string(out), false) {
			t.Fatalf("%q → %q: %v", s, out, err)
		}
	})
}

func isValidUTF8(s string) bool { return strings.ToValidUTF8(s, "") == s }
