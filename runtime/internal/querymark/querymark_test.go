package querymark

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEscapedIsTheMarkAsQueryEscapeWritesIt(t *testing.T) {
	require.Equal(t, url.QueryEscape(Mark), escaped)
}

// A marked separator goes out literal; the same character inside a value,
// and a mark that is data (quoted), stay escaped.
func TestEncodeKeepsMarkedSeparatorsLiteral(t *testing.T) {
	q := url.Values{
		"tags":  {Quote("a,b") + Mark + "," + Quote("c")},
		"pipes": {"p|q" + Mark + "|r"},
		"ids":   {"1" + Mark + " 2"},
		"s":     {"x y"},
		"d":     {Quote("x" + Mark + ",y")},
	}
	require.Equal(t, "d=x%EF%B7%90%2Cy&ids=1%202&pipes=p%7Cq|r&s=x+y&tags=a%2Cb,c", Encode(q))
	require.Equal(t, "a=b", Literal("a=b"))
}

func TestQuoteValuesDoublesMarksOnlyWhenThereAreAny(t *testing.T) {
	q := url.Values{"k": {"v"}}
	require.Equal(t, q, QuoteValues(q))
	got := QuoteValues(url.Values{"k" + Mark: {"a" + Mark + "|b"}})
	require.Equal(t, url.Values{"k" + Mark + Mark: {"a" + Mark + Mark + "|b"}}, got)
	require.Equal(t, "k%EF%B7%90=a%EF%B7%90%7Cb", Encode(got))
}
