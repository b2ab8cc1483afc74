import { describe, expect, it } from 'vitest';
import { OutcomeBatch } from './outcome-batch';

/** A write that records what each call carried and waits until the test lets it finish. */
function controlledWrite() {
  const calls: number[][] = [];
  const finishers: ((error?: Error) => void)[] = [];
  const write = (batch: readonly number[]) =>
    new Promise<string[]>((resolve, reject) => {
      calls.push([...batch]);
      finishers.push((error) => (error ? reject(error) : resolve(batch.map((item) => `wrote ${item}`))));
    });
  return { calls, write, finish: (i: number, error?: Error) => finishers[i]!(error) };
}

/** An error the driver gives when the database cannot be reached (database-outage.ts). */
const outage = (message: string) => Object.assign(new Error(message), { code: 'CONNECTION_CLOSED' });

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('OutcomeBatch', () => {
  it('writes what arrives in one turn together, and what arrives during a write in the next one', async () => {
    const { calls, write, finish } = controlledWrite();
    const batch = new OutcomeBatch(write);
    const first = [batch.record(1), batch.record(2), batch.record(3)];
    await turn();
    expect(calls).toEqual([[1, 2, 3]]);
    const second = [batch.record(4), batch.record(5)];
    await turn();
    expect(calls).toHaveLength(1); // one write at a time
    finish(0);
    await Promise.all(first);
    await turn();
    expect(calls).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    finish(1);
    expect(await Promise.all(second)).toEqual(['wrote 4', 'wrote 5']);
  });

  it('a database outage rejects the outcomes the write carried, and only those; nothing is written row by row; later ones are written', async () => {
    const { calls, write, finish } = controlledWrite();
    const batch = new OutcomeBatch(write);
    const refused = [batch.record(1), batch.record(2)];
    await turn();
    const later = batch.record(3);
    finish(0, outage('connection lost'));
    await Promise.all(refused.map((p) => expect(p).rejects.toThrow('connection lost')));
    await turn();
    expect(calls).toEqual([[1, 2], [3]]);
    finish(1);
    await expect(later).resolves.toBe('wrote 3');
  });

  it('a write refused for anything but an outage is made again row by row: what can be written is, only the rows still refused are rejected', async () => {
    const calls: number[][] = [];
    // The database refuses any write that carries 2 (a constraint, a malformed value).
    const batch = new OutcomeBatch(async (items: readonly number[]) => {
      calls.push([...items]);
      if (items.includes(2)) throw new Error('row 2 violates a constraint');
      return items.map((item) => `wrote ${item}`);
    });
    const results = await Promise.allSettled([batch.record(1), batch.record(2), batch.record(3)]);
    expect(results).toEqual([
      { status: 'fulfilled', value: 'wrote 1' },
      { status: 'rejected', reason: new Error('row 2 violates a constraint') },
      { status: 'fulfilled', value: 'wrote 3' },
    ]);
    expect(calls).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('an outage while writing row by row rejects that row and the rest without trying them', async () => {
    const calls: number[][] = [];
    let failures = 0;
    const batch = new OutcomeBatch(async (items: readonly number[]) => {
      calls.push([...items]);
      if (items.length > 1) throw new Error('malformed value');
      if (items[0] === 2) throw outage(`gone ${++failures}`);
      return items.map((item) => `wrote ${item}`);
    });
    const results = await Promise.allSettled([batch.record(1), batch.record(2), batch.record(3)]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['wrote 1', 'gone 1', 'gone 1']);
    expect(calls).toEqual([[1, 2, 3], [1], [2]]);
  });
});
