/** A file's text with a line table, so offsets turn into 1-based line/column only when reported. */
export class SourceFile {
  readonly path: string;
  readonly text: string;
  #lineStarts: number[] | undefined;

  constructor(path: string, text: string) {
    this.path = path;
    this.text = text;
  }

  get lineStarts(): readonly number[] {
    if (this.#lineStarts === undefined) {
      const starts = [0];
      const text = this.text;
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      this.#lineStarts = starts;
    }
    return this.#lineStarts;
  }

  /** 1-based line and column (UTF-16 code units) of an offset. */
  position(offset: number): { line: number; column: number } {
    const starts = this.lineStarts;
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= clamped) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: clamped - (starts[lo] ?? 0) + 1 };
  }

  /** Text of a 1-based line without its line break. */
  lineText(line: number): string {
    const starts = this.lineStarts;
    const start = starts[line - 1];
    if (start === undefined) return '';
    const next = starts[line];
    const end = next === undefined ? this.text.length : next - 1;
    return this.text.slice(start, end).replace(/\r$/, '');
  }
}
