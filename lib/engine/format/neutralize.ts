/*
 * Strings from a scanned repository (file names, job ids, step names, quoted expressions) are hostile: in a
 * terminal or a CI log, ESC starts an escape sequence, CR rewrites the line, BEL rings, and a line break
 * followed by `::` is a workflow command. Text and `github` output pass every such string through here;
 * SARIF and JSON stay exact (their encoders escape control characters).
 */

// C0 (U+0000-U+001F), DEL and C1 (U+0080-U+009F).
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;

/** One line: every control character removed, line breaks and tabs turned into spaces. */
export function neutralize(text: string): string {
  return text.replace(/[\n\t]/g, ' ').replace(CONTROLS, '');
}

/** Like `neutralize`, but line breaks stay (for text the caller escapes, such as workflow-command data). */
export function neutralizeKeepingLines(text: string): string {
  return text.replace(/\t/g, ' ').replace(CONTROLS_BUT_NEWLINE, '');
}
