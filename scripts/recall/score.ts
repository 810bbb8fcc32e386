/**
 * Scans each case's fixture with our engine and scores it against the peer's expectation through the
 * mapping table: a case the peer expects to fire is caught when one of our mapped rules reports the
 * fixture's file, and one it expects quiet is quiet when none does. A case the table names as a deliberate
 * difference counts as a difference whatever we report (and is flagged as stale when we agree with the
 * peer after all).
 */
import { scanRepository } from '../../lib/engine/scan.js';
import type { Finding } from '../../lib/engine/types.js';
import type { Case, Peer, PeerReading } from './cases.js';
import { CHECKS, DIFFERENCES, type Difference } from './mapping.js';

export type Result = 'caught' | 'missed' | 'quiet' | 'false-alarm' | 'difference';

export interface Outcome {
  case: Case;
  result: Result;
  /** Our findings (any rule) on the case's file, for the reader of a miss. */
  found: Finding[];
  /** Our findings of the mapped rules on the case's file. */
  mapped: Finding[];
  difference?: Difference;
  /** A difference entry whose fixture now behaves as the peer expects. */
  stale?: boolean;
}

export interface CheckScore {
  check: string;
  ours: readonly string[];
  firesExpected: number;
  caught: number;
  firesDifferences: number;
  cleanExpected: number;
  quiet: number;
  cleanDifferences: number;
  unmeasured: number;
  /** Set when the check is not compared (the table says why, or it is missing from the table). */
  notCompared?: string;
}

export interface PeerScore {
  peer: Peer;
  outcomes: Outcome[];
  checks: CheckScore[];
  totals: { firesExpected: number; caught: number; firesDifferences: number; cleanExpected: number; quiet: number; cleanDifferences: number };
  staleDifferences: Difference[];
  /** Table entries naming a fixture the reading has no case for (renamed upstream, or a typo). */
  unmatchedDifferences: Difference[];
}

/** caught / (expected - differences), as a percentage with no decimals, or '-' when nothing is expected. */
export function rate(hit: number, expected: number, differences: number): string {
  const n = expected - differences;
  return n <= 0 ? '-' : `${Math.floor((100 * hit) / n)}%`;
}

export function score(reading: PeerReading, differences: readonly Difference[] = DIFFERENCES): PeerScore {
  const table = CHECKS[reading.peer];
  const scans = new Map<string, Finding[]>();
  const findingsOf = (c: Case): Finding[] => {
    let all = scans.get(c.unit.id);
    if (all === undefined) {
      all = scanRepository(c.unit.files, c.unit.ruleOptions === undefined ? {} : { ruleOptions: c.unit.ruleOptions }).findings;
      scans.set(c.unit.id, all);
    }
    return c.target === null ? all : all.filter((f) => f.file === c.target);
  };
  const peerDifferences = differences.filter((d) => d.peer === reading.peer);
  const used = new Set<Difference>();
  const outcomes: Outcome[] = [];
  for (const c of reading.cases) {
    const mapping = table[c.check];
    if (mapping === undefined || mapping.unmeasured !== undefined) continue;
    const found = findingsOf(c);
    const mapped = found.filter((f) => mapping.ours.includes(f.rule_id));
    const agrees = c.expect === 'fires' ? mapped.length > 0 : mapped.length === 0;
    const difference =
      peerDifferences.find((d) => d.check === c.check && (d.fixture === c.fixture || d.fixture === '*') && d.expect === c.expect) ??
      (mapping.difference === undefined || c.expect !== 'fires' ? undefined : { peer: reading.peer, check: c.check, fixture: '*', expect: 'fires' as const, reason: mapping.difference });
    if (difference !== undefined) used.add(difference);
    const result: Result = difference !== undefined && !agrees ? 'difference' : c.expect === 'fires' ? (agrees ? 'caught' : 'missed') : agrees ? 'quiet' : 'false-alarm';
    outcomes.push({ case: c, result, found, mapped, ...(difference === undefined ? {} : { difference, stale: agrees }) });
  }

  const checks = new Map<string, CheckScore>();
  const row = (check: string): CheckScore => {
    let r = checks.get(check);
    if (r === undefined) {
      const mapping = table[check];
      r = {
        check,
        ours: mapping?.ours ?? [],
        firesExpected: 0,
        caught: 0,
        firesDifferences: 0,
        cleanExpected: 0,
        quiet: 0,
        cleanDifferences: 0,
        unmeasured: 0,
        ...(mapping === undefined ? { notCompared: 'not in the mapping table (scripts/recall/mapping.ts)' } : mapping.unmeasured === undefined ? {} : { notCompared: mapping.unmeasured }),
      };
      checks.set(check, r);
    }
    return r;
  };
  for (const c of reading.cases) {
    const r = row(c.check);
    if (r.notCompared !== undefined) r.unmeasured++;
  }
  for (const u of reading.unmeasured) row(u.check).unmeasured++;
  for (const o of outcomes) {
    const r = row(o.case.check);
    if (o.case.expect === 'fires') {
      r.firesExpected++;
      if (o.result === 'caught') r.caught++;
      if (o.result === 'difference') r.firesDifferences++;
    } else {
      r.cleanExpected++;
      if (o.result === 'quiet') r.quiet++;
      if (o.result === 'difference') r.cleanDifferences++;
    }
  }
  const rows = [...checks.values()].sort((a, b) => a.check.localeCompare(b.check));
  const sum = (k: keyof PeerScore['totals']) => rows.reduce((n, r) => n + (r[k] as number), 0);
  return {
    peer: reading.peer,
    outcomes,
    checks: rows,
    totals: {
      firesExpected: sum('firesExpected'),
      caught: sum('caught'),
      firesDifferences: sum('firesDifferences'),
      cleanExpected: sum('cleanExpected'),
      quiet: sum('quiet'),
      cleanDifferences: sum('cleanDifferences'),
    },
    staleDifferences: outcomes.filter((o) => o.stale === true && o.difference?.fixture !== '*').map((o) => o.difference!),
    unmatchedDifferences: peerDifferences.filter((d) => !used.has(d)),
  };
}

