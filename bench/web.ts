/**
 * The web client at scale (issue 27, item 7): the scale fixture (1,000 repositories x 50 findings, 300
 * attack paths; scripts/scale-fixture.ts) served by `npm run dev`'s server, each view loaded afresh in
 * headless Chromium (Debian's, through playwright-core) five times, its first screen timed in the page with
 * the Performance API (tests/e2e/scale-support.ts, shared with the browser test that holds it to the budgets),
 * the search's answer timed the same way, and the Repositories view's API requests counted.
 */
import { HAVE_CHROMIUM, CHROMIUM } from '../tests/e2e/support.js';
import { BUDGETS, firstScreen, searchLatency, startScaleSession, type View } from '../tests/e2e/scale-support.js';
import { ms, summarize, table } from './stats.js';

const RUNS = 5;
const VIEWS: [View, string][] = [
  ['repositories', '#/'],
  ['attack-paths', '#/attack-paths'],
  ['rule-settings', '#/settings'],
];

export interface WebBenchResult {
  skipped?: string;
  fixture?: { repositories: number; findings: number; attackPaths: number; generatedMs: number; cached: boolean };
  firstScreenMs?: Record<string, ReturnType<typeof summarize>>;
  searchMs?: ReturnType<typeof summarize>;
  repositoriesViewRequests?: string[];
  budgets: typeof BUDGETS;
}

export async function benchWeb(): Promise<WebBenchResult> {
  if (!HAVE_CHROMIUM) return { skipped: `no Chromium at ${CHROMIUM}`, budgets: BUDGETS };
  const session = await startScaleSession();
  try {
    const { page } = session;
    const views: [string, string, View][] = VIEWS.map(([view, hash]) => [view, hash, view]);
    // A repository's Findings view: the first repository of the list.
    const first = (await page.locator('table.repos tbody th a').first().getAttribute('href')) ?? '#/';
    views.splice(1, 0, ['findings', first, 'findings']);
    const firstScreenMs: Record<string, ReturnType<typeof summarize>> = {};
    let requests: string[] = [];
    for (const [name, hash, view] of views) {
      const samples: number[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        session.requests.length = 0;
        samples.push(await firstScreen(page, hash, view));
        if (view === 'repositories' && i === RUNS - 1) {
          // The whole load's requests: the sync and the list read once more after it.
          await page.waitForFunction(() => document.querySelector('.totals') !== null);
          await page.waitForTimeout(3000);
          requests = [...session.requests];
        }
      }
      firstScreenMs[name] = summarize(samples);
    }
    await firstScreen(page, '#/', 'repositories');
    const search: number[] = [];
    for (let i = 0; i < RUNS; i += 1) search.push(await searchLatency(page, 'Search', i % 2 === 0 ? 'issue-triage' : 'release'));
    return {
      fixture: { repositories: session.fixture.repositories, findings: session.fixture.findings, attackPaths: session.fixture.attackPaths, generatedMs: session.fixture.ms, cached: session.fixture.cached },
      firstScreenMs,
      searchMs: summarize(search),
      repositoriesViewRequests: requests,
      budgets: BUDGETS,
    };
  } finally {
    await session.close();
  }
}

export function formatWeb(r: WebBenchResult): string {
  if (r.skipped !== undefined) return `Web client: skipped (${r.skipped})`;
  const rows = Object.entries(r.firstScreenMs ?? {}).map(([view, s]) => [view, ms(s.p50, 0), ms(s.p95, 0), ms(s.max, 0), s.p50 < r.budgets.firstScreenMs ? 'yes' : 'NO']);
  const search = r.searchMs;
  return [
    `Web client at scale: ${r.fixture?.repositories} repositories, ${r.fixture?.findings} findings, ${r.fixture?.attackPaths} attack paths (fixture ${r.fixture?.cached ? 'cached' : `generated in ${ms(r.fixture?.generatedMs ?? 0, 0)}`})`,
    `first screen in headless Chromium, ${RUNS} loads each, from the navigation's start (budget ${r.budgets.firstScreenMs} ms):`,
    table([['view', 'p50', 'p95', 'max', 'p50 within budget'], ...rows]),
    search ? `search answered (input to the next frame drawn): p50 ${ms(search.p50, 0)}, max ${ms(search.max, 0)} (budget ${r.budgets.interactionMs} ms)` : '',
    `Repositories view requests for 1,000 repositories: ${r.repositoriesViewRequests?.length} (${[...new Set(r.repositoriesViewRequests)].join(', ')})`,
  ].join('\n');
}
