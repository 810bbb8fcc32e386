import { describe, expect, it } from 'vitest';
import { substitutionBodies, unquotedExpansions } from '../../../../lib/engine/analysis/shell-vars.js';

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

describe('substitutionBodies', () => {
  it('gives the inner command of each substitution wherever it stands: a test, an assignment, double quotes', () => {
    expect(substitutionBodies('if [[ `gh api repos/o/r/pulls/$PR/files --jq length` -gt 0 ]]; then')).toEqual([{ text: 'gh api repos/o/r/pulls/$PR/files --jq length', offset: 7 }]);
    expect(substitutionBodies('SHA=$(gh api repos/$R/pulls/$PR --jq .head.sha)').map((b) => b.text)).toEqual(['gh api repos/$R/pulls/$PR --jq .head.sha']);
    expect(substitutionBodies('echo "$(gh api "repos/$R/pulls/$PR") `date`" | jq .').map((b) => b.text)).toEqual(['gh api "repos/$R/pulls/$PR"', 'date']);
    // Nested ones are in the outer body, read again for them.
    expect(substitutionBodies('X=$(echo $(cat NR))').map((b) => b.text)).toEqual(['echo $(cat NR)']);
  });

  it('negative: nothing in single quotes or escaped, and no unterminated closing character kept', () => {
    expect(substitutionBodies("echo '$(gh api x)' \\`date\\`")).toEqual([]);
    expect(substitutionBodies('X=$(gh api x').map((b) => b.text)).toEqual(['gh api x']);
  });
});
