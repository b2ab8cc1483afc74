import type { AuditEntry, Credential } from '@svc/protocol';
import type { Clock } from '../clock';
import type { Database } from '../db/client';
import { auditLogPage } from '../modules/audit';
import { changeAllowedOrigin, createCredential, listCredentials, revokeCredential, rollWebhookSecret, type Change } from '../modules/credentials';
import { findMerchant } from '../modules/merchants';
import { offeredPaymentMethods, setPaymentMethods } from '../modules/payment-methods';
import type { AdminCommand } from './admin-commands';
import { printable, printableJson } from './printable';

/**
 * Runs one of the operator's commands on a merchant's credentials and settings. A change is the operator's in the
 * audit log; the trigger on api_credentials tells every running instance of a credential it revokes or alters.
 * Only `credentials create` and `secret roll` print a key or a secret.
 */
export async function runAdminCommand(db: Database, clock: Clock, command: AdminCommand, out: (text: string) => void): Promise<number> {
  if (!(await findMerchant(db, command.merchantId))) {
    process.stderr.write(`svc: no merchant ${command.merchantId} (its id is the merchantId that merchant create printed)\n`);
    return 1;
  }
  await clock.refresh?.();
  const change: Change = { merchantId: command.merchantId, actor: { kind: 'operator' }, now: clock.now() };
  const print = (value: unknown, text: () => string) => out(command.json ? `${printableJson(value)}\n` : text());
  switch (command.command) {
    case 'credentials list': {
      const credentials = await listCredentials(db, command.merchantId);
      print(credentials, () => credentials.map(credentialLine).join(''));
      return 0;
    }
    case 'credentials create': {
      const created = await db.transaction((tx) =>
        createCredential(tx, change, {
          kind: command.kind,
          ...(command.branchId ? { branchId: command.branchId } : {}),
          ...(command.origins ? { allowedOrigins: command.origins } : {}),
        }),
      );
      print(
        created,
        () => `Created ${kindName(created.credential.kind)} ${created.credential.credentialId}. Store it now: it is not shown again.\n\n  ${created.value}\n\n`,
      );
      return 0;
    }
    case 'credentials revoke': {
      const revoked = await db.transaction((tx) => revokeCredential(tx, change, command.credentialId));
      print(revoked, () => `Revoked ${kindName(revoked.kind)} ${revoked.hint} (${revoked.credentialId}) at ${revoked.revokedAt}: every instance refuses it.\n`);
      return 0;
    }
    case 'origins add':
    case 'origins remove': {
      const how = command.command === 'origins add' ? 'add' : 'remove';
      const client = await db.transaction((tx) => changeAllowedOrigin(tx, change, command.credentialId, command.origin, how));
      print(
        client,
        () => `Client ID ${client.hint} allows: ${client.allowedOrigins?.length ? client.allowedOrigins.join(', ') : '(no origin: the SDKs cannot use it)'}\n`,
      );
      return 0;
    }
    case 'secret roll': {
      const rolled = await db.transaction((tx) => rollWebhookSecret(tx, change, command.overlapSeconds));
      print(rolled, () =>
        [
          'New HMAC secret. Store it now: it is not shown again.',
          '',
          `  ${rolled.hmacSecret}`,
          '',
          rolled.previousSecretValidUntil
            ? `The previous secret signs callbacks beside it until ${rolled.previousSecretValidUntil}; switch your verifier before then.`
            : 'The previous secret no longer signs callbacks.',
          '',
        ].join('\n'),
      );
      return 0;
    }
    case 'payment-methods': {
      const { paymentMethods } = command.paymentMethods
        ? await db.transaction((tx) => setPaymentMethods(tx, change, command.paymentMethods!))
        : { paymentMethods: await offeredPaymentMethods(db, command.merchantId) };
      print({ paymentMethods }, () => `The merchant's widgets offer: ${paymentMethods.join(', ')}\n`);
      return 0;
    }
    case 'audit': {
      const page = await auditLogPage(db, command.merchantId, {
        limit: command.limit,
        ...(command.startingAfter ? { startingAfter: command.startingAfter } : {}),
      });
      print(page, () => page.data.map(auditLine).join('') + (page.nextCursor ? `(older entries: --starting-after ${page.nextCursor})\n` : ''));
      return 0;
    }
  }
}

const kindName = (kind: Credential['kind']) => ({ merchant_key: 'merchant key', branch_key: 'branch key', device: 'device ID', client: 'client ID' })[kind];

function credentialLine(c: Credential): string {
  const state = c.revokedAt ? `revoked ${c.revokedAt}` : 'live';
  const scope = c.branchId ? ` branch ${c.branchId}` : '';
  const origins = c.allowedOrigins ? `\n  origins: ${c.allowedOrigins.length ? c.allowedOrigins.join(', ') : '(none)'}` : '';
  return `${c.credentialId}  ${kindName(c.kind).padEnd(12)} ${c.hint}  created ${c.createdAt}  ${state}${scope}${origins}\n`;
}

function auditLine(entry: AuditEntry): string {
  const who = entry.actor.kind === 'operator' ? 'operator' : `${kindName(entry.actor.kind)} ${entry.actor.hint ?? entry.actor.credentialId}`;
  const target = entry.target ? ` ${kindName(entry.target.kind)} ${entry.target.hint} (${entry.target.credentialId})` : '';
  const details = Object.keys(entry.details).length ? ` ${printable(JSON.stringify(entry.details))}` : '';
  return `${entry.id}  ${entry.at}  ${who}  ${entry.action}${target}${details}\n`;
}
