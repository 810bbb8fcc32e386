/**
 * Generated hostile workflows for the growth test (tests/lib/engine/growth.test.ts): each kind repeats one
 * feature `k` times (many downloads, many expressions, a very long line, many steps, a long needs chain,
 * deep nesting, many env entries), so that a rule doing work per pair of them shows as super-linear growth.
 */

const header = 'on:\n  pull_request_target:\n  issues:\n  issue_comment:\npermissions: write-all\n';

function job(name: string, body: string): string {
  return `  ${name}:\n    runs-on: ubuntu-latest\n    steps:\n${body}`;
}

/** One workflow of each kind at size `k` (its feature repeated k times). */
export const PATHOLOGICAL: Record<string, (k: number) => string> = {
  // Downloads saved with -o and made executable, in one script (download-without-checksum, pipe-to-shell).
  downloads: (k) => {
    const lines = Array.from({ length: k }, (_, i) => `          curl -sSL -o tool${i} https://example.com/t${i}\n          chmod +x ${'y'.repeat(60)} tool${i}x\n`).join('');
    return `${header}jobs:\n${job('a', `      - run: |\n${lines}`)}`;
  },
  // Expressions of attacker-controlled contexts, env and step outputs, in one script.
  expressions: (k) => {
    const lines = Array.from({ length: k }, (_, i) => `          echo "\${{ github.event.issue.title }} \${{ env.V${i % 50} }} \${{ steps.s${i % 20}.outputs.o }}" > f${i}\n`).join('');
    return `${header}env:\n${Array.from({ length: 50 }, (_, i) => `  V${i}: \${{ github.head_ref }}\n`).join('')}jobs:\n${job('a', `      - id: s0\n        run: |\n${lines}`)}`;
  },
  // One very long line of repeated shell tokens, quotes and substitutions.
  'long-line': (k) => {
    const line = Array.from({ length: k }, (_, i) => `a${i} "$(b \${{ github.event.comment.body }})" 'c' | d && e; `).join('');
    return `${header}jobs:\n${job('a', `      - run: ${JSON.stringify(line)}\n`)}`;
  },
  // Many steps in one job: checkouts of the pull request, caches, artifacts, scripts that run its code.
  steps: (k) => {
    const steps = Array.from(
      { length: k },
      (_, i) =>
        `      - uses: actions/checkout@v4\n        with:\n          ref: \${{ github.event.pull_request.head.sha }}\n      - uses: actions/cache@v4\n        with:\n          path: p${i}\n          key: k${i}\n      - run: npm ci && ./build${i}.sh \${{ github.head_ref }}\n        env:\n          T: \${{ secrets.TOKEN${i % 10} }}\n`,
    ).join('');
    return `${header}jobs:\n${job('a', steps)}`;
  },
  // Many jobs in a needs chain, each passing outputs on.
  jobs: (k) => {
    const jobs = Array.from(
      { length: k },
      (_, i) =>
        `  j${i}:\n    runs-on: ubuntu-latest\n${i > 0 ? `    needs: [j${i - 1}]\n` : ''}    outputs:\n      o: \${{ steps.s.outputs.o }}\n    steps:\n      - id: s\n        run: echo "o=\${{ ${i > 0 ? `needs.j${i - 1}.outputs.o` : 'github.head_ref'} }}" >> "$GITHUB_OUTPUT"\n`,
    ).join('');
    return `${header}jobs:\n${jobs}`;
  },
  // Deeply nested expressions and conditions, repeated.
  nesting: (k) => {
    const deep = `${'('.repeat(8)}github.event.issue.title${')'.repeat(8)}`;
    const steps = Array.from({ length: k }, (_, i) => `      - if: \${{ ${Array.from({ length: 5 }, (_, j) => `(github.actor == 'u${j}' || contains(github.event.issue.labels.*.name, 'l${i}'))`).join(' && ')} }}\n        run: echo "\${{ ${deep} }}"\n`).join('');
    return `${header}jobs:\n${job('a', steps)}`;
  },
  // Repeated tokens: a large matrix, many env entries referring to each other, many events.
  tokens: (k) => {
    const env = Array.from({ length: k }, (_, i) => `      E${i}: \${{ ${i > 0 ? `env.E${i - 1}` : 'github.event.issue.body'} }}\n`).join('');
    const matrix = Array.from({ length: k }, (_, i) => `v${i}`).join(', ');
    return `${header}jobs:\n  a:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        v: [${matrix}]\n    env:\n${env}    steps:\n      - run: echo "\${{ env.E${k - 1} }} \${{ matrix.v }}"\n`;
  },
};
