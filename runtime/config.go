package runtime

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
)

// Settings are the resolved retry mode and max attempts of a client or of
// one call (retry-behavior.md §2). Max attempts counts the first attempt:
// 3 = one request + 2 retries.
type Settings struct {
	Mode        engine.Setting[Mode]
	MaxAttempts engine.Setting[int]
}

// The reasons a ConfigError gives.
const (
	reasonMaxAttempts = "must be an integer ≥ 1"
	reasonDuration    = "must be a duration ≥ 0"
)

// checkDurations refuses a negative MaxBackoff, AttemptTimeout or
// MaxServerDelay in o (options at level) with a *ConfigError, as a
// negative MaxAttempts is refused: their docs define 0 (the default, or
// none) and positive values only, and a negative one was taken as 0
// silently (newuser4 G8).
func checkDurations(o *Options, level engine.Level) error {
	for _, d := range [...]struct {
		setting, name string
		v             time.Duration
	}{
		{"max backoff", "MaxBackoff", o.MaxBackoff},
		{"attempt timeout", "AttemptTimeout", o.AttemptTimeout},
		{"max server delay", "MaxServerDelay", o.MaxServerDelay},
	} {
		if d.v < 0 {
			return &ConfigError{Setting: d.setting, Value: d.v, Source: engine.Source{Level: level, Name: d.name}, Reason: reasonDuration}
		}
	}
	return nil
}

// ConfigError reports an invalid retry mode or max attempts at the level
// that wins (retry-behavior.md §2), or a selected profile that does not
// exist. Error renders
// `AWS_MAX_ATTEMPTS="-1" (environment): must be an integer ≥ 1` or
// `MaxAttempts=-1 (client option): must be an integer ≥ 1`.
type ConfigError struct {
	// Setting is "retry mode", "max attempts", "max backoff", "attempt
	// timeout", "max server delay" (a negative Options duration), or
	// "profile" for a <PREFIX>_PROFILE naming a profile that no config or
	// credentials file defines.
	Setting string
	// Value is the value as found: a string for text (environment, config
	// file, Options.RetryMode, Service.DefaultMode), an int for a
	// MaxAttempts given in code or in the Service, a time.Duration for an
	// Options duration.
	Value any
	// Source is where the value was found.
	Source engine.Source
	// Reason says what a valid value is.
	Reason string
}

// Error renders NAME=VALUE (LEVEL LOCATION): REASON, quoting text values.
func (e *ConfigError) Error() string {
	v := fmt.Sprint(e.Value)
	if _, isText := e.Value.(string); isText {
		v = strconv.Quote(v)
	}
	return e.Source.Name + "=" + v + " (" + e.Source.Where() + "): " + e.Reason
}

// Env is the process environment as settings resolution sees it, injectable
// for tests. A nil Lookup means os.LookupEnv; a nil HomeDir means
// os.UserHomeDir, so the zero Env is the real process environment.
type Env struct {
	// Lookup returns an environment variable and whether it is set.
	Lookup func(key string) (string, bool)
	// HomeDir returns the user's home directory (for ~/.<prefix>/config).
	HomeDir func() (string, error)
}

// lookup returns the variable's trimmed value; set but blank counts as unset.
func (e Env) lookup(key string) (string, bool) {
	get := e.Lookup
	if get == nil {
		get = os.LookupEnv
	}
	v, ok := get(key)
	v = strings.TrimSpace(v)
	return v, ok && v != ""
}

// homeDir returns the user's home directory.
func (e Env) homeDir() (string, error) {
	if e.HomeDir == nil {
		return os.UserHomeDir()
	}
	return e.HomeDir()
}

// found is one setting's value as found at one level, before validation:
// text for the environment, the config file and Options.RetryMode, num for
// Options.MaxAttempts.
type found struct {
	set  bool
	text string
	num  int
	src  engine.Source
}

// layer is what one user-controlled level (levels 1 to 4 of §2) says about
// both settings.
type layer struct {
	mode, maxAttempts found
}

