import type { PartyInformation } from './sdk';

/** A complete billing or shipping party, for the tests of the wire shapes that carry one. */
export const SAMPLE_PARTY = {
  fullName: 'Ada Lovelace',
  firstName: 'Ada',
  lastName: 'Lovelace',
  addressLine1: '1 Main St',
  addressLine2: '',
  city: 'Springfield',
  state: 'IL',
  postalCode: '62701',
  country: 'US',
  email: 'ada@example.com',
} satisfies PartyInformation;
