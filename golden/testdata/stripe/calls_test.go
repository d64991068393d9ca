// Stripe calls against stripe-mock (issue 10). The realspecs tier
// (golden/stripe_test.go) copies this file into the package it generates
// from Stripe's spec (spec3.json of github.com/stripe/stripe-mock v0.203.0)
// with specs/stripe.overlay.yaml, and runs it there. It is written against
// the generated API as the generator names things (operation IDs through
// its identifier sanitiser: GetCustomersCustomer, PostPaymentIntentsIntent);
// when that API changes, adapt the calls here.
package stripe

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/internal/testserver"
	"github.com/retrygen/retrygen/runtime/openapi"
)

// apiKey is stripe-mock's test key: it checks that one is sent, not which.
const apiKey = "sk_test_123"

// validation counts the requests stripe-mock received and accepted. A
// request is rejected when stripe-mock answers 400 with "Request validation
// error" (it checks every parameter against the spec), or with any other
// error status.
type validation struct {
	base http.RoundTripper
	t    *testing.T

	mu             sync.Mutex
	sent, accepted int
	lastBody       []byte
}

func (v *validation) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := v.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	v.mu.Lock()
	defer v.mu.Unlock()
	v.sent++
	if resp.StatusCode/100 == 2 {
		v.accepted++
	} else {
		v.t.Errorf("stripe-mock rejected %s %s (HTTP %d): %s", req.Method, req.URL, resp.StatusCode, body)
	}
	v.lastBody = body
	return resp, nil
}

func (v *validation) last() []byte {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.lastBody
}

// newClient starts stripe-mock for the test and returns a client of it
// whose every response is counted by the returned validation.
func newClient(t *testing.T, opts ...func(*Options)) (*Client, *validation) {
	t.Helper()
	v := &validation{base: http.DefaultTransport, t: t}
	base := func(o *Options) { o.HTTPClient = &http.Client{Transport: v} }
	c, err := New(testserver.StartStripeMock(t), append([]func(*Options){base, WithBearerToken(apiKey)}, opts...)...)
	require.NoError(t, err)
	return c, v
}

func ptr[T any](v T) *T { return &v }

