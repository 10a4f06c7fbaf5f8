package nlp

import "strings"

// stopWords are English function words, left out of a text's terms.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`about above after again against all also although among and another any are
aren't around because been before being below between both but can cannot could couldn't did didn't does
doesn't doing don't down during each either else even ever every few for from further had hadn't has hasn't
have haven't having her here hers herself him himself his how however into isn't its itself just least less
many might more most much must mustn't near neither never nor not now off often once only onto other others
ought our ours ourselves out over own per perhaps quite rather said same say says shall she should shouldn't
since some still such than that the their theirs them themselves then there these they this those though
through thus too under until upon very was wasn't were weren't what whatever when where whether which while
who whom whose why will with within without won't would wouldn't yet you your yours yourself yourselves
get got one two three new like well back first last next way may also ago almost already always the and`) {
		m[w] = true
	}
	return m
}()
