/**
 * The consumer's billing and shipping details (protocol `PartyInformation`): the sandbox sheet's test data, and the
 * mapping from what a browser wallet returns. Personal data: passed to the payment service and `onPay`, never logged.
 */
import type { PartyInformation } from '@svc/protocol';

/** What the sandbox sheet is prefilled with: an obviously fake person at an obviously fake address. */
export const SANDBOX_PARTY: PartyInformation = {
  fullName: 'Jane Tester',
  firstName: 'Jane',
  lastName: 'Tester',
  addressLine1: '1 Sandbox Way',
  addressLine2: 'Suite 100',
  city: 'Springfield',
  state: 'IL',
  postalCode: '62701',
  country: 'US',
  email: 'jane.tester@example.com',
};

/** The full name as the wallets write it: first and last name, whichever are given. */
export const fullNameOf = (firstName: string, lastName: string): string => [firstName.trim(), lastName.trim()].filter(Boolean).join(' ');

/** A browser wallet's address (Payment Request API `PaymentAddress`) and payer, as billing or shipping information. */
export function partyFromPaymentAddress(address: PaymentAddress | null, payer: { name: string | null; email: string | null }): PartyInformation {
  const recipient = (address?.recipient || payer.name || '').trim();
  const [firstName = '', ...rest] = recipient.split(/\s+/);
  const lines = address?.addressLine ?? [];
  return {
    fullName: recipient,
    firstName,
    lastName: rest.join(' '),
    addressLine1: lines[0] ?? '',
    addressLine2: lines.slice(1).join(', '),
    city: address?.city ?? '',
    state: address?.region ?? '',
    postalCode: address?.postalCode ?? '',
    country: address?.country ?? '',
    email: payer.email ?? '',
  };
}
