/** "Did you mean" for mistyped names: the closest known name within a small edit distance, or none. */
export function suggest(input: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(input.length / 3)) + 1;
  for (const candidate of known) {
    const d = distance(input.toLowerCase(), candidate.toLowerCase(), bestDistance);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** ` (did you mean "x"?)`, or nothing when no name is close. */
export function didYouMean(input: string, known: Iterable<string>): string {
  const s = suggest(input, known);
  return s === undefined ? '' : ` (did you mean "${s}"?)`;
}

/** Levenshtein distance, giving up (returning `limit`) once it cannot be under `limit`. Inputs are short names. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit || a.length > 200 || b.length > 200) return limit;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin >= limit) return limit;
    previous = current;
  }
  return previous[b.length] ?? limit;
}
