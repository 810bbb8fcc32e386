// A hostile engine thread for the scan deadline tests (tests/api/scan-deadline.test.ts): it says it started and
// then never answers, as a rule stuck in a regular expression would. A repository whose name contains
// `spin-fix` gets an empty scan at once and the spin in its fixes instead.
import { parentPort } from 'node:worker_threads';

const empty = { findings: [], counts: { HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 }, records: [], suppressed: 0, unusedSuppressions: [], unknownSuppressions: [] };

parentPort?.on('message', (message: { kind: string; job?: { repository: string } }) => {
  parentPort?.postMessage({ kind: 'started' });
  if (message.kind === 'scan' && message.job?.repository.includes('spin-fix') === true) {
    parentPort?.postMessage({ kind: 'scanned', result: empty });
    return;
  }
  for (;;) {
    // spins until terminated
  }
});
