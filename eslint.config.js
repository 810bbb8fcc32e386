import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'coverage/', '.data/', 'bench/results/', 'dist/', '**/*.generated.ts', 'public/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.name='process'][property.name='env']", message: 'Read configuration through lib/env.ts.' },
      ],
    },
  },
  {
    // The web client runs in the browser; TypeScript (web/tsconfig.json, DOM lib) checks its globals.
    files: ['web/**'],
    rules: { 'no-undef': 'off' },
  },
  {
    files: ['lib/env.ts', 'tests/**', 'scripts/**', 'bench/**', 'bin/**', 'vitest.config.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
