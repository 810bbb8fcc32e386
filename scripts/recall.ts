/**
 * The recall harness (docs/recall.md): reads a peer scanner's own test fixtures and expectations from a
 * checkout of its repository, maps its checks to ours through the reviewed table in
 * scripts/recall/mapping.ts, scans every fixture with our engine and prints, per check, how many of the
 * peer's expected findings we report and how many of its expected silences we keep, then every miss and
 * false alarm with what we report instead.
 *
 *   npm run recall -- <zizmor|pipefort|poutine> <checkout> [--check <id>] [--verbose] [--json <file>]
 *
 * Nothing of the peer is copied into the project: the checkout is read in place.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PEERS, type Peer, type PeerReading, RecallInputError } from './recall/cases.js';
import { oursFor } from './recall/mapping.js';
import { readPipefort } from './recall/pipefort.js';
import { readPoutine } from './recall/poutine.js';
import { render, score } from './recall/score.js';
import { readZizmor } from './recall/zizmor.js';

const USAGE = 'usage: npm run recall -- <zizmor|pipefort|poutine> <checkout of that peer> [--check <id>] [--verbose] [--json <file>]';

export async function read(peer: Peer, dir: string): Promise<PeerReading> {
  switch (peer) {
    case 'zizmor':
      return readZizmor(dir, (audit) => [...oursFor('zizmor', audit)]);
    case 'pipefort':
      return readPipefort(dir);
    case 'poutine':
      return readPoutine(dir);
  }
}

export async function main(argv: string[], log: (line: string) => void = console.log, fail: (line: string) => void = console.error): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { check: { type: 'string' }, verbose: { type: 'boolean' }, json: { type: 'string' } } });
  } catch (e) {
    fail(`${(e as Error).message}; ${USAGE}`);
    return 2;
  }
  const [peer, dir] = parsed.positionals;
  if (peer === undefined || dir === undefined || parsed.positionals.length > 2) {
    fail(USAGE);
    return 2;
  }
  if (!(PEERS as readonly string[]).includes(peer)) {
    fail(`unknown peer ${JSON.stringify(peer)}: one of ${PEERS.join(', ')}`);
    return 2;
  }
  let reading: PeerReading;
  try {
    reading = await read(peer as Peer, resolve(dir));
  } catch (e) {
    if (e instanceof RecallInputError) {
      fail(e.message);
      return 2;
    }
    throw e;
  }
  const result = score(reading);
  for (const line of render(reading, result, { verbose: parsed.values.verbose === true, ...(parsed.values.check === undefined ? {} : { check: parsed.values.check }) })) log(line);
  if (parsed.values.json !== undefined) {
    const json = {
      peer: reading.peer,
      summary: reading.summary,
      totals: result.totals,
      checks: result.checks,
      outcomes: result.outcomes.map((o) => ({
        check: o.case.check,
        fixture: o.case.fixture,
        expect: o.case.expect,
        result: o.result,
        where: o.case.where,
        ours: o.mapped.map((f) => ({ rule: f.rule_id, severity: f.severity, line: f.line })),
        ...(o.difference === undefined ? {} : { difference: o.difference.reason }),
      })),
      unmeasured: reading.unmeasured,
    };
    await writeFile(parsed.values.json, `${JSON.stringify(json, null, 2)}\n`);
  }
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main(process.argv.slice(2));
