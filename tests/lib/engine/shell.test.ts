import { describe, expect, it } from 'vitest';
import { commandArgs, commandName, logicalLines, logicalLinesWithScripts, pipelines, scriptPipelines } from '../../../lib/engine/shell.js';

const split = (text: string) => pipelines({ text, offset: 10 }).map((p) => p.commands.map((c) => c.text));

describe('pipelines', () => {
  it('splits on ;, &&, || and a background &, and keeps | inside a pipeline', () => {
    expect(split('a | b && c || d; e & f')).toEqual([['a', 'b'], ['c'], ['d'], ['e'], ['f']]);
    expect(pipelines({ text: 'a; b', offset: 10 }).map((p) => p.offset)).toEqual([10, 13]);
  });

  it('reads the operators at both ends of the line', () => {
    expect(split('&a')).toEqual([['a']]);
    expect(split('a &')).toEqual([['a']]);
    expect(split('a |')).toEqual([['a']]);
    expect(split('a $(')).toEqual([['a $(']]);
    expect(split('|')).toEqual([]);
  });

  it('keeps redirections with & as part of the command', () => {
    expect(split('cmd &>log; echo >&2')).toEqual([['cmd &>log'], ['echo >&2']]);
  });

  it('keeps the && and || of a [[ ]] test inside it, and splits the lists around it', () => {
    expect(split('if [[ "$A" != "" && "$B" != "" ]]; then echo yes; fi')).toEqual([['if [[ "$A" != "" && "$B" != "" ]]'], ['then echo yes'], ['fi']]);
    expect(split('[[ -n "$A" || ( -z "$B" && -f x ) ]] && deploy || echo no')).toEqual([['[[ -n "$A" || ( -z "$B" && -f x ) ]]'], ['deploy'], ['echo no']]);
    expect(split('[[ $(a && b) == c ]] && d')).toEqual([['[[ $(a && b) == c ]]'], ['d']]);
    // Negative: `[[` that is no command word (an argument) opens no test.
    expect(split('echo [[ x && y')).toEqual([['echo [[ x'], ['y']]);
    expect(split('[ -n "$A" ] && [ -n "$B" ]')).toEqual([['[ -n "$A" ]'], ['[ -n "$B" ]']]);
  });

  it('ignores operators in quotes, substitutions and comments', () => {
    expect(split(`echo "a;b" 'c|d' $(e && f) # g; h`)).toEqual([[`echo "a;b" 'c|d' $(e && f)`]]);
  });
});

describe('logicalLines', () => {
  it('joins a backslash continuation, and a line ending in && or || with the next command, as bash reads on', () => {
    const script = 'curl -o f.tgz URL &&\n  # the pinned sum\n\n  sha256sum -c f.sha256 ||\n  exit 1\nnext \\\n  --flag\nlast';
    expect(logicalLines(script).map((l) => l.text.replace(/\s+/g, ' '))).toEqual(['curl -o f.tgz URL && sha256sum -c f.sha256 || exit 1', 'next --flag', 'last']);
    // The commands of a joined line keep their offsets in the script.
    const [first] = logicalLines(script);
    for (const pipeline of pipelines(first!)) for (const command of pipeline.commands) expect(script.slice(command.offset, command.offset + command.text.length)).toBe(command.text);
    expect(scriptPipelines(script).map((p) => p.commands[0]?.text)).toEqual(['curl -o f.tgz URL', 'sha256sum -c f.sha256', 'exit 1', 'next  --flag', 'last']);
    // A single | at the end is left alone (a table row in a heredoc ends so), and so is a line that only mentions &&.
    expect(logicalLines('echo "| a |"\necho b').length).toBe(2);
    expect(logicalLines('a | \nb').length).toBe(2);
  });
});

describe('logicalLinesWithScripts', () => {
  it('keeps a `-c` script quoted over several lines as one argument of one line, its line breaks and `#` lines kept', () => {
    const script = 'docker run --rm img bash -c "\n  a &&\n  # not a comment here\n\n  b\n" && echo after\nnext';
    const lines = logicalLinesWithScripts(script);
    expect(lines.map((l) => l.text)).toEqual(['docker run --rm img bash -c "\n  a &&\n  # not a comment here\n\n  b\n" && echo after', 'next']);
    expect(pipelines(lines[0]!).map((p) => p.commands[0]?.text.slice(0, 6))).toEqual(['docker', 'echo a']);
    expect(logicalLinesWithScripts("ssh host sh -c '\n  a; b\n'\nc").map((l) => l.text)).toEqual(["ssh host sh -c '\n  a; b\n'", 'c']);
  });

  it('reads other quotes line by line, as logicalLines does (a multi-line echo, a here-document\'s apostrophe)', () => {
    for (const script of ['echo "one\ntwo"\nthree', "cat <<EOF\ndon't\nEOF\nsh -c 'a'\nb", 'run -c x\nb']) {
      expect(logicalLinesWithScripts(script).map((l) => l.text), script).toEqual(logicalLines(script).map((l) => l.text));
    }
  });
});

describe('commandArgs', () => {
  const args = (command: string) => commandArgs(command, commandName(command)?.toLowerCase() ?? '');

  it('gives the operands after the program, however it is reached and named', () => {
    expect(args('sudo npx --yes tsc -p .')).toEqual(['tsc', '.']);
    expect(args('FOO=1 /usr/bin/Make build')).toEqual(['build']);
    expect(args('timeout 60 npm run "build:dist"')).toEqual(['run', 'build:dist']);
  });

  it('negative: options are not operands, and a program with none has none', () => {
    expect(args('make --jobs=4 -k')).toEqual([]);
    expect(args('tsc')).toEqual([]);
  });
});

describe('commandName', () => {
  it('skips assignments before the program, array elements and appends included', () => {
    expect(commandName('FOO=1 BAR+=2 arr[0]=x npm test')).toBe('npm');
    expect(commandName('sudo -E /usr/bin/make install')).toBe('make');
  });

  it('reads an array assignment as no command (its parentheses hold values)', () => {
    expect(commandName('issues+=("• Tarball references found (forbidden)")')).toBeNull();
    expect(commandName('files=(a.txt b.txt)')).toBeNull();
    // Negative: an ordinary command keeps its program.
    expect(commandName('make build')).toBe('make');
  });
});
