package awsauth_test

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/config"

	"github.com/retrygen/retrygen/golden/dynamodb"
	"github.com/retrygen/retrygen/runtime/awsauth"
)

// Example calls real DynamoDB, as the README's "Calling real DynamoDB"
// shows: credentials and region from aws-sdk-go-v2's default chain, the
// regional endpoint from the spec's server URL, then create a table, wait
// for it, put an item and scan page by page. It is compiled, not run (it
// needs an AWS account).
func Example() {
	ctx := context.Background()
	if err := run(ctx); err != nil {
		fmt.Println(err)
	}
}

func run(ctx context.Context) error {
	cfg, err := config.LoadDefaultConfig(ctx) // credentials and region: AWS_PROFILE, ~/.aws, SSO, roles…
	if err != nil {
		return err
	}
	client, err := dynamodb.New(awsauth.Endpoint(cfg, dynamodb.ServerURL),
		func(o *dynamodb.Options) { awsauth.Use(&o.Options, cfg) })
	if err != nil {
		return err
	}
	mode := dynamodb.BillingModePayPerRequest
	if _, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            "users",
		AttributeDefinitions: []dynamodb.AttributeDefinition{{AttributeName: "pk", AttributeType: dynamodb.ScalarAttributeTypeS}},
		KeySchema:            []dynamodb.KeySchemaElement{{AttributeName: "pk", KeyType: dynamodb.KeyTypeHash}},
		BillingMode:          &mode,
	}); err != nil {
		return err
	}
	// Polls DescribeTable (20 s, then up to 120 s apart, as aws-sdk-go-v2) until ACTIVE.
	if _, err := client.WaitUntilTableExists(ctx, &dynamodb.DescribeTableInput{TableName: "users"}, 5*time.Minute); err != nil {
		return err // *runtime.WaiterTimeoutError after 5 minutes
	}
	name := "Ada"
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: "users", Item: map[string]dynamodb.AttributeValue{
		"pk": {S: &name}, "name": {S: &name},
	}}); err != nil {
		return err
	}
	limit := int64(100)
	for item, err := range client.ScanItems(ctx, &dynamodb.ScanInput{TableName: "users", Limit: &limit}) {
		if err != nil {
			return err // the pages before it were yielded; each page was retried as any call
		}
		fmt.Println(*item["name"].S)
	}
	return nil
}
