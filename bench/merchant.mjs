// A merchant for the benchmark, provisioned with the operator CLI exactly as docs/operating.md#the-cli says.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, serverEnvironment } from './server-process.mjs';

const run = promisify(execFile);

/** The merchant site's origin, allowed for its client ID (the card frame is served only for an allowed origin). */
export const MERCHANT_ORIGIN = 'http://127.0.0.1:3000';

export async function createMerchant(server, name = 'Bench') {
  const args = [path.join(ROOT, 'server', 'bin', 'svc.mjs'), 'merchant', 'create', '--name', name, '--origin', MERCHANT_ORIGIN, '--json'];
  const { stdout } = await run(process.execPath, args, {
    cwd: ROOT,
    env: serverEnvironment(server.store, server.port),
    timeout: 60_000,
  });
  const credentials = JSON.parse(stdout);
  if (typeof credentials.apiKey !== 'string' || typeof credentials.merchantId !== 'string') {
    throw new Error(`svc merchant create printed no credentials: ${stdout}`);
  }
  return credentials;
}
