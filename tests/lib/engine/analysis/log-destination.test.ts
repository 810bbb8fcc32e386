import { describe, expect, it } from 'vitest';
import { enclosingAt, enclosingDestinations, heredocDelimiter, pipelineDestination, printedAt, producerName } from '../../../../lib/engine/analysis/log-destination.js';
import { logicalLines, pipelines } from '../../../../lib/engine/shell.js';

const destinations = (script: string) => {
  const lines = logicalLines(script);
  const map = enclosingDestinations(script, lines);
  return lines.map((line, i) => pipelines(line).map((_, p) => enclosingAt(map, i, p)));
};

describe('where a script sends what its commands print', () => {
  it('gives the commands of a group, subshell, loop, if or case the redirect of the block, innermost first', () => {
    expect(destinations(['{', '  echo a', '  ( echo b', '  ) > f', '} >> "$GITHUB_ENV"', 'echo c'].join('\n'))).toEqual([
      ['env'],
      ['env'],
      [null],
      [null],
      ['env'],
      [undefined],
    ]);
    expect(destinations('for x in 1; do echo "$x"; done | tee -a "$GITHUB_STEP_SUMMARY"')).toEqual([['summary', 'summary', 'summary']]);
    expect(destinations(['case "$x" in', '  a) echo a ;;', 'esac | jq . > out.json'].join('\n'))).toEqual([[null], [null], [null]]);
    // A block without a redirect leaves its commands to the block around it, or the log.
    expect(destinations(['if true; then', '  echo a', 'fi'].join('\n'))).toEqual([[undefined, undefined], [undefined], [undefined]]);
  });

  it('skips here-document bodies, whose braces are data', () => {
    expect(destinations(['{', '  cat <<EOF', '}', 'EOF', '  echo a', '} > f'].join('\n')).map((l) => l[0])).toEqual([null, null, undefined, undefined, null, null]);
  });

  it('reads a here-document only outside quotes, and not a here-string', () => {
    expect(heredocDelimiter('cat <<-\'END\' > f')).toBe('END');
    expect(heredocDelimiter('echo "key<<EOF" >> "$GITHUB_OUTPUT"')).toBeNull();
    expect(heredocDelimiter('read -r x <<< "$Y"')).toBeNull();
  });

  it('names the command after the reserved words that open a list', () => {
    expect(producerName('do echo x')).toBe('echo');
    expect(producerName('{ printf "%s" x')).toBe('printf');
    expect(producerName('then ! echo x')).toBe('echo');
    expect(producerName('release) echo x')).toBe('echo');
    expect(producerName('*) printf x')).toBe('printf');
  });

  it('sends a pipeline to the command that consumes it, its own redirect, or the enclosing block', () => {
    const commands = (text: string) => pipelines({ text, offset: 0 })[0]?.commands ?? [];
    expect(pipelineDestination(commands('echo x | docker login --password-stdin'), 'log')).toBeNull();
    expect(pipelineDestination(commands('echo x | base64'), null)).toBeNull();
    expect(pipelineDestination(commands('echo x | base64'), undefined)).toBe('log');
    expect(pipelineDestination(commands('echo x >&2'), null)).toBe('log');
  });

  it('finds the printing command of an offset', () => {
    const script = ['curl -H "$A"', 'echo "$B" | sort', 'cat <<EOF', 'x=$C', 'EOF', '{ echo "$D"; } > f'].join('\n');
    const lines = logicalLines(script);
    const map = enclosingDestinations(script, lines);
    const at = (needle: string) => printedAt(lines, map, script.indexOf(needle));
    expect(at('$A')).toBeNull();
    expect(at('$B')).toEqual({ command: 'echo', destination: 'log' });
    expect(at('$C')).toEqual({ command: 'cat', destination: 'log' });
    expect(at('$D')).toBeNull();
  });

  it('stays linear on deep nesting and long lines of closers', () => {
    const deep = `${'{\n'.repeat(5000)}echo x\n${'} > f\n'.repeat(5000)}`;
    const lines = logicalLines(deep);
    expect(enclosingDestinations(deep, lines).size).toBeGreaterThan(0);
    const closers = `${'} '.repeat(50_000)}> f`;
    expect(enclosingDestinations(closers, logicalLines(closers)).size).toBe(0);
  });
});
