package runtime

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// mapEnv is an Env over a map, with home as the home directory ("" = the
// home directory is unknown). It never reads the process environment.
func mapEnv(vars map[string]string, home string) Env {
	return Env{
		Lookup: func(k string) (string, bool) { v, ok := vars[k]; return v, ok },
		HomeDir: func() (string, error) {
			if home == "" {
				return "", errors.New("$HOME is not defined")
			}
			return home, nil
		},
	}
}

// writeFile writes content to dir/rel, creating directories, and returns
// the file's path.
func writeFile(t *testing.T, dir, rel, content string) string {
	t.Helper()
	path := filepath.Join(dir, rel)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

// dynamoLike is a DynamoDB-like service (retry-behavior.md §1, §7): 4 max
// attempts, but 10 in legacy mode.
var dynamoLike = &Service{
	Name:      "DynamoDB",
	EnvPrefix: "AWS",
	Defaults:  ModeDefaults{MaxAttempts: 4, TransientBaseDelay: 25 * time.Millisecond},
	PerMode: map[Mode]ModeDefaults{ModeLegacy: {
		MaxAttempts: 10, TransientBaseDelay: 50 * time.Millisecond, ThrottlingBaseDelay: 50 * time.Millisecond, Jitter: JitterNone,
	}},
}

var awsService = &Service{Name: "Example", EnvPrefix: "AWS"}

// configCase is one resolution scenario. The home directory is a fresh
// t.TempDir(); home holds files to write under it (relative path →
// content); "$HOME" in env values and in expectations is replaced by it.
type configCase struct {
	name         string
	svc          *Service
	client, call *Options
	env          map[string]string
	home         map[string]string
	noHome       bool // the home directory is unknown
}

// setup writes the case's files and returns its Env and the home directory.
func (c configCase) setup(t *testing.T) (Env, string) {
	home := t.TempDir()
	for rel, content := range c.home {
		writeFile(t, home, rel, content)
	}
	vars := map[string]string{}
	for k, v := range c.env {
		vars[k] = strings.ReplaceAll(v, "$HOME", home)
	}
	if c.noHome {
		return mapEnv(vars, ""), home
	}
	return mapEnv(vars, home), home
}

func (c configCase) resolve(t *testing.T) (Settings, string, error) {
	env, home := c.setup(t)
	svc := c.svc
	if svc == nil {
		svc = awsService
	}
	s, err := resolveSettings(svc, c.client, c.call, env)
	return s, home, err
}

const fileBoth = "[default]\nretry_mode = legacy\nmax_attempts = 7\n"

func TestResolveSettingsPrecedence(t *testing.T) {
	everything := map[string]string{"AWS_RETRY_MODE": "adaptive", "AWS_MAX_ATTEMPTS": "6"}
	tests := []struct {
		configCase
		wantMode, wantModeSource string
		wantMax                  int
		wantMaxSource            string
	}{
		{
			configCase: configCase{name: "global defaults: standard mode, 3 max attempts"},
			wantMode:   "standard", wantModeSource: "retry mode (global default)",
			wantMax: 3, wantMaxSource: "max attempts in standard mode (global default)",
		},
		{
			configCase: configCase{name: "global max attempts follow the resolved mode: legacy 5",
				env: map[string]string{"AWS_RETRY_MODE": "legacy"}},
			wantMode: "legacy", wantModeSource: "AWS_RETRY_MODE (environment)",
			wantMax: 5, wantMaxSource: "max attempts in legacy mode (global default)",
		},
		{
			configCase: configCase{name: "global max attempts follow the resolved mode: aliyun 4 (3 retries + 1)",
				env: map[string]string{"AWS_RETRY_MODE": "aliyun"}},
			wantMode: "aliyun", wantModeSource: "AWS_RETRY_MODE (environment)",
			wantMax: 4, wantMaxSource: "max attempts in aliyun mode (global default)",
		},
		{
			configCase: configCase{name: "global max attempts follow the resolved mode: adaptive 3",
				env: map[string]string{"AWS_RETRY_MODE": "adaptive"}},
			wantMode: "adaptive", wantModeSource: "AWS_RETRY_MODE (environment)",
			wantMax: 3, wantMaxSource: "max attempts in adaptive mode (global default)",
		},
		{
			configCase: configCase{name: "AWS_MAX_ATTEMPTS=0 is unset, as in aws-sdk-go-v2: the config file decides",
				env: map[string]string{"AWS_MAX_ATTEMPTS": "0"}, home: map[string]string{".aws/config": fileBoth}},
			wantMode: "legacy", wantModeSource: "retry_mode (config file $HOME/.aws/config [default])",
			wantMax: 7, wantMaxSource: "max_attempts (config file $HOME/.aws/config [default])",
		},
		{
			configCase: configCase{name: "AWS_MAX_ATTEMPTS=00 and max_attempts = 0 are unset: the global default decides",
				env: map[string]string{"AWS_MAX_ATTEMPTS": "00"}, home: map[string]string{".aws/config": "[default]\nmax_attempts = 0\n"}},
			wantMode: "standard", wantModeSource: "retry mode (global default)",
			wantMax: 3, wantMaxSource: "max attempts in standard mode (global default)",
		},
		{
			configCase: configCase{name: "an inline comment after whitespace is cut: max_attempts = 6 # comment",
				home: map[string]string{".aws/config": "[default] ; the default profile\nretry_mode = legacy\t; why\nmax_attempts = 6 # six\n"}},
			wantMode: "legacy", wantModeSource: "retry_mode (config file $HOME/.aws/config [default])",
			wantMax: 6, wantMaxSource: "max_attempts (config file $HOME/.aws/config [default])",
		},
		{
			configCase: configCase{name: "service default beats global default",
				svc: &Service{Name: "DynamoDB", EnvPrefix: "AWS", DefaultMode: ModeAdaptive, Defaults: ModeDefaults{MaxAttempts: 4}}},
			wantMode: "adaptive", wantModeSource: "mode (service default x-retry of DynamoDB)",
			wantMax: 4, wantMaxSource: "maxAttempts (service default x-retry of DynamoDB)",
		},
		{
			configCase: configCase{name: "per-mode service default beats Defaults: DynamoDB-like legacy 10",
				svc: dynamoLike, env: map[string]string{"AWS_RETRY_MODE": "legacy"}},
			wantMode: "legacy", wantModeSource: "AWS_RETRY_MODE (environment)",
			wantMax: 10, wantMaxSource: "modes.legacy.maxAttempts (service default x-retry of DynamoDB)",
		},
		{
			configCase: configCase{name: "per-mode service default applies to its mode only: DynamoDB-like standard 4",
				svc: dynamoLike},
			wantMode: "standard", wantModeSource: "retry mode (global default)",
			wantMax: 4, wantMaxSource: "maxAttempts (service default x-retry of DynamoDB)",
		},
		{
			configCase: configCase{name: "config file beats service default",
				svc:  &Service{Name: "DynamoDB", EnvPrefix: "AWS", DefaultMode: ModeAdaptive, Defaults: ModeDefaults{MaxAttempts: 4}},
				home: map[string]string{".aws/config": fileBoth}},
			wantMode: "legacy", wantModeSource: "retry_mode (config file $HOME/.aws/config [default])",
			wantMax: 7, wantMaxSource: "max_attempts (config file $HOME/.aws/config [default])",
		},
		{
			configCase: configCase{name: "environment beats config file",
				env: everything, home: map[string]string{".aws/config": fileBoth}},
			wantMode: "adaptive", wantModeSource: "AWS_RETRY_MODE (environment)",
			wantMax: 6, wantMaxSource: "AWS_MAX_ATTEMPTS (environment)",
		},
		{
			configCase: configCase{name: "§2 example: env adaptive with file standard gives adaptive",
				env:  map[string]string{"AWS_RETRY_MODE": "adaptive"},
				home: map[string]string{".aws/config": "[default]\nretry_mode = standard\nmax_attempts = 2\n"}},
			wantMode: "adaptive", wantModeSource: "AWS_RETRY_MODE (environment)",
			wantMax: 2, wantMaxSource: "max_attempts (config file $HOME/.aws/config [default])",
		},
		{
			configCase: configCase{name: "client option beats environment",
				client: &Options{RetryMode: ModeLegacy, MaxAttempts: 8},
				env:    everything, home: map[string]string{".aws/config": fileBoth}},
			wantMode: "legacy", wantModeSource: "RetryMode (client option)",
			wantMax: 8, wantMaxSource: "MaxAttempts (client option)",
		},
		{
			configCase: configCase{name: "call option beats client option: code over all",
				svc:    &Service{Name: "DynamoDB", EnvPrefix: "AWS", DefaultMode: ModeLegacy, Defaults: ModeDefaults{MaxAttempts: 4}},
				client: &Options{RetryMode: ModeLegacy, MaxAttempts: 8}, call: &Options{RetryMode: ModeAliyun, MaxAttempts: 9},
				env: everything, home: map[string]string{".aws/config": fileBoth}},
			wantMode: "aliyun", wantModeSource: "RetryMode (call option)",
			wantMax: 9, wantMaxSource: "MaxAttempts (call option)",
		},
		{
			configCase: configCase{name: "each setting is decided by its own highest level",
				client: &Options{MaxAttempts: 2}, home: map[string]string{".aws/config": fileBoth}},
			wantMode: "legacy", wantModeSource: "retry_mode (config file $HOME/.aws/config [default])",
			wantMax: 2, wantMaxSource: "MaxAttempts (client option)",
		},
		{
			configCase: configCase{name: "mode is case-insensitive and trimmed",
				env: map[string]string{"AWS_RETRY_MODE": " ADAPTIVE\t", "AWS_MAX_ATTEMPTS": " 4 "}},
			wantMode: "adaptive", wantModeSource: "AWS_RETRY_MODE (environment)",
			wantMax: 4, wantMaxSource: "AWS_MAX_ATTEMPTS (environment)",
		},
		{
			configCase: configCase{name: "mode in code is case-insensitive too",
				client: &Options{RetryMode: "Legacy"}},
			wantMode: "legacy", wantModeSource: "RetryMode (client option)",
			wantMax: 5, wantMaxSource: "max attempts in legacy mode (global default)",
		},
		{
			configCase: configCase{name: "blank environment variable is unset",
				env: map[string]string{"AWS_RETRY_MODE": "  ", "AWS_MAX_ATTEMPTS": ""}, home: map[string]string{".aws/config": fileBoth}},
			wantMode: "legacy", wantModeSource: "retry_mode (config file $HOME/.aws/config [default])",
			wantMax: 7, wantMaxSource: "max_attempts (config file $HOME/.aws/config [default])",
		},
		{
			configCase: configCase{name: "profile selected by AWS_PROFILE",
				env: map[string]string{"AWS_PROFILE": "dev"},
				home: map[string]string{".aws/config": fileBoth +
					"[profile dev]\nretry_mode = adaptive\nmax_attempts = 9\n[profile prod]\nmax_attempts = 2\n"}},
			wantMode: "adaptive", wantModeSource: "retry_mode (config file $HOME/.aws/config [profile dev])",
			wantMax: 9, wantMaxSource: "max_attempts (config file $HOME/.aws/config [profile dev])",
		},
		{
			configCase: configCase{name: "default profile not in the file is an absent level",
				home: map[string]string{".aws/config": "[profile dev]\nretry_mode = legacy\n"}},
			wantMode: "standard", wantModeSource: "retry mode (global default)",
			wantMax: 3, wantMaxSource: "max attempts in standard mode (global default)",
		},
		{
			configCase: configCase{name: "AWS_PROFILE=default missing from the file is an absent level",
				env: map[string]string{"AWS_PROFILE": "default"}, home: map[string]string{".aws/config": "[profile dev]\nretry_mode = legacy\n"}},
			wantMode: "standard", wantModeSource: "retry mode (global default)",
			wantMax: 3, wantMaxSource: "max attempts in standard mode (global default)",
		},
		{
			configCase: configCase{name: "selected profile only in the credentials file is an absent level",
				env:  map[string]string{"AWS_PROFILE": "ci"},
				home: map[string]string{".aws/config": fileBoth, ".aws/credentials": "[ci]\naws_access_key_id = x\n"}},
			wantMode: "standard", wantModeSource: "retry mode (global default)",
			wantMax: 3, wantMaxSource: "max attempts in standard mode (global default)",
		},
		{
			configCase: configCase{name: "credentials file named by AWS_SHARED_CREDENTIALS_FILE",
				env:  map[string]string{"AWS_PROFILE": "ci", "AWS_SHARED_CREDENTIALS_FILE": "$HOME/creds"},
				home: map[string]string{".aws/config": fileBoth, "creds": "[ci]\n"}},
			wantMode: "standard", wantModeSource: "retry mode (global default)",
			wantMax: 3, wantMaxSource: "max attempts in standard mode (global default)",
		},
		{
			configCase: configCase{name: "[profile default] is the default profile; later section wins per key",
				home: map[string]string{".aws/config": "[profile default]\nretry_mode = adaptive\nmax_attempts = 2\n[default]\nmax_attempts = 6\n"}},
			wantMode: "adaptive", wantModeSource: "retry_mode (config file $HOME/.aws/config [profile default])",
			wantMax: 6, wantMaxSource: "max_attempts (config file $HOME/.aws/config [default])",
		},
		{
			configCase: configCase{name: "sections are case-sensitive",
				home: map[string]string{".aws/config": "[Default]\nretry_mode = legacy\n"}},
			wantMode: "standard", wantModeSource: "retry mode (global default)",
			wantMax: 3, wantMaxSource: "max attempts in standard mode (global default)",
		},
		{
			configCase: configCase{name: "config file keys are case-insensitive; comments, blanks, whitespace; later duplicate wins",
				home: map[string]string{".aws/config": "# comment\n; comment\n\n  [default]  \n  Retry_Mode   =   adaptive  \nmax_attempts=2\nMAX_ATTEMPTS = 5\n"}},
			wantMode: "adaptive", wantModeSource: "retry_mode (config file $HOME/.aws/config [default])",
			wantMax: 5, wantMaxSource: "max_attempts (config file $HOME/.aws/config [default])",
		},
		{
			configCase: configCase{name: "AWS_CONFIG_FILE replaces the default path",
				env: map[string]string{"AWS_CONFIG_FILE": "$HOME/other.ini"},
				home: map[string]string{".aws/config": fileBoth,
					"other.ini": "[default]\nretry_mode = aliyun\n"}},
			wantMode: "aliyun", wantModeSource: "retry_mode (config file $HOME/other.ini [default])",
			wantMax: 4, wantMaxSource: "max attempts in aliyun mode (global default)",
		},
		{
			configCase: configCase{name: "~/ in AWS_CONFIG_FILE is the home directory",
				env:  map[string]string{"AWS_CONFIG_FILE": "~/cfg/retry"},
				home: map[string]string{"cfg/retry": "[default]\nmax_attempts = 2\n"}},
			wantMode: "standard", wantModeSource: "retry mode (global default)",
			wantMax: 2, wantMaxSource: "max_attempts (config file $HOME/cfg/retry [default])",
		},
		{
			configCase: configCase{name: "missing config file is an absent level",
				env: map[string]string{"AWS_CONFIG_FILE": "$HOME/nope"}},
			wantMode: "standard", wantModeSource: "retry mode (global default)",
			wantMax: 3, wantMaxSource: "max attempts in standard mode (global default)",
		},
		{
			configCase: configCase{name: "unknown home directory skips the default config file",
				noHome: true, home: map[string]string{".aws/config": fileBoth}},
			wantMode: "standard", wantModeSource: "retry mode (global default)",
			wantMax: 3, wantMaxSource: "max attempts in standard mode (global default)",
		},
		{
			configCase: configCase{name: "prefix names the variables and the default path lower-cased",
				svc: &Service{EnvPrefix: "MYSVC"},
				env: map[string]string{"MYSVC_RETRY_MODE": "legacy", "AWS_MAX_ATTEMPTS": "6"},
				home: map[string]string{".mysvc/config": "[default]\nmax_attempts = 2\n",
					".aws/config": fileBoth}},
			wantMode: "legacy", wantModeSource: "MYSVC_RETRY_MODE (environment)",
			wantMax: 2, wantMaxSource: "max_attempts (config file $HOME/.mysvc/config [default])",
		},
		{
			configCase: configCase{name: "service without a name is x-retry",
				svc: &Service{EnvPrefix: "AWS", DefaultMode: ModeLegacy}},
			wantMode: "legacy", wantModeSource: "mode (service default x-retry)",
			wantMax: 5, wantMaxSource: "max attempts in legacy mode (global default)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, home, err := tt.resolve(t)
			require.NoError(t, err)
			expand := func(s string) string { return strings.ReplaceAll(s, "$HOME", home) }
			require.Equal(t, Mode(tt.wantMode), s.Mode.Value)
			require.Equal(t, expand(tt.wantModeSource), s.Mode.Source.String())
			require.Equal(t, tt.wantMax, s.MaxAttempts.Value)
			require.Equal(t, expand(tt.wantMaxSource), s.MaxAttempts.Source.String())
		})
	}
}

