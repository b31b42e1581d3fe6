// What Kafka Streams puts in the consumer protocol's user data, here as versioned JSON (an int32
// version, then UTF-8 JSON): a member's SubscriptionInfo (its instance's process id, and per task
// the sum of its changelog offsets there — LATEST_OFFSET for a task it runs as an active) and the
// leader's AssignmentInfo for it (its active and standby tasks, and when the probing rebalance is
// due). Members of other applications' assignors (no user data) are refused by name.

const SUBSCRIPTION_VERSION = 1;
const ASSIGNMENT_VERSION = 1;

export interface SubscriptionInfo {
  processId: string;
  /** Per task id: the instance's offset sum of its changelogs, or LATEST_OFFSET (-2). */
  taskOffsetSums: Record<string, number>;
  /** The instance's application.server (Kafka Streams' userEndPoint), when it has one. */
  userEndPoint?: string;
}

/** The active and standby tasks of each instance with an application.server (partitionsByHost). */
export type TasksByHost = Record<string, { active: string[]; standby: string[] }>;

export interface AssignmentInfo {
  activeTasks: string[];
  standbyTasks: string[];
  /**
   * Epoch ms of the probing rebalance (warm-ups in flight), 0 for a follow-up rebalance at once
   * (cooperative: tasks held back until their old owner revoked them), or -1 for none.
   */
  nextProbingRebalanceMs: number;
  /** Every instance's tasks by application.server (Kafka Streams' partitionsByHost). */
  hosts?: TasksByHost;
}

function encode(version: number, body: unknown): Uint8Array {
  const json = Buffer.from(JSON.stringify(body), 'utf8');
  const out = Buffer.allocUnsafe(4 + json.length);
  out.writeInt32BE(version, 0);
  json.copy(out, 4);
  return out;
}

function decode(bytes: Uint8Array | null, what: string, version: number): Record<string, unknown> {
  if (bytes === null || bytes.length < 4)
    throw new Error(`${what}: no Streamwright user data (a member of another client or assignor?)`);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found = buffer.readInt32BE(0);
  if (found !== version)
    throw new Error(`${what}: user data version ${found}, expected ${version}`);
  const parsed: unknown = JSON.parse(buffer.subarray(4).toString('utf8'));
  if (typeof parsed !== 'object' || parsed === null) throw new Error(`${what}: not an object`);
  return parsed as Record<string, unknown>;
}

export const encodeSubscriptionInfo = (info: SubscriptionInfo): Uint8Array =>
  encode(SUBSCRIPTION_VERSION, info);

export function decodeSubscriptionInfo(bytes: Uint8Array | null, member: string): SubscriptionInfo {
  const what = `the subscription of group member ${member}`;
  const o = decode(bytes, what, SUBSCRIPTION_VERSION);
  const sums = o['taskOffsetSums'];
  if (typeof o['processId'] !== 'string' || typeof sums !== 'object' || sums === null)
    throw new Error(`${what}: no processId or taskOffsetSums`);
  for (const [task, sum] of Object.entries(sums))
    if (!Number.isSafeInteger(sum)) throw new Error(`${what}: offset sum of ${task} is ${sum}`);
  const endpoint = o['userEndPoint'];
  return {
    processId: o['processId'],
    taskOffsetSums: sums as Record<string, number>,
    ...(typeof endpoint === 'string' ? { userEndPoint: endpoint } : {}),
  };
}

export const encodeAssignmentInfo = (info: AssignmentInfo): Uint8Array =>
  encode(ASSIGNMENT_VERSION, info);

export function decodeAssignmentInfo(bytes: Uint8Array | null): AssignmentInfo | null {
  if (bytes === null || bytes.length === 0) return null;
  const o = decode(bytes, 'the assignment', ASSIGNMENT_VERSION);
  const list = (v: unknown): string[] =>
    Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
  const next = o['nextProbingRebalanceMs'];
  const hosts: TasksByHost = {};
  const raw = o['hosts'];
  if (typeof raw === 'object' && raw !== null)
    for (const [host, tasks] of Object.entries(raw as Record<string, Record<string, unknown>>))
      hosts[host] = { active: list(tasks?.['active']), standby: list(tasks?.['standby']) };
  return {
    activeTasks: list(o['activeTasks']),
    standbyTasks: list(o['standbyTasks']),
    nextProbingRebalanceMs: typeof next === 'number' ? next : -1,
    ...(typeof raw === 'object' && raw !== null ? { hosts } : {}),
  };
}
