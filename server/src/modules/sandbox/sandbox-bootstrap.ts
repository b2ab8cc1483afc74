import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ProvisionedMerchantSchema, type ProvisionedMerchant } from '@svc/protocol';
import { z } from 'zod';
import type { Clock } from '../../clock';
import type { Database } from '../../db/client';
import { databaseIdentity } from '../../db/database-identity';
import type { Logger } from '../../logger';
import { changeAllowedOrigin } from '../credentials';
import {
  countMerchants,
  createMerchantRecords,
  findSandboxDemoMerchant,
  firstBranchAndDevice,
  issueCredentials,
  lockProvisioning,
  revokeCredentials,
  stickerUrlOf,
} from '../merchants';
import { findCredentialByHash } from '../../auth/credentials.queries';
import { hashCredential } from '../../auth/credential-hash';

export const DEMO_MERCHANT_NAME = 'Demo merchant';
/** Where a browser opens the demo shop on `port` (`pnpm start` prints the first): the origins its client ID allows. */
export const demoShopOrigins = (port: number): string[] => [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
export const SANDBOX_CREDENTIALS_FILE = 'sandbox-credentials.json';

export type BootstrapOutcome = 'created' | 'reissued' | 'updated' | 'unchanged' | 'skipped';

/** The credentials file: the demo merchant's credentials and the database they belong to. */
const CredentialsFileSchema = ProvisionedMerchantSchema.extend({
  database: z.string().optional(),
  /** A file written before stickers existed lacks `stickerUrl`; its keys are still good. */
  stickerUrl: ProvisionedMerchantSchema.shape.stickerUrl.optional(),
});
type CredentialsFile = z.infer<typeof CredentialsFileSchema>;

/**
 * docs/operating.md#running-it: on an empty sandbox database, provision the demo merchant and write its credentials (mode 0600)
 * for the demo site. When the demo merchant exists but the file is gone or stale (keys are stored only as
 * hashes, so they cannot be read back), its credentials are reissued and the file written again. The file names the
 * database it belongs to, and a server never overwrites another database's file: a second server on another database
 * sharing the data directory writes `sandbox-credentials.<database>.json` instead, and says so. The demo client ID
 * allows the demo shop's origins (`demoOrigins`, from DEMO_PORT): a demo merchant provisioned for another port keeps
 * its keys and has the missing origins added, each audited as the operator's change.
 */
export async function bootstrapSandbox(
  db: Database,
  {
    dataDir,
    clock,
    logger,
    publicBaseUrl,
    embeddedDataDir = null,
    demoOrigins,
  }: { dataDir: string; clock: Clock; logger: Logger; publicBaseUrl: string; embeddedDataDir?: string | null; demoOrigins: readonly string[] },
): Promise<{ outcome: BootstrapOutcome; path: string }> {
  const database = await databaseIdentity(db, embeddedDataDir);
  let file = path.join(dataDir, SANDBOX_CREDENTIALS_FILE);
  let existing = await readCredentialsFile(file);
  if (existing?.database !== undefined && existing.database !== database) {
    const own = path.join(dataDir, `sandbox-credentials.${createHash('sha256').update(database).digest('hex').slice(0, 12)}.json`);
    logger.warn(
      { path: file, belongsTo: existing.database, database, ownPath: own },
      `${file} belongs to another database; this server's credentials go to ${own}`,
    );
    file = own;
    existing = await readCredentialsFile(file);
  }

  const result = await db.transaction(async (tx) => {
    await lockProvisioning(tx, publicBaseUrl, clock.now());
    const demo = await findSandboxDemoMerchant(tx);
    if (!demo) {
      if ((await countMerchants(tx)) > 0) return { outcome: 'skipped' as const };
      const credentials = await createMerchantRecords(tx, { name: DEMO_MERCHANT_NAME, origins: [...demoOrigins], isSandboxDemo: true, publicBaseUrl });
      return { outcome: 'created' as const, credentials };
    }
    const scope = await firstBranchAndDevice(tx, demo.id);
    if (!scope) throw new Error('the demo merchant has no branch with a device');
    const stickerUrl = stickerUrlOf(publicBaseUrl, scope.stickerCode);
    if (existing && existing.merchantId === demo.id) {
      const live = await findCredentialByHash(tx, hashCredential(existing.apiKey));
      // A file of an older version, or written under another PUBLIC_BASE_URL, gets the sticker URL; the keys stay.
      if (live?.merchantId === demo.id) {
        const client = await findCredentialByHash(tx, hashCredential(existing.clientId));
        if (client?.merchantId === demo.id) {
          const change = { merchantId: demo.id, actor: { kind: 'operator' as const }, now: clock.now() };
          for (const origin of demoOrigins.filter((o) => !client.allowedOrigins.includes(o))) {
            await changeAllowedOrigin(tx, change, client.id, origin, 'add');
            logger.info({ origin }, `the sandbox demo client ID now allows ${origin} (DEMO_PORT)`);
          }
        }
        return existing.stickerUrl === stickerUrl
          ? { outcome: 'unchanged' as const }
          : { outcome: 'updated' as const, credentials: { ...existing, stickerUrl } };
      }
    }
    await revokeCredentials(tx, demo.id, clock.now());
    const keys = await issueCredentials(tx, { merchantId: demo.id, branchId: scope.branchId, deviceId: scope.deviceId, origins: [...demoOrigins] });
    const credentials: ProvisionedMerchant = { merchantId: demo.id, branchId: scope.branchId, ...keys, hmacSecret: demo.hmacSecret, stickerUrl };
    return { outcome: 'reissued' as const, credentials };
  });

  if (result.outcome === 'skipped' || result.outcome === 'unchanged') return { outcome: result.outcome, path: file };
  await writeCredentialsFile(file, { ...result.credentials, database });
  logger.info({ path: file, outcome: result.outcome }, `sandbox demo merchant credentials written to ${file}`);
  return { outcome: result.outcome, path: file };
}

async function readCredentialsFile(file: string): Promise<CredentialsFile | null> {
  try {
    return CredentialsFileSchema.parse(JSON.parse(await fs.readFile(file, 'utf8')));
  } catch {
    return null;
  }
}

/** Written to a temporary file and renamed, so a reader never sees half a file; mode 0600. */
async function writeCredentialsFile(file: string, credentials: CredentialsFile): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(temp, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  await fs.rename(temp, file);
  await fs.chmod(file, 0o600);
}
