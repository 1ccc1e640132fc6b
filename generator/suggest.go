package generator

import "strings"

// closestName is the candidate nearest to name (edit distance, ignoring
// case), for a "did you mean" hint, or "" when none is near enough: at
// most a third of name's letters (and at least one) may differ.
func closestName(name string, candidates []string) string {
	limit := max(1, len(name)/3)
	best, bestDist := "", limit+1
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(name), strings.ToLower(c)); d < bestDist || d == bestDist && c < best {
			best, bestDist = c, d
		}
	}
	if bestDist > limit {
		return ""
	}
	return best
}

// editDistance is the number of insertions, deletions, substitutions and
// swaps of two neighbours that turn a into b (optimal string alignment
// distance, in bytes): a swap is the commonest typo.
func editDistance(a, b string) int {
	// back, prev and cur are the rows of a[:i-2], a[:i-1] and a[:i].
	back, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], back[j-2]+1)
			}
		}
		back, prev, cur = prev, cur, back
	}
	return prev[len(b)]
}
