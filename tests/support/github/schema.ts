import { readFileSync } from 'node:fs';
import { buildSchema, type GraphQLSchema } from 'graphql';

let schema: GraphQLSchema | undefined;

/**
 * GitHub's public GraphQL schema, as `@octokit/graphql-schema` publishes it: the fake executes the
 * adapter's queries against it, so a field GitHub does not have fails the tests instead of production.
 * Built once per process (about 0.4 s).
 */
export function githubSchema(): GraphQLSchema {
  if (schema === undefined) {
    const sdl = readFileSync(new URL('./schema.graphql', import.meta.resolve('@octokit/graphql-schema')), 'utf8');
    // GitHub's schema breaks a few of graphql-js's schema rules (deprecations on interface fields): skip them.
    schema = buildSchema(sdl, { assumeValidSDL: true, assumeValid: true });
  }
  return schema;
}
