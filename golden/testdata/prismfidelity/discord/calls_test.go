// Code written by /tmp/i19-gencalls.py from the generated client; edit by hand when the API changes.
// discord calls against Prism --dynamic for the decode oracle (issue 19): the realspecs tier
// (golden/prism_fidelity_test.go) copies this file into the package it generates and runs it.
package discord

import (
	"context"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/retrygen/retrygen/internal/testserver"
)

const pathValue = "123"

// TestPrismRoundTrips calls 30 operations; each response body must re-marshal from
// the decoded output member by member (testserver.DiffMembers), except the differences
// listed in knownDiffs (by operation and pointer) with their reason.
func TestPrismRoundTrips(t *testing.T) {
	endpoint := testserver.StartPrism(t, os.Getenv("RETRYGEN_PRISM_SPEC"), testserver.PrismDynamicArgs...)
	rec := &testserver.BodyRecorder{Base: testserver.PrismTransport(t, nil)}
	// Operations name BotToken (an API key in Authorization), OAuth2 or both:
	// give both, and each operation sends the one its requirement names.
	c, err := New(endpoint, func(o *Options) { o.HTTPClient = &http.Client{Transport: rec} }, WithBearerToken("prism"), WithAPIKey("Bot prism"))
	if err != nil {
		t.Fatal(err)
	}
	calls := []struct {
		name string
		call func(ctx context.Context) (any, error)
	}{
		{"DeprecatedListPins", func(ctx context.Context) (any, error) {
			return c.DeprecatedListPins(ctx, &DeprecatedListPinsInput{ChannelId: pathValue})
		}},
		// GetActiveGuildThreads is not called: Prism 5.14 --dynamic answers it
		// with its own HTTP 500 (it cannot build the response), which the
		// Prism transport counts as a rejection.
		{"GetApplication", func(ctx context.Context) (any, error) {
			return c.GetApplication(ctx, &GetApplicationInput{ApplicationId: pathValue})
		}},
		{"GetApplicationCommand", func(ctx context.Context) (any, error) {
			return c.GetApplicationCommand(ctx, &GetApplicationCommandInput{ApplicationId: pathValue, CommandId: pathValue})
		}},
		{"GetApplicationEmoji", func(ctx context.Context) (any, error) {
			return c.GetApplicationEmoji(ctx, &GetApplicationEmojiInput{ApplicationId: pathValue, EmojiId: pathValue})
		}},
		{"GetAutoModerationRule", func(ctx context.Context) (any, error) {
			return c.GetAutoModerationRule(ctx, &GetAutoModerationRuleInput{GuildId: pathValue, RuleId: pathValue})
		}},
		{"GetBotGateway", func(ctx context.Context) (any, error) { return c.GetBotGateway(ctx, &GetBotGatewayInput{}) }},
		{"GetChannel", func(ctx context.Context) (any, error) {
			return c.GetChannel(ctx, &GetChannelInput{ChannelId: pathValue})
		}},
		{"GetEntitlement", func(ctx context.Context) (any, error) {
			return c.GetEntitlement(ctx, &GetEntitlementInput{ApplicationId: pathValue, EntitlementId: pathValue})
		}},
		{"GetEntitlements", func(ctx context.Context) (any, error) {
			return c.GetEntitlements(ctx, &GetEntitlementsInput{ApplicationId: pathValue})
		}},
		{"GetGateway", func(ctx context.Context) (any, error) { return c.GetGateway(ctx, &GetGatewayInput{}) }},
		{"GetGuild", func(ctx context.Context) (any, error) { return c.GetGuild(ctx, &GetGuildInput{GuildId: pathValue}) }},
		{"GetGuildBan", func(ctx context.Context) (any, error) {
			return c.GetGuildBan(ctx, &GetGuildBanInput{GuildId: pathValue, UserId: pathValue})
		}},
		{"GetGuildEmoji", func(ctx context.Context) (any, error) {
			return c.GetGuildEmoji(ctx, &GetGuildEmojiInput{GuildId: pathValue, EmojiId: pathValue})
		}},
		{"GetGuildJoinRequests", func(ctx context.Context) (any, error) {
			return c.GetGuildJoinRequests(ctx, &GetGuildJoinRequestsInput{GuildId: pathValue})
		}},
		{"GetGuildMember", func(ctx context.Context) (any, error) {
			return c.GetGuildMember(ctx, &GetGuildMemberInput{GuildId: pathValue, UserId: pathValue})
		}},
		{"GetGuildNewMemberWelcome", func(ctx context.Context) (any, error) {
			return c.GetGuildNewMemberWelcome(ctx, &GetGuildNewMemberWelcomeInput{GuildId: pathValue})
		}},
		{"GetGuildPreview", func(ctx context.Context) (any, error) {
			return c.GetGuildPreview(ctx, &GetGuildPreviewInput{GuildId: pathValue})
		}},
		{"GetGuildRole", func(ctx context.Context) (any, error) {
			return c.GetGuildRole(ctx, &GetGuildRoleInput{GuildId: pathValue, RoleId: pathValue})
		}},
		{"GetGuildScheduledEvent", func(ctx context.Context) (any, error) {
			return c.GetGuildScheduledEvent(ctx, &GetGuildScheduledEventInput{GuildId: pathValue, GuildScheduledEventId: pathValue})
		}},
		{"GetGuildSoundboardSound", func(ctx context.Context) (any, error) {
			return c.GetGuildSoundboardSound(ctx, &GetGuildSoundboardSoundInput{GuildId: pathValue, SoundId: pathValue})
		}},
		{"GetGuildSticker", func(ctx context.Context) (any, error) {
			return c.GetGuildSticker(ctx, &GetGuildStickerInput{GuildId: pathValue, StickerId: pathValue})
		}},
		{"GetGuildTemplate", func(ctx context.Context) (any, error) {
			return c.GetGuildTemplate(ctx, &GetGuildTemplateInput{Code: pathValue})
		}},
		{"GetGuildVanityUrl", func(ctx context.Context) (any, error) {
			return c.GetGuildVanityUrl(ctx, &GetGuildVanityUrlInput{GuildId: pathValue})
		}},
		{"GetGuildWebhooks", func(ctx context.Context) (any, error) {
			return c.GetGuildWebhooks(ctx, &GetGuildWebhooksInput{GuildId: pathValue})
		}},
		{"GetGuildWelcomeScreen", func(ctx context.Context) (any, error) {
			return c.GetGuildWelcomeScreen(ctx, &GetGuildWelcomeScreenInput{GuildId: pathValue})
		}},
		{"GetGuildWidget", func(ctx context.Context) (any, error) {
			return c.GetGuildWidget(ctx, &GetGuildWidgetInput{GuildId: pathValue})
		}},
		{"GetGuildWidgetSettings", func(ctx context.Context) (any, error) {
			return c.GetGuildWidgetSettings(ctx, &GetGuildWidgetSettingsInput{GuildId: pathValue})
		}},
		{"GetGuildsOnboarding", func(ctx context.Context) (any, error) {
			return c.GetGuildsOnboarding(ctx, &GetGuildsOnboardingInput{GuildId: pathValue})
		}},
		{"GetInviteTargetUsers", func(ctx context.Context) (any, error) {
			return c.GetInviteTargetUsers(ctx, &GetInviteTargetUsersInput{Code: pathValue})
		}},
	}
	diffs, listed := 0, 0
	for _, call := range calls {
		out, err := call.call(context.Background())
		if err != nil {
			if reason := known(call.name, err.Error()); reason != "" {
				listed++
				t.Logf("%s: %v (listed: %s)", call.name, err, reason)
				continue
			}
			t.Errorf("%s: %v", call.name, err)
			continue
		}
		d, err := testserver.DiffMembers(rec.Last(), testserver.TypedBody(out))
		if err != nil {
			if reason := known(call.name, err.Error()); reason != "" {
				listed++
				t.Logf("%s: %v (listed: %s)", call.name, err, reason)
				continue
			}
			t.Errorf("%s: %v", call.name, err)
			continue
		}
		for _, line := range d {
			if reason := known(call.name, line); reason != "" {
				listed++
				t.Logf("%s %s (listed: %s)", call.name, line, reason)
				continue
			}
			diffs++
			t.Errorf("%s %s", call.name, line)
		}
	}
	t.Logf("%d operations called; %d members differ unexplained, %d listed with their reason", len(calls), diffs, listed)
}

