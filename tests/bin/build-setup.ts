import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Vitest global setup: builds the CLI bundle (dist/) once per run, so the CLI tests run what users run. A
 * build takes about a second; building once here keeps parallel test files from racing on dist/.
 */
export default function setup(): void {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-cli.ts'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
