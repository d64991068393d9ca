package httpsyntax

import (
	"strings"
	"testing"
)

// TestTokenByteIsTchar checks every byte against RFC 9110 §5.6.2's tchar,
// written out as the RFC lists it.
func TestTokenByteIsTchar(t *testing.T) {
	const tchar = "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	n := 0
	for c := 0; c < 256; c++ {
		want := strings.IndexByte(tchar, byte(c)) >= 0
		if got := TokenByte(byte(c)); got != want {
			t.Errorf("TokenByte(%q) = %v, want %v", byte(c), got, want)
		}
		if want {
			n++
		}
	}
	if n != 77 {
		t.Fatalf("tchar has %d bytes, want 77", n)
	}
}

func TestToken(t *testing.T) {
	for s, want := range map[string]bool{
		"Content-Length": true, "x-amz-retry-after": true, "a": true, "!#$%&'*+-.^_`|~": true,
		"": false, "a b": false, "a:b": false, "a\r\nb": false, "é": false, "a\x00": false, "(x)": false, `"q"`: false,
	} {
		if got := Token(s); got != want {
			t.Errorf("Token(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestDigits(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "0123456789": true, "18446744073709551616": true,
		"": false, "+5": false, "-0": false, " 5": false, "5 ": false, "1.0": false, "1e3": false, "٣": false, "0x10": false,
	} {
		if got := Digits(s); got != want {
			t.Errorf("Digits(%q) = %v, want %v", s, got, want)
		}
		if got := Digits([]byte(s)); got != want {
			t.Errorf("Digits([]byte(%q)) = %v, want %v", s, got, want)
		}
	}
}
