package runtime

import (
	"context"
	"errors"
	"net/http"
)

type state struct{}

func newClient(svc *Service, endpoint string, opts Options) (*Client, error) {
	return nil, errors.New("not implemented")
}

func (c *Client) do(ctx context.Context, op *Operation, req *Request, opts *Options, decode func(*http.Response) error) (ResponseMetadata, error) {
	return ResponseMetadata{}, errors.New("not implemented")
}