// sameInstant matches a difference between two spellings of one RFC 3339
// instant ("1934-11-06T19:59:37.0Z" re-marshalled "1934-11-06T19:59:37Z").
var sameInstant = regexp.MustCompile(`: sent "([^"]+)", re-marshalled "([^"]+)"$`)

// known returns why a difference is not a decoding defect, or "".
func known(op, line string) string {
	if m := sameInstant.FindStringSubmatch(line); m != nil {
		a, errA := time.Parse(time.RFC3339Nano, m[1])
		b, errB := time.Parse(time.RFC3339Nano, m[2])
		if errA == nil && errB == nil && a.Equal(b) {
			return "the same instant: time.Time writes RFC 3339 in its shortest form"
		}
	}
	for _, k := range knownDiffs {
		if k.op == op && strings.Contains(line, k.contains) {
			return k.reason
		}
	}
	return ""
}

// knownDiffs are the differences of this seed's responses that are not
// decoding defects of the generated client, each with its reason.
//
// The last five share one cause, Prism's and not the client's (its own
// validator logs each body as a violation): Discord writes a variant's tag
// as `{type: integer, enum: [N], allOf: [{$ref: <enum>}]}` where <enum> is a
// oneOf of const values, and json-schema-faker builds the tag from the
// referenced enum's oneOf, ignoring the sibling enum. So Prism sends one
// variant's members with another variant's tag. The client decodes by the
// tag (the only variant whose enum holds it), which is what the spec says.
var knownDiffs = []struct{ op, contains, reason string }{
	{"GetInviteTargetUsers", "invalid character", "the response is text/csv, not JSON: nothing to compare"},
	{"GetChannel", "no variant of GetChannelOutputBody fits", "Prism's body breaks the spec: PrivateGroupChannelResponse's members with /type 5, which #/components/schemas/PrivateGroupChannelResponse/properties/type/enum does not allow ([3]); GuildChannelResponse and ThreadResponse require guild_id, absent; no variant fits, so the call fails with the body kept in the UnionError's Raw"},
	{"GetGuildJoinRequests", "no variant of GuildJoinRequestResponseFormResponsesItem fits", "Prism's body breaks the spec: /guild_join_requests/0/form_responses/0 has TermsFormFieldResponse's members (values, a boolean response) with field_type MULTIPLE_CHOICE, which #/components/schemas/TermsFormFieldResponse/properties/field_type/enum does not allow ([TERMS]), and MultipleChoiceFormFieldResponse requires choices, absent"},
	{"GetAutoModerationRule", "/actions/0/metadata/custom_message", "Prism's body: /actions/0/type 4 selects QuarantineUserActionResponse (#/components/schemas/QuarantineUserActionResponse/properties/type/enum [4]), whose metadata declares no property; custom_message is BlockMessageActionResponse's (type 1). Undeclared there, it is kept in ResultMetadata.Body"},
	{"GetAutoModerationRule", "/trigger_metadata/", "Prism's body breaks the spec: /trigger_type 4 selects DefaultKeywordRuleResponse (#/components/schemas/DefaultKeywordRuleResponse/properties/trigger_type/enum [4]), whose trigger_metadata requires allow_list and presets; Prism sent {} (MLSpamRuleResponse's). The absent required arrays re-marshal as null"},
	{"GetGuildScheduledEvent", "/entity_metadata/location", "Prism's body breaks the spec: /entity_type 3 selects ExternalScheduledEventResponse (#/components/schemas/ExternalScheduledEventResponse/properties/entity_type/enum [3]), whose entity_metadata requires location (#/components/schemas/EntityMetadataExternalResponse/required/0); Prism sent {} (StageScheduledEventResponse's). The absent required string re-marshals as \"\""},
}
