// One lint configuration for the whole workspace. TypeScript is linted with type information (each file through the
// tsconfig that owns it); plain JavaScript (build scripts, the bench, the demo shop's page scripts) without it.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/node_modules/', '**/dist/', '**/.data/', '**/coverage/', '**/test-results/', '**/playwright-report/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A promise nobody awaits is an error nobody sees.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
    },
  },
  {
    rules: {
      // A variable a closure reads before its one assignment (wiring that refers to itself) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Chai's property assertions (`expect(x).to.exist`) are expressions by design.
    files: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
  {
    // Node scripts: build kits, the bench, the CI and start scripts, test-runner configs.
    files: ['**/*.mjs', '**/*.cjs', 'eslint.config.js', 'protocol/src/*.js', 'sdk-core/src/testing/*.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // The demo shop's page scripts run in the browser, as a merchant would write them.
    files: ['demo-merchant/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
