module github.com/mneme-archive/mneme

go 1.26.0

require (
	github.com/nlnwa/whatwg-url v0.6.2
	golang.org/x/net v0.62.0
)

require (
	github.com/bits-and-blooms/bitset v1.20.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