// TestStripeOperations makes at least 25 calls covering customers (create,
// retrieve, update, list, search, delete), payment intents with nested
// metadata, arrays of objects and expand, deepObject queries, a multipart
// file upload, and both variants of the Customer | DeletedCustomer anyOf.
// Every request must be accepted by stripe-mock and every response decode
// with every member present.
func TestStripeOperations(t *testing.T) {
	c, v := newClient(t)
	const (
		customerID = "cus_123"
		intentID   = "pi_123"
	)
	created := &GetCustomersCreated{GetCustomersCreatedRangeQuerySpecs: &GetCustomersCreatedRangeQuerySpecs{Gte: ptr(int64(1700000000)), Lt: ptr(int64(1800000000))}}
	calls := []struct {
		name string
		call func(ctx context.Context) (any, error)
		// check looks at the decoded output beyond RequireDecoded.
		check func(t *testing.T, out any)
	}{
		{"create a customer with nested metadata, an array of objects, a nested object and expand", func(ctx context.Context) (any, error) {
			return c.PostCustomers(ctx, &PostCustomersInput{
				Email:       ptr("jenny.rosen@example.com"),
				Name:        ptr("Jenny Rosen"),
				Description: ptr("retrygen issue 10"),
				Metadata:    &PostCustomersInputMetadata{StringMap: &map[string]string{"order_id": "6735", "note": "a b&c"}},
				TaxIdData: []PostCustomersInputTaxIdDataItem{
					{Type: PostCustomersInputTaxIdDataItemTypeEuVat, Value: "DE123456789"},
					{Type: "gb_vat", Value: "GB123456789"},
				},
				PreferredLocales: []string{"en", "de"},
				Expand:           []string{"tax_ids", "sources"},
			})
		}, nil},
		{"retrieve a customer: the Customer variant of the anyOf", func(ctx context.Context) (any, error) {
			return c.GetCustomersCustomer(ctx, &GetCustomersCustomerInput{Customer: customerID, Expand: []string{"default_source"}})
		}, func(t *testing.T, out any) {
			o := out.(*GetCustomersCustomerOutput)
			require.NotNil(t, o.Customer, "the Customer variant")
			require.Nil(t, o.DeletedCustomer)
			require.Equal(t, customerID, o.Customer.Id)
		}},
		{"update a customer", func(ctx context.Context) (any, error) {
			return c.PostCustomersCustomer(ctx, &PostCustomersCustomerInput{Customer: customerID, Email: ptr("new@example.com"),
				Metadata: &PostCustomersCustomerInputMetadata{StringMap: &map[string]string{"tier": "gold"}}})
		}, nil},
		{"list customers with a deepObject created[gte]/created[lt] query", func(ctx context.Context) (any, error) {
			return c.GetCustomers(ctx, &GetCustomersInput{Created: created, Limit: ptr(int64(3)), Expand: []string{"data.default_source"}})
		}, nil},
		{"search customers", func(ctx context.Context) (any, error) {
			return c.GetCustomersSearch(ctx, &GetCustomersSearchInput{Query: "email:'jenny.rosen@example.com'", Limit: ptr(int64(10))})
		}, nil},
		{"delete a customer: DeletedCustomer", func(ctx context.Context) (any, error) {
			return c.DeleteCustomersCustomer(ctx, &DeleteCustomersCustomerInput{Customer: customerID})
		}, func(t *testing.T, out any) {
			o := out.(*DeleteCustomersCustomerOutput)
			require.True(t, o.Deleted)
			require.Equal(t, customerID, o.Id)
		}},
		{"list a customer's tax IDs", func(ctx context.Context) (any, error) {
			return c.GetCustomersCustomerTaxIds(ctx, &GetCustomersCustomerTaxIdsInput{Customer: customerID})
		}, nil},
		{"create a tax ID", func(ctx context.Context) (any, error) {
			return c.PostCustomersCustomerTaxIds(ctx, &PostCustomersCustomerTaxIdsInput{Customer: customerID, Type: "eu_vat", Value: "DE123456789"})
		}, nil},
		{"create a payment intent with metadata, payment method types and expand", func(ctx context.Context) (any, error) {
			return c.PostPaymentIntents(ctx, &PostPaymentIntentsInput{
				Amount: 2000, Currency: "usd", Customer: ptr(customerID),
				Metadata:           map[string]string{"order_id": "6735"},
				PaymentMethodTypes: []string{"card"},
				Expand:             []string{"customer", "latest_charge"},
			})
		}, nil},
		{"retrieve a payment intent", func(ctx context.Context) (any, error) {
			return c.GetPaymentIntentsIntent(ctx, &GetPaymentIntentsIntentInput{Intent: intentID, Expand: []string{"customer"}})
		}, nil},
		{"update a payment intent", func(ctx context.Context) (any, error) {
			return c.PostPaymentIntentsIntent(ctx, &PostPaymentIntentsIntentInput{Intent: intentID, Description: ptr("updated"),
				Metadata: &PostPaymentIntentsIntentInputMetadata{StringMap: &map[string]string{"k": "v"}}})
		}, nil},
		{"confirm a payment intent", func(ctx context.Context) (any, error) {
			return c.PostPaymentIntentsIntentConfirm(ctx, &PostPaymentIntentsIntentConfirmInput{Intent: intentID, PaymentMethod: ptr("pm_card_visa")})
		}, nil},
		{"capture a payment intent", func(ctx context.Context) (any, error) {
			return c.PostPaymentIntentsIntentCapture(ctx, &PostPaymentIntentsIntentCaptureInput{Intent: intentID, AmountToCapture: ptr(int64(2000))})
		}, nil},
		{"cancel a payment intent", func(ctx context.Context) (any, error) {
			return c.PostPaymentIntentsIntentCancel(ctx, &PostPaymentIntentsIntentCancelInput{Intent: intentID})
		}, nil},
		{"list payment intents with a deepObject created query", func(ctx context.Context) (any, error) {
			return c.GetPaymentIntents(ctx, &GetPaymentIntentsInput{Customer: ptr(customerID), Limit: ptr(int64(2)),
				Created: &GetPaymentIntentsCreated{Int64: ptr(int64(1700000000))}})
		}, nil},
		{"search payment intents", func(ctx context.Context) (any, error) {
			return c.GetPaymentIntentsSearch(ctx, &GetPaymentIntentsSearchInput{Query: "status:'succeeded'"})
		}, nil},
		{"upload a file (multipart) with a file link", func(ctx context.Context) (any, error) {
			return c.PostFiles(ctx, &PostFilesInput{
				File:         &openapi.File{Filename: "evidence.pdf", ContentType: "application/pdf", Body: strings.NewReader("%PDF-1.4 retrygen")},
				Purpose:      "dispute_evidence",
				FileLinkData: &PostFilesInputFileLinkData{Create: true, Metadata: &PostFilesInputFileLinkDataMetadata{StringMap: &map[string]string{"case": "42"}}},
			})
		}, nil},
		{"retrieve a file", func(ctx context.Context) (any, error) {
			return c.GetFilesFile(ctx, &GetFilesFileInput{File: "file_123"})
		}, nil},
		{"list files", func(ctx context.Context) (any, error) { return c.GetFiles(ctx, &GetFilesInput{Limit: ptr(int64(1))}) }, nil},
		{"create a product", func(ctx context.Context) (any, error) {
			return c.PostProducts(ctx, &PostProductsInput{Name: "Gold plan", Metadata: map[string]string{"sku": "g-1"}, Images: []string{"https://example.com/a.png"}})
		}, nil},
		{"create a recurring price (nested object)", func(ctx context.Context) (any, error) {
			return c.PostPrices(ctx, &PostPricesInput{Currency: "usd", UnitAmount: ptr(int64(1500)), Product: ptr("prod_123"),
				Recurring: &PostPricesInputRecurring{Interval: PostPricesInputRecurringIntervalMonth, IntervalCount: ptr(int64(1))}})
		}, nil},
		{"list prices", func(ctx context.Context) (any, error) { return c.GetPrices(ctx, &GetPricesInput{Limit: ptr(int64(1))}) }, nil},
		{"create a subscription with an array of items", func(ctx context.Context) (any, error) {
			return c.PostSubscriptions(ctx, &PostSubscriptionsInput{Customer: ptr(customerID), Items: []PostSubscriptionsInputItemsItem{
				{Price: ptr("price_123"), Quantity: ptr(int64(2)), Metadata: map[string]string{"seat": "a"}},
				{Price: ptr("price_456")},
			}})
		}, nil},
		{"list subscriptions", func(ctx context.Context) (any, error) {
			return c.GetSubscriptions(ctx, &GetSubscriptionsInput{Customer: ptr(customerID)})
		}, nil},
		{"create a checkout session with line items", func(ctx context.Context) (any, error) {
			return c.PostCheckoutSessions(ctx, &PostCheckoutSessionsInput{Mode: ptr(PostCheckoutSessionsInputModePayment),
				SuccessUrl: ptr("https://example.com/ok"),
				LineItems:  []PostCheckoutSessionsInputLineItemsItem{{Price: ptr("price_123"), Quantity: ptr(int64(1))}}})
		}, nil},
		{"create an invoice item", func(ctx context.Context) (any, error) {
			return c.PostInvoiceitems(ctx, &PostInvoiceitemsInput{Customer: ptr(customerID), Amount: ptr(int64(500)), Currency: ptr("usd")})
		}, nil},
		{"refund a payment intent", func(ctx context.Context) (any, error) {
			return c.PostRefunds(ctx, &PostRefundsInput{PaymentIntent: ptr(intentID), Amount: ptr(int64(100))})
		}, nil},
		{"retrieve the balance", func(ctx context.Context) (any, error) { return c.GetBalance(ctx, &GetBalanceInput{}) }, nil},
		{"list charges with a deepObject created query", func(ctx context.Context) (any, error) {
			return c.GetCharges(ctx, &GetChargesInput{Created: &GetChargesCreated{GetChargesCreatedRangeQuerySpecs: &GetChargesCreatedRangeQuerySpecs{Gt: ptr(int64(1))}}})
		}, nil},
		{"list events of several types", func(ctx context.Context) (any, error) {
			return c.GetEvents(ctx, &GetEventsInput{Types: []string{"customer.created", "customer.deleted"}, Limit: ptr(int64(5))})
		}, nil},
	}
	require.GreaterOrEqual(t, len(calls), 25)
	for _, tc := range calls {
		t.Run(tc.name, func(t *testing.T) {
			out, err := tc.call(context.Background())
			require.NoError(t, err)
			testserver.RequireDecoded(t, v.last(), out)
			if tc.check != nil {
				tc.check(t, out)
			}
		})
	}
	fmt.Printf("STRIPE calls made %d, accepted by stripe-mock %d\n", v.sent, v.accepted)
	require.Equal(t, len(calls), v.sent)
	require.Equal(t, v.sent, v.accepted)
}

