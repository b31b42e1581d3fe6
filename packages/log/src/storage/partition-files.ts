// What an interrupted operation can leave in a partition directory, and how open() cleans it up.
import fs from 'node:fs';
import path from 'node:path';
import type { RecoveryEvent } from './segment.js';

/**
 * Clears what an interrupted operation left in a partition directory and returns the segment
 * base offsets in order: a cleaned segment whose swap began is completed; unfinished cleaner output
 * and index files without a log are removed.
 */
export function prepareDirectory(dir: string, events: RecoveryEvent[]): number[] {
  const names = fs.readdirSync(dir);
  for (const name of names) {
    const full = path.join(dir, name);
    if (name.endsWith('.log.swap')) {
      const base = name.slice(0, -'.log.swap'.length);
      for (const suffix of ['.index', '.timeindex', '.index.cleaned', '.timeindex.cleaned']) {
        fs.rmSync(path.join(dir, base + suffix), { force: true });
      }
      fs.renameSync(full, path.join(dir, `${base}.log`));
      events.push({ kind: 'completed-swap', file: path.join(dir, `${base}.log`) });
    }
  }
  const after = fs.readdirSync(dir);
  const logs = new Set(after.filter((n) => /^\d{20}\.log$/.test(n)).map((n) => n.slice(0, 20)));
  for (const name of after) {
    const full = path.join(dir, name);
    const m = /^(\d{20})\.(index|timeindex)$/.exec(name);
    if (name.endsWith('.cleaned') || name.endsWith('.tmp') || (m && !logs.has(m[1]!))) {
      fs.rmSync(full, { force: true });
      events.push({ kind: 'removed-leftover', file: full });
    }
  }
  return [...logs].map(Number).sort((a, b) => a - b);
}
