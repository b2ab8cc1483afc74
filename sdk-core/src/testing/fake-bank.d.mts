/** The challenge cards of the tests' fake bank (fake-bank.mjs), and how the payment ends once the challenge is completed. */
export const CHALLENGE_CARDS: Record<string, 'approved' | 'card_declined'>;
export function startChallenge(body: unknown, authorization: string | null, origin: string): { status: number; body: unknown };
