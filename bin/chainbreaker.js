#!/usr/bin/env node
// The scanner run from a checkout of this repository (`node bin/chainbreaker.js scan ...`, as scripts and
// corpus tools call it): the TypeScript sources through tsx, so it always runs the code as it is now, with
// no build to go stale. The published package runs the esbuild bundle instead (package.json `bin`:
// dist/chainbreaker.js, made by `npm run build`).
import { register } from 'tsx/esm/api';

register();
await import('./chainbreaker.ts');
