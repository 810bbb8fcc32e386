import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The single-page client: web/ builds into public/ (index.html and hashed assets/). scripts/build-web.ts
// runs this build and adds the rule pages and the API viewer; public/robots.txt is kept.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('../public', import.meta.url)),
    emptyOutDir: false,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
});
