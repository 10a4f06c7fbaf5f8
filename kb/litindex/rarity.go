package litindex

// byteRarity is how rare each byte is in web pages, as -8·log2 of its
// frequency (ASCII letters folded to lower case): from the byte counts of
// the 260 pages of 24 MB in mneme's aah-pages sample. Anchors are chosen
// by it; it affects how often the filter passes, never what a scan finds.
var byteRarity = [256]uint8{
	196, 196, 196, 196, 196, 196, 196, 196, 196, 49, 52, 196, 196, 78, 196, 196,
	196, 196, 196, 196, 196, 196, 196, 196, 196, 196, 196, 196, 196, 196, 196, 196,
	27, 82, 42, 73, 102, 76, 62, 64, 68, 68, 92, 85, 58, 43, 48, 44,
	51, 53, 54, 58, 61, 60, 61, 63, 63, 64, 55, 57, 48, 49, 48, 84,
	97, 35, 51, 42, 43, 32, 50, 49, 47, 36, 68, 59, 40, 45, 38, 38,
	44, 64, 39, 37, 34, 45, 54, 53, 60, 58, 68, 81, 62, 81, 127, 60,
	162, 35, 51, 42, 43, 32, 50, 49, 47, 36, 68, 59, 40, 45, 38, 38,
	44, 64, 39, 37, 34, 45, 54, 53, 60, 58, 68, 73, 91, 73, 132, 196,
	95, 113, 109, 124, 116, 113, 120, 111, 115, 119, 116, 117, 118, 115, 118, 115,
	122, 119, 133, 115, 119, 116, 116, 123, 123, 108, 122, 116, 106, 120, 120, 105,
	107, 114, 126, 125, 86, 106, 100, 109, 113, 105, 118, 119, 119, 108, 117, 116,
	107, 114, 115, 110, 121, 115, 101, 121, 109, 110, 106, 112, 91, 113, 106, 115,
	196, 196, 96, 79, 117, 115, 147, 196, 196, 196, 196, 178, 142, 154, 188, 196,
	95, 106, 171, 196, 196, 196, 196, 196, 105, 108, 196, 196, 196, 196, 196, 196,
	88, 120, 98, 125, 109, 101, 105, 110, 111, 117, 178, 196, 178, 178, 154, 119,
	125, 196, 196, 196, 196, 196, 196, 196, 196, 196, 196, 196, 175, 196, 196, 196,
}

// Common reports whether every 4 bytes of l (ASCII letters folded) are
// among the most frequent 4-byte strings of web pages, as in "href",
// "</div>" or "https://www.": a literal most pages hold, whose
// occurrences a scan would stop at all over the page.
func Common(l string) bool {
	if len(l) < 4 {
		return false
	}
	for o := 0; o+4 <= len(l); o++ {
		if !commonGrams[keyAt(l, o, 4)] {
			return false
		}
	}
	return true
}

// commonGrams are the 512 most frequent 4-byte strings of web pages
// (ASCII letters folded to lower case), from the same sample as
// byteRarity: markup (clas, href, ps:/, </a>) and English (tion). An
// anchor starting with one makes the first filter pass wherever it
// occurs, so anchors are chosen to start with none where they can.
var commonGrams = map[uint64]bool{}

