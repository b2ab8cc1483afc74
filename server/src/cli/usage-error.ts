/** A command line the CLI cannot run: it prints the usage on stderr and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