func TestResolveSettingsSourceFields(t *testing.T) {
	c := configCase{env: map[string]string{"AWS_PROFILE": "dev", "AWS_MAX_ATTEMPTS": "6"},
		home: map[string]string{".aws/config": "[profile dev]\nretry_mode = adaptive\n"}}
	s, home, err := c.resolve(t)
	require.NoError(t, err)
	require.Equal(t, Settings{
		Mode: engine.Setting[Mode]{Value: ModeAdaptive, Source: engine.Source{
			Level: engine.LevelConfigFile, Name: "retry_mode", Location: filepath.Join(home, ".aws/config") + " [profile dev]"}},
		MaxAttempts: engine.Setting[int]{Value: 6, Source: engine.Source{Level: engine.LevelEnvironment, Name: "AWS_MAX_ATTEMPTS"}},
	}, s)
}

func TestResolveSettingsEmptyPrefixSkipsEnvironmentAndFile(t *testing.T) {
	env := Env{
		Lookup:  func(k string) (string, bool) { t.Fatalf("environment read: %s", k); return "", false },
		HomeDir: func() (string, error) { t.Fatal("home directory read"); return "", nil },
	}
	s, err := resolveSettings(&Service{DefaultMode: ModeLegacy}, nil, nil, env)
	require.NoError(t, err)
	require.Equal(t, "mode (service default x-retry)", s.Mode.Source.String())
	require.Equal(t, 5, s.MaxAttempts.Value)
}

