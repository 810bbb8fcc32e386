import type { Action, Step, Workflow } from '../model/workflow.js';
import { logicalLines, scriptPipelines, type Pipeline, type ScriptSpan } from '../shell.js';
import type { YScalar } from '../yaml/model.js';
import { ScanCache, ScanMemo } from '../model/scan-cache.js';
import { flatMap } from '../model/arrays.js';

/**
 * The shared per-file reading of `run:` scripts (issue 15): every script of a workflow or composite action
 * once, with the trigger words it contains, so a rule skips the scripts (and whole files) that cannot hold
 * what it looks for in O(1) before any of its own regular expressions or shell splitting runs.
 *
 * A trigger word is a maximal run of ASCII word characters (`[A-Za-z0-9_]`, what `\b` sees), compared
 * lower-case. Each script is read twice in one linear pass: as written (`\bcurl\b` matches only where `curl`
 * is a word there) and with quotes and backslashes dropped (`c"ur"l`, `c\url` are `curl` to the shell, and to
 * `words()`/`commandName()` in shell.ts). So a mask test is a necessary condition of both a `\b` regular
 * expression over the script and a shell word: it may let through a script the rule then rejects, never the
 * reverse. Rules keep their own test after the mask where they had one (a mask is looser, not equal), so
 * gates never change a finding; they only skip work.
 *
 * Results hang off the model objects (WeakMaps), so they go when the scan drops its model.
 */

/** The words a rule can ask about. Hyphenated names are asked by a part (`write-host` by `host`). */
export const SCRIPT_WORDS = [
  // Downloads.
  'curl', 'wget', 'iwr', 'irm', 'webrequest', 'restmethod', 'downloadstring', 'downloaddata', 'downloadfile',
  // Installers and their verbs.
  'pip', 'pip3', 'uv', 'uvx', 'pipx', 'npm', 'pnpm', 'bun', 'yarn', 'npx', 'pnpx', 'go', 'cargo', 'gem',
  'install', 'i', 'in', 'isntall', 'add', 'dlx', 'run',
  // Publishing.
  'publish', 'upload', 'push', 'twine', 'poetry', 'hatch', 'flit', 'pdm', 'maturin', 'dotnet', 'nuget', 'mvn', 'mvnw',
  'gradle', 'gradlew', 'deploy', 'docker', 'podman', 'buildah', 'buildx', 'gh', 'release', 'goreleaser', 'nx',
  // Copies and downloads of what others built.
  'crane', 'skopeo', 'regctl', 'oras', 'pull', 'tag', 'download',
  // Signing.
  'cosign',
  // Printing and the environment.
  'echo', 'printf', 'print', 'puts', 'printenv', 'host', 'output', 'information', 'content', 'file', 'cat',
  'env', 'set', 'export', 'declare', 'secrets', 'token',
  // Archives.
  'tar', 'zip', '7z',
  // Version control (checkouts of pull request code in scripts).
  'git',
] as const;

export type ScriptWord = (typeof SCRIPT_WORDS)[number];

const BITS = 31;
const SLOTS = Math.ceil(SCRIPT_WORDS.length / BITS);

/** A set of trigger words as bits: `a` holds words 0-30, `b` 31-61, `c` 62-92. */
export interface WordMask {
  readonly a: number;
  readonly b: number;
  readonly c: number;
}

const WORD_ID = new Map<string, number>(SCRIPT_WORDS.map((w, i) => [w, i]));
const MAX_WORD = Math.max(...SCRIPT_WORDS.map((w) => w.length));

/** The mask of some trigger words (build it once, at module load). */
export function wordMask(...list: readonly ScriptWord[]): WordMask {
  const slots = [0, 0, 0];
  for (const word of list) {
    const id = WORD_ID.get(word);
    if (id === undefined) throw new Error(`not a trigger word: ${word}`);
    slots[Math.floor(id / BITS)] = (slots[Math.floor(id / BITS)] ?? 0) | (1 << id % BITS);
  }
  return { a: slots[0] ?? 0, b: slots[1] ?? 0, c: slots[2] ?? 0 };
}

/** True when `words` holds any word of `mask`. */
export function hasAny(words: WordMask, mask: WordMask): boolean {
  return ((words.a & mask.a) | (words.b & mask.b) | (words.c & mask.c)) !== 0;
}

/** True when `words` holds every word of `mask`. */
export function hasAll(words: WordMask, mask: WordMask): boolean {
  return (words.a & mask.a) === mask.a && (words.b & mask.b) === mask.b && (words.c & mask.c) === mask.c;
}

// Words are found by a hash of their lower-cased characters, computed while scanning (no substrings).
function hashOf(word: string): number {
  let h = 0;
  for (let i = 0; i < word.length; i++) h = (Math.imul(h, 31) + word.charCodeAt(i)) | 0;
  return h;
}

