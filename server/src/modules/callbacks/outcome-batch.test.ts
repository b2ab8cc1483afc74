import { describe, expect, it } from 'vitest';
import { OutcomeBatch } from './outcome-batch';

/** A write that records what each call carried and waits until the test lets it finish. */
function controlledWrite() {
  const calls: number[][] = [];
  const finishers: ((error?: Error) => void)[] = [];
  const write = (batch: readonly number[]) =>
    new Promise<void>((resolve, reject) => {
      calls.push([...batch]);
      finishers.push((error) => (error ? reject(error) : resolve()));
    });
  return { calls, write, finish: (i: number, error?: Error) => finishers[i]!(error) };
}

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
    await Promise.all(second);
  });

  it('a failed write rejects the outcomes it carried, and only those; later ones are written', async () => {
    const { calls, write, finish } = controlledWrite();
    const batch = new OutcomeBatch(write);
    const refused = [batch.record(1), batch.record(2)];
    await turn();
    const later = batch.record(3);
    finish(0, new Error('connection lost'));
    await Promise.all(refused.map((p) => expect(p).rejects.toThrow('connection lost')));
    await turn();
    expect(calls).toEqual([[1, 2], [3]]);
    finish(1);
    await expect(later).resolves.toBeUndefined();
  });
});
