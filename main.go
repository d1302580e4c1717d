// Command limitscope watches, diagnoses and tunes adaptive concurrency
// limiters. See README.md.
package main

import (
	"os"

	"github.com/limitscope/limitscope/cmd"
)

func main() { os.Exit(cmd.Execute()) }
