import v8 from 'node:v8';

/**
 * Caps how far V8 lets the old generation grow past what its last full collection found alive: to `1 + percent/100`
 * times that. Left to itself, V8 picks up to 4× under a steady allocation rate such as a payment load, and keeps the
 * space: after the benchmark's capture load the old space held 205 MB for 66 MB alive, and the process 313 MB. Capped
 * at 100 % the process held 210-213 MB, its throughput within the runs' noise (bench/findings.md). 0 leaves V8's own
 * heuristic.
 *
 * V8 reads this setting at every full collection, so setting it once at start is enough (before that the heap is
 * small). Nothing else of V8 is changed after start.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
