package canon

import "testing"

func TestSURT(t *testing.T) {
	c := New(Options{})
	tests := []struct{ in, surt, scope string }{
		{"http://www.archive.org/index.html?q#f", "http://(org,archive,www,)/index.html?q", "http://(org,archive,www,)/index.html?q"},
		{"https://archive.org:8443/", "https://(org,archive,:8443)/", "http://(org,archive,:8443)/"},
		{"http://u:p@archive.org/", "http://(org,archive,@u:p)/", "http://(org,archive,@u:p)/"},
		{"http://127.0.0.1/x", "http://(127.0.0.1)/x", "http://(127.0.0.1)/x"},
		{"http://[::1]/", "http://([::1])/", "http://([::1])/"},
		{"http://bücher.ch/", "http://(ch,xn--bcher-kva,)/", "http://(ch,xn--bcher-kva,)/"},
		{"mailto:a@b.org", "mailto:a@b.org", "mailto:a@b.org"},
	}
	for _, tt := range tests {
		u, err := c.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := u.SURT(); got != tt.surt {
			t.Errorf("SURT(%q) = %q, want %q", tt.in, got, tt.surt)
		}
		if got := u.ScopeSURT(); got != tt.scope {
			t.Errorf("ScopeSURT(%q) = %q, want %q", tt.in, got, tt.scope)
		}
	}
}

func TestSURTPrefix(t *testing.T) {
	c := New(Options{})
	tests := []struct{ rule, want string }{
		{"http://www.example.org", "http://(org,example,www,"},
		{"http://www.example.org/", "http://(org,example,www,)/"},
		{"http://example.org/a/b.html", "http://(org,example,)/a/"},
		{"http://example.org/a/b.html?x=/y", "http://(org,example,)/a/"},
		{"https://example.org/a/", "http://(org,example,)/a/"},
		{"example.org", "http://(org,example,"},
		{"  +http://(org,example,  ", "http://(org,example,"},
		{"(ORG,Example,", "http://(org,example,"},
		{"https://(org,example,)/a", "http://(org,example,)/a"},
	}
	for _, tt := range tests {
		got, err := c.SURTPrefix(tt.rule)
		if err != nil || got != tt.want {
			t.Errorf("SURTPrefix(%q) = %q, %v; want %q", tt.rule, got, err, tt.want)
		}
	}
	for _, bad := range []string{"http://", "mailto:a@b.org"} {
		if p, err := c.SURTPrefix(bad); err == nil {
			t.Errorf("SURTPrefix(%q) = %q, want an error", bad, p)
		}
	}
}

// The expected keys are those of the Internet Archive's surt library
// (tests/test_surt.py and the canonicalizer tests it ports from Java).
func TestCDXKey(t *testing.T) {
	c := New(Options{})
	tests := []struct{ in, want string }{
		{"http://www.archive.org/", "org,archive)/"},
		{"http://archive.org/", "org,archive)/"},
		{"http://archive.org/goo/", "org,archive)/goo"},
		{"http://archive.org/goo/?", "org,archive)/goo"},
		{"http://archive.org/goo/?b&a", "org,archive)/goo?a&b"},
		{"http://archive.org/goo/?a=2&b&a=1", "org,archive)/goo?a=1&a=2&b"},
		{"http://archive.org/index.php?PHPSESSID=0123456789abcdefghijklemopqrstuv&action=profile;u=4221", "org,archive)/index.php?action=profile;u=4221"},
		{"whois://whois.isoc.org.il/shaveh.co.il", "il,org,isoc,whois)/shaveh.co.il"},
		{"http://visit.webhosting.yahoo.com/visit.gif?&r=http%3A//web.archive.org/web/20090517140029/http%3A//anthonystewarthead.electric-chi.com/&b=Netscape%205.0%20%28Windows%3B%20en-US%29&s=1366x768&o=Win32&c=24&j=true&v=1.2",
			"com,yahoo,webhosting,visit)/visit.gif?&b=netscape%205.0%20(windows;%20en-us)&c=24&j=true&o=win32&r=http://web.archive.org/web/20090517140029/http://anthonystewarthead.electric-chi.com/&s=1366x768&v=1.2"},
		{"mailto:foo@example.com", "mailto:foo@example.com"},
		{"dns:archive.org", "dns:archive.org"},
		{"http://ARCHIVE.ORG/", "org,archive)/"},
		{"http://www.archive.org:80/", "org,archive)/"},
		{"https://www.archive.org:80/", "org,archive:80)/"},
		{"http://www.archive.org:443/", "org,archive:443)/"},
		{"https://www.archive.org:443/", "org,archive)/"},
		{"http://www.archive.org/big/", "org,archive)/big"},
		{"http://www34.archive.org/index.html?b=a&b=b&a=b", "org,archive)/index.html?a=b&b=a&b=b"},
		{"http://www.alexa.com/", "com,alexa)/"},
		{"http://host/%25%32%35", "host)/%25"},
		{"http://host/%25%32%35%25%32%35", "host)/%25%25"},
		{"http://host/%2525252525252525", "host)/%25"},
		{"http://host/asdf%25%32%35asd", "host)/asdf%25asd"},
		{"http://host/%%%25%32%35asd%%", "host)/%25%25%25asd%25%25"},
		{"http://host/%257Ea%2521b%2540c%2523d%2524e%25f%255E00%252611%252A22%252833%252944_55%252B", "host)/~a!b@c%23d$e%25f^00&11*22(33)44_55+"},
		{"http://195.127.0.11/uploads/%20%20%20%20/.verify/.eBaysecure=updateuserdataxplimnbqmn-xplmvalidateinfoswqpcmlx=hgplmcx/", "11,0,127,195)/uploads/%20%20%20%20/.verify/.ebaysecure=updateuserdataxplimnbqmn-xplmvalidateinfoswqpcmlx=hgplmcx"},
		{"http://www.google.com/blah/..", "com,google)/"},
		{"http://host.com//twoslashes?more//slashes", "com,host)/twoslashes?more//slashes"},
		{"http://host.com/ab%23cd", "com,host)/ab%23cd"},
		{"http://B\u00fccher.ch:8080", "ch,xn--bcher-kva:8080)/"},
		{"http://example.com/(S(4hqa0555fwsecu455xqckv45))/mileg.aspx", "com,example)/mileg.aspx"},
		{"http://example.com/foo?X=Y", "com,example)/foo?x=y"},
	}
	for _, tt := range tests {
		u, err := c.Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got := u.CDXKey(); got != tt.want {
			t.Errorf("CDXKey(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
