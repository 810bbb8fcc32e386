/**
 * Regenerates the kinds section of lib/engine/combinations/README.md from the catalog.
 * Run: npx tsx scripts/gen-combinations-doc.ts (tests/lib/engine/combinations/doc.test.ts fails when it is stale).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { kindsMarkdown, replaceKindsSection } from '../lib/engine/combinations/doc.js';

const path = fileURLToPath(new URL('../lib/engine/combinations/README.md', import.meta.url));
writeFileSync(path, replaceKindsSection(readFileSync(path, 'utf8'), kindsMarkdown()));
console.log(`updated ${path}`);
