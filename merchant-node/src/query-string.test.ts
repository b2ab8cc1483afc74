import { describe, expect, it } from 'vitest';
import { queryString } from './query-string';

describe('queryString', () => {
  it('repeats a list, spells an object name[key], writes dates in ISO 8601 and leaves out what is not set', () => {
    expect(
      queryString({
        limit: 20,
        status: [0, 7],
        q: '4242',
        createdFrom: new Date('2026-01-02T03:04:05Z'),
        metadata: { order: 'A&B' },
        startingAfter: undefined,
        deviceId: null,
      }),
    ).toBe('?limit=20&status=0&status=7&q=4242&createdFrom=2026-01-02T03%3A04%3A05.000Z&metadata%5Border%5D=A%26B');
  });

  it('is nothing without parameters', () => {
    expect(queryString(undefined)).toBe('');
    expect(queryString({ limit: undefined })).toBe('');
  });

  it('refuses a value nested deeper than the service reads', () => {
    expect(() => queryString({ metadata: { order: { id: 1 } } })).toThrow('metadata[order]');
  });
});
