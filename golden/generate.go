// Package golden holds the client retrygen generates from the Amazon
// DynamoDB spec and its overlay (golden/dynamodb), checked in and compared
// byte for byte by golden_test.go. Regenerate with `go generate ./golden/`
// or `go test ./golden/ -update`.
package golden

//go:generate go run ../cmd/retrygen generate -spec ../specs/aws-dynamodb-2012-08-10.openapi.yaml -overlay ../specs/dynamodb.overlay.yaml -out dynamodb -package dynamodb
