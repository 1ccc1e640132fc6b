package reverse

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestRun runs the reverse direction against an in-process kfake.
func TestRun(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	detail, err := Run(ctx, 20)
	require.NoError(t, err)
	t.Log(detail)
}
