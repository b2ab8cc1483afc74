// A markdown table, as every section of BENCHMARKS.md writes one.

/**
 * @param {string[]} header
 * @param {unknown[][]} rows
 */
export function table(header, rows) {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}