// TestStripeUnionKeepsUnknownMembers decodes stripe-mock's Customer with a
// member the spec does not list (APIs add fields): the Customer variant is
// still chosen, and the body survives decode and re-encode.
func TestStripeUnionKeepsUnknownMembers(t *testing.T) {
	c, v := newClient(t)
	_, err := c.GetCustomersCustomer(context.Background(), &GetCustomersCustomerInput{Customer: "cus_123"})
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(v.last(), &m))
	m["added_in_2027"] = map[string]any{"x": 1}
	b, err := json.Marshal(m)
	require.NoError(t, err)
	var u GetCustomersCustomerOutputBody
	require.NoError(t, json.Unmarshal(b, &u))
	require.NotNil(t, u.Customer, "an unknown member does not disqualify the Customer variant")
	require.Nil(t, u.DeletedCustomer)
	require.JSONEq(t, string(b), string(u.Raw), "Raw keeps the body as received")

	var none GetCustomersCustomerOutputBody
	err = json.Unmarshal([]byte(`{"id":"cus_1","object":"customer","deleted":false}`), &none)
	var ue *openapi.UnionError
	require.ErrorAs(t, err, &ue)
	require.Equal(t, "GetCustomersCustomerOutputBody", ue.Union)
}

// uuidV4 is the text form of a UUID version 4.
var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// TestStripeIdempotencyKeyRetry puts the fault proxy in front of
// stripe-mock and drops the connection after it has read the first POST:
// the call is retried (POST is retry-safe with an idempotency key) and both
// attempts carry the same Idempotency-Key, a fresh UUID v4.
func TestStripeIdempotencyKeyRetry(t *testing.T) {
	proxy := testserver.StartFaultProxy(t, testserver.StartStripeMock(t))
	proxy.Inject(testserver.Fault{Drop: true})
	// No keep-alive: net/http itself replays a request with an
	// Idempotency-Key on a reused connection; the runtime must do it here.
	transport := &http.Transport{DisableKeepAlives: true}
	c, err := New(proxy.URL, WithBearerToken(apiKey), func(o *Options) {
		o.HTTPClient = &http.Client{Transport: transport}
		o.Rand = func() float64 { return 0 } // no backoff sleep
	})
	require.NoError(t, err)
	in := &PostCustomersInput{Email: ptr("retry@example.com")}
	out, err := c.PostCustomers(context.Background(), in)
	require.NoError(t, err)
	require.Equal(t, 2, out.ResultMetadata.Attempts, "the POST was retried after the dropped connection")
	headers := proxy.Headers()
	require.Len(t, headers, 2)
	first, second := headers[0].Values("Idempotency-Key"), headers[1].Values("Idempotency-Key")
	require.Len(t, first, 1)
	require.Regexp(t, uuidV4, first[0])
	require.Equal(t, first, second, "the same key on both attempts")
	require.Equal(t, proxy.Bodies()[0], proxy.Bodies()[1], "the same body on both attempts")
	require.Len(t, proxy.Forwarded(), 1, "stripe-mock saw the second attempt")

	_, err = c.PostCustomers(context.Background(), in)
	require.NoError(t, err)
	third := proxy.Headers()[2].Get("Idempotency-Key")
	require.NotEqual(t, first[0], third, "each call has its own key")

	_, err = c.PostCustomers(context.Background(), in, func(o *Options) { o.IdempotencyKey = "order-6735" })
	require.NoError(t, err)
	require.Equal(t, "order-6735", proxy.Headers()[3].Get("Idempotency-Key"), "a key set by the caller is sent as it is")
	fmt.Printf("STRIPE idempotency key %s sent on both attempts\n", first[0])
}

// TestStripeListPages (issue 23): the list methods' paginators, declared
// by specs/stripe.overlay.yaml, send requests stripe-mock accepts. stripe-mock
// always answers has_more: false, so each iterator makes one call; paging
// for real is shown on a loopback server (golden/pages_test.go).
func TestStripeListPages(t *testing.T) {
	c, v := newClient(t)
	ctx := context.Background()
	pages := 0
	for page, err := range c.GetCustomersPages(ctx, &GetCustomersInput{Limit: ptr(int64(3)), StartingAfter: ptr("cus_123")}) {
		require.NoError(t, err)
		require.False(t, page.HasMore)
		pages++
	}
	require.Equal(t, 1, pages)
	items := 0
	for charge, err := range c.GetChargesItems(ctx, &GetChargesInput{Limit: ptr(int64(2))}) {
		require.NoError(t, err)
		require.NotEmpty(t, charge.Id)
		items++
	}
	require.Positive(t, items)
	require.Equal(t, 2, v.sent)
	require.Equal(t, 2, v.accepted)
}