/**
 * The trigger words by hash, in an open-addressing table: most words of a script are not trigger words, and
 * telling so costs one or two typed-array reads (a Map lookup per word was most of the pass).
 */
const TABLE_BITS = 8;
const TABLE_MASK = (1 << TABLE_BITS) - 1;
const TABLE_HASH = new Int32Array(1 << TABLE_BITS);
/** The word id in each slot, or -1 for an empty slot. */
const TABLE_ID = new Int16Array(1 << TABLE_BITS).fill(-1);

/** A slot from the hash's high bits (Fibonacci hashing: the low bits mostly reflect the last character). */
function slotOf(hash: number): number {
  return Math.imul(hash, 0x9e3779b1) >>> (32 - TABLE_BITS);
}

/** The id of the trigger word with this hash, or -1. */
function idOfHash(hash: number): number {
  for (let slot = slotOf(hash); ; slot = (slot + 1) & TABLE_MASK) {
    const id = TABLE_ID[slot] as number;
    if (id === -1 || TABLE_HASH[slot] === hash) return id;
  }
}

for (const [i, word] of SCRIPT_WORDS.entries()) {
  const h = hashOf(word);
  const other = idOfHash(h);
  if (other !== -1) throw new Error(`trigger words ${word} and ${SCRIPT_WORDS[other]} collide`);
  let slot = slotOf(h);
  while (TABLE_ID[slot] !== -1) slot = (slot + 1) & TABLE_MASK;
  TABLE_HASH[slot] = h;
  TABLE_ID[slot] = i;
}
if (SLOTS > 3) throw new Error('too many trigger words for three mask slots');

/** The lower-case code of each ASCII word character, 0 for the other characters (a table: one read per character). */
const WORD_CODES = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  if (code >= 97 && code <= 122) WORD_CODES[code] = code;
  else if (code >= 65 && code <= 90) WORD_CODES[code] = code + 32;
  else if ((code >= 48 && code <= 57) || code === 95) WORD_CODES[code] = code;
}

/** 0 for other characters, else the lower-case code of a word character. */
function wordCode(code: number): number {
  return code < 128 ? (WORD_CODES[code] as number) : 0;
}

/** Quotes and backslashes: the shell drops them from words (`c"ur"l`, `c\url`). */
function isTransparent(code: number): boolean {
  return code === 0x22 || code === 0x27 || code === 0x5c;
}

/**
 * The trigger word whose hash is `hash`, if the `length` characters ending at `end` spell it (lower-cased; for
 * the joined reading, quotes and backslashes between them skipped): its id, else -1. A plain function (no
 * closure per call).
 */
function confirm(text: string, hash: number, end: number, length: number, joined: boolean): number {
  const id = idOfHash(hash);
  if (id === -1) return -1;
  const word = SCRIPT_WORDS[id] ?? '';
  if (word.length !== length) return -1;
  let k = word.length - 1;
  for (let i = end - 1; k >= 0 && i >= 0; i--) {
    const code = text.charCodeAt(i);
    if (joined && isTransparent(code)) continue;
    if (wordCode(code) !== word.charCodeAt(k)) return -1;
    k--;
  }
  return k >= 0 ? -1 : id;
}

/** The bit of word `id` in mask slot `slot` (0 for -1, no word, and for the other slots' words). */
function bitOf(id: number, slot: number): number {
  const bit = id - slot * BITS;
  return id !== -1 && bit >= 0 && bit < BITS ? 1 << bit : 0;
}

/** A word character, quote or backslash: the characters of a joined run. */
function inJoinedRun(code: number): boolean {
  return wordCode(code) !== 0 || isTransparent(code);
}

/** Where the joined run around `at` ends: the first character after it that is no word character, quote or backslash. */
function joinedRunEnd(text: string, at: number): number {
  let end = at;
  while (end < text.length && inJoinedRun(text.charCodeAt(end))) end++;
  return end;
}

/** True when `text[start, end)` holds a word character. */
function hasWordCharacter(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (wordCode(text.charCodeAt(i)) !== 0) return true;
  return false;
}

/**
 * The joined word (quotes and backslashes dropped) of the run ending at `end` that contains `at` (a quote or
 * backslash right after a word character): its trigger word id, else -1. Only runs that drop a character inside
 * or after a word differ from the words as written, and those are rare, so they are read here on their own
 * instead of hashing every word twice.
 */
function joinedWord(text: string, at: number, end: number): number {
  let start = at;
  while (start > 0 && inJoinedRun(text.charCodeAt(start - 1))) start--;
  let hash = 0;
  let length = 0;
  for (let i = start; i < end; i++) {
    const lower = wordCode(text.charCodeAt(i));
    if (lower === 0) continue;
    if (length <= MAX_WORD) hash = (Math.imul(hash, 31) + lower) | 0;
    length++;
  }
  return length <= MAX_WORD ? confirm(text, hash, end, length, true) : -1;
}

