module github.com/mneme-archive/mneme

go 1.26
