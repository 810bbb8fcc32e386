import { createHash } from 'node:crypto';
import { env, type LogLevel } from '../env.js';

/**
 * Structured logs: one JSON object per line. Callers pass only the fields below, never headers, tokens or
 * bodies, so nothing secret can reach the log by accident.
 */

export interface RequestLogRecord {
  level: 'info';
  msg: 'request';
  request_id: string;
  method: string;
  route: string;
  status: number;
  duration_ms: number;
  /** A stable pseudonym of the user (not the id itself), or null before authentication. */
  user: string | null;
}

export interface ErrorLogRecord {
  level: 'error';
  msg: 'unexpected error';
  request_id: string;
  method: string;
  route: string;
  error: { name: string; message: string; stack?: string; cause?: { name: string; message: string } };
}

export type LogRecord = RequestLogRecord | ErrorLogRecord;
export type LogSink = (record: LogRecord & { time: string }) => void;

const defaultSink: LogSink = (record) => {
  const line = `${JSON.stringify(record)}\n`;
  if (record.level === 'error') process.stderr.write(line);
  else process.stdout.write(line);
};

let sink: LogSink = defaultSink;
let level: LogLevel | undefined;

/** Replaces where log records go (tests); returns a function restoring the previous sink and level. */
export function setLogSink(next: LogSink, nextLevel: LogLevel = 'info'): () => void {
  const previous = { sink, level };
  sink = next;
  level = nextLevel;
  return () => {
    sink = previous.sink;
    level = previous.level;
  };
}

export function log(record: LogRecord): void {
  const threshold = (level ??= env().logLevel);
  if (threshold === 'silent' || (threshold === 'error' && record.level !== 'error')) return;
  sink({ time: new Date().toISOString(), ...record });
}

export function userPseudonym(userId: string): string {
  return createHash('sha256').update(`chainbreaker-user:${userId}`).digest('hex').slice(0, 16);
}

/** What the log keeps of an error: name, message, stack, and the message of its cause (a driver's error). */
export function describeError(error: unknown): ErrorLogRecord['error'] {
  if (!(error instanceof Error)) return { name: typeof error, message: String(error) };
  const cause = error.cause instanceof Error ? { name: error.cause.name, message: error.cause.message } : undefined;
  return { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}), ...(cause ? { cause } : {}) };
}