// resolveSettings resolves the retry mode, then max attempts, with the
// precedence of retry-behavior.md §2, highest first:
//  1. call (may be nil): Options.RetryMode, Options.MaxAttempts;
//  2. client (may be nil): the same fields; zero means not set;
//  3. the environment: <PREFIX>_RETRY_MODE, <PREFIX>_MAX_ATTEMPTS (blank
//     means unset);
//  4. the shared config file: keys retry_mode, max_attempts of the profile
//     named by <PREFIX>_PROFILE (default "default"; section [default] or
//     [profile default] for it, [profile NAME] for the others) in the file
//     named by <PREFIX>_CONFIG_FILE (a leading ~/ is the home directory;
//     default ~/.<prefix lower-cased>/config);
//  5. the service: Service.DefaultMode; Service.PerMode[mode].MaxAttempts,
//     else Service.Defaults.MaxAttempts, for the resolved mode;
//  6. the global defaults: standard mode; max attempts 3 in standard and
//     adaptive mode (§2), 5 in legacy mode (§1), 4 in aliyun mode (§8: 3
//     retries + the first attempt).
//
// An empty svc.EnvPrefix skips levels 3 and 4. Mode values are
// case-insensitive and trimmed; a blank variable or key counts as unset. The config file is read only when levels 1
// to 3 leave a setting undecided; a missing file, an unknown home directory
// or an absent default profile is a level that says nothing.
//
// Errors: a *ConfigError when the value of the level that wins is invalid
// (values shadowed by a higher level are not checked), or when the file is
// read and <PREFIX>_PROFILE names a profile other than "default" that
// neither it nor the shared credentials file defines (as aws-sdk-go-v2's
// SharedConfigProfileNotExistError; Setting "profile"); an *IniSyntaxError
// for a malformed config file line; the *fs.PathError of an unreadable
// config file; an error naming <PREFIX>_CONFIG_FILE when its ~/ cannot be
// expanded because the home directory is unknown.
func resolveSettings(svc *Service, client, call *Options, env Env) (Settings, error) {
	if svc == nil {
		svc = &Service{}
	}
	layers := []layer{
		optionsLayer(engine.LevelCallOption, call),
		optionsLayer(engine.LevelClientOption, client),
		envLayer(svc.EnvPrefix, env),
	}
	if svc.EnvPrefix != "" && !decided(layers) {
		l, err := configFileLayer(svc.EnvPrefix, env)
		if err != nil {
			return Settings{}, err
		}
		layers = append(layers, l)
	}
	var s Settings
	var err error
	if f, ok := first(layers, func(l layer) found { return l.mode }); ok {
		s.Mode, err = parseMode(f)
	} else {
		s.Mode, err = serviceMode(svc)
	}
	if err != nil {
		return Settings{}, err
	}
	if f, ok := first(layers, func(l layer) found { return l.maxAttempts }); ok {
		s.MaxAttempts, err = parseMaxAttempts(f)
	} else {
		s.MaxAttempts, err = defaultMaxAttempts(svc, s.Mode.Value)
	}
	if err != nil {
		return Settings{}, err
	}
	return s, nil
}

