package kb

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mneme-archive/mneme/kb/xpath"
)

// Type is one application type (a CMS such as WordPress) of a category,
// with the patterns that identify it and its page levels.
type Type struct {
	ID       string // short name, e.g. "wordpress"
	Name     string // display name, e.g. "WordPress"
	Category string // blog, forum, wiki or cms
	Website  string
	// Detect identifies the type: any one pattern that is true suffices.
	Detect []*Pattern
	// SiteFiles are the type's evidence by the site's own files: a link
	// or an asset whose path holds one of these parts (WordPress's
	// /wp-content/uploads/) on any host of the page's registered domain
	// (a media subdomain, the site's CDN name) shows that the site runs
	// the application, though no asset of the page is on its host. On
	// another site's host it shows nothing: pages link to others' files.
	SiteFiles []*SiteFiles
	// Avoid lists patterns over a link's virtual document (its URL alone,
	// vdoc.ForURL): a link for which one is true is never followed.
	Avoid  []*Pattern
	Levels []*Level
	// File is where the type was loaded from.
	File string
	// Generic marks a category's generic type (Generic): its pages'
	// objects are found without patterns.
	Generic bool
}

// Level is one kind of page of an application type. Its navigation actions
// choose the links to follow; a terminal level also extracts objects.
type Level struct {
	Name     string
	Terminal bool
	Detect   []*Pattern
	Navigate []*Navigation
	Extract  []*Extraction
}

// Pattern is one XPath expression of the knowledge base with the line of
// the file it comes from.
type Pattern struct {
	*xpath.Expr
	Line int
}

// Navigation selects links (attribute values such as @href, or elements
// whose href is taken) that lead to pages of level Target. Its alternatives
// are tried in order; the first that selects something is used. A
// navigation that selects nothing is reported as a failure unless
// Optional (pagination, for instance, ends on the last page).
type Navigation struct {
	Select   []*Pattern
	Target   string
	Optional bool
}

// Extraction selects records (one node per object) and, relative to each
// record, the value of each field. Each field has alternatives tried in
// order. A field that no record yields is a failure unless Optional.
type Extraction struct {
	Object   ObjectKind
	Records  *Pattern
	Fields   map[Field][]*Pattern
	Optional map[Field]bool
}

// ObjectKind is the semantic type of extracted objects; Quads maps each
// to its ontology classes.
type ObjectKind string

// Object kinds.
const (
	BlogPost     ObjectKind = "blog-post"     // sioc:Post, sioct:BlogPost, schema:BlogPosting
	Comment      ObjectKind = "comment"       // sioc:Post, sioct:Comment, sioc:reply_of
	ForumPost    ObjectKind = "forum-post"    // sioc:Post, schema:DiscussionForumPosting
	WikiArticle  ObjectKind = "wiki-article"  // sioct:WikiArticle
	WikiRevision ObjectKind = "wiki-revision" // sioc:Post, dcterms:isVersionOf the article
	WebPage      ObjectKind = "page"          // schema:WebPage
)

var objectKinds = []ObjectKind{BlogPost, Comment, ForumPost, WikiArticle, WikiRevision, WebPage}

// Field names a property of an extracted object.
type Field string

// Fields and the ontology properties they map to.
const (
	FieldTitle      Field = "title"      // dcterms:title
	FieldAuthor     Field = "author"     // sioc:has_creator → sioc:UserAccount with sioc:name
	FieldAuthorURL  Field = "author_url" // the IRI of that sioc:UserAccount (a profile page)
	FieldDate       Field = "date"       // dcterms:created
	FieldModified   Field = "modified"   // dcterms:modified
	FieldContent    Field = "content"    // sioc:content, plain text
	FieldTags       Field = "tags"       // sioc:topic → sioct:Tag (every node selected)
	FieldCategories Field = "categories" // sioc:topic → sioct:Category (every node selected)
	FieldReplyTo    Field = "reply_to"   // sioc:reply_of: the id or URL of another object
	FieldID         Field = "id"         // dcterms:identifier; with no url, the IRI's fragment
	FieldURL        Field = "url"        // the object's permalink, its IRI
	FieldNote       Field = "note"       // sioc:note (a revision's edit summary)
	FieldVersionOf  Field = "version_of" // dcterms:isVersionOf (a revision's article)
)

var fields = []Field{FieldTitle, FieldAuthor, FieldAuthorURL, FieldDate, FieldModified, FieldContent,
	FieldTags, FieldCategories, FieldReplyTo, FieldID, FieldURL, FieldNote, FieldVersionOf}

// Level returns the level with the given name.
func (t *Type) Level(name string) *Level {
	for _, l := range t.Levels {
		if l.Name == name {
			return l
		}
	}
	return nil
}

// KB is a set of application types.
type KB struct {
	Types []*Type
}

//go:embed apps/*.yaml
var builtin embed.FS

// Builtin returns the knowledge base shipped with mneme (kb/apps, one file
// per application type).
func Builtin() (*KB, error) {
	return loadFS(builtin, "apps")
}

// LoadFiles reads application types from YAML files; a directory stands
// for its *.yaml files.
func LoadFiles(paths ...string) (*KB, error) {
	k := &KB{}
	var errs Errors
	for _, p := range paths {
		files := []string{p}
		if st, err := os.Stat(p); err != nil {
			return nil, err
		} else if st.IsDir() {
			files, err = filepath.Glob(filepath.Join(p, "*.yaml"))
			if err != nil {
				return nil, err
			}
		}
		for _, f := range files {
			r, err := os.Open(f)
			if err != nil {
				return nil, err
			}
			t, err := ParseType(f, r)
			r.Close()
			if es, ok := err.(Errors); ok {
				errs = append(errs, es...)
				continue
			} else if err != nil {
				return nil, err
			}
			t.File = f
			k.Types = append(k.Types, t)
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return k, k.checkUnique()
}

func loadFS(fsys fs.FS, dir string) (*KB, error) {
	names, err := fs.Glob(fsys, dir+"/*.yaml")
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	k := &KB{}
	for _, n := range names {
		r, err := fsys.Open(n)
		if err != nil {
			return nil, err
		}
		t, err := ParseType(path.Join("kb", n), r)
		r.Close()
		if err != nil {
			return nil, err
		}
		t.File = path.Join("kb", n)
		k.Types = append(k.Types, t)
	}
	return k, k.checkUnique()
}

func (k *KB) checkUnique() error {
	seen := map[string]string{}
	for _, t := range k.Types {
		if f, ok := seen[t.ID]; ok {
			return fmt.Errorf("%s: type %q already defined in %s", t.File, t.ID, f)
		}
		seen[t.ID] = t.File
	}
	return nil
}

// Type returns the application type with the given ID.
// Generic types are found by their IDs too.
func (k *KB) Type(id string) *Type {
	for _, t := range k.Types {
		if t.ID == id || strings.EqualFold(t.Name, id) {
			return t
		}
	}
	return genericByID(id)
}
