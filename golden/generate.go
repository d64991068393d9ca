// Package golden holds the clients retrygen generates from the Amazon
// DynamoDB, Kinesis and SQS specs and their overlays (golden/dynamodb,
// golden/kinesis, golden/sqs), from the ECS-like Alibaba-style spec
// (golden/ecs) and from a petstore spec that declares its retries only with
// x-speakeasy-retries (golden/petstore), checked in and compared byte for
// byte by golden_test.go; golden/dynamodblite is the same DynamoDB client
// cut down to four operations (one renamed) by a config file,
// dynamodblite.retrygen.yaml, as a //go:generate line in a user's package
// would make it; golden/pages is generated from testdata/pages.openapi.yaml
// (Stripe- and GitHub-shaped list endpoints, with -link-pagination).
// Regenerate with `go generate ./golden/` or
// `go test ./golden/ -update`.
package golden

//go:generate go run ../cmd/retrygen generate -spec ../specs/aws-dynamodb-2012-08-10.openapi.yaml -overlay ../specs/dynamodb.overlay.yaml -out dynamodb -package dynamodb
//go:generate go run ../cmd/retrygen generate -spec ../specs/ecs.openapi.yaml -out ecs -package ecs
//go:generate go run ../cmd/retrygen generate -spec ../specs/aws-kinesis-2013-12-02.openapi.yaml -overlay ../specs/kinesis.overlay.yaml -out kinesis -package kinesis
//go:generate go run ../cmd/retrygen generate -spec ../specs/aws-sqs-2012-11-05.openapi.yaml -overlay ../specs/sqs.overlay.yaml -out sqs -package sqs
//go:generate go run ../cmd/retrygen generate -spec ../specs/petstore-speakeasy.openapi.yaml -out petstore -package petstore
//go:generate go run ../cmd/retrygen generate -config dynamodblite.retrygen.yaml
//go:generate go run ../cmd/retrygen generate -spec testdata/pages.openapi.yaml -link-pagination -out pages -package pages
