import { describe, expect, it } from 'vitest';
import { bearerToken } from './bearer-token';

const withAuthorization = (value: string | undefined) => ({
  get: ((name: string) => (name.toLowerCase() === 'authorization' ? value : undefined)) as never,
});

describe('bearerToken', () => {
  it('takes the token of a Bearer header, in any case, with spaces around it', () => {
    expect(bearerToken(withAuthorization('Bearer st_abc123'))).toBe('st_abc123');
    expect(bearerToken(withAuthorization('bearer   st_abc123  '))).toBe('st_abc123');
    expect(bearerToken(withAuthorization(`Bearer ${'a'.repeat(200)}`))).toBe('a'.repeat(200));
  });

  it('gives null for no header, another scheme, no token, two tokens or one over 200 characters', () => {
    for (const value of [undefined, '', 'Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Bearer a b', `Bearer ${'a'.repeat(201)}`]) {
      expect(bearerToken(withAuthorization(value)), String(value)).toBeNull();
    }
  });
});
