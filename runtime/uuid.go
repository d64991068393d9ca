package runtime

import (
	"crypto/rand"
	"encoding/hex"
)

// NewUUID returns a random UUID version 4 (RFC 9562 §5.4) in its 36-character
// text form, "xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx" with V one of 8, 9, a, b:
// 122 random bits from crypto/rand. It is the idempotency key the runtime
// sends when an operation declares one ([Operation.IdempotencyHeader]) and
// the token generated code fills into an empty idempotency token field (AWS
// ClientToken); AWS SDKs send the same form as amz-sdk-invocation-id.
// crypto/rand.Read does not fail (Go 1.24+), so neither does NewUUID.
func NewUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return formatUUIDv4(b)
}

// formatUUIDv4 sets the version (4) and variant (10xx) bits of b and
// writes it as 8-4-4-4-12 lower-case hex digits.
func formatUUIDv4(b [16]byte) string {
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:], b[10:])
	return string(out[:])
}