func TestResolveSettingsDoesNotReadFileWhenDecided(t *testing.T) {
	tests := []configCase{
		{name: "env decides both: malformed file is not read",
			env:  map[string]string{"AWS_RETRY_MODE": "legacy", "AWS_MAX_ATTEMPTS": "2"},
			home: map[string]string{".aws/config": "garbage\n"}},
		{name: "client and env decide both: malformed file is not read",
			client: &Options{MaxAttempts: 2}, env: map[string]string{"AWS_RETRY_MODE": "legacy"},
			home: map[string]string{".aws/config": "garbage\n"}},
		{name: "code decides both: home directory is not even asked",
			client: &Options{RetryMode: ModeLegacy}, call: &Options{MaxAttempts: 2}, noHome: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, _ := tt.setup(t)
			env.HomeDir = func() (string, error) { t.Fatal("home directory read"); return "", nil }
			s, err := resolveSettings(awsService, tt.client, tt.call, env)
			require.NoError(t, err)
			require.Equal(t, ModeLegacy, s.Mode.Value)
			require.Equal(t, 2, s.MaxAttempts.Value)
		})
	}
}

func TestResolveSettingsErrors(t *testing.T) {
	tests := []struct {
		configCase
		want        string // exact error text; $HOME is the home directory
		wantSetting string // ConfigError.Setting; "" for other error types
		wantValue   any
		wantLevel   engine.Level
	}{
		{configCase: configCase{name: "invalid max attempts in the environment",
			env: map[string]string{"AWS_MAX_ATTEMPTS": "-1"}},
			want:        `AWS_MAX_ATTEMPTS="-1" (environment): must be an integer ≥ 1`,
			wantSetting: "max attempts", wantValue: "-1", wantLevel: engine.LevelEnvironment},
		{configCase: configCase{name: "a '#' not after whitespace is part of the value",
			home: map[string]string{".aws/config": "[default]\nmax_attempts = 6#7\n"}},
			want:        `max_attempts="6#7" (config file $HOME/.aws/config [default]): must be an integer ≥ 1`,
			wantSetting: "max attempts", wantValue: "6#7", wantLevel: engine.LevelConfigFile},
		{configCase: configCase{name: "non-integer max attempts in the environment",
			env: map[string]string{"AWS_MAX_ATTEMPTS": "1.5"}},
			want:        `AWS_MAX_ATTEMPTS="1.5" (environment): must be an integer ≥ 1`,
			wantSetting: "max attempts", wantValue: "1.5", wantLevel: engine.LevelEnvironment},
		{configCase: configCase{name: "overflowing max attempts in the environment",
			env: map[string]string{"AWS_MAX_ATTEMPTS": "99999999999999999999"}},
			want:        `AWS_MAX_ATTEMPTS="99999999999999999999" (environment): must be an integer ≥ 1`,
			wantSetting: "max attempts", wantValue: "99999999999999999999", wantLevel: engine.LevelEnvironment},
		{configCase: configCase{name: "invalid mode in the environment",
			env: map[string]string{"AWS_RETRY_MODE": "fast"}},
			want:        `AWS_RETRY_MODE="fast" (environment): must be one of standard, adaptive, legacy, aliyun`,
			wantSetting: "retry mode", wantValue: "fast", wantLevel: engine.LevelEnvironment},
		{configCase: configCase{name: "invalid max attempts in the config file",
			env:  map[string]string{"AWS_PROFILE": "dev", "AWS_CONFIG_FILE": "$HOME/config"},
			home: map[string]string{"config": "[profile dev]\nmax_attempts = x\n"}},
			want:        `max_attempts="x" (config file $HOME/config [profile dev]): must be an integer ≥ 1`,
			wantSetting: "max attempts", wantValue: "x", wantLevel: engine.LevelConfigFile},
		{configCase: configCase{name: "invalid mode in the config file",
			home: map[string]string{".aws/config": "[default]\nretry_mode = standard#comment # a comment\n"}},
			want:        `retry_mode="standard#comment" (config file $HOME/.aws/config [default]): must be one of standard, adaptive, legacy, aliyun`,
			wantSetting: "retry mode", wantValue: "standard#comment", wantLevel: engine.LevelConfigFile},
		{configCase: configCase{name: "invalid max attempts in client options",
			client: &Options{MaxAttempts: -1}},
			want:        `MaxAttempts=-1 (client option): must be an integer ≥ 1`,
			wantSetting: "max attempts", wantValue: -1, wantLevel: engine.LevelClientOption},
		{configCase: configCase{name: "invalid mode in client options",
			client: &Options{RetryMode: "fast"}},
			want:        `RetryMode="fast" (client option): must be one of standard, adaptive, legacy, aliyun`,
			wantSetting: "retry mode", wantValue: "fast", wantLevel: engine.LevelClientOption},
		{configCase: configCase{name: "invalid max attempts in call options",
			call: &Options{MaxAttempts: -2}},
			want:        `MaxAttempts=-2 (call option): must be an integer ≥ 1`,
			wantSetting: "max attempts", wantValue: -2, wantLevel: engine.LevelCallOption},
		{configCase: configCase{name: "invalid mode in call options",
			call: &Options{RetryMode: "Turbo"}},
			want:        `RetryMode="Turbo" (call option): must be one of standard, adaptive, legacy, aliyun`,
			wantSetting: "retry mode", wantValue: "Turbo", wantLevel: engine.LevelCallOption},
		{configCase: configCase{name: "invalid default mode in the spec",
			svc: &Service{Name: "DynamoDB", EnvPrefix: "AWS", DefaultMode: "fast"}},
			want:        `mode="fast" (service default x-retry of DynamoDB): must be one of standard, adaptive, legacy, aliyun`,
			wantSetting: "retry mode", wantValue: "fast", wantLevel: engine.LevelServiceDefault},
		{configCase: configCase{name: "invalid default max attempts in the spec",
			svc: &Service{Name: "DynamoDB", EnvPrefix: "AWS", Defaults: ModeDefaults{MaxAttempts: -3}}},
			want:        `maxAttempts=-3 (service default x-retry of DynamoDB): must be an integer ≥ 1`,
			wantSetting: "max attempts", wantValue: -3, wantLevel: engine.LevelServiceDefault},
		{configCase: configCase{name: "invalid per-mode max attempts in the spec",
			svc: &Service{Name: "DynamoDB", EnvPrefix: "AWS", PerMode: map[Mode]ModeDefaults{ModeLegacy: {MaxAttempts: -1}}},
			env: map[string]string{"AWS_RETRY_MODE": "legacy"}},
			want:        `modes.legacy.maxAttempts=-1 (service default x-retry of DynamoDB): must be an integer ≥ 1`,
			wantSetting: "max attempts", wantValue: -1, wantLevel: engine.LevelServiceDefault},
		{configCase: configCase{name: "profile selected by AWS_PROFILE missing from the config file",
			env: map[string]string{"AWS_PROFILE": "nope"}, home: map[string]string{".aws/config": fileBoth}},
			want:        `AWS_PROFILE="nope" (environment): no [profile nope] section in $HOME/.aws/config`,
			wantSetting: "profile", wantValue: "nope", wantLevel: engine.LevelEnvironment},
		{configCase: configCase{name: "[profile dev] is not read as [dev]",
			env: map[string]string{"AWS_PROFILE": "dev"}, home: map[string]string{".aws/config": "[dev]\nretry_mode = legacy\n"}},
			want:        `AWS_PROFILE="dev" (environment): no [profile dev] section in $HOME/.aws/config`,
			wantSetting: "profile", wantValue: "dev", wantLevel: engine.LevelEnvironment},
		{configCase: configCase{name: "selected profile missing from the config and credentials files",
			env:  map[string]string{"AWS_PROFILE": "nope", "AWS_CONFIG_FILE": "$HOME/cfg"},
			home: map[string]string{"cfg": fileBoth, ".aws/credentials": "[dev]\n"}},
			want:        `AWS_PROFILE="nope" (environment): no [profile nope] section in $HOME/cfg, no [nope] section in $HOME/.aws/credentials`,
			wantSetting: "profile", wantValue: "nope", wantLevel: engine.LevelEnvironment},
		{configCase: configCase{name: "selected profile with no config file",
			env: map[string]string{"AWS_PROFILE": "nope"}},
			want:        `AWS_PROFILE="nope" (environment): no [profile nope] section in $HOME/.aws/config (no such file)`,
			wantSetting: "profile", wantValue: "nope", wantLevel: engine.LevelEnvironment},
		{configCase: configCase{name: "malformed config file line names path and line",
			home: map[string]string{".aws/config": "[default]\nretry_mode = standard\nmax_attempts\n"}},
			want: `$HOME/.aws/config:3: expected "key = value"`},
		{configCase: configCase{name: "malformed line in another profile still fails the file",
			home: map[string]string{".aws/config": "[default]\nretry_mode = standard\n[profile x\n"}},
			want: `$HOME/.aws/config:3: expected "[section]"`},
		{configCase: configCase{name: "~/ config path with unknown home directory",
			env: map[string]string{"AWS_CONFIG_FILE": "~/config"}, noHome: true},
			want: `AWS_CONFIG_FILE="~/config": expanding ~: $HOME is not defined`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, home, err := tt.resolve(t)
			require.Error(t, err)
			want := tt.want
			if !tt.noHome {
				want = strings.ReplaceAll(want, "$HOME", home)
			}
			require.Equal(t, want, err.Error())
			var ce *ConfigError
			if tt.wantSetting == "" {
				require.False(t, errors.As(err, &ce), "not a *ConfigError")
				return
			}
			require.ErrorAs(t, err, &ce)
			require.Equal(t, tt.wantSetting, ce.Setting)
			require.Equal(t, tt.wantValue, ce.Value)
			require.Equal(t, tt.wantLevel, ce.Source.Level)
		})
	}
}

