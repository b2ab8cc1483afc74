import { Router } from 'express';
import type { AppDeps } from '../../app-deps';
import { REPO_ROOT } from '../../env';
import { ApiError } from '../../errors';
import { SdkFileCache, sendEncoded } from '../sdk-assets';
import { PAGE_ASSETS, PAGE_ASSETS_PATH } from './page-shell';
import { PAGES_DIST } from './page-style';

/**
 * The consumer pages' own script and style sheet, under /pay-assets/, compressed as the browser accepts. Revalidated on every use (`no-cache` with an
 * ETag): a page is never cached, so its script must never be older than it.
 */
export function consumerAssetsRouter(_deps: AppDeps, root = REPO_ROOT): Router {
  const router = Router();
  const files = new SdkFileCache(root);
  for (const name of Object.values(PAGE_ASSETS)) {
    router.get(`${PAGE_ASSETS_PATH}/${name}`, async (req, res) => {
      const loaded = await files.load({ dist: `${PAGES_DIST}/${name}` });
      if (!loaded) throw new ApiError('not_found', `${name} is not built on this server; run "pnpm build" in the repository.`);
      res.type(name.endsWith('.css') ? 'text/css' : 'text/javascript');
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
      await sendEncoded(req, res, loaded);
    });
  }
  return router;
}
