import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings for the bundled CLI's scans (bin/chainbreaker.ts), set in the thread that scans once the CLI's code is
 * loaded, and put back to V8's defaults when the scan ends. V8's flags are the process's, and V8 checks a hash of
 * them before it uses a code cache: Node's own (of its built-in modules) and the CLI's (lib/cli/code-cache.ts) were
 * made with the defaults, so with the flags set V8 refuses them and compiles from source. Set in the main thread
 * before the scanning thread started, as they were, they made the scanning thread's bootstrap compile Node's
 * built-in modules from source (196 M instructions of the ten-repository scan in docs/performance.md).
 *
 * A CLI scan is one pass over the files: most of the engine's code runs a few times, and V8's optimizing compiler
 * (TurboFan, on background threads) was half of the whole process's instructions on the tuning half of the corpus
 * (11.1 G of 21.7-22.1 G under callgrind, the scanning thread itself 8.8-9.3 G): more than the engine's own work.
 * Inlining less (a cumulative budget of 230 bytes of bytecode per optimized function instead of 920) cut the
 * compiling to 6.9 G and the process to 17.9-18.4 G, with the scanning thread's own instructions within the
 * spread of runs (8.9-9.4 G). Also delaying optimization (twice the interrupt budget) cut the process to 16.6 G but
 * added 7% to the scanning thread, so it is not set. Regular expressions are compiled to native code on their first
 * run (`--no-regexp-tier-up`) instead of to the interpreter's bytecode first and again to native code on the second:
 * of the ~590 a scan of ten repositories runs, most run more than once, and compiling them went from 296 M to
 * 158 M instructions. See docs/performance.md ("Command-line scanner").
 *
 * The flags must not change while another thread of the process has compiled regular expressions it runs again: V8
 * keeps a regular expression's code as bytecode or as native code by `--regexp-tier-up` and reads the flag anew on
 * every run, so a flip makes it run one as the other (a pool's threads crashed, signal 11, when the flags were put
 * back to V8's defaults for them to start and set again after). A scan's pool of threads (bin/scan-pool.ts) starts
 * under the flags and ends before the scanning thread puts V8's defaults back.
 *
 * Only on the V8 it was measured on (Node 20's V8 11): other versions tier up differently (Maglev), and keep
 * V8's defaults.
 */
export const SCAN_V8_FLAGS: readonly string[] = ['--max-inlined-bytecode-size-cumulative=230', '--no-regexp-tier-up'];

/** V8's defaults of the same flags (V8 11, as `node --v8-options` lists them), to put back after a scan. */
export const DEFAULT_V8_FLAGS: readonly string[] = ['--max-inlined-bytecode-size-cumulative=920', '--regexp-tier-up'];

/** Whether `SCAN_V8_FLAGS` apply to this V8 (`process.versions.v8`). */
export function tunesCompiler(v8Version: string): boolean {
  return v8Version.split('.')[0] === '11';
}

/** A set of V8 flags set once where they apply (`tunesCompiler`) and put back to V8's defaults on demand. */
function flagSwitch(flags: () => readonly string[], defaults: () => readonly string[]): { set: (v8Version: string) => boolean; restore: () => void } {
  let on = false;
  return {
    set: (v8Version) => {
      if (!tunesCompiler(v8Version)) return false;
      if (!on) {
        for (const flag of flags()) setFlagsFromString(flag);
        on = true;
      }
      return true;
    },
    restore: () => {
      if (!on) return;
      for (const flag of defaults()) setFlagsFromString(flag);
      on = false;
    },
  };
}

const scanFlags = flagSwitch(() => SCAN_V8_FLAGS, () => DEFAULT_V8_FLAGS);

/** Sets `SCAN_V8_FLAGS` once per process where they apply; returns whether they are set. */
export function tuneCompilerForScan(v8Version: string = process.versions.v8): boolean {
  return scanFlags.set(v8Version);
}

/** Puts V8's defaults back where `tuneCompilerForScan` set the scan's flags (so a code cache made next matches). */
export function restoreCompilerDefaults(): void {
  scanFlags.restore();
}

/**
 * While a scan's pool of threads runs (`--jobs` above 1, bin/scan-pool.ts), V8 also waits longer before it optimizes
 * a function: eight times the interrupt budget (V8 11's 67,584). Each thread compiles the engine for itself, so the
 * optimizing compiler's work, already a third of a one-thread scan's CPU time, is done once per thread, on the same
 * cores as the scans: over the corpus on two cores, a pool of two with V8's budget took 5.8-6.2 s of CPU against
 * 4.7-5.1 s for one thread, and with this one 4.2-5.0 s, with the lowest single run of the budgets tried (2x to 32x;
 * see docs/performance.md). Set by the scanning thread before the pool's threads start and put back once they have
 * ended, never while they run. The budget is read when a function's is reset, so unlike `--regexp-tier-up` it can
 * change under running code.
 */
export const POOL_V8_FLAGS: readonly string[] = ['--interrupt-budget=540672'];

/** V8's defaults of `POOL_V8_FLAGS` (V8 11). */
export const DEFAULT_POOL_V8_FLAGS: readonly string[] = ['--interrupt-budget=67584'];

const poolFlags = flagSwitch(() => POOL_V8_FLAGS, () => DEFAULT_POOL_V8_FLAGS);

/** Sets `POOL_V8_FLAGS` where `SCAN_V8_FLAGS` apply; returns whether they are set. */
export function tuneCompilerForPool(v8Version: string = process.versions.v8): boolean {
  return poolFlags.set(v8Version);
}

/** Puts V8's defaults back where `tuneCompilerForPool` set the pool's flags. */
export function restoreCompilerAfterPool(): void {
  poolFlags.restore();
}
