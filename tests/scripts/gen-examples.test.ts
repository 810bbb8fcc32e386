import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_DOC_URL, EXAMPLES_README_URL, generate, withBlock } from '../../scripts/gen-examples.js';

// The numbers the documentation shows for the example repositories come from scanning them: this regenerates
// examples/README.md's table and docs/api.md's walk-through in memory and compares them with the files.
describe('npm run gen:examples', () => {
  it('keeps examples/README.md and the walk-through of docs/api.md in step with a scan of the examples', async () => {
    const { examples, api } = await generate();
    expect(readFileSync(EXAMPLES_README_URL, 'utf8'), 'run npm run gen:examples').toBe(examples);
    expect(readFileSync(API_DOC_URL, 'utf8'), 'run npm run gen:examples').toBe(api);
    // The generated blocks hold real answers: counts for every example and the attack paths of the bot.
    expect(examples).toMatch(/\| \[`issue-triage-bot`\]\(issue-triage-bot\/README\.md\) \| \d+ high, \d+ medium, \d+ low, \d+ info \| `[a-z-]+` \((CRITICAL|HIGH)\)/);
    expect(api).toMatch(/^# \{"HIGH":\d+,"MEDIUM":\d+,"LOW":\d+,"INFO":\d+\} +issue-triage-bot$/m);
  }, 60_000);

  it('replaces only what lies between its markers, and says when they are missing', () => {
    expect(withBlock('a\n<!-- x:start (npm run gen:examples) -->\nold\n<!-- x:end -->\nb\n', 'x', 'new')).toBe('a\n<!-- x:start (npm run gen:examples) -->\nnew\n<!-- x:end -->\nb\n');
    expect(() => withBlock('no markers', 'x', 'new')).toThrow('the markers');
  });
});
