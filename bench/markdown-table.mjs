// A markdown table, as every section of BENCHMARKS.md writes one.

/**
 * @param {string[]} header
 * @param {unknown[][]} rows
 */
export function table(header, rows) {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

// The cells' numbers, alike in every section; `n/a` for a number not measured.
/** @param {number} x */
export const n0 = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : 'n/a');
/** @param {number} x */
export const n1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
/** @param {number} x */
export const n2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
/** a ÷ b, NaN unless both are numbers and b is above 0. */
export const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : NaN);
