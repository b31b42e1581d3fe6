// The designer's workspace: named topologies, each save a new numbered version with its time,
// kept as files under `<dataDir>/workspace/`:
//
//   workspace/<base64url(name)>/meta.json         {name, createdAt}
//   workspace/<base64url(name)>/v000001.json      {version, savedAt, message, valid, topology}
//
// Directory names encode the topology's name, so any name is safe on disk and a rename is one
// directory rename. Files are written to a temporary name and renamed (a crash leaves the
// previous version intact); writes run one at a time.
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RuntimeError } from '../errors.js';
import { Serial } from './serial.js';

export interface VersionInfo {
  version: number;
  savedAt: number;
  message: string | null;
  /** Whether the topology validated when it was saved (drafts may be saved invalid). */
  valid: boolean;
}

export interface SavedVersion extends VersionInfo {
  name: string;
  topology: unknown;
}

export interface WorkspaceEntry {
  name: string;
  createdAt: number;
  versions: number;
  latest: VersionInfo;
}

const VERSION_FILE = /^v(\d{6,})\.json$/;
const TOPOLOGY_DIR = /^t-[A-Za-z0-9_-]+$/;

export class WorkspaceStore {
  private readonly serial = new Serial();

  constructor(readonly dir: string) {}

  /** Saves a new version (1 for a new name). */
  async save(
    name: string,
    topology: unknown,
    info: { valid: boolean; message?: string | undefined },
  ): Promise<SavedVersion> {
    return this.serial.run(async () => {
      const dir = this.dirOf(name);
      await mkdir(dir, { recursive: true });
      if (!(await exists(join(dir, 'meta.json')))) {
        await writeAtomic(join(dir, 'meta.json'), { name, createdAt: Date.now() });
      }
      const versions = await versionNumbers(dir);
      const version = (versions.at(-1) ?? 0) + 1;
      const saved: SavedVersion = {
        name,
        version,
        savedAt: Date.now(),
        message: info.message ?? null,
        valid: info.valid,
        topology,
      };
      const { name: _name, ...file } = saved;
      await writeAtomic(join(dir, versionFile(version)), file);
      return saved;
    });
  }

  async list(): Promise<WorkspaceEntry[]> {
    let dirs: string[];
    try {
      dirs = await readdir(this.dir);
    } catch (error) {
      if (hasCode(error, 'ENOENT')) return [];
      throw error;
    }
    const entries: WorkspaceEntry[] = [];
    for (const entry of dirs) {
      if (!TOPOLOGY_DIR.test(entry)) continue; // temporary files, a delete in progress
      const dir = join(this.dir, entry);
      const meta = await readMeta(dir);
      if (!meta) continue; // a directory that is not a saved topology (or a half-made one)
      const versions = await versionNumbers(dir);
      const last = versions.at(-1);
      if (last === undefined) continue;
      const latest = await readVersion(dir, last);
      entries.push({
        name: meta.name,
        createdAt: meta.createdAt,
        versions: versions.length,
        latest: infoOf(latest),
      });
    }
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Every version, newest first. */
  async history(name: string): Promise<VersionInfo[]> {
    const dir = await this.requireDir(name);
    const out: VersionInfo[] = [];
    for (const v of (await versionNumbers(dir)).reverse())
      out.push(infoOf(await readVersion(dir, v)));
    return out;
  }

  /** One version (the latest by default). */
  async open(name: string, version?: number): Promise<SavedVersion> {
    const dir = await this.requireDir(name);
    const versions = await versionNumbers(dir);
    const wanted = version ?? versions.at(-1);
    if (wanted === undefined || !versions.includes(wanted)) {
      const range = versions.length > 0 ? ` (versions 1..${versions.at(-1)})` : '';
      throw new RuntimeError('WORKSPACE_NOT_FOUND', `"${name}" has no version ${wanted}${range}`);
    }
    const file = await readVersion(dir, wanted);
    return { name, ...file };
  }

  async rename(from: string, to: string): Promise<WorkspaceEntry> {
    return this.serial.run(async () => {
      const source = await this.requireDir(from);
      const target = this.dirOf(to);
      if (from !== to && (await exists(target))) {
        throw new RuntimeError('WORKSPACE_EXISTS', `a topology named "${to}" already exists`);
      }
      const meta = (await readMeta(source))!;
      if (from !== to) await rename(source, target);
      await writeAtomic(join(target, 'meta.json'), { name: to, createdAt: meta.createdAt });
      const versions = await versionNumbers(target);
      const latest = await readVersion(target, versions.at(-1)!);
      return {
        name: to,
        createdAt: meta.createdAt,
        versions: versions.length,
        latest: infoOf(latest),
      };
    });
  }

  async delete(name: string): Promise<void> {
    await this.serial.run(async () => {
      const dir = await this.requireDir(name);
      // Renamed away first, so a crash mid-delete never leaves a half-deleted topology listed.
      const doomed = `${dir}.deleting-${Date.now()}`;
      await rename(dir, doomed);
      await rm(doomed, { recursive: true, force: true });
    });
  }

  private dirOf(name: string): string {
    return join(this.dir, `t-${Buffer.from(name, 'utf8').toString('base64url')}`);
  }

  private async requireDir(name: string): Promise<string> {
    const dir = this.dirOf(name);
    if (!(await readMeta(dir))) {
      throw new RuntimeError('WORKSPACE_NOT_FOUND', `no saved topology named "${name}"`);
    }
    return dir;
  }
}

type VersionFile = Omit<SavedVersion, 'name'>;

function infoOf(file: VersionFile): VersionInfo {
  return { version: file.version, savedAt: file.savedAt, message: file.message, valid: file.valid };
}

function versionFile(version: number): string {
  return `v${String(version).padStart(6, '0')}.json`;
}

async function versionNumbers(dir: string): Promise<number[]> {
  const names = await readdir(dir);
  return names
    .map((n) => VERSION_FILE.exec(n)?.[1])
    .filter((v): v is string => v !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

async function readVersion(dir: string, version: number): Promise<VersionFile> {
  return JSON.parse(await readFile(join(dir, versionFile(version)), 'utf8')) as VersionFile;
}

async function readMeta(dir: string): Promise<{ name: string; createdAt: number } | null> {
  try {
    const meta = JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8')) as unknown;
    if (
      typeof meta === 'object' &&
      meta !== null &&
      typeof (meta as { name?: unknown }).name === 'string' &&
      typeof (meta as { createdAt?: unknown }).createdAt === 'number'
    ) {
      return meta as { name: string; createdAt: number };
    }
    return null;
  } catch {
    return null;
  }
}

async function writeAtomic(path: string, value: unknown): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(value, null, 2)}\n`, 'utf8');
  await rename(tmp, path);
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

function hasCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}
