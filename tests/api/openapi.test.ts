import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { GET } from '../../api/openapi.json.js';
import { methodsOf, operations } from '../../lib/api/operations.js';
import { exportedMethods } from '../../lib/dev/router.js';
import { ROOT, routes } from '../support/http.js';

type Doc = {
  paths: Record<string, Record<string, { security: unknown[]; responses: Record<string, unknown>; parameters: { name: string; in: string }[] }>>;
  components: { schemas: Record<string, unknown> };
};

async function document(): Promise<Doc> {
  const response = await GET(new Request('http://localhost/api/openapi.json'));
  expect(response.status).toBe(200);
  return (await response.json()) as Doc;
}

/** `/api/repositories/[repo_id]/combos` -> `/api/repositories/{repo_id}/combos` */
const template = (path: string) => path.replace(/\[([^\]]+)\]/g, '{$1}');

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const doc = await document();
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The validator is not a rubber stamp: the same document with a broken operation fails.
    const broken = structuredClone(doc) as unknown as { paths: Record<string, Record<string, Record<string, unknown>>> };
    (broken.paths['/api/health'] ?? {})['get'] = { responses: { '200': { content: 'nope' } } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('has component schemas that compile as JSON Schema 2020-12', async () => {
    const doc = await document();
    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
    for (const name of Object.keys(doc.components.schemas)) {
      expect(() => ajv.getSchema(`doc#/components/schemas/${name}`)).not.toThrow();
    }
  });

  it('covers all 13 endpoints of the spec', async () => {
    const doc = await document();
    const spec = [
      ['get', '/api/health'],
      ['get', '/api/repos'],
      ['post', '/api/scan'],
      ['get', '/api/attack-paths'],
      ['get', '/api/repositories/{repo_id}/combos'],
      ['get', '/api/github/callback'],
      ['get', '/api/rules'],
      ['get', '/api/rule-settings'],
      ['put', '/api/rule-settings/{rule_id}'],
      ['delete', '/api/rule-settings/{rule_id}'],
      ['get', '/api/repositories/{repo_id}/rule-overrides'],
      ['put', '/api/repositories/{repo_id}/rule-overrides/{rule_id}'],
      ['delete', '/api/repositories/{repo_id}/rule-overrides/{rule_id}'],
    ] as const;
    for (const [method, path] of spec) expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    expect(doc.paths['/api/github/callback']?.get?.parameters).toEqual([expect.objectContaining({ name: 'installation_id', in: 'query' })]);
  });

  it('documents bearer security and 401 on every endpoint but health and the document itself (webhooks: a signature, not a token)', async () => {
    const doc = await document();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const open = path === '/api/health' || path === '/api/openapi.json';
        // Webhooks: a signature; cron jobs: Vercel's CRON_SECRET as the bearer (not a user's token).
        const signed = path === '/api/github/webhooks' || path.startsWith('/api/cron/');
        expect(operation.security, `${method} ${path}`).toEqual(open || signed ? [] : [{ bearerAuth: [] }]);
        expect(operation.responses['401'] !== undefined, `${method} ${path}`).toBe(!open);
        expect(operation.responses['500'], `${method} ${path}`).toBeDefined();
      }
    }
  });

  it('lists every route file in api/ with each method it exports, and the files export what the contract says', async () => {
    const doc = await document();
    const all = await routes();
    const paths = all.map((route) => template(route.path)).sort();
    for (const route of all) {
      const path = template(route.path);
      const module = (await import(`${ROOT}${route.file}`)) as Record<string, unknown>;
      const methods = exportedMethods(module);
      expect(methods, route.file).toEqual(methodsOf(path));
      for (const method of methods.filter((m) => m !== 'OPTIONS')) {
        expect(doc.paths[path]?.[method.toLowerCase()], `${method} ${route.file}`).toBeDefined();
      }
    }
    // Operations are declared ahead of their route files (issue 6), never the other way round.
    const declared = new Set<string>(Object.values(operations).map((operation) => operation.path));
    for (const path of paths) expect(declared.has(path), path).toBe(true);
    expect(Object.keys(doc.paths).sort()).toEqual([...declared].sort());
  });
});
