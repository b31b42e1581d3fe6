// The application's assignor on Kafka, as Kafka Streams' StreamsPartitionAssignor: each member
// (stream thread) subscribes with its instance's process id and the offset sums of the tasks whose
// state the instance holds (SubscriptionInfo); the group leader groups members by instance,
// computes each stateful task's lag per instance against its changelogs' end offsets, runs the
// high-availability assignor (high-availability-assignor.ts) and splits each instance's tasks
// over its threads (thread-distribution.ts). Each member's assignment carries its active task
// partitions and, in the user data (AssignmentInfo), its standby tasks and when the probing
// rebalance for warm-ups is due. Under the cooperative protocol (members report the partitions
// they own) a task whose partitions another member still owns is held back from its new owner
// until the old one revoked it — the new owner then asks for a follow-up rebalance at once, and
// keeps a standby of it meanwhile when it had one (StreamsPartitionAssignor#addClientAssignments).
// On the embedded log (no user data) `assign` is the sticky-free streamsTaskAssignor, as before.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineLogger } from '../api.js';
import type {
  AssignorMember,
  MemberAssignment,
  PartitionAssignor,
  TopicPartition,
} from '../backend-spi.js';
import { readCheckpoint } from '../state/checkpoint.js';
import {
  streamsTaskAssignor,
  tasksFor,
  type AssignableSubtopology,
} from '../thread/task-assignor.js';
import { ClientState, LATEST_OFFSET, UNKNOWN_OFFSET_SUM } from './client-state.js';
import { assignHighAvailability, type AssignmentConfigs } from './high-availability-assignor.js';
import { compareTaskIds } from './java-order.js';
import {
  decodeAssignmentInfo,
  decodeSubscriptionInfo,
  encodeAssignmentInfo,
  encodeSubscriptionInfo,
  type AssignmentInfo,
  type TasksByHost,
} from './streams-user-data.js';
import { spreadOverThreads, type ThreadOfInstance } from './thread-distribution.js';

export interface StreamsAssignorOptions {
  applicationId: string;
  /** Sub-topologies with the changelog topics of their stores (none: a stateless task). */
  subtopologies: (AssignableSubtopology & { changelogTopics: string[] })[];
  processId: string;
  /** application.server: sent in the subscription, so that the assignment maps it to tasks. */
  userEndPoint?: string | null;
  /** `<state.dir>`: the checkpoints of task directories tell the state this instance holds. */
  stateDir: string | undefined;
  configs: AssignmentConfigs & { probingRebalanceIntervalMs: number };
  /** Latest offset per partition of a topic (the changelogs' end offsets). */
  endOffsets(topic: string): Promise<Map<number, number>>;
  logger: EngineLogger;
  now?: () => number;
}

/** What this instance's members were last given, for status and the next subscription. */
export interface MemberTasks {
  activeTasks: string[];
  standbyTasks: string[];
}

export class StreamsAssignor implements PartitionAssignor {
  readonly name = 'streams';
  readonly #o: StreamsAssignorOptions;
  readonly #embedded: PartitionAssignor;
  readonly #lastByClient = new Map<string, AssignmentInfo>();
  /** The latest assignment's tasks by application.server (every instance's). */
  #hosts: TasksByHost = {};

  constructor(options: StreamsAssignorOptions) {
    this.#o = options;
    this.#embedded = streamsTaskAssignor(options.subtopologies);
  }

  assign(
    members: AssignorMember[],
    partitionsPerTopic: ReadonlyMap<string, number>,
  ): Map<string, TopicPartition[]> {
    return this.#embedded.assign(members, partitionsPerTopic);
  }

  /** Every instance's active and standby tasks by application.server, as last assigned. */
  tasksByHost(): TasksByHost {
    return this.#hosts;
  }

  /** Every task this instance's members hold now, by client id (status). */
  tasksOf(clientId: string): MemberTasks | null {
    const info = this.#lastByClient.get(clientId);
    return info ? { activeTasks: info.activeTasks, standbyTasks: info.standbyTasks } : null;
  }

