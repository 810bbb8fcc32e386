// The layout of an attack path drawn as a chain: one node per stage, left to right, wrapping onto further
// rows when the space is narrow (one column on a phone), with an arrow from each stage to the next. Pure
// geometry, so it is tested without a browser.

export interface ChainNode {
  index: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ChainEdge {
  from: number;
  to: number;
  /** Polyline points; the arrowhead is at the last one. */
  points: [number, number][];
}

export interface ChainLayout {
  width: number;
  height: number;
  columns: number;
  nodes: ChainNode[];
  edges: ChainEdge[];
}

export interface ChainOptions {
  /** The width the drawing may take, in CSS pixels. */
  available: number;
  nodeWidth?: number;
  nodeHeight?: number;
  gap?: number;
}

export function layoutChain(count: number, options: ChainOptions): ChainLayout {
  const gap = options.gap ?? 40;
  const nodeHeight = options.nodeHeight ?? 96;
  const fitted = Math.max(1, Math.floor((options.available + gap) / ((options.nodeWidth ?? 200) + gap)));
  const columns = Math.max(1, Math.min(count, fitted));
  // One column: the node takes the width it has (at least 160 px, at most 360).
  const nodeWidth = columns === 1 ? Math.max(160, Math.min(360, options.available)) : (options.nodeWidth ?? 200);
  const nodes: ChainNode[] = [];
  for (let index = 0; index < count; index += 1) {
    const row = Math.floor(index / columns);
    const column = index % columns;
    nodes.push({ index, x: column * (nodeWidth + gap), y: row * (nodeHeight + gap), width: nodeWidth, height: nodeHeight });
  }
  const edges: ChainEdge[] = [];
  for (let index = 0; index + 1 < count; index += 1) {
    const a = nodes[index] as ChainNode;
    const b = nodes[index + 1] as ChainNode;
    if (a.y === b.y) {
      const y = a.y + a.height / 2;
      edges.push({ from: index, to: index + 1, points: [[a.x + a.width, y], [b.x, y]] });
    } else {
      // Down from the bottom of this node, across to the next one's column, down into its top.
      const ax = a.x + a.width / 2;
      const bx = b.x + b.width / 2;
      const mid = a.y + a.height + gap / 2;
      const points: [number, number][] = ax === bx ? [[ax, a.y + a.height], [bx, b.y]] : [[ax, a.y + a.height], [ax, mid], [bx, mid], [bx, b.y]];
      edges.push({ from: index, to: index + 1, points });
    }
  }
  const rows = count === 0 ? 0 : Math.ceil(count / columns);
  return {
    width: count === 0 ? 0 : columns * nodeWidth + (columns - 1) * gap,
    height: rows === 0 ? 0 : rows * nodeHeight + (rows - 1) * gap,
    columns,
    nodes,
    edges,
  };
}

/** Breaks text into at most `maxLines` lines of at most `perLine` characters, ending with … when cut. */
export function wrapText(text: string, perLine: number, maxLines: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const raw of text.split(/\s+/).filter((w) => w !== '')) {
    const word = raw.length > perLine ? `${raw.slice(0, perLine - 1)}…` : raw;
    if (current === '') current = word;
    else if (current.length + 1 + word.length <= perLine) current = `${current} ${word}`;
    else {
      lines.push(current);
      current = word;
    }
  }
  if (current !== '') lines.push(current);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1] ?? '';
  kept[maxLines - 1] = last.length >= perLine ? `${last.slice(0, perLine - 1)}…` : `${last}…`;
  return kept;
}

/**
 * Breaks text into lines of at most `perLine` characters without losing any of it: words go whole onto a
 * line when they fit, and a word longer than a line (a rule id, a path) is split across lines, never cut.
 */
export function wrapAll(text: string, perLine: number): string[] {
  const width = Math.max(1, perLine);
  const lines: string[] = [];
  let current = '';
  for (const raw of text.split(/\s+/).filter((w) => w !== '')) {
    let word = raw;
    if (current !== '' && current.length + 1 + word.length <= width) {
      current = `${current} ${word}`;
      continue;
    }
    if (current !== '') lines.push(current);
    while (word.length > width) {
      lines.push(word.slice(0, width));
      word = word.slice(width);
    }
    current = word;
  }
  if (current !== '') lines.push(current);
  return lines;
}
