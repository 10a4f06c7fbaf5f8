package campaign

import (
	"fmt"
	"os"
	"time"
)

var markT0 = time.Now()

func Mark(s string) { fmt.Fprintf(os.Stderr, "MARK %d %s\n", time.Since(markT0).Milliseconds(), s) }
