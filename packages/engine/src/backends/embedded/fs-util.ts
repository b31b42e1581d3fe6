import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Replaces a small file atomically (write aside, then rename), so a crash leaves old or new. */
export async function writeFileAtomic(path: string, data: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}

/** File-system-safe name for a topic or group id (Kafka names are already [a-zA-Z0-9._-]). */
export function safeName(name: string): string {
  return encodeURIComponent(name);
}
