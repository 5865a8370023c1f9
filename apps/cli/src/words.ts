// Words: a command line split as a shell would, and near-misses for "did you mean".
/** Splits a command line into words: spaces separate, single and double quotes group, `\` escapes. No shell is involved. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let current = "";
  let quote: '"' | "'" | undefined;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === "\\" && quote === '"' && i + 1 < line.length) current += line[++i];
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      started = true;
    } else if (char === "\\" && i + 1 < line.length) {
      current += line[++i];
      started = true;
    } else if (/\s/.test(char)) {
      if (started || current) words.push(current);
      current = "";
      started = false;
    } else {
      current += char;
      started = true;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} quote in ${JSON.stringify(line)}`);
  if (started || current) words.push(current);
  return words;
}

/** Edit distance (Levenshtein), for "did you mean". */
export function distance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0]!;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j]!;
      previous[j] = Math.min(above + 1, previous[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length]!;
}

/** The closest `candidates` to `word` (at most `count`), nearest first; only plausible ones. */
export function closest(word: string, candidates: string[], count = 3): string[] {
  const lower = word.toLowerCase();
  return candidates
    .map((candidate) => {
      const c = candidate.toLowerCase();
      const score = c.includes(lower) || lower.includes(c) ? 0 : distance(lower, c);
      return { candidate, score };
    })
    .filter(({ candidate, score }) => score <= Math.max(2, Math.floor(Math.max(word.length, candidate.length) / 3)))
    .sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
    .slice(0, count)
    .map(({ candidate }) => candidate);
}
