// Box calls against Prism (issue 5, "What must be shown" 2). The realspecs
// tier (golden/prism_test.go) copies this file into the package it
// generates from box_openapi.json and runs it there with
// RETRYGEN_PRISM_SPEC set to the spec's path. It is written against the
// generated API as the generator names things (operation IDs and
// parameters through its identifier sanitiser: get_files_id → GetFilesId,
// file_id → FileId); when that API changes, adapt the calls here.
package box

import (
	"context"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/internal/testserver"
	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/engine"
)

// token is any bearer token: Prism checks that one is sent, not its value.
const token = "prism-box-token"

// newPrismClient starts Prism on the spec, building responses from the
// response schemas, and returns a client whose every request fails the test
// if Prism rejects it (the bearer token sent with the generated
// WithBearerToken option; opts applied after), and the recorder of the last
// response body.
func newPrismClient(t *testing.T, opts ...func(*Options)) (*Client, *testserver.BodyRecorder) {
	t.Helper()
	endpoint := testserver.StartPrism(t, os.Getenv("RETRYGEN_PRISM_SPEC"), testserver.PrismDynamicArgs...)
	rec := &testserver.BodyRecorder{Base: testserver.PrismTransport(t, nil)}
	base := func(o *Options) { o.HTTPClient = &http.Client{Transport: rec} }
	c, err := New(endpoint, append([]func(*Options){base, WithBearerToken(token)}, opts...)...)
	require.NoError(t, err)
	return c, rec
}

// TestPrismBoxOperations calls 24 operations with valid inputs.
func TestPrismBoxOperations(t *testing.T) {
	c, rec := newPrismClient(t)
	const (
		fileID   = "12345"
		folderID = "0"
		userID   = "33333"
	)
	calls := []struct {
		name string
		call func(ctx context.Context) (any, error)
	}{
		{"get_users_me", func(ctx context.Context) (any, error) { return c.GetUsersMe(ctx, &GetUsersMeInput{}) }},
		{"get_users", func(ctx context.Context) (any, error) { return c.GetUsers(ctx, &GetUsersInput{}) }},
		{"get_users_id", func(ctx context.Context) (any, error) { return c.GetUsersId(ctx, &GetUsersIdInput{UserId: userID}) }},
		{"get_users_id_memberships", func(ctx context.Context) (any, error) {
			return c.GetUsersIdMemberships(ctx, &GetUsersIdMembershipsInput{UserId: userID})
		}},
		{"get_files_id", func(ctx context.Context) (any, error) { return c.GetFilesId(ctx, &GetFilesIdInput{FileId: fileID}) }},
		{"get_files_id_collaborations", func(ctx context.Context) (any, error) {
			return c.GetFilesIdCollaborations(ctx, &GetFilesIdCollaborationsInput{FileId: fileID})
		}},
		{"get_files_id_comments", func(ctx context.Context) (any, error) {
			return c.GetFilesIdComments(ctx, &GetFilesIdCommentsInput{FileId: fileID})
		}},
		{"get_files_id_tasks", func(ctx context.Context) (any, error) {
			return c.GetFilesIdTasks(ctx, &GetFilesIdTasksInput{FileId: fileID})
		}},
		{"get_files_id_versions", func(ctx context.Context) (any, error) {
			return c.GetFilesIdVersions(ctx, &GetFilesIdVersionsInput{FileId: fileID})
		}},
		{"get_files_id_metadata", func(ctx context.Context) (any, error) {
			return c.GetFilesIdMetadata(ctx, &GetFilesIdMetadataInput{FileId: fileID})
		}},
		{"get_files_id_watermark", func(ctx context.Context) (any, error) {
			return c.GetFilesIdWatermark(ctx, &GetFilesIdWatermarkInput{FileId: fileID})
		}},
		{"get_files_id_trash", func(ctx context.Context) (any, error) {
			return c.GetFilesIdTrash(ctx, &GetFilesIdTrashInput{FileId: fileID})
		}},
		{"get_folders_id", func(ctx context.Context) (any, error) {
			return c.GetFoldersId(ctx, &GetFoldersIdInput{FolderId: folderID})
		}},
		{"get_folders_id_items", func(ctx context.Context) (any, error) {
			return c.GetFoldersIdItems(ctx, &GetFoldersIdItemsInput{FolderId: folderID})
		}},
		{"get_folders_id_collaborations", func(ctx context.Context) (any, error) {
			return c.GetFoldersIdCollaborations(ctx, &GetFoldersIdCollaborationsInput{FolderId: folderID})
		}},
		{"get_folders_id_metadata", func(ctx context.Context) (any, error) {
			return c.GetFoldersIdMetadata(ctx, &GetFoldersIdMetadataInput{FolderId: folderID})
		}},
		{"get_folder_locks", func(ctx context.Context) (any, error) {
			return c.GetFolderLocks(ctx, &GetFolderLocksInput{FolderId: folderID})
		}},
		{"get_comments_id", func(ctx context.Context) (any, error) {
			return c.GetCommentsId(ctx, &GetCommentsIdInput{CommentId: "12345"})
		}},
		{"get_collaborations_id", func(ctx context.Context) (any, error) {
			return c.GetCollaborationsId(ctx, &GetCollaborationsIdInput{CollaborationId: "12345"})
		}},
		{"get_tasks_id", func(ctx context.Context) (any, error) { return c.GetTasksId(ctx, &GetTasksIdInput{TaskId: "12345"}) }},
		{"get_tasks_id_assignments", func(ctx context.Context) (any, error) {
			return c.GetTasksIdAssignments(ctx, &GetTasksIdAssignmentsInput{TaskId: "12345"})
		}},
		{"get_web_links_id", func(ctx context.Context) (any, error) {
			return c.GetWebLinksId(ctx, &GetWebLinksIdInput{WebLinkId: "12345"})
		}},
		{"get_metadata_templates_global", func(ctx context.Context) (any, error) {
			return c.GetMetadataTemplatesGlobal(ctx, &GetMetadataTemplatesGlobalInput{})
		}},
		{"get_metadata_templates_enterprise", func(ctx context.Context) (any, error) {
			return c.GetMetadataTemplatesEnterprise(ctx, &GetMetadataTemplatesEnterpriseInput{})
		}},
	}
	require.GreaterOrEqual(t, len(calls), 20)
	for _, tc := range calls {
		t.Run(tc.name, func(t *testing.T) {
			out, err := tc.call(context.Background())
			require.NoError(t, err)
			testserver.RequireDecoded(t, rec.Last(), out)
		})
	}
}