// WithCall applies one call's options (level 1 of §2) on top of settings
// resolved for the client, svc being the client's service. A call that
// changes the mode but not max attempts gets the new mode's service or
// global default max attempts, unless max attempts came from levels 2 to 4.
// A call value equal to a client option it would replace is the client
// option: Do may pass the client's Options with per-call changes applied.
//
// It allocates nothing when call is nil or sets nothing new. Errors: a
// *ConfigError for an invalid call value or, after a mode change, an
// invalid service default.
func (s Settings) WithCall(svc *Service, call *Options) (Settings, error) {
	if call == nil || !s.changedBy(call) {
		return s, nil
	}
	l := optionsLayer(engine.LevelCallOption, call)
	modeChanged := false
	if l.mode.set {
		m, err := parseMode(l.mode)
		if err != nil {
			return Settings{}, err
		}
		modeChanged = m.Value != s.Mode.Value
		if modeChanged || s.Mode.Source.Level != engine.LevelClientOption {
			s.Mode = m
		}
	}
	var err error
	switch {
	case l.maxAttempts.set:
		if l.maxAttempts.num != s.MaxAttempts.Value || s.MaxAttempts.Source.Level != engine.LevelClientOption {
			s.MaxAttempts, err = parseMaxAttempts(l.maxAttempts)
		}
	case modeChanged && s.MaxAttempts.Source.Level >= engine.LevelServiceDefault:
		s.MaxAttempts, err = defaultMaxAttempts(svc, s.Mode.Value)
	}
	if err != nil {
		return Settings{}, err
	}
	return s, nil
}

// changedBy reports whether call sets a retry mode or max attempts other
// than the client options that s already holds; it is WithCall's fast path.
func (s Settings) changedBy(call *Options) bool {
	fromClient := func(src engine.Source) bool { return src.Level == engine.LevelClientOption }
	newMode := call.RetryMode != "" && (call.RetryMode != s.Mode.Value || !fromClient(s.Mode.Source))
	newMax := call.MaxAttempts != 0 && (call.MaxAttempts != s.MaxAttempts.Value || !fromClient(s.MaxAttempts.Source))
	return newMode || newMax
}

// optionsLayer reads RetryMode and MaxAttempts from o (nil: nothing set).
func optionsLayer(level engine.Level, o *Options) layer {
	if o == nil {
		return layer{}
	}
	return layer{
		mode:        found{set: o.RetryMode != "", text: string(o.RetryMode), src: engine.Source{Level: level, Name: "RetryMode"}},
		maxAttempts: found{set: o.MaxAttempts != 0, num: o.MaxAttempts, src: engine.Source{Level: level, Name: "MaxAttempts"}},
	}
}

// envLayer reads <prefix>_RETRY_MODE and <prefix>_MAX_ATTEMPTS.
func envLayer(prefix string, env Env) layer {
	if prefix == "" {
		return layer{}
	}
	read := func(name string) found {
		v, ok := env.lookup(name)
		return found{set: ok, text: v, src: engine.Source{Level: engine.LevelEnvironment, Name: name}}
	}
	return layer{mode: read(prefix + "_RETRY_MODE"), maxAttempts: zeroIsUnset(read(prefix + "_MAX_ATTEMPTS"))}
}

// configFileLayer reads retry_mode and max_attempts from the active profile
// of the shared config file (see resolveSettings, level 4).
func configFileLayer(prefix string, env Env) (layer, error) {
	path, ok, err := configFilePath(prefix, env)
	if !ok || err != nil {
		return layer{}, err
	}
	profile, selected := env.lookup(prefix + "_PROFILE")
	if !selected {
		profile = "default"
	}
	data, err := os.ReadFile(path)
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !missing {
		return layer{}, err
	}
	if missing && (!selected || profile == "default") {
		return layer{}, nil
	}
	f, err := parseINI(path, data)
	if err != nil {
		return layer{}, err
	}
	match := func(header string) bool { return sectionProfile(header) == profile }
	if selected && profile != "default" && !f.has(match) {
		return layer{}, missingProfile(prefix, profile, path, missing, env)
	}
	read := func(key string) found {
		v, header, ok := f.lookup(match, key)
		return found{set: ok && v != "", text: v, src: engine.Source{
			Level: engine.LevelConfigFile, Name: key, Location: path + " [" + header + "]",
		}}
	}
	return layer{mode: read("retry_mode"), maxAttempts: zeroIsUnset(read("max_attempts"))}, nil
}

