import { describe, expect, it } from 'vitest';
import { rehearsalFlagOn } from '../../../../lib/engine/analysis/publishing.js';

describe('rehearsalFlagOn: a dry-run flag rehearses only when its value is a literal true', () => {
  it('is on for a bare flag, `=true`, `true`, an operand after it, and a variable whose env value is a literal true', () => {
    for (const text of ['npm publish --dry-run', 'cargo publish --dry-run=true', 'nx release publish --dry-run true', 'npm publish --dry-run pkg/', 'goreleaser release --snapshot']) {
      expect(rehearsalFlagOn(text), text).toBe(true);
    }
    expect(rehearsalFlagOn('nx release publish --dry-run="$DRY_RUN"', new Map([['DRY_RUN', 'true']]))).toBe(true);
  });

  it('negative: off for a literal false and for a value taken at run time', () => {
    for (const text of [
      'nx release publish --dry-run="$DRY_RUN"',
      'nx release publish --dry-run=${{ inputs.dry_run }}',
      'npm publish --dry-run=$X',
      'npm publish --dry-run ${DRY_RUN}',
      'npm publish --dry-run ${{ inputs.dry-run }}',
      'npm publish --dry-run=false',
      'pnpm publish --dry-run false',
      'goreleaser release --snapshot=${{ inputs.snapshot }}',
      'npm publish',
    ]) {
      expect(rehearsalFlagOn(text), text).toBe(false);
    }
    expect(rehearsalFlagOn('nx release publish --dry-run=$DRY_RUN', new Map([['DRY_RUN', 'false']]))).toBe(false);
  });
});
