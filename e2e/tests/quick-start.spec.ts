import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { freePort } from '../../scripts/free-port.mjs';
import { CARDS, fillCard, guardHosts, stack } from '../fixtures';

/**
 * docs/integrating.md's quick start, run as it is written: its code blocks are read from the page (so the page and
 * this test cannot drift), its shell commands run in a fresh folder, its files written there, its server started,
 * and the payment made in Chromium. Only the first block, the reader's own values, is replaced by this stack's.
 */
const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../..');
const OWN_VALUES = ['SVC_REPO', 'SVC_URL', 'SVC_API_KEY', 'SVC_HMAC_SECRET'];

interface Block {
  language: string;
  file: string | null;
  code: string;
}

/** The fenced blocks of the quick start section, in order: ```language [file name]. */
async function quickStartBlocks(): Promise<Block[]> {
  const page = await readFile(path.join(REPO, 'docs/integrating.md'), 'utf8');
  const section = page.slice(page.indexOf('## Quick start'), page.indexOf('\n## ', page.indexOf('## Quick start') + 1));
  return [...section.matchAll(/^```(\w+)(?: (\S+))?\n([\s\S]*?)^```$/gm)].map(([, language, file, code]) => ({
    language: language!,
    file: file ?? null,
    code: code!,
  }));
}

test.describe.configure({ timeout: 600_000 });

test('the quick start of docs/integrating.md: a first payment from an empty folder', async ({ page, context }) => {
  const { serviceUrl, merchant } = stack();
  const [values, setup, ...rest] = await quickStartBlocks();
  const start = rest.pop()!;
  const files = rest;
  // The reader's values: exactly these variables, which this stack gives.
  expect(values!.language).toBe('sh');
  expect([...values!.code.matchAll(/^export (\w+)=/gm)].map(([, name]) => name)).toEqual(OWN_VALUES);
  expect(setup!.language).toBe('sh');
  expect(files.map((block) => block.file)).toEqual(['server.mjs', 'index.html']);
  expect(start).toEqual({ language: 'sh', file: null, code: 'node server.mjs\n' });

  const port = await freePort();
  const shop = `http://localhost:${port}`;
  const work = await mkdtemp(path.join(os.tmpdir(), 'quick-start-'));
  const env = {
    PATH: process.env.PATH!,
    HOME: work,
    SVC_REPO: REPO,
    SVC_URL: serviceUrl,
    SVC_API_KEY: merchant.apiKey,
    SVC_HMAC_SECRET: merchant.hmacSecret,
    PORT: String(port),
    // npm from the tarballs alone: nothing else is installed, and no registry is asked.
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_cache: path.join(work, 'npm-cache'),
  };
  let server: ChildProcess | null = null;
  try {
    await run('bash', ['-euo', 'pipefail', '-c', setup!.code], { cwd: work, env, timeout: 480_000, maxBuffer: 16 * 1024 * 1024 });
    const folder = path.join(work, 'first-payment');
    await mkdir(folder, { recursive: true });
    for (const block of files) await writeFile(path.join(folder, block.file!), block.code);

    server = spawn('bash', ['-c', `exec ${start.code}`], { cwd: folder, env });
    let printed = '';
    server.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    server.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    await expect.poll(() => printed, { timeout: 30_000 }).toContain(`Open ${shop}`);

    const guard = guardHosts(context, [serviceUrl, shop]);
    await page.goto(shop);
    await fillCard(page, 'elements', CARDS.approved);
    await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
    const outcome = page.getByRole('status', { name: 'Payment outcome' });
    await expect(outcome).toHaveText(/^Paid: (\w+) \(status 0\)$/, { timeout: 30_000 });
    const transactionNumber = /^Paid: (\w+)/.exec((await outcome.textContent())!)![1];
    await expect.poll(() => printed, { timeout: 60_000 }).toContain(`Paid, callback verified: ${transactionNumber}`);
    expect(guard.foreign).toEqual([]);
  } finally {
    server?.kill();
    await rm(work, { recursive: true, force: true });
  }
});