// zeroIsUnset makes a max attempts of 0 read from the environment or the
// config file ("0", "00", "+0") count as not set, so that the next level
// decides: aws-sdk-go-v2 reads AWS_MAX_ATTEMPTS and max_attempts with
// strconv.ParseInt and treats 0 as unset (config/env_config.go,
// shared_config.go).
func zeroIsUnset(f found) found {
	if n, err := strconv.ParseInt(strings.TrimSpace(f.text), 10, 64); err == nil && n == 0 {
		f.set = false
	}
	return f
}

// missingProfile is the *ConfigError for a profile that <prefix>_PROFILE
// selects but that neither the config file at path (missing: the file does
// not exist) nor the shared credentials file defines. aws-sdk-go-v2 fails
// the same way (config.LoadDefaultConfig returns a
// SharedConfigProfileNotExistError when AWS_PROFILE names a profile in
// neither file, and ignores only a missing default profile). The
// credentials file is <prefix>_SHARED_CREDENTIALS_FILE (a leading ~/ is the
// home directory), else ~/.<prefix lower-cased>/credentials; its sections
// are [NAME]. It is only looked at here, so that a profile holding nothing
// but credentials is not reported as missing.
func missingProfile(prefix, profile, path string, missing bool, env Env) error {
	reason := "no [profile " + profile + "] section in " + path
	if missing {
		reason += " (no such file)"
	}
	if creds, ok := credentialsFilePath(prefix, env); ok {
		if data, err := os.ReadFile(creds); err == nil {
			cf, err := parseINI(creds, data)
			if err == nil && cf.has(func(h string) bool { return h == profile }) {
				return nil
			}
			reason += ", no [" + profile + "] section in " + creds
		}
	}
	return &ConfigError{
		Setting: "profile", Value: profile, Reason: reason,
		Source: engine.Source{Level: engine.LevelEnvironment, Name: prefix + "_PROFILE"},
	}
}

// credentialsFilePath returns the shared credentials file's path (see
// missingProfile); ok is false when it cannot be known.
func credentialsFilePath(prefix string, env Env) (string, bool) {
	p, set := env.lookup(prefix + "_SHARED_CREDENTIALS_FILE")
	if set && p != "~" && !strings.HasPrefix(p, "~/") {
		return p, true
	}
	home, err := env.homeDir()
	if err != nil || home == "" {
		return "", false
	}
	if set {
		return filepath.Join(home, p[1:]), true
	}
	return filepath.Join(home, "."+strings.ToLower(prefix), "credentials"), true
}

// configFilePath returns the config file's path: <prefix>_CONFIG_FILE with a
// leading ~/ expanded, else ~/.<prefix lower-cased>/config. ok is false when
// the default path is wanted but the home directory is unknown; an explicit
// ~/ path with an unknown home directory is an error.
func configFilePath(prefix string, env Env) (path string, ok bool, err error) {
	name := prefix + "_CONFIG_FILE"
	if p, set := env.lookup(name); set {
		if p != "~" && !strings.HasPrefix(p, "~/") {
			return p, true, nil
		}
		home, err := env.homeDir()
		if err != nil {
			return "", false, fmt.Errorf("%s=%q: expanding ~: %w", name, p, err)
		}
		return filepath.Join(home, p[1:]), true, nil
	}
	home, err := env.homeDir()
	if err != nil || home == "" {
		return "", false, nil
	}
	return filepath.Join(home, "."+strings.ToLower(prefix), "config"), true, nil
}

// sectionProfile returns the profile an AWS-style config section belongs
// to: "default" for [default], NAME for [profile NAME] (including
// [profile default]), "" for any other section. Whitespace between
// "profile" and NAME may be any run of blanks, as botocore accepts.
func sectionProfile(header string) string {
	if header == "default" {
		return header
	}
	fields := strings.Fields(header)
	if len(fields) == 2 && fields[0] == "profile" {
		return fields[1]
	}
	return ""
}

// decided reports whether the layers set both settings, so that lower
// levels need not be read.
func decided(layers []layer) bool {
	_, mode := first(layers, func(l layer) found { return l.mode })
	_, maxAttempts := first(layers, func(l layer) found { return l.maxAttempts })
	return mode && maxAttempts
}