func TestResolveSettingsMalformedFileIsIniSyntaxError(t *testing.T) {
	c := configCase{home: map[string]string{".aws/config": "[default]\n\nretry_mode\n"}}
	_, home, err := c.resolve(t)
	var se *IniSyntaxError
	require.ErrorAs(t, err, &se)
	require.Equal(t, IniSyntaxError{Path: filepath.Join(home, ".aws/config"), Line: 3, Reason: `expected "key = value"`}, *se)
}

func TestResolveSettingsUnreadableFile(t *testing.T) {
	c := configCase{env: map[string]string{"AWS_CONFIG_FILE": "$HOME/dir"}, home: map[string]string{"dir/x": ""}}
	_, home, err := c.resolve(t)
	var pe *fs.PathError
	require.ErrorAs(t, err, &pe)
	require.Equal(t, filepath.Join(home, "dir"), pe.Path)
}

func TestResolveSettingsShadowedInvalidValueNotReported(t *testing.T) {
	tests := []struct {
		configCase
		wantMode Mode
		wantMax  int
	}{
		{configCase: configCase{name: "invalid env max attempts shadowed by client option",
			client: &Options{MaxAttempts: 5}, env: map[string]string{"AWS_MAX_ATTEMPTS": "-1"}},
			wantMode: ModeStandard, wantMax: 5},
		{configCase: configCase{name: "invalid client options shadowed by call options",
			client: &Options{RetryMode: "fast", MaxAttempts: -1}, call: &Options{RetryMode: ModeLegacy, MaxAttempts: 2}},
			wantMode: ModeLegacy, wantMax: 2},
		{configCase: configCase{name: "invalid file mode shadowed by environment",
			env:  map[string]string{"AWS_RETRY_MODE": "adaptive"},
			home: map[string]string{".aws/config": "[default]\nretry_mode = fast\nmax_attempts = 2\n"}},
			wantMode: ModeAdaptive, wantMax: 2},
		{configCase: configCase{name: "invalid value in an inactive profile is not checked",
			home: map[string]string{".aws/config": "[default]\nmax_attempts = 2\n[profile dev]\nmax_attempts = x\n"}},
			wantMode: ModeStandard, wantMax: 2},
		{configCase: configCase{name: "invalid spec defaults shadowed by config file",
			svc:  &Service{EnvPrefix: "AWS", DefaultMode: "fast", Defaults: ModeDefaults{MaxAttempts: -1}},
			home: map[string]string{".aws/config": fileBoth}},
			wantMode: ModeLegacy, wantMax: 7},
		{configCase: configCase{name: "invalid per-mode default of another mode is not checked",
			svc: &Service{EnvPrefix: "AWS", PerMode: map[Mode]ModeDefaults{ModeLegacy: {MaxAttempts: -1}}}},
			wantMode: ModeStandard, wantMax: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, err := tt.resolve(t)
			require.NoError(t, err)
			require.Equal(t, tt.wantMode, s.Mode.Value)
			require.Equal(t, tt.wantMax, s.MaxAttempts.Value)
		})
	}
}

