import { describe, expect, it } from 'vitest';
import { GoEvaluator, goParser, type Host, negate, type Pred, requiredAtoms, type Site, type Value } from '../../../scripts/recall/go.js';

/** Runs the named test of a Go source with a host that records the workflows and assertions it sees. */
async function evaluate(source: string, test: string) {
  const parser = await goParser();
  const tree = parser.parse(source)!;
  const assertions: { expected: Pred; site: Site }[] = [];
  const others: string[] = [];
  const host: Host = {
    call(name, args) {
      if (name === 'scan') return { k: 'host', tag: 'findings', data: args[0] };
      if (name === 'len' && args[0]?.k === 'host') return { k: 'host', tag: 'count', data: args[0].data };
      return undefined;
    },
    assertion(expected, site) {
      assertions.push({ expected, site });
    },
    otherAssertion(_site, text) {
      others.push(text);
    },
  };
  const evaluator = new GoEvaluator(host);
  evaluator.addFile(tree.rootNode, 'x_test.go');
  evaluator.runFunction(test);
  const read = assertions.map(({ expected, site }) => {
    const [atom] = requiredAtoms(expected);
    const yaml = atom?.host.data as Value | undefined;
    return { test: site.test, line: site.line, yaml: yaml?.k === 'str' ? yaml.s : null, op: atom?.op, n: atom?.value.k === 'num' ? atom.value.n : null };
  });
  return { read, others };
}

describe('the Go evaluator', () => {
  it('reads a table of cases run through t.Run, with the expected count of each', async () => {
    const { read } = await evaluate(
      `package p
const header = "on: push\\n"
func TestTable(t *testing.T) {
	cases := []struct {
		name string
		yaml string
		want int
	}{
		{name: "bad one", yaml: header + \`jobs: {a: 1}\`, want: 1},
		{"good one", header + "jobs: {}", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := scan(tc.yaml)
			if len(got) != tc.want {
				t.Fatalf("got %d", len(got))
			}
			if tc.want == 0 {
				return
			}
			if got[0].Category != "X" {
				t.Errorf("category")
			}
		})
	}
}`,
      'TestTable',
    );
    expect(read).toEqual([
      { test: 'TestTable/bad_one', line: 15, yaml: 'on: push\njobs: {a: 1}', op: '==', n: 1 },
      { test: 'TestTable/good_one', line: 15, yaml: 'on: push\njobs: {}', op: '==', n: 0 },
    ]);
  });

  it('expands a loop over a string slice concatenated into the workflow, and reads if-initialisers', async () => {
    const { read } = await evaluate(
      `package p
func TestLoop(t *testing.T) {
	for _, script := range []string{"curl x | sh", "wget -O- y | bash"} {
		if findings := scan("run: " + script + "\\n"); len(findings) == 0 {
			t.Errorf("script %q", script)
		}
	}
}`,
      'TestLoop',
    );
    expect(read.map((r) => [r.yaml, r.op, r.n])).toEqual([
      ['run: curl x | sh\n', '!=', 0],
      ['run: wget -O- y | bash\n', '!=', 0],
    ]);
  });

  it('keeps the count part of a disjunction that fails the test, and lists assertions about nothing it knows', async () => {
    const { read, others } = await evaluate(
      `package p
func TestOr(t *testing.T) {
	got := scan(\`a\`)
	if len(got) != 1 || got[0].Severity != SeverityHigh {
		t.Fatalf("x")
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(got) > 0 {
		t.Log("not a failure")
	}
}`,
      'TestOr',
    );
    expect(read).toEqual([{ test: 'TestOr', line: 4, yaml: 'a', op: '==', n: 1 }]);
    expect(others).toEqual(['err != nil']);
  });

  it('folds constant conditions and does not read the branch that cannot run', async () => {
    const { read } = await evaluate(
      `package p
func TestDead(t *testing.T) {
	want := 0
	got := scan("b")
	if want > 0 && len(got) != want {
		t.Fatalf("x")
	}
}`,
      'TestDead',
    );
    expect(read).toEqual([]);
  });

  it('negates comparisons into what the test needs', () => {
    const host = { k: 'host' as const, tag: 'count', data: null };
    expect(negate({ t: 'atom', host, op: '<', value: { k: 'num', n: 1 } })).toMatchObject({ op: '>=' });
    expect(requiredAtoms(negate({ t: 'or', a: { t: 'atom', host, op: '!=', value: { k: 'num', n: 2 } }, b: { t: 'other', text: 'x' } }))).toHaveLength(1);
    expect(requiredAtoms(negate({ t: 'and', a: { t: 'atom', host, op: '!=', value: { k: 'num', n: 2 } }, b: { t: 'other', text: 'x' } }))).toHaveLength(0);
  });
});
