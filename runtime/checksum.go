package runtime

import (
	"fmt"
	"strconv"
	"strings"
)

// ChecksumError reports a 2xx response body whose CRC32 does not match the
// checksum header the service declares (Service.ChecksumHeader, DynamoDB's
// x-amz-crc32). The body was corrupted on the way: the attempt is a
// transient I/O failure, retried on retry-safe operations (§3; botocore
// does the same, aws-sdk-go-v2 only logs it).
type ChecksumError struct {
	// Header is the checksum header's name; Want its value (decimal CRC32,
	// or the header's text when it is not a number); Got the body's CRC32
	// (IEEE).
	Header string
	Want   string
	Got    uint32
}

// Error renders "response checksum mismatch: x-amz-crc32 is 123, body has 456".
func (e *ChecksumError) Error() string {
	return fmt.Sprintf("response checksum mismatch: %s is %s, body has %d", e.Header, e.Want, e.Got)
}

// verifyCRC32Sum checks got, the CRC32 (IEEE) of the body's bytes as
// received, against want, the checksum header's decimal value. It returns a
// *ChecksumError on a mismatch or when want is not a 32-bit decimal number.
func verifyCRC32Sum(header, want string, got uint32) error {
	w, err := strconv.ParseUint(strings.TrimSpace(want), 10, 32)
	if err != nil || uint32(w) != got {
		return &ChecksumError{Header: header, Want: want, Got: got}
	}
	return nil
}
