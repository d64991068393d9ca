package engine

// Level is a level of configuration in the precedence of
// retry-behavior.md §2. Levels are ordered: a lower Level wins.
type Level uint8

// String returns "call option", "client option", "environment",
// "config file", "service default" or "global default" ("unset" for the zero
// Level).
func (l Level) String() string {
	switch l {
	case LevelCallOption:
		return "call option"
	case LevelClientOption:
		return "client option"
	case LevelEnvironment:
		return "environment"
	case LevelConfigFile:
		return "config file"
	case LevelServiceDefault:
		return "service default"
	case LevelGlobalDefault:
		return "global default"
	default:
		return "unset"
	}
}

// Source says where a setting's value came from.
type Source struct {
	// Level is the precedence level that decided.
	Level Level
	// Name is the setting's name at that level: the environment variable
	// (AWS_MAX_ATTEMPTS), the INI key (retry_mode), the Options field
	// (MaxAttempts), the x-retry key (modes.legacy.maxAttempts), or a
	// description of the global default (max attempts in legacy mode).
	Name string
	// Location narrows the level down: the config file's path and section
	// ("/home/u/.aws/config [profile dev]"), or the service
	// ("x-retry of DynamoDB"). Empty for the other levels.
	Location string
}

// String renders "AWS_MAX_ATTEMPTS (environment)",
// "retry_mode (config file /home/u/.aws/config [profile dev])" or
// "MaxAttempts (client option)".
func (s Source) String() string {
	return s.Name + " (" + s.Where() + ")"
}

// Where renders the level and, when known, the location within it
// ("config file ~/.aws/config:3").
func (s Source) Where() string {
	if s.Location == "" {
		return s.Level.String()
	}
	return s.Level.String() + " " + s.Location
}

// Setting is a resolved value and the source that decided it.
type Setting[T any] struct {
	// Value is the setting's value, in the unit of the setting it
	// resolves (an attempt count, a retry mode).
	Value T
	// Source is the level, and where known the file or variable, that
	// decided Value (retry-behavior.md §2).
	Source Source
}

// The levels, highest precedence first.
const (
	// LevelCallOption: the Options of one call.
	LevelCallOption Level = iota + 1
	// LevelClientOption: the Options given to NewClient.
	LevelClientOption
	// LevelEnvironment: <PREFIX>_RETRY_MODE, <PREFIX>_MAX_ATTEMPTS.
	LevelEnvironment
	// LevelConfigFile: retry_mode, max_attempts in the active profile of
	// the shared config file.
	LevelConfigFile
	// LevelServiceDefault: what the spec's x-retry declares (Service).
	LevelServiceDefault
	// LevelGlobalDefault: the defaults of retry-behavior.md §2 and §5.
	LevelGlobalDefault
)
