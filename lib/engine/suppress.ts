import { LIVE_RULES, ONLINE_ONLY_RULES } from './rules/index.js';
import type { FindingRecord, RepositoryFile } from './types.js';
import { SourceFile } from './yaml/source.js';

/*
 * Suppression comments: `# chainbreaker: ignore[rule-a,rule-b]` (or a bare `ignore`) on a finding's line,
 * or alone on the line above it. A file's directives are parsed once, in one linear pass over its text
 * (no regular expression that can backtrack over a hostile line), then each finding is a map lookup.
 * The index also remembers which directives matched, so unused ones can be reported.
 */

/** One suppression comment: its line, the rules it names (`all` for a bare `ignore`), and whether it is alone on its line. */
export interface Directive {
  line: number;
  rules: readonly string[] | 'all';
  /** The comment is the whole line (only then does it also cover the line below). */
  standalone: boolean;
}

/** A directive that suppressed nothing, or one of whose rules suppressed nothing. */
export interface UnusedSuppression {
  file: string;
  line: number;
  /** The unused rule ids, or `all` for a bare `ignore` that matched nothing. */
  rules: readonly string[] | 'all';
}

const MARK = 'chainbreaker:';
const IGNORE = 'ignore';

export function isSpace(code: number): boolean {
  // The characters of the regular expression class \s (and of String.prototype.trim).
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

function skipSpaces(text: string, from: number, end: number): number {
  let i = from;
  while (i < end && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** Case-insensitive (ASCII) comparison of `word` (lower case) at `at`. */
function wordAt(text: string, at: number, end: number, word: string): boolean {
  if (at + word.length > end) return false;
  for (let k = 0; k < word.length; k++) {
    const c = text.charCodeAt(at + k);
    const lower = c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
    if (lower !== word.charCodeAt(k)) return false;
  }
  return true;
}

/**
 * The first directive in `text[start, end)`: the rules it names, `all`, or null for none. Linear in the
 * length of the range: each `#` is looked at once and the spaces after it belong to it alone.
 */
export function parseDirective(text: string, start = 0, end = text.length): readonly string[] | 'all' | null {
  let i = text.indexOf('#', start);
  while (i !== -1 && i < end) {
    let j = skipSpaces(text, i + 1, end);
    if (wordAt(text, j, end, MARK)) {
      j = skipSpaces(text, j + MARK.length, end);
      if (wordAt(text, j, end, IGNORE)) {
        j += IGNORE.length;
        if (text.charCodeAt(j) === 0x5b /* [ */ && j < end) {
          let close = j + 1;
          while (close < end && text.charCodeAt(close) !== 0x5d /* ] */) close++;
          if (close < end) {
            return text
              .slice(j + 1, close)
              .split(',')
              .map((id) => id.trim())
              .filter((id) => id !== '');
          }
        }
        return 'all';
      }
    }
    // The next candidate: a `#` further on (the one at j, if any, is found by indexOf).
    i = text.indexOf('#', i + 1);
  }
  return null;
}

/** The directives of one file, parsed once, with the record of which rules each suppressed. */
export class SuppressionIndex {
  readonly file: string;
  readonly directives: readonly Directive[];
  // Both made only for a file with directives (few are): a scan makes an index for every file.
  readonly #byLine: Map<number, Directive> | null = null;
  /** Per directive line: the rule ids it suppressed. */
  readonly #used: Map<number, Set<string>> | null = null;

  constructor(file: SourceFile) {
    this.file = file.path;
    const directives: Directive[] = [];
    const text = file.text;
    // Most files have no directive at all: one pass over the text's `#`s (much cheaper than a case-insensitive
    // search of the whole text) says so before the line by line reading. A directive on a line is a directive
    // in the whole text, so nothing is missed.
    if (parseDirective(text) !== null) {
      const byLine = new Map<number, Directive>();
      let line = 1;
      let start = 0;
      let hash = text.indexOf('#');
      while (start <= text.length) {
        const newline = text.indexOf('\n', start);
        let end = newline === -1 ? text.length : newline;
        if (end > start && text.charCodeAt(end - 1) === 0x0d) end--;
        if (hash !== -1 && hash < start) hash = text.indexOf('#', start);
        const rules = hash !== -1 && hash < end ? parseDirective(text, start, end) : null;
        if (rules !== null) {
          const first = skipSpaces(text, start, end);
          const directive = { line, rules, standalone: text.charCodeAt(first) === 0x23 /* # */ };
          directives.push(directive);
          byLine.set(line, directive);
        }
        if (newline === -1) break;
        start = newline + 1;
        line++;
      }
      if (byLine.size > 0) {
        this.#byLine = byLine;
        this.#used = new Map();
      }
    }
    this.directives = directives;
  }

  /**
   * True when a directive covers `ruleId` on `line` (on the line itself, or alone on the line above),
   * and records the match.
   */
  match(line: number, ruleId: string): boolean {
    if (line < 1 || this.#byLine === null) return false;
    const here = this.#byLine.get(line);
    if (here !== undefined && covers(here, ruleId)) return this.#use(here, ruleId);
    const above = this.#byLine.get(line - 1);
    if (above !== undefined && above.standalone && covers(above, ruleId)) return this.#use(above, ruleId);
    return false;
  }

  #use(directive: Directive, ruleId: string): true {
    // A directive was matched, so the file has directives and the map exists.
    const usedByLine = this.#used!;
    const used = usedByLine.get(directive.line);
    if (used === undefined) usedByLine.set(directive.line, new Set([ruleId]));
    else used.add(ruleId);
    return true;
  }

  /** The rule ids the directive on `line` suppressed so far. */
  usedAt(line: number): ReadonlySet<string> {
    return this.#used?.get(line) ?? new Set();
  }

  /** Directives naming rule ids `known` rejects (typos), with those ids. */
  unknown(known: (ruleId: string) => boolean): UnusedSuppression[] {
    return this.directives.flatMap((d) => {
      const unknown = d.rules === 'all' ? [] : d.rules.filter((id) => !known(id));
      return unknown.length > 0 ? [{ file: this.file, line: d.line, rules: unknown }] : [];
    });
  }

  /**
   * Directives (or rule ids in them) that suppressed nothing. Rule ids for which `ran` is false are not
   * reported: a rule that did not run could not have matched.
   */
  unused(ran: (ruleId: string) => boolean): UnusedSuppression[] {
    const out: UnusedSuppression[] = [];
    for (const d of this.directives) {
      const used = this.#used?.get(d.line);
      if (d.rules === 'all') {
        if (used === undefined) out.push({ file: this.file, line: d.line, rules: 'all' });
        continue;
      }
      const unusedRules = d.rules.filter((id) => ran(id) && !(used?.has(id) ?? false));
      if (unusedRules.length > 0) out.push({ file: this.file, line: d.line, rules: unusedRules });
    }
    return out;
  }
}

/** True when `# chainbreaker: ignore[rule]` (or a bare `ignore`) is on the finding's line, or alone on the line above it. */
export function isSuppressed(file: SourceFile, line: number, ruleId: string): boolean {
  return new SuppressionIndex(file).match(line, ruleId);
}

function covers(directive: Directive, ruleId: string): boolean {
  return directive.rules === 'all' || directive.rules.includes(ruleId);
}

/** A scan's findings and suppression bookkeeping, as `joinExtraRecords` reads and returns them. */
export interface SuppressedRecords {
  records: FindingRecord[];
  suppressed: number;
  unusedSuppressions: UnusedSuppression[];
}

/**
 * Joins findings made outside the engine (the online audits) to a scan's: the same suppression comments
 * apply to them (a match counts as a use of the comment, so it is no longer reported unused), and an extra
 * finding with the fingerprint of one of the scan's (same rule and file) replaces it, so one `uses:` is never
 * reported twice. The records come back unsorted.
 */
export function joinExtraRecords(scan: SuppressedRecords, files: readonly RepositoryFile[], extra: readonly FindingRecord[]): SuppressedRecords {
  if (extra.length === 0) return scan;
  const indexes = new Map<string, SuppressionIndex>();
  const indexOf = (path: string): SuppressionIndex | null => {
    let index = indexes.get(path);
    if (index === undefined) {
      const file = files.find((f) => f.path === path);
      if (file === undefined) return null;
      index = new SuppressionIndex(new SourceFile(file.path, file.text));
      indexes.set(path, index);
    }
    return index;
  };
  let suppressed = scan.suppressed;
  const kept: FindingRecord[] = [];
  const key = (r: FindingRecord) => `${r.finding.rule_id}\0${r.finding.file}\0${r.fingerprint}`;
  const offline = new Set(scan.records.map(key));
  // Read at the call (rules/index.ts imports this module's users: no value of it at load time).
  const online: ReadonlySet<string> = new Set([...ONLINE_ONLY_RULES, ...LIVE_RULES]);
  for (const record of extra) {
    // A rule the engine judges offline is only amended (a tag GitHub says is an immutable release's): its
    // online finding replaces the scan's of that fingerprint, and is dropped where the scan has none (not
    // reported, or suppressed there already), so the online pass never raises one.
    if (!online.has(record.finding.rule_id)) {
      if (offline.has(key(record))) kept.push(record);
    } else if (indexOf(record.finding.file)?.match(record.finding.line, record.finding.rule_id) === true) suppressed++;
    else kept.push(record);
  }
  const replaced = new Set(kept.map(key));
  const records = [...scan.records.filter((r) => !replaced.has(`${r.finding.rule_id}\0${r.finding.file}\0${r.fingerprint}`)), ...kept];
  const unusedSuppressions = scan.unusedSuppressions.flatMap((u) => {
    const used = indexes.get(u.file)?.usedAt(u.line);
    if (used === undefined || used.size === 0) return [u];
    if (u.rules === 'all') return [];
    const rules = u.rules.filter((id) => !used.has(id));
    return rules.length === 0 ? [] : [{ ...u, rules }];
  });
  return { records, suppressed, unusedSuppressions };
}
