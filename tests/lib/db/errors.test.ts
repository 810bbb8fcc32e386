// How driver failures become DatabaseError kinds, and that what a client could see reveals nothing.

import { expect, test } from 'vitest';
import { DatabaseError, kindOfSqlState, toDatabaseError } from '../../../lib/db/errors.js';
import { functionCallStatement } from '../../../lib/db/function-call.js';

test.each([
  ['P0002', 'not_found'],
  ['28000', 'unknown_user'],
  ['23505', 'conflict'],
  ['23503', 'conflict'],
  ['40001', 'conflict'],
  ['40P01', 'conflict'],
  ['55P03', 'conflict'],
  ['08006', 'unavailable'],
  ['53300', 'unavailable'],
  ['57014', 'unavailable'],
  ['57P01', 'unavailable'],
  ['23514', 'internal'],
  ['22023', 'internal'],
  ['42501', 'internal'],
  ['42883', 'internal'],
  ['P0001', 'internal'],
] as const)('SQLSTATE %s is %s', (sqlState, kind) => {
  expect(kindOfSqlState(sqlState)).toBe(kind);
});

test.each([
  [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), 'unavailable'],
  [Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), 'unavailable'],
  [new Error('Connection terminated unexpectedly'), 'unavailable'],
  [new Error('timeout exceeded when trying to connect'), 'unavailable'],
  [Object.assign(new Error('duplicate key value violates unique constraint "x" Key (id)=(secret)'), { code: '23505' }), 'conflict'],
  [new TypeError('boom'), 'internal'],
  ['a string', 'internal'],
] as const)('%s is %s', (thrown, kind) => {
  const error = toDatabaseError(thrown, 'some_function');
  expect(error).toBeInstanceOf(DatabaseError);
  expect(error.kind).toBe(kind);
  expect(error.fn).toBe('some_function');
  expect(error.cause).toBe(thrown);
});

test('the message is generic; details stay in cause and sqlState', () => {
  const cause = Object.assign(new Error('insert into public.findings ... Key (user_id)=(4e1c...) token=abc'), { code: '23505' });
  const error = toDatabaseError(cause, 'record_scan');
  expect(error.message).toBe('Conflicting concurrent change');
  expect(error.sqlState).toBe('23505');
  expect(JSON.stringify({ message: error.message, name: error.name })).not.toMatch(/insert|public\.|token|user_id/);
});

test('a DatabaseError passes through unchanged', () => {
  const original = new DatabaseError('not_found', 'get_repository');
  expect(toDatabaseError(original, 'other')).toBe(original);
});

test('functionCallStatement names every argument, skips undefined ones, and sends objects as JSON text', () => {
  expect(
    functionCallStatement('record_scan', {
      p_user_id: 'u',
      p_counts: { HIGH: 1 },
      p_findings: [],
      p_missing: undefined,
      p_flag: false,
      p_none: null,
    }),
  ).toEqual({
    text: 'select public.record_scan(p_user_id => $1, p_counts => $2, p_findings => $3, p_flag => $4, p_none => $5) as result',
    values: ['u', '{"HIGH":1}', '[]', false, null],
  });
  expect(() => functionCallStatement('Record_Scan', {})).toThrow(TypeError);
  expect(() => functionCallStatement('x', { 'p-a': 1 })).toThrow(TypeError);
});
