package gencorpus

// The vocabulary of the model: common English first and last names,
// invented organisation stems with the kinds organisations are named
// after, real place names, and per topic the nouns and verbs its texts use.
var (
	firstNames = []string{"Maria", "Anna", "Laura", "Sofia", "Elena", "Clara", "Nora", "Julia", "Emma", "Lucia",
		"Hannah", "Grace", "Alice", "Irene", "Paula", "Rosa", "Helen", "Sarah", "Ines", "Marta",
		"David", "Thomas", "Peter", "Martin", "Daniel", "Samuel", "Victor", "Oscar", "Felix", "Hugo",
		"Jonas", "Lukas", "Simon", "Adrian", "Robert", "Michael", "Andrew", "Henry", "Arthur", "Leon"}
	lastNames = []string{"Keller", "Brennan", "Okafor", "Lindqvist", "Moreau", "Novak", "Ferreira", "Haddad", "Takahashi", "Kowalski",
		"Schmidt", "Rossi", "Jansen", "Petersen", "Dubois", "Alvarez", "Nakamura", "Ivanova", "Oyelaran", "Castellano",
		"Whitfield", "Harrington", "Blackwood", "Ashworth", "Pemberton", "Fairbanks", "Holloway", "Carrington", "Winslow", "Thornton",
		"Mbeki", "Adeyemi", "Sorensen", "Bergstrom", "Vasquez", "Delgado", "Fischer", "Hoffmann", "Moretti", "Esposito"}
	orgStems = []string{"Northwind", "Bluewater", "Greystone", "Silverline", "Redfield", "Brightwell", "Oakridge", "Harborview",
		"Westbrook", "Eastgate", "Stonebridge", "Clearwater", "Highland", "Riverside", "Goldcrest", "Ironwood",
		"Suncoast", "Maplehurst", "Cedarpoint", "Lakeshore", "Kingsbury", "Fernhill", "Ashford", "Windmere",
		"Pinecrest", "Rockport", "Seabright", "Millbrook", "Foxglove", "Larkspur"}
	orgKinds = []string{"Trading", "Holdings", "Foundation", "Group", "Institute", "Bank", "Industries", "Partners",
		"Labs", "Motors", "Media", "Systems", "Society", "Council", "Association"}
	places = []string{"Rotterdam", "Hamburg", "Lisbon", "Marseille", "Gdansk", "Valencia", "Antwerp", "Genoa",
		"Bergen", "Tallinn", "Porto", "Naples", "Dublin", "Glasgow", "Bilbao", "Trieste", "Aarhus", "Gothenburg",
		"Bordeaux", "Seville", "Krakow", "Leipzig", "Utrecht", "Turin"}
	weekdays   = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	months     = []string{"January", "February", "March", "April", "June", "July", "August", "September", "October", "November", "December"}
	acronyms   = []string{"GDP", "HTML", "GPS", "PDF", "CEO pay", "VAT", "the FAQ", "DIY"}
	adjectives = []string{"new", "old", "small", "large", "quiet", "busy", "simple", "complex", "early", "late",
		"local", "remote", "public", "private", "modern", "classic", "rare", "common", "long", "short"}
	commenters = []string{"reader42", "harbourwatcher", "jmk", "anon", "fieldnotes", "oldtimer"}
	chatter    = []string{"Thanks for the post.", "I read this twice.", "Interesting, but I am not sure.",
		"Does anyone have a link to the report?", "We discussed this at lunch.", "More of these, please.",
		"This reminds me of last year.", "Hard to say what happens next."}
	// Opinion forms; {E} is the entity, {N} a noun of its topic.
	praise = []string{"{E} did a good job with the {N}.", "I like how {E} handled the {N}.",
		"Many readers appreciated the work of {E} on the {N}.", "{E} made a helpful contribution to the {N}."}
	strongPraise = []string{"{E} did a wonderful, brilliant job with the {N}!", "Thank you {E}, the {N} is excellent and inspiring.",
		"{E} deserves great praise: the {N} is a fantastic success.", "I love what {E} did, the {N} is amazing."}
	blame = []string{"{E} did a poor job with the {N}.", "I am not happy with how {E} handled the {N}.",
		"Some readers doubted the work of {E} on the {N}.", "{E} made a weak contribution to the {N}."}
	strongBlame = []string{"{E} made a terrible, disgraceful mess of the {N}!", "Shame on {E}, the {N} is an awful failure.",
		"{E} deserves harsh criticism: the {N} is a horrible disaster.", "I hate what {E} did, the {N} is a corrupt scandal."}
)

// topic is the vocabulary of one topic.
type topic struct {
	nouns, verbs []string
}

var topics = []topic{
	{[]string{"harbor", "cargo", "ship", "container", "port", "freight", "dock", "ferry", "crane", "route"},
		[]string{"expanded", "reviewed", "delayed", "financed", "inspected", "rebuilt"}},
	{[]string{"match", "season", "league", "stadium", "coach", "striker", "goal", "transfer", "squad", "final"},
		[]string{"won", "lost", "planned", "changed", "celebrated", "questioned"}},
	{[]string{"experiment", "laboratory", "study", "telescope", "vaccine", "genome", "theory", "sample", "grant", "journal"},
		[]string{"published", "tested", "measured", "funded", "confirmed", "challenged"}},
	{[]string{"recipe", "restaurant", "bakery", "menu", "harvest", "market", "kitchen", "wine", "bread", "cheese"},
		[]string{"opened", "tasted", "cooked", "served", "priced", "closed"}},
	{[]string{"election", "parliament", "budget", "reform", "minister", "campaign", "vote", "policy", "coalition", "tax"},
		[]string{"proposed", "blocked", "debated", "approved", "rejected", "defended"}},
	{[]string{"album", "concert", "festival", "orchestra", "tour", "song", "guitar", "stage", "band", "record"},
		[]string{"released", "performed", "recorded", "cancelled", "announced", "praised"}},
}