/** The report, as lines of text. */
export function render(reading: PeerReading, s: PeerScore, options: { verbose?: boolean; check?: string } = {}): string[] {
  const out: string[] = [];
  const only = (check: string) => options.check === undefined || options.check === check;
  out.push(`${reading.peer}: ${reading.summary}`);
  out.push('');
  const head = `${'check (theirs)'.padEnd(44)}${'ours'.padEnd(34)}${'fires: caught/expected'.padEnd(28)}clean: quiet/expected`;
  out.push(head);
  const cell = (hit: number, expected: number, diff: number) => `${hit}/${expected - diff} ${rate(hit, expected, diff).padStart(4)}${diff > 0 ? ` +${diff} diff` : ''}`;
  for (const r of s.checks) {
    if (!only(r.check)) continue;
    if (r.notCompared !== undefined) continue;
    if (r.firesExpected + r.cleanExpected === 0) continue;
    const ours = r.ours.length === 0 ? '(none: a difference)' : r.ours.join(', ');
    out.push(`${r.check.padEnd(44)}${(ours.length > 32 ? `${ours.slice(0, 31)}…` : ours).padEnd(34)}${(r.firesExpected === 0 ? '-' : cell(r.caught, r.firesExpected, r.firesDifferences)).padEnd(28)}${r.cleanExpected === 0 ? '-' : cell(r.quiet, r.cleanExpected, r.cleanDifferences)}`);
  }
  const t = s.totals;
  out.push('');
  out.push(
    `all compared checks: caught ${t.caught}/${t.firesExpected - t.firesDifferences} (${rate(t.caught, t.firesExpected, t.firesDifferences)}), quiet ${t.quiet}/${t.cleanExpected - t.cleanDifferences} (${rate(t.quiet, t.cleanExpected, t.cleanDifferences)}); deliberate differences: ${t.firesDifferences} expected findings, ${t.cleanDifferences} expected silences`,
  );
  const notCompared = s.checks.filter((r) => r.notCompared !== undefined || (r.firesExpected + r.cleanExpected === 0 && r.unmeasured > 0));
  if (notCompared.length > 0) {
    out.push('');
    out.push('not compared:');
    for (const r of notCompared) if (only(r.check)) out.push(`  ${r.check}: ${r.notCompared ?? 'every expectation needs what the harness cannot reproduce (see below)'} (${r.unmeasured} expectations)`);
  }
  const unmeasured = new Map<string, number>();
  for (const u of reading.unmeasured) if (only(u.check) && CHECKS[reading.peer][u.check]?.unmeasured === undefined) unmeasured.set(u.why, (unmeasured.get(u.why) ?? 0) + 1);
  if (unmeasured.size > 0) {
    out.push('');
    out.push('expectations read but not compared:');
    for (const [why, n] of [...unmeasured].sort((a, b) => b[1] - a[1])) out.push(`  ${n} × ${why}`);
  }
  const describe = (o: Outcome) => {
    const theirs = o.case.where.join(', ');
    const ours = o.found.length === 0 ? 'nothing' : o.found.map((f) => `${f.rule_id} ${f.severity} L${f.line}`).filter((v, i, a) => a.indexOf(v) === i).join('; ');
    return `  ${o.case.check}  ${o.case.fixture}  (${theirs})\n      we report: ${ours}`;
  };
  const list = (title: string, result: Result) => {
    const items = s.outcomes.filter((o) => o.result === result && only(o.case.check));
    if (items.length === 0) return;
    out.push('');
    out.push(`${title} (${items.length}):`);
    for (const o of items) out.push(describe(o) + (o.difference === undefined ? '' : `\n      why: ${o.difference.reason}`));
  };
  list('misses: the peer expects a finding, none of our mapped rules reports the file', 'missed');
  list('false alarms: the peer expects silence, a mapped rule of ours reports the file', 'false-alarm');
  if (options.verbose === true) list('deliberate differences', 'difference');
  if (s.staleDifferences.length > 0) {
    out.push('');
    out.push('stale differences (we now agree with the peer; remove them from scripts/recall/mapping.ts):');
    for (const d of s.staleDifferences) out.push(`  ${d.check}  ${d.fixture}`);
  }
  if (s.unmatchedDifferences.length > 0) {
    out.push('');
    out.push('differences naming no case of this reading (renamed upstream?):');
    for (const d of s.unmatchedDifferences) out.push(`  ${d.check}  ${d.fixture}`);
  }
  if (options.verbose === true) {
    list('caught', 'caught');
    list('quiet', 'quiet');
    if (reading.unread.length > 0) {
      out.push('');
      out.push(`assertions not read as rule expectations (${reading.unread.length}):`);
      for (const u of reading.unread) out.push(`  ${u.where}  ${u.text}`);
    }
  }
  return out;
}