func TestSettingsWithCall(t *testing.T) {
	env := mapEnv(map[string]string{"AWS_RETRY_MODE": "adaptive"}, "")
	tests := []struct {
		name                    string
		svc                     *Service
		client, call            *Options
		env                     Env
		wantModeSource, wantMax string
		wantMode                Mode
		wantMaxAttempts         int
	}{
		{name: "nil call keeps the client's settings",
			svc: dynamoLike, client: &Options{RetryMode: ModeLegacy},
			wantMode: ModeLegacy, wantModeSource: "RetryMode (client option)",
			wantMaxAttempts: 10, wantMax: "modes.legacy.maxAttempts (service default x-retry of DynamoDB)"},
		{name: "call equal to the client's options keeps client sources",
			svc: dynamoLike, client: &Options{RetryMode: ModeLegacy, MaxAttempts: 6}, call: &Options{RetryMode: ModeLegacy, MaxAttempts: 6},
			wantMode: ModeLegacy, wantModeSource: "RetryMode (client option)",
			wantMaxAttempts: 6, wantMax: "MaxAttempts (client option)"},
		{name: "call max attempts beats client option",
			svc: dynamoLike, client: &Options{MaxAttempts: 6}, call: &Options{MaxAttempts: 2},
			wantMode: ModeStandard, wantModeSource: "retry mode (global default)",
			wantMaxAttempts: 2, wantMax: "MaxAttempts (call option)"},
		{name: "call mode change takes the new mode's per-mode service default",
			svc: dynamoLike, call: &Options{RetryMode: ModeLegacy},
			wantMode: ModeLegacy, wantModeSource: "RetryMode (call option)",
			wantMaxAttempts: 10, wantMax: "modes.legacy.maxAttempts (service default x-retry of DynamoDB)"},
		{name: "call mode change takes the new mode's global default",
			svc: awsService, call: &Options{RetryMode: ModeAliyun},
			wantMode: ModeAliyun, wantModeSource: "RetryMode (call option)",
			wantMaxAttempts: 4, wantMax: "max attempts in aliyun mode (global default)"},
		{name: "call mode change keeps max attempts from the client option",
			svc: dynamoLike, client: &Options{MaxAttempts: 6}, call: &Options{RetryMode: ModeLegacy},
			wantMode: ModeLegacy, wantModeSource: "RetryMode (call option)",
			wantMaxAttempts: 6, wantMax: "MaxAttempts (client option)"},
		{name: "call mode beats environment mode",
			svc: awsService, env: env, call: &Options{RetryMode: "STANDARD"},
			wantMode: ModeStandard, wantModeSource: "RetryMode (call option)",
			wantMaxAttempts: 3, wantMax: "max attempts in standard mode (global default)"},
		{name: "call repeating the environment's mode is a call option",
			svc: awsService, env: env, call: &Options{RetryMode: ModeAdaptive},
			wantMode: ModeAdaptive, wantModeSource: "RetryMode (call option)",
			wantMaxAttempts: 3, wantMax: "max attempts in adaptive mode (global default)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := tt.env
			if e.Lookup == nil {
				e = mapEnv(nil, "")
			}
			base, err := resolveSettings(tt.svc, tt.client, nil, e)
			require.NoError(t, err)
			s, err := base.WithCall(tt.svc, tt.call)
			require.NoError(t, err)
			require.Equal(t, tt.wantMode, s.Mode.Value)
			require.Equal(t, tt.wantModeSource, s.Mode.Source.String())
			require.Equal(t, tt.wantMaxAttempts, s.MaxAttempts.Value)
			require.Equal(t, tt.wantMax, s.MaxAttempts.Source.String())
		})
	}
}

