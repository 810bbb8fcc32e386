import { describe, expect, it } from 'vitest';
import { layoutChain, wrapText } from '../../web/src/chain.js';
import { runPool } from '../../web/src/pool.js';

describe('layoutChain', () => {
  it('puts the stages in one row when they fit, with an arrow from each to the next', () => {
    const layout = layoutChain(4, { available: 1200, nodeWidth: 200, nodeHeight: 100, gap: 40 });
    expect(layout.columns).toBe(4);
    expect(layout.nodes.map((n) => [n.x, n.y])).toEqual([[0, 0], [240, 0], [480, 0], [720, 0]]);
    expect(layout.width).toBe(920);
    expect(layout.height).toBe(100);
    expect(layout.edges).toEqual([
      { from: 0, to: 1, points: [[200, 50], [240, 50]] },
      { from: 1, to: 2, points: [[440, 50], [480, 50]] },
      { from: 2, to: 3, points: [[680, 50], [720, 50]] },
    ]);
  });

  it('wraps onto further rows in a narrower space, the arrow going down and across', () => {
    const layout = layoutChain(3, { available: 500, nodeWidth: 200, nodeHeight: 100, gap: 40 });
    expect(layout.columns).toBe(2);
    expect(layout.nodes.map((n) => [n.x, n.y])).toEqual([[0, 0], [240, 0], [0, 140]]);
    expect(layout.edges[1]).toEqual({ from: 1, to: 2, points: [[340, 100], [340, 120], [100, 120], [100, 140]] });
    expect(layout.height).toBe(240);
  });

  it('stacks the stages in one column on a phone, nodes as wide as the space allows', () => {
    const layout = layoutChain(3, { available: 330, nodeWidth: 200, nodeHeight: 100, gap: 40 });
    expect(layout.columns).toBe(1);
    expect(layout.nodes.every((n) => n.x === 0 && n.width === 330)).toBe(true);
    expect(layout.edges.map((e) => e.points)).toEqual([
      [[165, 100], [165, 140]],
      [[165, 240], [165, 280]],
    ]);
    expect(layout.width).toBe(330);
  });

  it('never lays out outside its box, and draws nothing for no stages', () => {
    for (const available of [100, 390, 640, 900, 1280]) {
      for (let count = 1; count <= 6; count += 1) {
        const layout = layoutChain(count, { available });
        expect(layout.nodes).toHaveLength(count);
        expect(layout.edges).toHaveLength(count - 1);
        for (const n of layout.nodes) {
          expect(n.x + n.width).toBeLessThanOrEqual(layout.width);
          expect(n.y + n.height).toBeLessThanOrEqual(layout.height);
        }
      }
    }
    expect(layoutChain(0, { available: 800 })).toEqual({ width: 0, height: 0, columns: 1, nodes: [], edges: [] });
  });
});

describe('wrapText', () => {
  it('breaks at spaces within the line length', () => {
    expect(wrapText('Attacker text runs as a script', 12, 3)).toEqual(['Attacker', 'text runs as', 'a script']);
  });
  it('ends a cut text with an ellipsis, and shortens a word longer than a line', () => {
    expect(wrapText('one two three four five six', 7, 2)).toEqual(['one two', 'three…']);
    expect(wrapText('.github/workflows/very-long-name.yml', 10, 1)).toEqual(['.github/w…']);
  });
});

describe('runPool', () => {
  it('runs at most `limit` tasks at once, settles every one, and keeps the order of the results', async () => {
    let running = 0;
    let peak = 0;
    const results = await runPool([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5 * (n % 3)));
      running -= 1;
      if (n === 4) throw new Error('four failed');
      return n * 10;
    });
    expect(peak).toBe(3);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([10, 20, 30, 'four failed', 50, 60, 70]);
  });
});
