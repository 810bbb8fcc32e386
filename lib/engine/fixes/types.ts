import type { RepositoryModel } from '../model/repository.js';
import type { Action, Dependabot, Workflow } from '../model/workflow.js';
import type { Finding } from '../types.js';
import type { SourceFile } from '../yaml/source.js';

/** Replace `text.slice(start, end)` with `text`: the only way a fix changes a file. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** A commit an action reference resolves to, with the release it names (`v4.2.2`) when known. */
export interface ActionPin {
  sha: string;
  version: string | null;
}

/**
 * What a fix may know beyond the files, resolved outside the engine (network, lock cache) and passed in
 * as data, so the engine stays pure. A missing entry means "not resolved": the fix is skipped, never guessed.
 */
export interface FixData {
  /** `owner/repo@ref` (as written, owner/repo lower-cased) -> the commit it points to. */
  actionPins?: ReadonlyMap<string, ActionPin>;
  /** `image:tag` (as written) -> `sha256:...` digest. */
  imageDigests?: ReadonlyMap<string, string>;
}

/** What a fixer proposes for one finding. */
export type FixProposal =
  /** Edits of the finding's file; `safe: false` when applying them may change what the workflow does. */
  | { edits: TextEdit[]; safe: boolean; note?: string }
  /** A fix exists for this kind of finding but not for this one: why (one line). */
  | { skipped: string; needsNetwork?: boolean };

export interface FixContext {
  finding: Finding;
  /** Offset of the finding's position in `file`. */
  offset: number;
  file: SourceFile;
  model: Workflow | Action | Dependabot;
  repository: RepositoryModel;
  data: FixData;
}

/** A rule's fix: one module per rule (`fixes/by-rule/<id>.ts`), registered in `fixes/index.ts`. */
export interface Fixer {
  ruleId: string;
  /** Whether the fix keeps the workflow's behaviour (applied by plain `--fix`). A proposal may downgrade it. */
  safe: boolean;
  propose(context: FixContext): FixProposal;
}

export function defineFixer(fixer: Fixer): Fixer {
  return fixer;
}
