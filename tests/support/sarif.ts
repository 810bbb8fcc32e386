import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

/*
 * The SARIF 2.1.0 JSON schema as shipped by Microsoft's @microsoft/jest-sarif (the schemastore copy,
 * "2.1.0-rtm.5"). Compared with the OASIS sarif-schema-2.1.0.json it differs only in the `language`
 * pattern and `suppression.status` (renamed `state`), neither of which this output uses. It is a
 * draft-04 schema: its `$schema` and `id` are dropped so Ajv (draft-07) compiles it, as the two drafts
 * agree on every keyword it uses.
 */
export function sarifValidator() {
  const require = createRequire(import.meta.url);
  const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as Record<string, unknown>;
  delete schema.$schema;
  delete schema.id;
  // unicodeRegExp off: the rtm.5 `language` pattern has a stray `]` (fixed in the OASIS copy) that only
  // non-unicode regular expressions accept.
  const ajv = new Ajv.default({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats.default(ajv);
  return ajv.compile(schema);
}
