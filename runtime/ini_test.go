package runtime

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseINI(t *testing.T) {
	tests := []struct {
		name string
		data string
		want []iniSection
	}{
		{name: "comments with # and ; and blank lines are skipped",
			data: "# a\n; b\n\n[default]\n  # indented comment\nretry_mode = adaptive\n",
			want: []iniSection{{header: "default", keys: map[string]string{"retry_mode": "adaptive"}}}},
		{name: "an inline comment starts at ' #', ' ;', '\\t#' or '\\t;' (aws-sdk-go-v2)",
			data: "[default] # the default\nretry_mode = standard ; a comment\nmax_attempts = 6\t#six\nregion=a#b;c\nx = y\t;z # w\n",
			want: []iniSection{{header: "default", keys: map[string]string{"retry_mode": "standard", "max_attempts": "6", "region": "a#b;c", "x": "y"}}}},
		{name: "a section line ends at any '#' or ';'",
			data: "[default]#c\nk = v\n[profile x];c\nk = w\n",
			want: []iniSection{{header: "default", keys: map[string]string{"k": "v"}}, {header: "profile x", keys: map[string]string{"k": "w"}}}},
		{name: "a continuation line keeps its comment characters",
			data: "[default]\ns3 =\n  addressing_style = path # kept\n",
			want: []iniSection{{header: "default", keys: map[string]string{"s3": "\naddressing_style = path # kept"}}}},
		{name: "keys lower-cased, keys and values trimmed, headers trimmed but case kept",
			data: "[ Profile Dev ]\n\tMax_Attempts\t=  4  \n",
			want: []iniSection{{header: "Profile Dev", keys: map[string]string{"max_attempts": "4"}}}},
		{name: "key: value is accepted and the first = or : splits",
			data: "[default]\nrole_arn = arn:aws:iam::1:role/x\nregion: eu-west-1\n",
			want: []iniSection{{header: "default", keys: map[string]string{"role_arn": "arn:aws:iam::1:role/x", "region": "eu-west-1"}}}},
		{name: "later duplicate key wins",
			data: "[default]\nmax_attempts = 2\nmax_attempts = 5\n",
			want: []iniSection{{header: "default", keys: map[string]string{"max_attempts": "5"}}}},
		{name: "deeper indented lines continue the value (nested s3 settings)",
			data: "[default]\ns3 =\n  max_concurrent_requests = 20\n  multipart_threshold = 64MB\nmax_attempts = 2\n",
			want: []iniSection{{header: "default", keys: map[string]string{
				"s3": "\nmax_concurrent_requests = 20\nmultipart_threshold = 64MB", "max_attempts": "2"}}}},
		{name: "equally indented keys are separate keys",
			data: "[default]\n  retry_mode = legacy\n  max_attempts = 2\n",
			want: []iniSection{{header: "default", keys: map[string]string{"retry_mode": "legacy", "max_attempts": "2"}}}},
		{name: "CRLF line endings and a UTF-8 BOM",
			data: "\ufeff[default]\r\nretry_mode = legacy\r\n",
			want: []iniSection{{header: "default", keys: map[string]string{"retry_mode": "legacy"}}}},
		{name: "repeated header yields a second section",
			data: "[default]\na = 1\n[default]\nb = 2\n",
			want: []iniSection{{header: "default", keys: map[string]string{"a": "1"}}, {header: "default", keys: map[string]string{"b": "2"}}}},
		{name: "empty file has no sections", data: "", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := parseINI("config", []byte(tt.data))
			require.NoError(t, err)
			require.Equal(t, tt.want, f.sections)
		})
	}
}

func TestParseINIErrors(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{name: "line without = or : is not key = value",
			data: "[default]\nretry_mode = standard\nmax_attempts\n", want: `/p/config:3: expected "key = value"`},
		{name: "empty key is not key = value",
			data: "[default]\n= 3\n", want: `/p/config:2: expected "key = value"`},
		{name: "unclosed section header",
			data: "[default\n", want: `/p/config:1: expected "[section]"`},
		{name: "empty section header",
			data: "# x\n[]\n", want: `/p/config:2: expected "[section]"`},
		{name: "key before the first section",
			data: "retry_mode = standard\n", want: `/p/config:1: expected "[section]" before the first key`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseINI("/p/config", []byte(tt.data))
			var se *IniSyntaxError
			require.ErrorAs(t, err, &se)
			require.Equal(t, tt.want, err.Error())
		})
	}
}

func TestSectionProfile(t *testing.T) {
	tests := []struct{ header, want string }{
		{"default", "default"},
		{"profile default", "default"},
		{"profile dev", "dev"},
		{"profile \t dev", "dev"},
		{"dev", ""},
		{"Default", ""},
		{"Profile dev", ""},
		{"profile", ""},
		{"profile a b", ""},
		{"sso-session x", ""},
	}
	for _, tt := range tests {
		t.Run(tt.header, func(t *testing.T) {
			require.Equal(t, tt.want, sectionProfile(tt.header))
		})
	}
}
