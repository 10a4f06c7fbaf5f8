package synthweb

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// serveAsset answers the stylesheets, scripts and images the demo sites'
// pages embed, by the extension of the path (or MediaWiki's
// load.php?only=styles): small deterministic files, so that a crawl
// fetches embeds as it would on a real site.
func serveAsset(w http.ResponseWriter, r *http.Request) {
	ext := path.Ext(r.URL.Path)
	if r.URL.Query().Get("only") == "styles" {
		ext = ".css"
	}
	w.Header().Set("Cache-Control", "max-age=31536000")
	switch ext {
	case ".css":
		writeText(w, "text/css; charset=utf-8", stylesheet(r.URL.Path))
	case ".js":
		writeText(w, "application/javascript; charset=utf-8", fmt.Sprintf("/* %s */\n(function(){'use strict';document.documentElement.className=document.documentElement.className.replace('no-js','js');})();\n", r.URL.Path))
	case ".png", ".gif", ".jpg", ".ico":
		b := pngFor(r.URL.Path)
		w.Header().Set("Content-Type", "image/png")
		w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		w.Write(b)
	default:
		http.NotFound(w, r)
	}
}

// stylesheet is a few rules, with one background image relative to the
// sheet, as themes have.
func stylesheet(p string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "/* %s */\n", p)
	for i, sel := range []string{"body", ".site-header", ".entry-title", ".comment-body", ".postbody", "#content", ".widget", "a:hover"} {
		fmt.Fprintf(&b, "%s {\n\tmargin: 0 0 %dpx;\n\tcolor: #%06x;\n\tline-height: 1.%d;\n}\n", sel, 4*i, (i*0x2f3b1d)&0xffffff, 5+i%4)
	}
	b.WriteString(".site-branding {\n\tbackground: url(images/header-bg.png) no-repeat top left;\n}\n")
	return b.String()
}

// pngFor draws a 24×24 two-colour image picked by the path.
func pngFor(p string) []byte {
	h := fnv.New32a()
	h.Write([]byte(p))
	v := h.Sum32()
	img := image.NewPaletted(image.Rect(0, 0, 24, 24), color.Palette{
		color.RGBA{uint8(v), uint8(v >> 8), uint8(v >> 16), 255},
		color.RGBA{uint8(v >> 16), uint8(v >> 24), uint8(v), 255},
	})
	for y := range 24 {
		for x := range 24 {
			if (x/6+y/6)%2 == 0 {
				img.SetColorIndex(x, y, 1)
			}
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}
