/**
 * Golden before/after tests of every fix: tests/fixtures/fixes/<rule>/<case>.before.yml is fixed (only that
 * rule's findings, every rule re-scanned) and must equal <case>.after.yml. `<case>.unsafe.*` runs with
 * --fix=unsafe; `<case>.pins.json` is the lock cache; `<case>.extra.<name>.yml` is another workflow of the
 * repository. Each result must also be a fixed point (a second run changes nothing), leave no finding of
 * the rule that a fix could remove, and pass actionlint. UPDATE_FIX_GOLDEN=1 rewrites the .after files.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixRepository } from '../../../../lib/engine/fixes/apply.js';
import type { ActionPin } from '../../../../lib/engine/fixes/types.js';
import { scanRepository } from '../../../../lib/engine/scan.js';
import { actionlint } from '../../../support/actionlint.js';

const ROOT = new URL('../../../fixtures/fixes/', import.meta.url).pathname;
const UPDATE = process.env.UPDATE_FIX_GOLDEN === '1';

interface Case {
  rule: string;
  name: string;
  dir: string;
}

const cases: Case[] = readdirSync(ROOT).flatMap((rule) =>
  readdirSync(join(ROOT, rule))
    .filter((f) => f.endsWith('.before.yml'))
    .map((f) => ({ rule, name: f.replace(/\.before\.yml$/, ''), dir: join(ROOT, rule) })),
);

function pathFor(rule: string, name: string): string {
  return rule.startsWith('dependabot') ? '.github/dependabot.yml' : `.github/workflows/${name.replace(/\.unsafe$/, '')}.yml`;
}

function load(c: Case) {
  const before = readFileSync(join(c.dir, `${c.name}.before.yml`), 'utf8');
  const path = pathFor(c.rule, c.name);
  const base = c.name.replace(/\.unsafe$/, '');
  const extras = readdirSync(c.dir)
    .filter((f) => f.startsWith(`${base}.extra.`))
    .map((f) => ({ path: `.github/workflows/${f.slice(`${base}.extra.`.length)}`, text: readFileSync(join(c.dir, f), 'utf8') }));
  const pinsFile = join(c.dir, `${base}.pins.json`);
  const pins = existsSync(pinsFile) ? (JSON.parse(readFileSync(pinsFile, 'utf8')) as { actions?: Record<string, ActionPin>; images?: Record<string, string> }) : {};
  return {
    before,
    path,
    files: [{ path, text: before }, ...extras],
    data: { actionPins: new Map(Object.entries(pins.actions ?? {})), imageDigests: new Map(Object.entries(pins.images ?? {})) },
    mode: c.name.endsWith('.unsafe') ? ('unsafe' as const) : ('safe' as const),
  };
}

describe('fix goldens', () => {
  it('has at least one case per fixable rule', async () => {
    const { FIXERS } = await import('../../../../lib/engine/fixes/index.js');
    for (const fixer of FIXERS) expect(cases.some((c) => c.rule === fixer.ruleId), fixer.ruleId).toBe(true);
  });

  for (const c of cases) {
    describe(`${c.rule}/${c.name}`, () => {
      const { before, path, files, data, mode } = load(c);
      const options = { mode, data, fixRule: (id: string) => id === c.rule };
      const result = fixRepository(files, options);
      const after = result.files.find((f) => f.path === path)?.text ?? '';

      it('matches the golden after file', () => {
        const golden = join(c.dir, `${c.name}.after.yml`);
        if (UPDATE) writeFileSync(golden, after);
        expect(existsSync(golden), `missing ${golden} (UPDATE_FIX_GOLDEN=1 writes it)`).toBe(true);
        expect(after).toBe(readFileSync(golden, 'utf8'));
      });

      it('is a fixed point: a second run changes nothing', () => {
        const again = fixRepository(result.files, options);
        expect(again.changed).toEqual([]);
        expect(again.applied).toEqual([]);
      });

      it('removes the findings it fixed and adds none', () => {
        const was = scanRepository(files).findings;
        const now = scanRepository(result.files).findings;
        const key = (f: { rule_id: string; description: string }) => `${f.rule_id} ${f.description}`;
        const remaining = new Map<string, number>();
        for (const f of was) remaining.set(key(f), (remaining.get(key(f)) ?? 0) + 1);
        for (const f of now) {
          const left = remaining.get(key(f)) ?? 0;
          expect(left, `new finding: ${key(f)}`).toBeGreaterThan(0);
          remaining.set(key(f), left - 1);
        }
        // What is left of the rule is what was skipped, with a reason.
        const left = now.filter((f) => f.rule_id === c.rule).length;
        expect(left <= result.skipped.filter((s) => s.rule_id === c.rule).length || left === 0, `${left} ${c.rule} findings left`).toBe(true);
        expect(after !== before).toBe(result.applied.length > 0);
      });

      if (!path.endsWith('dependabot.yml')) {
        it('passes actionlint (no complaint the file did not already have)', async () => {
          const withoutPosition = (list: string[]) => list.map((p) => p.replace(/^\d+:\d+ /, ''));
          const was = withoutPosition(await actionlint(before, path));
          const now = withoutPosition(await actionlint(after, path));
          expect(now.filter((p) => !was.includes(p))).toEqual([]);
          expect(now.length).toBeLessThanOrEqual(was.length);
        });
      }
    });
  }
});
