package reverse

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// burst sends Metadata and ListOffsets requests from many goroutines at
// once on the session's one connection, so that they travel pipelined and
// the wire client must match every answer to its request by correlation id;
// each goroutine checks that it got the answer to its own request. It
// returns the number of requests sent.
func burst(ctx context.Context, s *session, topic string, end int64) (int, error) {
	const requests = 16
	errs := make([]error, requests)
	var wg sync.WaitGroup
	for i := range requests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				_, _, errs[i] = metadata(ctx, s, topic)
				return
			}
			got, err := listEnd(ctx, s, topic)
			if err == nil && got != end {
				err = fmt.Errorf("ListOffsets: end offset %d, want %d", got, end)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return 0, fmt.Errorf("pipelined requests: %w", err)
	}
	return requests, nil
}
