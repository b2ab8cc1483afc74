// One lint configuration for the whole workspace. TypeScript is linted with type information (each file through the
// tsconfig that owns it); plain JavaScript (build scripts, the bench, the demo shop's page scripts) without it.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const SQL_DRIVERS = ['drizzle-orm', 'postgres'].map((name) => ({ name, allowTypeImports: true, message: 'SQL belongs in a *.queries.ts file or db/.' }));
/** `…/http/…`: the HTTP layer, which what lies below the modules never sees (only http/ makes answers of outcomes). */
const HTTP_LAYER = {
  regex: '(^|/)http/',
  message: 'Rules know nothing of HTTP: return a Success or throw an ApiError (mutations/), and let a *.routes.ts file or http/ answer it.',
};

export default tseslint.config(
  {
    ignores: ['**/node_modules/', '**/dist/', '**/.data/', '**/coverage/', '**/test-results/', '**/playwright-report/', 'reports/', '.stryker-tmp/'],
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
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // No import cycles in the server and the protocol: a module's dependencies' types live below it and the wiring stays
    // in app.ts; the endpoint table's domains and the errors their descriptions imply sit below its index.
    // (A type-only import is no cycle at run time, and import-x does not follow it.)
    files: ['server/src/**/*.ts', 'protocol/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Files small: no source file of the protocol over 400 lines (tests aside); a table that outgrows it splits by domain.
    files: ['protocol/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    // The server's boundaries (issue 9): SQL lives in *.queries.ts and db/; configuration is read in env.ts alone.
    // How the modules stand to each other and to what is below them (a module reached through its index.ts, no cycle
    // of modules, nothing below importing one) is .dependency-cruiser.cjs's, in `pnpm lint` too.
    files: ['server/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'server/src/test/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: SQL_DRIVERS }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration in env.ts and pass it in.' }],
    },
  },
  {
    // A module's rules (its services, operations, workers) may use http/'s helpers: they still return outcomes
    // (mutations/), and http/ makes answers of them. SQL stays in its *.queries.ts.
    files: ['server/src/modules/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.queries.ts', '**/*.routes.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: SQL_DRIVERS }] },
  },
  {
    // What a change answers and the processor operations' wiring sit below http/ too.
    files: ['server/src/mutations/**/*.ts', 'server/src/processor-operations.ts'],
    ignores: ['**/*.test.ts', '**/*.queries.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [HTTP_LAYER], paths: SQL_DRIVERS }] },
  },
  {
    files: ['server/src/**/*.queries.ts', 'server/src/db/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [HTTP_LAYER] }] },
  },
  {
    // The process's entry point wires every module together and opens its own listening connection.
    files: ['server/src/main.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['server/src/env.ts'],
    rules: { 'no-restricted-properties': 'off' },
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
