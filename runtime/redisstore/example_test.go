package redisstore_test

import (
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/redisstore"
)

// A process opts in with one line in its client's options; a generated
// client's option function does the same with &o.Options.
func ExampleStore_Share() {
	store, err := redisstore.New(redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379", MaxRetries: -1}),
		redisstore.Options{FleetCapacity: 2000})
	if err != nil {
		panic(err)
	}
	defer store.Close()
	var opts runtime.Options
	store.Share(&opts)
	fmt.Println(opts.Windows == store, opts.FleetRetryBudget != nil)
	// Output: true true
}
