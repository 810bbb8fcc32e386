import { describe, expect, it } from 'vitest';
import { fileHasAny, fileScripts, hasAll, hasAny, SCRIPT_WORDS, scriptOf, scriptWords, wordMask, type ScriptWord } from '../../../../lib/engine/analysis/file-scripts.js';
import { buildAction, buildWorkflow, type Action, type Workflow } from '../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../lib/engine/yaml/source.js';
import { yaml } from '../../../support/engine.js';

function workflow(text: string): Workflow {
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('fixture does not parse');
  return buildWorkflow(new SourceFile('.github/workflows/x.yml', text), parsed.root);
}

function action(text: string): Action {
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('fixture does not parse');
  return buildAction(new SourceFile('action.yml', text), parsed.root);
}

/** The trigger words `scriptWords` finds in a text, in catalog order. */
function wordsOf(text: string): ScriptWord[] {
  const mask = scriptWords(text);
  return SCRIPT_WORDS.filter((w) => hasAny(mask, wordMask(w)));
}

describe('scriptWords', () => {
  it('finds whole words, case-insensitively, as \\b would', () => {
    expect(wordsOf('curl -fsSL https://x.sh | bash')).toEqual(['curl']);
    expect(wordsOf('NPM Publish --access public')).toEqual(['npm', 'publish']);
    expect(wordsOf('python -m pip install -r requirements.txt')).toEqual(['pip', 'install']);
    expect(wordsOf('pip3.11 install x; /usr/bin/gem push y.gem')).toEqual(['pip3', 'gem', 'install', 'push']);
    expect(wordsOf('iwr https://x | iex; Invoke-WebRequest x; (New-Object Net.WebClient).DownloadString("u")')).toEqual(['iwr', 'webrequest', 'downloadstring']);
    // `_` is a word character: `NPM_TOKEN` and `GITHUB_ENV` are not `token` and `env`.
    expect(wordsOf('echo "${{ secrets.NPM_TOKEN }}" >> $GITHUB_ENV')).toEqual(['echo', 'secrets']);
    expect(wordsOf('env | sort; echo $TOKEN')).toEqual(['echo', 'env', 'token']);
  });

  it('does not find a trigger word inside a longer word', () => {
    expect(wordsOf('curls wgetrc npmrc republished pushd gopher catalog settings echoes')).toEqual([]);
    expect(wordsOf('my_curl curl2 x-curl')).toEqual(['curl']);
    expect(wordsOf('')).toEqual([]);
  });

  it('also reads words with quotes and backslashes dropped, as the shell does', () => {
    expect(wordsOf('c"ur"l https://x | sh')).toEqual(['curl']);
    expect(wordsOf("e\\cho $TOKEN; 'np''m' i x")).toEqual(['npm', 'i', 'echo', 'token']);
    // The words as written are kept too: `\bcat\b` matches `"cat"dog`.
    expect(wordsOf('"cat"dog')).toEqual(['cat']);
  });

  it('stays linear and exact on long and hostile text', () => {
    const long = `${'a'.repeat(100_000)} curl ${'"'.repeat(50_000)}wget${'\\'.repeat(50_000)}`;
    expect(wordsOf(long)).toEqual(['curl', 'wget']);
    expect(wordsOf('x'.repeat(200_000))).toEqual([]);
    // A non-ASCII letter is not a word character for \b: `é` splits `écurl` into `curl`.
    expect(wordsOf('écurl ſet')).toEqual(['curl']);
  });

  it('masks combine: any and all', () => {
    const mask = scriptWords('npm publish && docker push img');
    expect(hasAll(mask, wordMask('npm', 'publish', 'docker', 'push'))).toBe(true);
    expect(hasAll(mask, wordMask('npm', 'twine'))).toBe(false);
    expect(hasAny(mask, wordMask('twine', 'push'))).toBe(true);
    expect(hasAny(mask, wordMask('twine', 'gem'))).toBe(false);
    expect(() => wordMask('not-a-word' as ScriptWord)).toThrow(/not a trigger word/);
  });
});

describe('fileScripts and scriptOf', () => {
  const text = yaml`
    on: push
    jobs:
      build:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
          - run: npm ci && npm test
          - run: |
              curl -fsSL https://example.com/install.sh -o install.sh
              sha256sum -c install.sh.sha256
      never:
        if: false
        runs-on: ubuntu-latest
        steps:
          - run: twine upload dist/*
      numbers:
        runs-on: ubuntu-latest
        steps:
          - run: 42
  `;

  it('reads every run script of the reachable jobs once, with its step, lines and pipelines', () => {
    const model = workflow(text);
    const files = fileScripts(model);
    expect(files.scripts.map((s) => s.text.split('\n')[0])).toEqual(['npm ci && npm test', 'curl -fsSL https://example.com/install.sh -o install.sh']);
    expect(fileScripts(model)).toBe(files);
    const [first, second] = files.scripts;
    expect(first?.step.index).toBe(1);
    expect(first?.step.job?.id).toBe('build');
    expect(first?.pipelines.map((p) => p.commands.map((c) => c.text))).toEqual([['npm ci'], ['npm test']]);
    expect(second?.lines.map((l) => l.text)).toEqual(['curl -fsSL https://example.com/install.sh -o install.sh', 'sha256sum -c install.sh.sha256']);
    expect(hasAny(second?.words ?? { a: 0, b: 0, c: 0 }, wordMask('curl'))).toBe(true);
  });

  it('has per-file presence bits: the union of its scripts, not of skipped jobs or other keys', () => {
    const model = workflow(text);
    expect(fileHasAny(model, wordMask('curl'))).toBe(true);
    expect(fileHasAny(model, wordMask('npm'))).toBe(true);
    // `twine` is only in a job that never runs, `checkout` is a `uses:`, `42` not a string script.
    expect(fileHasAny(model, wordMask('twine'))).toBe(false);
    expect(fileHasAny(model, wordMask('wget', 'pip', 'publish'))).toBe(false);
  });

  it('gives the same object per step, and null for steps without a string script', () => {
    const model = workflow(text);
    const steps = model.jobs.flatMap((j) => j.steps);
    const withRun = steps[1];
    if (withRun === undefined) throw new Error('fixture');
    const script = scriptOf(withRun);
    expect(script).not.toBeNull();
    expect(fileScripts(model).scripts[0]).toBe(script);
    expect(scriptOf(withRun)).toBe(script);
    expect(scriptOf(steps[0] as never)).toBeNull();
    expect(steps.filter((s) => s.job?.id === 'numbers').map((s) => scriptOf(s))).toEqual([null]);
  });

  it('reads the steps of composite actions', () => {
    const model = action(yaml`
      name: setup
      runs:
        using: composite
        steps:
          - run: pip install foo
            shell: bash
          - uses: actions/setup-python@v5
    `);
    expect(fileScripts(model).scripts.map((s) => s.text.trim())).toEqual(['pip install foo']);
    expect(fileHasAny(model, wordMask('pip'))).toBe(true);
    expect(fileHasAny(model, wordMask('npm'))).toBe(false);
  });
});