  /**
   * SubscriptionInfo of one member: LATEST_OFFSET for the tasks it ran as actives, and for every
   * other task directory of this instance with a checkpoint (standbys, state left behind) the
   * sum of its checkpointed changelog offsets.
   */
  subscriptionUserData(clientId: string): Uint8Array {
    const sums: Record<string, number> = {};
    const activeHere = new Set<string>();
    for (const info of this.#lastByClient.values())
      for (const t of info.activeTasks) activeHere.add(t);
    for (const [task, sum] of this.#onDisk()) if (!activeHere.has(task)) sums[task] = sum;
    for (const t of this.#lastByClient.get(clientId)?.activeTasks ?? []) sums[t] = LATEST_OFFSET;
    return encodeSubscriptionInfo({
      processId: this.#o.processId,
      taskOffsetSums: sums,
      ...(this.#o.userEndPoint ? { userEndPoint: this.#o.userEndPoint } : {}),
    });
  }

  onAssignment(clientId: string, assignment: MemberAssignment): { rebalanceAtMs?: number } {
    const info = decodeAssignmentInfo(assignment.userData);
    if (info === null) return {};
    this.#lastByClient.set(clientId, info);
    if (info.hosts) this.#hosts = info.hosts;
    // 0: a follow-up rebalance at once (tasks held back until their old owner revoked them).
    if (info.nextProbingRebalanceMs === 0) return { rebalanceAtMs: (this.#o.now ?? Date.now)() };
    return info.nextProbingRebalanceMs > 0 ? { rebalanceAtMs: info.nextProbingRebalanceMs } : {};
  }

  /** Task id → the sum of the checkpointed offsets in `<state.dir>/<application.id>/<task>`. */
  #onDisk(): Map<string, number> {
    const out = new Map<string, number>();
    const { stateDir, applicationId } = this.#o;
    if (stateDir === undefined) return out;
    const appDir = join(stateDir, applicationId);
    if (!existsSync(appDir)) return out;
    for (const entry of readdirSync(appDir, { withFileTypes: true })) {
      if (!entry.isDirectory() || !/^\d+_\d+$/.test(entry.name)) continue;
      const checkpoint = readCheckpoint(join(appDir, entry.name), { remove: false });
      if (checkpoint.size === 0) continue;
      let sum = 0;
      for (const offset of checkpoint.values()) sum += offset;
      out.set(entry.name, sum);
    }
    return out;
  }

  async assignWithUserData(
    members: AssignorMember[],
    partitionsPerTopic: ReadonlyMap<string, number>,
  ): Promise<Map<string, MemberAssignment>> {
    const { subtopologies, configs } = this.#o;
    const tasks = tasksFor(subtopologies, partitionsPerTopic);
    const changelogsOf = new Map(subtopologies.map((s) => [s.id, s.changelogTopics]));
    const stateful = tasks.filter((t) => (changelogsOf.get(t.subtopology) ?? []).length > 0);

    // Members by instance (process id), with what each reported.
    const instances = new Map<
      string,
      { threads: ThreadOfInstance[]; sums: Map<string, number>; endpoint?: string }
    >();
    for (const m of members) {
      const info = decodeSubscriptionInfo(m.userData ?? null, m.memberId);
      let instance = instances.get(info.processId);
      if (!instance) instances.set(info.processId, (instance = { threads: [], sums: new Map() }));
      if (info.userEndPoint !== undefined) instance.endpoint = info.userEndPoint;
      const previousActive = new Set<string>();
      const previousStandby = new Set<string>();
      for (const [task, sum] of Object.entries(info.taskOffsetSums)) {
        (sum === LATEST_OFFSET ? previousActive : previousStandby).add(task);
        // Kafka Streams merges the members' maps (putAll); an active's LATEST_OFFSET wins here.
        if (instance.sums.get(task) !== LATEST_OFFSET) instance.sums.set(task, sum);
      }
      instance.threads.push({ memberId: m.memberId, previousActive, previousStandby });
    }

    // Each stateful task's lag per instance: the end offset sum of its changelog partitions
    // minus the instance's offset sum (ClientState#computeTaskLags).
    const ends = new Map<string, Map<number, number>>();
    for (const topic of new Set(stateful.flatMap((t) => changelogsOf.get(t.subtopology)!)))
      ends.set(topic, await this.#o.endOffsets(topic));
    const endSums = new Map<string, number>();
    for (const t of stateful) {
      let sum = 0;
      for (const topic of changelogsOf.get(t.subtopology)!)
        sum += ends.get(topic)?.get(t.partition) ?? 0;
      endSums.set(t.taskId, sum);
    }
    const clients = new Map<string, ClientState>();
    for (const [processId, instance] of instances) {
      const lags = new Map<string, number>();
      for (const [task, end] of endSums) {
        const sum = instance.sums.get(task) ?? 0;
        lags.set(
          task,
          sum === LATEST_OFFSET || sum === UNKNOWN_OFFSET_SUM ? sum : end < sum ? end : end - sum,
        );
      }
      clients.set(processId, new ClientState(processId, instance.threads.length, lags));
    }
    const probing = assignHighAvailability(
      clients,
      tasks.map((t) => t.taskId),
      stateful.map((t) => t.taskId),
      configs,
    );
    const nextProbingRebalanceMs = probing
      ? (this.#o.now ?? Date.now)() + configs.probingRebalanceIntervalMs
      : -1;

    const partitionsOf = new Map(tasks.map((t) => [t.taskId, t.partitions]));
    // Cooperative: who owns each partition now (the members' ownedPartitions).
    const ownerOf = new Map<string, string>();
    for (const m of members)
      for (const tp of m.ownedPartitions ?? [])
        ownerOf.set(`${tp.topic}:${tp.partition}`, m.memberId);
    const statefulIds = new Set(stateful.map((t) => t.taskId));
    const pendingRevocation: Record<string, string[]> = {};
    const hosts: TasksByHost = {};
    const infos = new Map<string, AssignmentInfo>();
    const out = new Map<string, MemberAssignment>();
    for (const [processId, instance] of instances) {
      const client = clients.get(processId)!;
      const actives = spreadOverThreads(
        instance.threads,
        client.sortedActive(),
        (t) => t.previousActive,
      );
      const standbys = spreadOverThreads(
        instance.threads,
        client.sortedStandby(),
        (t) => t.previousStandby,
      );
      const hadStandby = new Set(instance.threads.flatMap((t) => [...t.previousStandby]));
      for (const thread of instance.threads) {
        const activeTasks: string[] = [];
        const standbyTasks = standbys.get(thread.memberId) ?? [];
        const held: string[] = [];
        for (const task of actives.get(thread.memberId) ?? []) {
          const ownedElsewhere = (partitionsOf.get(task) ?? []).some((tp) => {
            const owner = ownerOf.get(`${tp.topic}:${tp.partition}`);
            return owner !== undefined && owner !== thread.memberId;
          });
          if (!ownedElsewhere) {
            activeTasks.push(task);
            continue;
          }
          held.push(task);
          // Its state stays open here until the task can become active (in-memory stores too).
          if (statefulIds.has(task) && hadStandby.has(task) && !standbyTasks.includes(task))
            standbyTasks.push(task);
        }
        activeTasks.sort(compareTaskIds);
        standbyTasks.sort(compareTaskIds);
        if (held.length > 0) pendingRevocation[thread.memberId] = held.sort(compareTaskIds);
        if (instance.endpoint !== undefined) {
          const host = (hosts[instance.endpoint] ??= { active: [], standby: [] });
          host.active.push(...activeTasks);
          host.standby.push(...standbyTasks);
        }
        infos.set(thread.memberId, {
          activeTasks,
          standbyTasks,
          // 0: rejoin at once, once the old owner revoked (KAFKA-10078's follow-up rebalance).
          nextProbingRebalanceMs: held.length > 0 ? 0 : nextProbingRebalanceMs,
        });
      }
    }
    // Held-back tasks are on no host until their new owner has them (queries: migrating).
    for (const h of Object.values(hosts)) {
      h.active.sort(compareTaskIds);
      h.standby.sort(compareTaskIds);
    }
    for (const [memberId, info] of infos)
      out.set(memberId, {
        partitions: info.activeTasks.flatMap((t) => partitionsOf.get(t) ?? []),
        userData: encodeAssignmentInfo(Object.keys(hosts).length > 0 ? { ...info, hosts } : info),
      });
    const missing = stateful.filter(
      (t) =>
        [...clients.values()].filter((c) => c.standby.has(t.taskId)).length <
        Math.min(configs.numStandbyReplicas, clients.size - 1),
    );
    if (configs.numStandbyReplicas > 0 && clients.size <= configs.numStandbyReplicas)
      this.#o.logger.warn(
        { instances: clients.size, numStandbyReplicas: configs.numStandbyReplicas },
        'not enough instances for num.standby.replicas: each task has a standby on every other instance only',
      );
    this.#o.logger.info(
      {
        instances: clients.size,
        members: members.length,
        probingRebalance: probing ? new Date(nextProbingRebalanceMs).toISOString() : null,
        // Cooperative: tasks held back from these members until their owners revoked them.
        pendingRevocation,
        tasksShortOfStandbys: missing.length,
        assignment: Object.fromEntries(
          [...clients].map(([id, c]) => [
            id,
            { active: c.sortedActive(), standby: c.sortedStandby() },
          ]),
        ),
      },
      'assigned tasks to instances (high availability)',
    );
    return out;
  }
}