func TestSettingsWithCallErrors(t *testing.T) {
	tests := []struct {
		name string
		svc  *Service
		call *Options
		want string
	}{
		{name: "invalid call max attempts", svc: awsService, call: &Options{MaxAttempts: -1},
			want: `MaxAttempts=-1 (call option): must be an integer ≥ 1`},
		{name: "invalid call mode", svc: awsService, call: &Options{RetryMode: "fast"},
			want: `RetryMode="fast" (call option): must be one of standard, adaptive, legacy, aliyun`},
		{name: "call mode change reaches an invalid per-mode default",
			svc:  &Service{Name: "S", PerMode: map[Mode]ModeDefaults{ModeLegacy: {MaxAttempts: -1}}},
			call: &Options{RetryMode: ModeLegacy},
			want: `modes.legacy.maxAttempts=-1 (service default x-retry of S): must be an integer ≥ 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, err := resolveSettings(tt.svc, nil, nil, mapEnv(nil, ""))
			require.NoError(t, err)
			_, err = base.WithCall(tt.svc, tt.call)
			var ce *ConfigError
			require.ErrorAs(t, err, &ce)
			require.Equal(t, tt.want, err.Error())
		})
	}
}

func TestSettingsWithCallAllocatesNothing(t *testing.T) {
	client := &Options{RetryMode: ModeLegacy, MaxAttempts: 6}
	base, err := resolveSettings(dynamoLike, client, nil, mapEnv(nil, ""))
	require.NoError(t, err)
	for name, call := range map[string]*Options{
		"nil call":                nil,
		"call sets nothing":       {},
		"call repeats the client": {RetryMode: ModeLegacy, MaxAttempts: 6},
		"call sets max attempts":  {MaxAttempts: 2},
		"call sets the same mode": {RetryMode: "LEGACY"},
	} {
		allocs := testing.AllocsPerRun(100, func() { _, _ = base.WithCall(dynamoLike, call) })
		require.Zero(t, allocs, name)
	}
}

func TestPolicyParams(t *testing.T) {
	tests := []struct {
		name string
		svc  *Service
		mode Mode
		max  int
		opts *Options
		want ModeParams
	}{
		{name: "standard: §5 full jitter, 50 ms / 1,000 ms, max backoff 20 s, quota",
			mode: ModeStandard, max: 3,
			want: ModeParams{Mode: ModeStandard, MaxAttempts: 3, TransientBaseDelay: 50 * time.Millisecond, ThrottlingBaseDelay: time.Second,
				MaxBackoff: 20 * time.Second, Jitter: JitterFull, UsesQuota: true}},
		{name: "adaptive: standard plus the rate limiter (§1)",
			mode: ModeAdaptive, max: 3,
			want: ModeParams{Mode: ModeAdaptive, MaxAttempts: 3, TransientBaseDelay: 50 * time.Millisecond, ThrottlingBaseDelay: time.Second,
				MaxBackoff: 20 * time.Second, Jitter: JitterFull, UsesQuota: true, UsesLimiter: true}},
		{name: "legacy: §1 base 1 s for both classes, full jitter, no quota",
			mode: ModeLegacy, max: 5,
			want: ModeParams{Mode: ModeLegacy, MaxAttempts: 5, TransientBaseDelay: time.Second, ThrottlingBaseDelay: time.Second,
				MaxBackoff: 20 * time.Second, Jitter: JitterFull}},
		{name: "aliyun: §5/§8 base 100 ms, equal jitter, max delay 20 s, no quota",
			mode: ModeAliyun, max: 4,
			want: ModeParams{Mode: ModeAliyun, MaxAttempts: 4, TransientBaseDelay: 100 * time.Millisecond, ThrottlingBaseDelay: 100 * time.Millisecond,
				MaxBackoff: 20 * time.Second, Jitter: JitterEqual}},
		{name: "DynamoDB-like standard: Defaults override transient base 25 ms (§7)",
			svc: dynamoLike, mode: ModeStandard, max: 4,
			want: ModeParams{Mode: ModeStandard, MaxAttempts: 4, TransientBaseDelay: 25 * time.Millisecond, ThrottlingBaseDelay: time.Second,
				MaxBackoff: 20 * time.Second, Jitter: JitterFull, UsesQuota: true}},
		{name: "DynamoDB-like legacy: PerMode overrides Defaults: 50 ms, no jitter (§1)",
			svc: dynamoLike, mode: ModeLegacy, max: 10,
			want: ModeParams{Mode: ModeLegacy, MaxAttempts: 10, TransientBaseDelay: 50 * time.Millisecond, ThrottlingBaseDelay: 50 * time.Millisecond,
				MaxBackoff: 20 * time.Second, Jitter: JitterNone}},
		{name: "service max backoff then Options.MaxBackoff override last",
			svc: &Service{Defaults: ModeDefaults{MaxBackoff: 5 * time.Second}}, mode: ModeStandard, max: 3,
			opts: &Options{MaxBackoff: 500 * time.Millisecond},
			want: ModeParams{Mode: ModeStandard, MaxAttempts: 3, TransientBaseDelay: 50 * time.Millisecond, ThrottlingBaseDelay: time.Second,
				MaxBackoff: 500 * time.Millisecond, Jitter: JitterFull, UsesQuota: true}},
		{name: "service max backoff applies when options leave it unset",
			svc: &Service{PerMode: map[Mode]ModeDefaults{ModeAliyun: {MaxBackoff: 3 * time.Second}}}, mode: ModeAliyun, max: 4,
			opts: &Options{},
			want: ModeParams{Mode: ModeAliyun, MaxAttempts: 4, TransientBaseDelay: 100 * time.Millisecond, ThrottlingBaseDelay: 100 * time.Millisecond,
				MaxBackoff: 3 * time.Second, Jitter: JitterEqual}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Settings{Mode: engine.Setting[Mode]{Value: tt.mode}, MaxAttempts: engine.Setting[int]{Value: tt.max}}
			svc := tt.svc
			if svc == nil {
				svc = &Service{}
			}
			require.Equal(t, tt.want, resolvePolicy(s, svc, nil, tt.opts, nil).Params)
		})
	}
}

func BenchmarkSettingsWithCall(b *testing.B) {
	client := &Options{RetryMode: ModeLegacy, MaxAttempts: 6}
	base, err := resolveSettings(dynamoLike, client, nil, mapEnv(nil, ""))
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		call *Options
	}{
		{"nil call", nil},
		{"call repeats the client", &Options{RetryMode: ModeLegacy, MaxAttempts: 6}},
		{"call sets max attempts", &Options{MaxAttempts: 2}},
		{"call changes mode", &Options{RetryMode: ModeStandard}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := base.WithCall(dynamoLike, bc.call); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkResolvePolicy(b *testing.B) {
	s, err := resolveSettings(dynamoLike, &Options{RetryMode: ModeLegacy}, nil, mapEnv(nil, ""))
	if err != nil {
		b.Fatal(err)
	}
	opts := &Options{MaxBackoff: time.Second}
	b.ReportAllocs()
	for b.Loop() {
		_ = resolvePolicy(s, dynamoLike, nil, opts, nil)
	}
}

func TestNewClientMissingSelectedProfileIsConfigError(t *testing.T) {
	// As aws-sdk-go-v2's config.LoadDefaultConfig fails with
	// SharedConfigProfileNotExistError when AWS_PROFILE names a profile no
	// file holds, NewClient fails; the default profile may be missing.
	home := t.TempDir()
	cfg := writeFile(t, home, "config", "[default]\nretry_mode = legacy\n")
	t.Setenv("HOME", home)
	t.Setenv("AWS_CONFIG_FILE", cfg)
	t.Setenv("AWS_RETRY_MODE", "")
	t.Setenv("AWS_MAX_ATTEMPTS", "")
	t.Setenv("AWS_PROFILE", "nope")
	_, err := NewClient(awsService, "http://svc.test", Options{})
	var ce *ConfigError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, `AWS_PROFILE="nope" (environment): no [profile nope] section in `+cfg, err.Error())

	t.Setenv("AWS_PROFILE", "")
	c, err := NewClient(awsService, "http://svc.test", Options{})
	require.NoError(t, err)
	require.Equal(t, ModeLegacy, c.Settings().Mode.Value)
}
