// The compressed copies of a package's built files, written beside them at build time (`sdk.js.br`, `sdk.js.gz`): the
// service sends them as the browser accepts (server/src/modules/sdk-assets/encoded-file.ts), so no request waits for
// compression and each file gets brotli's best (quality 11), too slow to make on a request.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The files served as they are built (scripts, style sheets, types, manifests); HTML pages are filled in per request. */
const SERVED_AS_BUILT = /\.(js|mjs|css|json|d\.ts)$/;

/** Writes `<file>.br` and `<file>.gz` beside every file of `dir` the service sends as built; resolves with their names. */
export async function precompressFolder(dir) {
  const names = (await readdir(dir)).filter((name) => SERVED_AS_BUILT.test(name));
  await Promise.all(
    names.map(async (name) => {
      const body = await readFile(join(dir, name));
      const [br, gz] = await Promise.all([
        brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
        gzipAsync(body, { level: 9 }),
      ]);
      await Promise.all([writeFile(join(dir, `${name}.br`), br), writeFile(join(dir, `${name}.gz`), gz)]);
    }),
  );
  return names;
}
