import { describe, expect, it } from 'vitest';
import { unquotedExpansions } from '../../../../lib/engine/analysis/shell-vars.js';

describe('unquotedExpansions', () => {
  it('names variables and substitutions outside quotes, which the shell splits into words', () => {
    expect(unquotedExpansions('gh api repos/$GITHUB_REPOSITORY/issues/${PR}/comments -f body="$BODY"')).toEqual({ variables: ['GITHUB_REPOSITORY', 'PR'], substitutions: [] });
    expect(unquotedExpansions('gh pr comment $(cat NR) --body "$(cat body.md)"')).toEqual({ variables: [], substitutions: ['$(cat NR)'] });
    expect(unquotedExpansions('gh pr comment `cat NR`')).toEqual({ variables: [], substitutions: ['`cat NR`'] });
  });

  it('skips quoted and escaped expansions', () => {
    expect(unquotedExpansions(`gh pr comment "$PR" --body '$NOT' \\$ALSO "x $(echo hi) $Y"`)).toEqual({ variables: [], substitutions: [] });
  });
});
