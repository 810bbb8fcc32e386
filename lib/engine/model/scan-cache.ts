/*
 * Memos keyed by the objects of one scan (model nodes, steps, jobs, files), forgotten when the scan ends.
 *
 * Why not a module-level WeakMap: the engine's modules live for the whole process, so such a WeakMap (and
 * the table behind it) soon sits in V8's old generation, while each scan's keys and values are young. A
 * young-generation collection then keeps alive what the old table points to, dead scans' entries included,
 * until a full collection: a scan over the corpus had ~7 MB surviving each young collection (~20 ms pauses)
 * where ~0.1 MB do with a fresh map per scan. The same holds for a module-level Map that is `clear()`ed: V8
 * gives the cleared map its new table in the old generation too.
 *
 * A `ScanCache` is a map by object identity that `resetScanCaches` (called by `scanRepository` when a scan ends)
 * replaces with a new, young one; a `ScanMemo` is the same for values keyed by text (scripts, commands,
 * expressions), bounded in size. Outside a scan either still works as a plain memo, until the next scan ends. Make
 * one per module, when the module loads.
 *
 * A `ScanCache` holds a plain `Map`, not a `WeakMap`: its keys (one scan's model objects) live as long as the scan
 * does anyway, and the map is dropped when the scan ends. V8's optimizing compiler inlines `Map#get`, while
 * `WeakMap#get` stays a builtin call over an ephemeron table, which the garbage collector also treats apart (see
 * docs/performance.md for what it saved). Used outside a scan, a cache keeps its keys alive until the next scan ends.
 */

/**
 * The caches written since the last reset: only those are replaced when a scan ends. A scan of a small file
 * touches few of them, and making a fresh WeakMap for every registered cache was a tenth of such a scan.
 */
let dirty: { reset(): void }[] = [];

export class ScanCache<K extends WeakKey, V> {
  /**
   * The first entry after a reset is kept in two fields, without a map: a scan of a small file writes one entry to
   * most of its caches (30 caches and 35 entries for a one-job workflow), and a `Map` made for each was an
   * allocation and a hash table apiece. The second key moves both entries into a map (`#key` is then undefined).
   */
  #key: K | undefined = undefined;
  #value: V | undefined = undefined;
  /** Null until a second key is written after a reset (a read of a missing map finds nothing, as a fresh map would). */
  #map: Map<K, V> | null = null;

  get(key: K): V | undefined {
    if (this.#map !== null) return this.#map.get(key);
    return key === this.#key ? this.#value : undefined;
  }

  has(key: K): boolean {
    if (this.#map !== null) return this.#map.has(key);
    return key === this.#key;
  }

  set(key: K, value: V): this {
    if (this.#map !== null) {
      this.#map.set(key, value);
    } else if (this.#key === undefined) {
      this.#key = key;
      this.#value = value;
      dirty.push(this);
    } else if (key === this.#key) {
      this.#value = value;
    } else {
      const map = new Map<K, V>();
      map.set(this.#key, this.#value as V);
      map.set(key, value);
      this.#map = map;
      this.#key = undefined;
      this.#value = undefined;
    }
    return this;
  }

  /** Forgets every entry (the next write starts afresh: see above). */
  reset(): void {
    this.#key = undefined;
    this.#value = undefined;
    this.#map = null;
  }
}

/** A memo keyed by text, forgotten when a scan ends, and started afresh whenever it holds `limit` entries. */
export class ScanMemo<K, V> {
  #map: Map<K, V> | null = null;
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get(key: K): V | undefined {
    return this.#map?.get(key);
  }

  has(key: K): boolean {
    return this.#map?.has(key) ?? false;
  }

  set(key: K, value: V): this {
    // Wholesale, when full: deterministic and cheap.
    if (this.#map === null) {
      this.#map = new Map();
      dirty.push(this);
    } else if (this.#map.size >= this.#limit) this.#map = new Map();
    this.#map.set(key, value);
    return this;
  }

  /** Forgets every entry (the next write starts a new map: see above). */
  reset(): void {
    this.#map = null;
  }
}

/** Forgets what every scan cache and memo written since the last call holds (the scan calls it when it is done). */
export function resetScanCaches(): void {
  const written = dirty;
  dirty = [];
  for (const cache of written) cache.reset();
}
