package runtime

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWaiterStateString (new-user trial 3, F14): OnPoll printed states as
// 0/1; each prints as smithy's acceptor state name.
func TestWaiterStateString(t *testing.T) {
	require.Equal(t, "retry success failure error WaiterState(9)",
		fmt.Sprint(WaiterRetry, " ", WaiterSuccess, " ", WaiterFailure, " ", WaiterError, " ", WaiterState(9)))
}