// TestPrismBoxRetries makes Prism answer every attempt of get_users_me with
// Box's `default` response (ClientError) under the status chosen by
// `Prefer: code=N`, and checks the typed error, the attempts and the exact
// full-jitter delays (rand fixed at 0.5, fake clock: nothing sleeps).
func TestPrismBoxRetries(t *testing.T) {
	tests := []struct {
		name      string
		status    int
		wantClass engine.Class
		// wantSleeps: rand 0.5 × base × 2^n, base 1,000 ms for throttling,
		// 50 ms for transient (retry-behavior.md §5).
		wantSleeps []time.Duration
	}{
		{
			name: "HTTP 429 is a throttling error retried up to max attempts 3", status: 429,
			wantClass: engine.ClassThrottling, wantSleeps: []time.Duration{500 * time.Millisecond, time.Second},
		},
		{
			name: "HTTP 503 is a transient error retried up to max attempts 3", status: 503,
			wantClass: engine.ClassTransient, wantSleeps: []time.Duration{25 * time.Millisecond, 50 * time.Millisecond},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clock := clocktest.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			var attempts []runtime.AttemptInfo
			c, _ := newPrismClient(t, func(o *Options) {
				o.Clock = clock
				o.Rand = func() float64 { return 0.5 }
				o.MaxAttempts = 3
				o.OnAttempt = func(a runtime.AttemptInfo) { attempts = append(attempts, a) }
				// Credentials are applied per operation, apart from the hook.
				o.BeforeAttempt = func(req *http.Request, _ int) error {
					req.Header.Set("Prefer", "code="+strconv.Itoa(tc.status))
					return nil
				}
			})
			_, err := c.GetUsersMe(context.Background(), &GetUsersMeInput{})

			var maxAttempts *runtime.MaxAttemptsError
			require.ErrorAs(t, err, &maxAttempts)
			require.Equal(t, 3, maxAttempts.Attempts)
			var boxErr *ClientError
			require.ErrorAs(t, err, &boxErr, "Box's default response is typed as ClientError")
			require.Equal(t, tc.status, boxErr.HTTPStatusCode)
			require.NotNil(t, boxErr.Message, "the ClientError body decoded")

			require.Len(t, attempts, 3)
			for i, a := range attempts {
				require.Equal(t, i+1, a.Attempt)
				require.Equal(t, tc.status, a.StatusCode)
				require.Equal(t, tc.wantClass, a.Class)
				require.Equal(t, i < 2, a.Retry)
			}
			require.Equal(t, tc.wantSleeps, clock.Sleeps())
		})
	}
}