func init() {
	for _, g := range []string{
		"    ", "\t\t\t\t", "lass", "clas", "ass=", " cla", "ss=\"", "\n   ",
		"quot", "&quo", "uot;", "\\&qu", "\n\t\t\t", "http", "tion", "href",
		"ref=", " hre", "ttps", "   <", "tps:", "s://", "ps:/", "ef=\"",
		"</a>", "div>", "item", "/div", "\"htt", "<div", "</di", "div ",
		"span", ">\n  ", "cont", "=\"ht", "menu", "v cl", "iv c", "\t\t\t<",
		"a hr", "<a h", ">\n\t\t", "type", "scri", "crip", "ript", "onte",
		"nten", "-ite", "ment", "tent", "enu-", "ot;:", "f=\"h", "://w",
		"www.", "/www", ".com", "</li", "/li>", "/a><", "data", "><a ",
		"//ww", "text", "itle", "titl", "link", "iv>\n", "nu-i", "u-it",
		"le=\"", "\" cl", "post", "pan>", ",\\&q", "a></", "tem-", " id=",
		" dat", "ight", "id=\"", "ata-", "<spa", "com/", "/spa", "styl",
		"tyle", "ctio", "</sp", "-con", ".de/", "></l", "name", "  </",
		"atio", "\t\n\t\t", "pan ", "li>\n", "\t\t\n\t", "=\"me", ">\n</", " men",
		"li><", "ype=", "></d", "widt", "idth", "\t\t</", "colo", "n cl",
		"13;\n", "#13;", "&#13", "mage", "olor", "s=\"m", "imag", "\t\t\t\n",
		"\" da", "<li ", "load", "comm", "tle=", "an c", " rel", " tit",
		"\r\n  ", " typ", "\"></", "omme", "\"><a", "icon", "rel=", "ion ",
		"\">\n\t", "s=\"c", "ptio", "i cl", "iv><", "mmen", " src", "src=",
		"port", "\">\n ", "nter", "/wp-", "el=\"", "></s", ";\n  ", "head",
		"form", "grou", "ent-", ";\n\t\t", "/a>\n", " <di", "<li>", "ttp:",
		"pe=\"", "\" hr", "p://", "tp:/", "><di", "eigh", "\" ti", "arch",
		"lock", "\" />", "ent/", "meta", "der ", "\">\n<", "ipt>", " con",
		"emen", "\t\t<d", "an><", "size", "p-co", "font", "\t<di", "medi",
		"arge", "wp-c", "list", "ader", " />\n", "\"men", " the", "ink ",
		"bloc", "\n<di", "=\"co", "func", "f=\"/", "eade", "li c", "back",
		"rc=\"", "  <d", "-col", "ncti", "unct", "null", " </d", "er\">",
		"\n\t\t<", "der-", "\n<li", "><li", "heig", "><sp", "page", "ateg",
		"cate", "tton", "tego", "egor", " <a ", "butt", "\n</d", "3;\n\t",
		"arti", "\t</d", "ound", "utto", "></a", "v>\n<", "ding", "var ",
		"-pos", "targ", "rget", "ion-", "read", "line", "'htt", "over",
		">\n<l", " sty", "yle=", "ot;,", ".jpg", "/scr", "blog", ">\n<d",
		"dget", "</p>", ">\n\t<", "view", "fals", "ont-", ":nul", "s=\"s",
		"alse", "n></", "idge", "play", "tem ", "ent=", "0000", "ploa",
		"uplo", "itio", "the ", "orde", "user", "roun", "s=\"p", "<scr",
		"s=\"t", "eta ", "ext/", ".org", "html", "onta", "</sc", "widg",
		"rder", "\t<li", "edia", "gory", "i><a", "pres", "et=\"", "rtic",
		"<!--", "lor:", "opti", "dth:", "amp;", "prop", "&amp", "='ht",
		"nt=\"", "able", "siti", "-lin", "news", "me=\"", "e=\"t", "rent",
		"ame=", "ing ", ">\n<s", "/>\n<", "und ", "&#16", "earc", "sear",
		"160;", "#160", "t;:\\", "kgro", "essa", "sage", "ackg", ">&#1",
		"ckgr", "time", "mess", "iner", "\"><s", ";:\\&", ":\\&q", "/201",
		"img ", "ads/", "<met", "t;:n", ";:nu", " nam", "ssag", "\"tex",
		"ent ", "oads", "wrap", ";&#1", "icle", "ticl", "age-", "date",
		"and ", "ull,", "abel", "<lin", "i>\n<", "this", "ipt ", "m me",
		"ost-", "0;&#", "e\":\"", "<img", "labe", "foot", " in ", "tain",
		" und", "=\"te", "org/", "rans", "tran", " die", " ite", "60;&",
		"ght:", "/upl", "-wid", "get=", "site", "valu", "ject", "alue",
		"t;,\\", "pt>\n", "spla", "oter", ";,\\&", "bord", "\" co", "t ty",
		"them", "ext-", "orum", " ein", "foru", "orta", "oote", "aine",
		"disp", "leme", "   \n", " pro", " tar", " \n  ", "v></", "ter ",
		"inte", "true", "elem", "ispl", "tter", "ion(", "ntai", "ages",
		"an>\n", " alt", "bjec", "s/20", "k re", "d=\"m", " <li", "\"pos",
		" and", "nk r", "\n\n\t\t", "tant", " wid", "rtan", "stro", "  \n ",
		"\\u00", "ente", "i><l", "file", "ents", "obje", "mpor", "i>\n\t",
		"sche", "impo", "\r\n\t\t", " for", "ll,\\", "vasc", "l,\\&", "nbsp",
		"bsp;", "-nav", "temp", "e\"><", "s=\"f", "&nbs", "wind", "alt=",
		"ecti", "nt/u", "t/up", "/202", "ascr", "java", "v>\n\t", "rgin",
		"avas", "eine", "ion\"", " val", "ss='", "-typ", "aaaa", "left",
		"marg", "=\"po", "!-- ", " to ", "argi", "heme", "ress", "idde",
		"die ", "dden", "aria", " -->", "hidd", "s=\"a", "!imp", "acti",
		"shar", "und-", "\n\n  ", "ds/2", "none", "posi", "inde", "osit",
		"s=\"i", "info", "lt=\"", "goog", "c=\"h", "ions", "ich ", "ogle",
		"oogl", "v>\n ", "late", "ent.", "\" ta", ">\n\n\t", " der", "indo",
		"lank", "blan", "ndow", "tive", "tern", "stat", "ener", "-siz",
	} {
		commonGrams[keyAt(g, 0, 4)] = true
	}
}
