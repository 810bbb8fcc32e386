import { describe, expect, it } from 'vitest';
import { commandArgs, commandName, pipelines } from '../../../lib/engine/shell.js';

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

  it('ignores operators in quotes, substitutions and comments', () => {
    expect(split(`echo "a;b" 'c|d' $(e && f) # g; h`)).toEqual([[`echo "a;b" 'c|d' $(e && f)`]]);
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