// first returns the first (highest-precedence) value that the layers set
// for the setting that pick selects.
func first(layers []layer, pick func(layer) found) (found, bool) {
	for _, l := range layers {
		if f := pick(l); f.set {
			return f, true
		}
	}
	return found{}, false
}

// modes are the valid retry modes (retry-behavior.md §1).
var modes = [...]Mode{ModeStandard, ModeAdaptive, ModeLegacy, ModeAliyun}

// parseMode validates f.text as a retry mode, case-insensitively and
// trimmed, without allocating.
func parseMode(f found) (engine.Setting[Mode], error) {
	text := strings.TrimSpace(f.text)
	for _, m := range modes {
		if strings.EqualFold(text, string(m)) {
			return engine.Setting[Mode]{Value: m, Source: f.src}, nil
		}
	}
	return engine.Setting[Mode]{}, &ConfigError{Setting: "retry mode", Value: f.text, Source: f.src, Reason: modeReason()}
}

// parseMaxAttempts validates f as max attempts: the integer f.num when
// given in code, else the trimmed decimal f.text; it must be ≥ 1
// (retry-behavior.md §2).
func parseMaxAttempts(f found) (engine.Setting[int], error) {
	var value any = f.num
	n := f.num
	if f.text != "" {
		value = f.text
		var err error
		if n, err = strconv.Atoi(strings.TrimSpace(f.text)); err != nil {
			n = 0
		}
	}
	if n < 1 {
		return engine.Setting[int]{}, &ConfigError{Setting: "max attempts", Value: value, Source: f.src, Reason: reasonMaxAttempts}
	}
	return engine.Setting[int]{Value: n, Source: f.src}, nil
}

// serviceSource names an x-retry key (the spec's words for a Service field)
// as the source of a value.
func serviceSource(svc *Service, field string) engine.Source {
	loc := "x-retry"
	if svc.Extension != "" {
		loc = svc.Extension
	}
	if svc.Name != "" {
		loc += " of " + svc.Name
	}
	return engine.Source{Level: engine.LevelServiceDefault, Name: field, Location: loc}
}

// serviceMode returns the service's default mode (levels 5 and 6).
func serviceMode(svc *Service) (engine.Setting[Mode], error) {
	if svc.DefaultMode == "" {
		return engine.Setting[Mode]{Value: ModeStandard, Source: engine.Source{Level: engine.LevelGlobalDefault, Name: "retry mode"}}, nil
	}
	return parseMode(found{set: true, text: string(svc.DefaultMode), src: serviceSource(svc, "mode")})
}

// defaultMaxAttempts returns max attempts for mode from levels 5 and 6:
// Service.PerMode[mode].MaxAttempts, else Service.Defaults.MaxAttempts,
// else the global default of the mode.
func defaultMaxAttempts(svc *Service, mode Mode) (engine.Setting[int], error) {
	if svc == nil {
		svc = &Service{}
	}
	if n := svc.PerMode[mode].MaxAttempts; n != 0 {
		return parseMaxAttempts(found{set: true, num: n, src: serviceSource(svc, "modes."+string(mode)+".maxAttempts")})
	}
	if n := svc.Defaults.MaxAttempts; n != 0 {
		return parseMaxAttempts(found{set: true, num: n, src: serviceSource(svc, "maxAttempts")})
	}
	return engine.Setting[int]{
		Value:  globalParams(mode).MaxAttempts,
		Source: engine.Source{Level: engine.LevelGlobalDefault, Name: "max attempts in " + string(mode) + " mode"},
	}, nil
}

// modeReason is a ConfigError's reason for an unknown retry mode: "must be
// one of standard, adaptive, legacy, aliyun", listing the modes of mode.go in
// their order (one list of modes).
func modeReason() string {
	names := make([]string, len(modes))
	for i, m := range modes {
		names[i] = string(m)
	}
	return "must be one of " + strings.Join(names, ", ")
}
