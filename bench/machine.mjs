// What the numbers were measured on.
import os from 'node:os';
import { readFileSync } from 'node:fs';

export function describeMachine(postgres) {
  const cpus = os.cpus();
  const load = os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');
  let model = cpus[0]?.model?.trim() || 'unknown CPU';
  try {
    // Some virtual machines report only a family name in os.cpus(); /proc/cpuinfo may say more.
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    const name = /^model name\s*:\s*(.+)$/m.exec(info)?.[1]?.trim();
    if (name && name.length > model.length) model = name;
  } catch {
    // not Linux
  }
  return {
    cpu: model,
    cores: cpus.length,
    memoryGiB: (os.totalmem() / 1024 ** 3).toFixed(1),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    postgres,
    loadAtStart: load,
  };
}
