// The server's import boundaries, checked by `pnpm lint` (dependency-cruiser). ESLint keeps the rules about what a
// file may use (SQL drivers, http/, process.env) and file-level import cycles; these are about how the modules stand
// to each other and to what is below them. CONTRIBUTING.md ("Lint and its boundaries") says why.

/** Tests, and the test helpers in server/src/test/, may reach in to set a scene. */
const TESTS = '(\\.test\\.ts$|^server/src/test/)';
/** A module's faces: index.ts for everyone, sql.ts for other modules' query files. */
const FACES = ['^server/src/modules/[^/]+/index\\.ts$', '^server/src/modules/[^/]+/sql\\.ts$'];
/** The wiring above every module: the app, the process, the CLI and the processor operations' registry. */
const WIRING = ['^server/src/(app|main|processor-operations)\\.ts$', '^server/src/cli/'];

module.exports = {
  forbidden: [
    {
      name: 'no-module-cycles',
      comment:
        'No two modules import each other, however far round: what two modules both need goes below them (db/, the root files), and what one needs of a module above it is passed in by the wiring.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^server/src/modules/[^/]+$' },
      to: { path: '^server/src/modules/[^/]+$', circular: true },
    },
    {
      name: 'into-another-module',
      comment: 'A module uses another through its index.ts (a query file: through its sql.ts), never a file inside it.',
      severity: 'error',
      from: { path: '^server/src/modules/([^/]+)/', pathNot: TESTS },
      to: { path: '^server/src/modules/', pathNot: ['^server/src/modules/$1/', ...FACES] },
    },
    {
      name: 'into-a-module',
      comment:
        "Outside the modules, a module is used through its index.ts; app.ts and main.ts, which mount each module's router and start its workers, may reach in.",
      severity: 'error',
      from: { path: '^server/src/', pathNot: ['^server/src/modules/', '^server/src/(app|main)\\.ts$', TESTS] },
      to: { path: '^server/src/modules/', pathNot: FACES },
    },
    {
      name: 'sql-face-for-queries',
      comment: "A module's sql.ts is for other modules' query files; rules use its index.ts.",
      severity: 'error',
      from: { path: '^server/src/modules/([^/]+)/', pathNot: ['\\.queries\\.ts$', TESTS] },
      to: { path: '^server/src/modules/[^/]+/sql\\.ts$', pathNot: '^server/src/modules/$1/' },
    },
    {
      name: 'queries-through-sql',
      comment:
        "A query file uses another module's SQL through its sql.ts: its index.ts re-exports the services (a type from it is fine, it is gone at run time).",
      severity: 'error',
      from: { path: '^server/src/modules/([^/]+)/.+\\.queries\\.ts$', pathNot: TESTS },
      to: { path: '^server/src/modules/[^/]+/index\\.ts$', pathNot: '^server/src/modules/$1/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'nothing-below-imports-a-module',
      comment:
        "What lies below the modules (db/, http/, mutations/, processor/, realtime/, messages/, auth/, the root files) never imports one: a module's code it needs is passed in by the wiring (a handler, a resolver), or belongs below.",
      severity: 'error',
      from: { path: '^server/src/', pathNot: ['^server/src/modules/', ...WIRING, TESTS] },
      to: { path: '^server/src/modules/' },
    },
  ],
  options: {
    includeOnly: '^server/src/',
    // Tests are exempt from every rule here, and are no part of the modules' graph.
    exclude: { path: ['^server/src/db/migrations/', TESTS] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.json'] },
  },
};
