// Package builtin lists the platforms a campaign can name, for the
// programs that run campaigns (mneme social, the control API).
package builtin

import (
	"github.com/mneme-archive/mneme/social/bluesky"
	"github.com/mneme-archive/mneme/social/feed"
	"github.com/mneme-archive/mneme/social/importer"
	"github.com/mneme-archive/mneme/social/mastodon"
	"github.com/mneme-archive/mneme/social/platform"
	"github.com/mneme-archive/mneme/social/twitter"
)

// Platforms returns a fresh instance of every platform, by name. A new
// platform is one line here.
func Platforms() map[string]platform.Platform {
	all := []platform.Platform{
		feed.New(),
		importer.New(),
		&mastodon.Platform{},
		&twitter.Platform{},
		&bluesky.Platform{},
	}
	m := make(map[string]platform.Platform, len(all))
	for _, p := range all {
		m[p.Name()] = p
	}
	return m
}
