// The workspace behind the API: saves validate (drafts are kept, flagged invalid), valid
// topologies are stored in canonical form so versions compare cleanly, and diffs are structural.
import {
  MigrationError,
  exportTopology,
  migrateDocument,
  topologyDocumentSchema,
  type ValidationIssue,
  type ValidationResult,
} from '@streamwright/topology-model';
import { RuntimeError } from '../errors.js';
import { diffTopologies, type TopologyDiff } from './topology-diff.js';
import type {
  SavedVersion,
  VersionInfo,
  WorkspaceEntry,
  WorkspaceStore,
} from './workspace-store.js';

export interface SaveResult extends VersionInfo {
  name: string;
  /** The validation errors of an invalid draft (empty when valid). */
  errors: ValidationIssue[];
}

export interface DiffResult {
  name: string;
  from: VersionInfo;
  to: VersionInfo;
  diff: TopologyDiff;
}

export class WorkspaceService {
  constructor(
    private readonly store: WorkspaceStore,
    private readonly validate: (input: unknown) => ValidationResult,
  ) {}

  /**
   * Saves a new version. A topology that does not validate is still saved (a draft), flagged
   * invalid with its errors; a document without the topology structure is refused.
   */
  async save(name: string, topology: unknown, message?: string): Promise<SaveResult> {
    const { document, errors } = this.normalize(topology);
    const saved = await this.store.save(name, document, { valid: errors.length === 0, message });
    return { ...infoOf(saved), name, errors };
  }

  list(): Promise<WorkspaceEntry[]> {
    return this.store.list();
  }

  async history(name: string): Promise<{ name: string; versions: VersionInfo[] }> {
    return { name, versions: await this.store.history(name) };
  }

  open(name: string, version?: number): Promise<SavedVersion> {
    return this.store.open(name, version);
  }

  rename(from: string, to: string): Promise<WorkspaceEntry> {
    return this.store.rename(from, to);
  }

  delete(name: string): Promise<void> {
    return this.store.delete(name);
  }

  async diff(name: string, from: number, to: number): Promise<DiffResult> {
    const [a, b] = [await this.store.open(name, from), await this.store.open(name, to)];
    return { name, from: infoOf(a), to: infoOf(b), diff: diffTopologies(a.topology, b.topology) };
  }

  private normalize(input: unknown): { document: unknown; errors: ValidationIssue[] } {
    let migrated: unknown;
    try {
      migrated = migrateDocument(input);
    } catch (error) {
      if (error instanceof MigrationError) throw new RuntimeError('NOT_A_TOPOLOGY', error.message);
      throw error;
    }
    const result = this.validate(migrated);
    if (result.ok) {
      return { document: JSON.parse(exportTopology(result.topology)) as unknown, errors: [] };
    }
    const structure = topologyDocumentSchema.safeParse(migrated);
    if (!structure.success) {
      const first = result.errors.slice(0, 3).map((e) => `${e.path || '(document)'}: ${e.message}`);
      throw new RuntimeError(
        'NOT_A_TOPOLOGY',
        `topology: not a topology document (${first.join('; ')}${result.errors.length > 3 ? '; …' : ''})`,
      );
    }
    return { document: structure.data, errors: result.errors };
  }
}

function infoOf(v: VersionInfo): VersionInfo {
  return { version: v.version, savedAt: v.savedAt, message: v.message, valid: v.valid };
}