/**
 * The trigger words of a text, read as written and with quotes and backslashes dropped. Linear: one pass,
 * no allocation per word; a hash hit is confirmed against the text (lower-cased).
 */
export function scriptWords(text: string): WordMask {
  let a = 0;
  let b = 0;
  let c = 0;
  // The word as written so far.
  let hash = 0;
  let wordLength = 0;
  // Where the last joined run read by `joinedWord` ended: its later quotes are not read again.
  let joinedEnd = 0;
  const length = text.length;
  for (let i = 0; i <= length; i++) {
    const code = i < length ? text.charCodeAt(i) : 0;
    // `wordCode`, written out: before TurboFan optimizes this loop (which inlines it), a call per character.
    const lower = code < 128 ? (WORD_CODES[code] as number) : 0;
    if (lower !== 0) {
      if (wordLength <= MAX_WORD) hash = (Math.imul(hash, 31) + lower) | 0;
      wordLength++;
      continue;
    }
    if (wordLength === 0) continue;
    const plain = wordLength <= MAX_WORD ? confirm(text, hash, i, wordLength, false) : -1;
    a |= bitOf(plain, 0);
    b |= bitOf(plain, 1);
    c |= bitOf(plain, 2);
    hash = 0;
    wordLength = 0;
    if (i < length && i >= joinedEnd && isTransparent(code)) {
      joinedEnd = joinedRunEnd(text, i);
      // Only quotes after the word (`"$VAR"`, the common case): the joined word is the word as written.
      if (hasWordCharacter(text, i, joinedEnd)) {
        const joined = joinedWord(text, i, joinedEnd);
        a |= bitOf(joined, 0);
        b |= bitOf(joined, 1);
        c |= bitOf(joined, 2);
      }
    }
  }
  return { a, b, c };
}

const byCommand = new ScanMemo<string, WordMask>(50_000);

/**
 * `scriptWords` of one command of a script (a pipeline's command, shell.ts), read once per scan: the rules that
 * look for a fetch or an install in a command (pipe-to-shell, download-without-checksum, unpinned-package-install)
 * read the same commands.
 */
export function commandWords(command: string): WordMask {
  const known = byCommand.get(command);
  if (known !== undefined) return known;
  const found = scriptWords(command);
  byCommand.set(command, found);
  return found;
}

/** A `run:` script of a step, read once. */
export interface RunScript {
  step: Step;
  run: YScalar;
  text: string;
  /** The trigger words the script contains. */
  words: WordMask;
  /** Its logical lines (shell.ts, memoised per scan). */
  readonly lines: readonly ScriptSpan[];
  /** Its pipelines, every line's (shell.ts, memoised per scan). */
  readonly pipelines: readonly Pipeline[];
}

/** The scripts of a workflow (its reachable jobs) or composite action, and the words any of them contains. */
export interface FileScripts {
  scripts: readonly RunScript[];
  words: WordMask;
}

class Script implements RunScript {
  readonly words: WordMask;
  constructor(
    readonly step: Step,
    readonly run: YScalar,
    readonly text: string,
  ) {
    this.words = scriptWords(text);
  }
  get lines(): readonly ScriptSpan[] {
    return logicalLines(this.text);
  }
  get pipelines(): readonly Pipeline[] {
    return scriptPipelines(this.text);
  }
}

const byOwner = new ScanCache<Workflow | Action, FileScripts>();
const byStep = new ScanCache<Step, RunScript | null>();

function readStep(step: Step): RunScript | null {
  const run = step.run;
  const script = run !== undefined && typeof run.value === 'string' ? new Script(step, run, run.value) : null;
  byStep.set(step, script);
  return script;
}

/** Every `run:` script of a workflow or composite action, read once per model. */
export function fileScripts(owner: Workflow | Action): FileScripts {
  const cached = byOwner.get(owner);
  if (cached !== undefined) return cached;
  const scripts: RunScript[] = [];
  let a = 0;
  let b = 0;
  let c = 0;
  const steps = owner.kind === 'workflow' ? flatMap(owner.jobs, (job) => job.steps) : owner.steps;
  for (const step of steps) {
    const script = byStep.has(step) ? byStep.get(step) : readStep(step);
    if (script === null || script === undefined) continue;
    scripts.push(script);
    a |= script.words.a;
    b |= script.words.b;
    c |= script.words.c;
  }
  const result: FileScripts = { scripts, words: { a, b, c } };
  byOwner.set(owner, result);
  return result;
}

/** The `run:` script of a step (a string value), or null. */
export function scriptOf(step: Step): RunScript | null {
  const cached = byStep.get(step);
  if (cached !== undefined) return cached;
  if (byStep.has(step)) return null;
  return readStep(step);
}

/** True when some step's script in the file holds any word of `mask`: false means no script of the file can. */
export function fileHasAny(owner: Workflow | Action, mask: WordMask): boolean {
  return hasAny(fileScripts(owner).words, mask);
}
