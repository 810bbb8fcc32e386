/**
 * Rewrites the expected output (`<case>.out`) of every golden `err` case from the current engine:
 * `npm run golden:update`. Read the diff line by line before committing it: a wrong finding is a bug
 * to fix, not an expectation to record.
 */
import { writeFile } from 'node:fs/promises';
import { goldenCases, goldenOutput } from '../tests/support/golden.js';

for (const c of await goldenCases('err')) {
  await writeFile(c.outPath, goldenOutput(c.files));
  console.log(`${c.name}.out`);
}
