// The deployed topology and whether it was running, kept in `<dataDir>/app.json` so a restarted
// runtime resumes where it stopped. Written to a temporary file and renamed, so a crash mid-write
// leaves the previous file intact.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface SavedDeployment {
  /** The canonical topology document (as exportTopology writes it). */
  topology: unknown;
  /** Whether the app should be running: the last start/stop the user asked for. */
  running: boolean;
  deployedAt: number;
}

const FILE_VERSION = 1;

export class DeploymentStore {
  readonly path: string;

  constructor(private readonly dataDir: string) {
    this.path = join(dataDir, 'app.json');
  }

  /** The saved deployment, or null when there is none. Throws on a file it cannot read. */
  async load(): Promise<SavedDeployment | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    const parsed: unknown = JSON.parse(text);
    if (!isSavedFile(parsed)) throw new Error(`${this.path} is not a Streamwright deployment file`);
    return { topology: parsed.topology, running: parsed.running, deployedAt: parsed.deployedAt };
  }

  async save(deployment: SavedDeployment): Promise<void> {
    await mkdir(this.dataDir, { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    try {
      await writeFile(
        tmp,
        `${JSON.stringify({ version: FILE_VERSION, ...deployment }, null, 2)}\n`,
        'utf8',
      );
      await rename(tmp, this.path);
    } catch (error) {
      // A full disk (say) keeps the previous file, and leaves no half-written one beside it.
      await rm(tmp, { force: true });
      throw error;
    }
  }

  /** Moves an unreadable file aside so it is neither lost nor read again. Returns the new path. */
  async quarantine(): Promise<string> {
    const aside = `${this.path}.unreadable-${Date.now()}`;
    await rename(this.path, aside);
    return aside;
  }
}

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}

function isSavedFile(value: unknown): value is SavedDeployment & { version: number } {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    record.version === FILE_VERSION &&
    typeof record.running === 'boolean' &&
    typeof record.deployedAt === 'number' &&
    typeof record.topology === 'object' &&
    record.topology !== null
  );
}
