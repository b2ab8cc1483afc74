import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { etagOf } from '../../entity-tag';
import { SDK_VERSIONS } from '@svc/protocol';

/**
 * An SDK's lazy scripts: each split off a bundle by its build (the `lazy` list of the package's build.mjs, which must
 * name the same files), which loads it the first time it is needed, with the integrity it was built with.
 */
function lazyScripts<Sdk extends keyof typeof SDK_VERSIONS>(sdk: Sdk, names: readonly string[]) {
  return names.map((name) => ({
    urlPath: `/${sdk}/${SDK_VERSIONS[sdk]}/${name}.js`,
    dist: `sdk-${sdk}/dist/${name}.js`,
    kind: 'script' as const,
    name: `${sdk}-${name}`,
  }));
}

/** The built browser files the service serves, by URL path under /sdk, and the package folder they come from. */
export const SDK_FILES = [
  { urlPath: `/elements/${SDK_VERSIONS.elements}/sdk.js`, dist: 'sdk-elements/dist/sdk.js', kind: 'script', name: 'elements' },
  { urlPath: `/elements/${SDK_VERSIONS.elements}/card-frame.js`, dist: 'sdk-elements/dist/card-frame.js', kind: 'script', name: 'elements-card-frame' },
  { urlPath: `/elements/${SDK_VERSIONS.elements}/card-frame.html`, dist: 'sdk-elements/dist/card-frame.html', kind: 'frame', name: 'elements-card-frame-page' },
  ...lazyScripts('elements', ['authentication-dialog', 'card-authentication', 'installments-field']),
  { urlPath: `/iframe/${SDK_VERSIONS.iframe}/sdk.js`, dist: 'sdk-iframe/dist/sdk.js', kind: 'script', name: 'iframe' },
  { urlPath: `/iframe/${SDK_VERSIONS.iframe}/widget.js`, dist: 'sdk-iframe/dist/widget.js', kind: 'script', name: 'iframe-widget' },
  { urlPath: `/iframe/${SDK_VERSIONS.iframe}/widget.html`, dist: 'sdk-iframe/dist/widget.html', kind: 'widget', name: 'iframe-widget-page' },
  ...lazyScripts('iframe', ['authentication-dialog', 'card-authentication', 'installments-field', 'appearance-check']),
  { urlPath: `/express/${SDK_VERSIONS.express}/sdk.js`, dist: 'sdk-express/dist/sdk.js', kind: 'script', name: 'express' },
  ...lazyScripts('express', ['sandbox-sheet']),
  // What each SDK publishes about itself, built from its sources: its TypeScript types and its elements' manifest.
  { urlPath: `/elements/${SDK_VERSIONS.elements}/sdk.d.ts`, dist: 'sdk-elements/dist/sdk.d.ts', kind: 'types', name: 'elements-types' },
  {
    urlPath: `/elements/${SDK_VERSIONS.elements}/custom-elements.json`,
    dist: 'sdk-elements/dist/custom-elements.json',
    kind: 'custom-elements',
    name: 'elements-custom-elements',
  },
  { urlPath: `/iframe/${SDK_VERSIONS.iframe}/sdk.d.ts`, dist: 'sdk-iframe/dist/sdk.d.ts', kind: 'types', name: 'iframe-types' },
  { urlPath: `/express/${SDK_VERSIONS.express}/sdk.d.ts`, dist: 'sdk-express/dist/sdk.d.ts', kind: 'types', name: 'express-types' },
  {
    urlPath: `/express/${SDK_VERSIONS.express}/custom-elements.json`,
    dist: 'sdk-express/dist/custom-elements.json',
    kind: 'custom-elements',
    name: 'express-custom-elements',
  },
] as const;
export type SdkFile = (typeof SDK_FILES)[number];

export interface LoadedFile {
  body: Buffer;
  integrity: string;
  etag: string;
  mtimeMs: number;
  /** The build's compressed copies (`<file>.br`, `<file>.gz`, sdk-core/precompress.mjs), when both are there and are of these bytes. */
  precompressed?: { br: Buffer; gzip: Buffer };
}

const brotliDecompressAsync = promisify(brotliDecompress);
const gunzipAsync = promisify(gunzip);

/**
 * The build's brotli and gzip copies of `body`, read from beside its file, if both are there and both decompress to
 * `body` exactly (a copy left from an earlier build, or by a watch build that writes none, is not sent): checked once
 * per file version, a millisecond for the largest script.
 */
async function precompressedCopies(full: string, body: Buffer): Promise<LoadedFile['precompressed']> {
  try {
    const [br, gzip] = await Promise.all([readFile(`${full}.br`), readFile(`${full}.gz`)]);
    const [fromBr, fromGzip] = await Promise.all([brotliDecompressAsync(br), gunzipAsync(gzip)]);
    return fromBr.equals(body) && fromGzip.equals(body) ? { br, gzip } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads built files on demand and keeps them until they change on disk (a rebuild while the service runs, as under
 * `pnpm dev`, is picked up by the next request). A change is a new modification time or a new size: the file system's
 * clock is coarse, so a file read while a build was writing it can carry the finished file's time. The SRI hash is
 * sha384, as browsers check it, of the built bytes (the compressed copies beside them are only their transfer).
 */
export class SdkFileCache {
  readonly #cache = new Map<string, LoadedFile>();

  constructor(readonly root: string) {}

  async load(file: Pick<SdkFile, 'dist'> | { dist: string }): Promise<LoadedFile | null> {
    const full = path.join(this.root, file.dist);
    let info;
    try {
      info = await stat(full);
    } catch {
      return null;
    }
    const cached = this.#cache.get(full);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.body.length === info.size) return cached;
    const body = await readFile(full);
    const precompressed = await precompressedCopies(full, body);
    const loaded: LoadedFile = {
      body,
      integrity: `sha384-${createHash('sha384').update(body).digest('base64')}`,
      etag: etagOf(body),
      mtimeMs: info.mtimeMs,
      ...(precompressed ? { precompressed } : {}),
    };
    this.#cache.set(full, loaded);
    return loaded;
  }
}
