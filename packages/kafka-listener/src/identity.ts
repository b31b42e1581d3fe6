// What must stay the same across restarts: the cluster id (clients and Kafka Streams compare it),
// the node id (consumers remember the coordinator and leaders by it), and the block of producer
// ids handed to idempotent producers (an id must never be handed out twice, or a restarted
// listener would accept a new producer's batches as duplicates of an old one's). Kept in one
// small JSON file next to the log, written atomically (write + fsync + rename).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface ListenerIdentity {
  clusterId: string;
  nodeId: number;
  /** Producer ids below this may have been handed out; the next block starts here. */
  producerIdBlockEnd: number;
}

/**
 * Idempotent producers get ids from 10^12 up, far above the log's transactional producer ids
 * (which count up from 1000), so the two never meet.
 */
export const FIRST_IDEMPOTENT_PRODUCER_ID = 1_000_000_000_000;
const BLOCK = 1000;

function write(file: string, id: ListenerIdentity): void {
  const tmp = `${file}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeSync(fd, `${JSON.stringify(id, null, 2)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

function parse(file: string): ListenerIdentity {
  const text = fs.readFileSync(file, 'utf8');
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not JSON (${(err as Error).message}); fix or remove it`);
  }
  const o = v as Partial<ListenerIdentity>;
  if (
    typeof o.clusterId !== 'string' ||
    !/^[A-Za-z0-9_-]{22}$/.test(o.clusterId) ||
    !Number.isInteger(o.nodeId) ||
    !Number.isInteger(o.producerIdBlockEnd)
  )
    throw new Error(
      `${file}: expected {"clusterId": 22 base64url characters, "nodeId": integer, "producerIdBlockEnd": integer}`,
    );
  return o as ListenerIdentity;
}

/** The identity in `file`, created on first use. */
export class IdentityStore {
  readonly identity: ListenerIdentity;
  private nextProducerId: number;

  constructor(private readonly file: string) {
    if (fs.existsSync(file)) this.identity = parse(file);
    else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      this.identity = {
        clusterId: randomBytes(16).toString('base64url'),
        nodeId: 1,
        producerIdBlockEnd: FIRST_IDEMPOTENT_PRODUCER_ID,
      };
      write(file, this.identity);
    }
    this.nextProducerId = this.identity.producerIdBlockEnd;
  }

  /** A producer id never handed out before, here or by an earlier run. */
  allocateProducerId(): number {
    if (this.nextProducerId >= this.identity.producerIdBlockEnd) {
      this.identity.producerIdBlockEnd = this.nextProducerId + BLOCK;
      write(this.file, this.identity);
    }
    return this.nextProducerId++;
  }
}
