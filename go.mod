module github.com/mneme-archive/mneme

go 1.26.0

require (
	github.com/antchfx/htmlquery v1.3.4
	github.com/antchfx/xpath v1.3.5
	github.com/google/uuid v1.3.0
	github.com/nlnwa/gowarc v1.6.0
	github.com/nlnwa/whatwg-url v0.6.2
	github.com/spf13/cobra v1.10.2
	go.yaml.in/yaml/v3 v3.0.4
	golang.org/x/net v0.62.0
	golang.org/x/sys v0.49.0
)

require (
	github.com/bits-and-blooms/bitset v1.20.0 // indirect
	github.com/golang/groupcache v0.0.0-20210331224755-41bb18bfe9da // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/klauspost/compress v1.15.12 // indirect
	github.com/kr/text v0.2.0 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/prometheus/prometheus v0.40.3 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	golang.org/x/text v0.43.0 // indirect
)
