// Latency samples in milliseconds, and their percentiles (nearest rank over all samples: runs here are small
// enough to keep every sample, so nothing is lost to bucketing).
export class Latencies {
  constructor() {
    this.values = [];
    this.open = true;
  }

  add(ms) {
    if (this.open) this.values.push(ms);
  }

  /** Samples added after this are dropped (requests still in flight when a timed window ends). */
  close() {
    this.open = false;
  }

  /** Samples are kept again (the next measured window). */
  reopen() {
    this.open = true;
  }

  get count() {
    return this.values.length;
  }

  percentile(p) {
    if (this.values.length === 0) return NaN;
    const sorted = Float64Array.from(this.values).sort();
    const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
    return sorted[rank];
  }

  summary() {
    return { count: this.count, p50: this.percentile(50), p99: this.percentile(99), max: this.percentile(100) };
  }

  static merge(...all) {
    const merged = new Latencies();
    for (const one of all) merged.values.push(...one.values);
    return merged;
  }
}

/** Latencies per named step plus all of them together. */
export class StepLatencies {
  constructor() {
    this.steps = new Map();
    this.all = new Latencies();
    this.open = true;
  }

  add(step, ms) {
    if (!this.open) return;
    if (!this.steps.has(step)) this.steps.set(step, new Latencies());
    this.steps.get(step).add(ms);
    this.all.add(ms);
  }

  close() {
    this.open = false;
    this.all.close();
    for (const one of this.steps.values()) one.close();
  }

  reopen() {
    this.open = true;
    this.all.open = true;
    for (const one of this.steps.values()) one.open = true;
  }
}
