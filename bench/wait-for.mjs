/**
 * Polls `predicate` every 100 ms until it gives a truthy value, which it returns; past `timeoutMs`, throws naming
 * `what` it waited for. For the metrics that wait on rows a server writes (deliveries made, events sent).
 * @template T
 * @param {() => Promise<T> | T} predicate
 * @param {number} timeoutMs
 * @param {string} what
 * @returns {Promise<T>}
 */
export async function waitFor(predicate, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
