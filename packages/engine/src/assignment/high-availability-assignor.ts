// Kafka Streams' HighAvailabilityTaskAssignor (KIP-441), at the level of instances: stateful
// active tasks are spread evenly, then every active whose target instance is not caught up on
// its state stays on (or goes back to) an instance that is, while a warm-up replica (a standby)
// restores it at the target; once the warm-ups catch up a probing rebalance moves them. Standby
// replicas go to the least loaded instances that hold no copy of the task yet, stateless tasks
// last. It follows Kafka Streams 4.1 step by step (including the order Java's collections give),
// so the same input gives the same task → instance map; the Java one is the test oracle
// (test/assignment/). Rack-aware placement (client tags) is not implemented.
import { ConstrainedPrioritySet, LATEST_OFFSET, type ClientState } from './client-state.js';
import { JavaPriorityQueue, compareProcessIds, compareTaskIds, sortedTasks } from './java-order.js';

export interface AssignmentConfigs {
  /** acceptable.recovery.lag (10,000): a lag this small counts as caught up. */
  acceptableRecoveryLag: number;
  /** max.warmup.replicas (2): warm-ups in flight at once, over the whole group. */
  maxWarmupReplicas: number;
  /** num.standby.replicas (0). */
  numStandbyReplicas: number;
}

/**
 * Assigns `allTasks` to the instances in `clients` (their `active`/`standby` sets, initially
 * empty). Returns whether a probing rebalance is needed (warm-ups are in flight).
 */
export function assignHighAvailability(
  clients: ReadonlyMap<string, ClientState>,
  allTasks: Iterable<string>,
  statefulTaskIds: Iterable<string>,
  configs: AssignmentConfigs,
): boolean {
  const order = [...clients.keys()].sort(compareProcessIds);
  const state = (id: string): ClientState => clients.get(id)!;
  const stateful = sortedTasks(new Set(statefulTaskIds));

  assignActiveStatefulTasks(order, state, stateful);
  if (configs.numStandbyReplicas > 0) assignStandbyReplicas(order, state, stateful, configs);

  const remainingWarmups = { n: configs.maxWarmupReplicas };
  const caughtUp = new Map<string, Set<string>>();
  const byLag = new Map<string, string[]>();
  for (const task of stateful) {
    const ups = new Set<string>();
    for (const id of order) {
      const lag = state(id).lagFor(task);
      if (
        lag === LATEST_OFFSET ||
        configs.acceptableRecoveryLag >= Number.MAX_SAFE_INTEGER ||
        (lag >= 0 && lag <= configs.acceptableRecoveryLag)
      )
        ups.add(id);
    }
    caughtUp.set(task, ups);
    byLag.set(
      task,
      [...order].sort(
        (a, b) => state(a).lagFor(task) - state(b).lagFor(task) || compareProcessIds(a, b),
      ),
    );
  }
  const warmups = new Map<string, Set<string>>();
  const movements = { caughtUp, byLag, state, order, warmups, remainingWarmups };
  const activeMoves = assignActiveTaskMovements(movements);
  const standbyMoves = assignStandbyTaskMovements(movements);

  const statefulSet = new Set(stateful);
  const stateless = sortedTasks([...new Set(allTasks)].filter((t) => !statefulSet.has(t)));
  const byActiveLoad = new ConstrainedPrioritySet(
    () => true,
    (c) => state(c).activeTaskLoad,
  );
  byActiveLoad.offerAll(order);
  for (const task of stateless) {
    const client = byActiveLoad.poll(task)!;
    state(client).active.add(task);
    byActiveLoad.offer(client);
  }
  return activeMoves + standbyMoves > 0;
}

function assignActiveStatefulTasks(
  order: string[],
  state: (id: string) => ClientState,
  stateful: string[],
): void {
  // Round robin over the instances in process-id order, then balanced by threads.
  stateful.forEach((task, i) => state(order[i % order.length]!).active.add(task));
  balanceTasksOverThreads(order, state, 'active');
}

function assignStandbyReplicas(
  order: string[],
  state: (id: string) => ClientState,
  stateful: string[],
  configs: AssignmentConfigs,
): void {
  const byLoad = new ConstrainedPrioritySet(
    (client, task) => !state(client).hasAssignedTask(task),
    (client) => state(client).assignedTaskLoad,
  );
  byLoad.offerAll(order);
  for (const task of stateful) {
    for (let remaining = configs.numStandbyReplicas; remaining > 0; remaining--) {
      const client = byLoad.poll(task);
      if (client === null) break; // fewer instances than replicas: logged by the caller
      state(client).standby.add(task);
      byLoad.offer(client);
    }
  }
  balanceTasksOverThreads(order, state, 'standby');
}

function balanceTasksOverThreads(
  order: string[],
  state: (id: string) => ClientState,
  kind: 'active' | 'standby',
): void {
  for (let keepBalancing = true; keepBalancing;) {
    keepBalancing = false;
    for (const sourceId of order) {
      const source = state(sourceId);
      for (const destinationId of order) {
        if (destinationId === sourceId) continue;
        const destination = state(destinationId);
        const tasks = kind === 'active' ? source.sortedActive() : source.sortedStandby();
        for (let i = 0; i < tasks.length && shouldMoveATask(source, destination); i++) {
          const task = tasks[i]!;
          if (destination.hasAssignedTask(task)) continue;
          source[kind].delete(task);
          destination[kind].add(task);
          keepBalancing = true;
        }
      }
    }
  }
}

function shouldMoveATask(source: ClientState, destination: ClientState): boolean {
  const skew = source.assignedTaskLoad - destination.assignedTaskLoad;
  if (skew <= 0) return false;
  const atDestination = (destination.assignedTaskCount + 1) / destination.capacity;
  const atSource = (source.assignedTaskCount - 1) / source.capacity;
  const proposedSkew = atSource - atDestination;
  // A move that only tips the imbalance the other way, or does not reduce it, is not made.
  return proposedSkew >= 0 && proposedSkew < skew;
}

interface Movements {
  caughtUp: Map<string, Set<string>>;
  byLag: Map<string, string[]>;
  state: (id: string) => ClientState;
  order: string[];
  warmups: Map<string, Set<string>>;
  remainingWarmups: { n: number };
}

interface TaskMovement {
  task: string;
  destination: string;
  caughtUpClients: number;
}

const byCaughtUpThenTask = (a: TaskMovement, b: TaskMovement): number =>
  a.caughtUpClients - b.caughtUpClients || compareTaskIds(a.task, b.task);

function notCaughtUpWhereMoreCaughtUpExist(m: Movements, task: string, client: string): boolean {
  if (m.caughtUp.get(task)!.has(client)) return false;
  const mostCaughtUp = m.byLag.get(task)![0]!;
  return m.state(mostCaughtUp).lagFor(task) < m.state(client).lagFor(task);
}

function mostCaughtUpEligible(
  m: Movements,
  task: string,
  destination: string,
  eligible: (client: string) => boolean,
): string | null {
  for (const client of m.byLag.get(task)!) {
    if (client === destination) break;
    if (eligible(client)) return client;
  }
  return null;
}

function caughtUpByLoad(m: Movements): ConstrainedPrioritySet {
  return new ConstrainedPrioritySet(
    (client, task) => m.caughtUp.get(task)!.has(client),
    (client) => m.state(client).assignedTaskLoad,
  );
}

function assignActiveTaskMovements(m: Movements): number {
  const byLoad = caughtUpByLoad(m);
  const movements = new JavaPriorityQueue<TaskMovement>(byCaughtUpThenTask);
  for (const client of m.order) {
    for (const task of m.state(client).sortedActive())
      if (notCaughtUpWhereMoreCaughtUpExist(m, task, client))
        movements.offer({
          task,
          destination: client,
          caughtUpClients: m.caughtUp.get(task)!.size,
        });
    byLoad.offer(client);
  }
  const needed = movements.size;
  // Fewest caught-up instances first, then by task id.
  for (let movement = movements.poll(); movement !== undefined; movement = movements.poll()) {
    const { task, destination } = movement;
    const target = m.state(destination);
    // A caught-up standby swaps with the active; else any caught-up instance takes the active
    // (a warm-up goes to the target); else the most caught-up instance does.
    const standbySource = byLoad.poll(task, (c) => m.state(c).standby.has(task));
    if (standbySource !== null) {
      swapStandbyAndActive(task, m.state(standbySource), target);
      byLoad.offerAll([standbySource, destination]);
      continue;
    }
    const caughtUpSource = byLoad.poll(task);
    if (caughtUpSource !== null) {
      moveActiveAndTryToWarmUp(m, task, m.state(caughtUpSource), destination);
      byLoad.offerAll([caughtUpSource, destination]);
      continue;
    }
    const mostCaughtUp = mostCaughtUpEligible(m, task, destination, () => true);
    if (mostCaughtUp === null)
      throw new Error(`task ${task}: no more caught-up instance to move it to, as planned`);
    if (m.state(mostCaughtUp).standby.has(task))
      swapStandbyAndActive(task, m.state(mostCaughtUp), target);
    else moveActiveAndTryToWarmUp(m, task, m.state(mostCaughtUp), destination);
    byLoad.offerAll([mostCaughtUp, destination]);
  }
  return needed;
}

function assignStandbyTaskMovements(m: Movements): number {
  const byLoad = caughtUpByLoad(m);
  const movements = new JavaPriorityQueue<TaskMovement>(byCaughtUpThenTask);
  for (const destination of m.order) {
    for (const task of m.state(destination).sortedStandby()) {
      if (m.warmups.get(destination)?.has(task)) continue; // a warm-up stays where it is
      if (notCaughtUpWhereMoreCaughtUpExist(m, task, destination))
        movements.offer({ task, destination, caughtUpClients: m.caughtUp.get(task)!.size });
    }
    byLoad.offer(destination);
  }
  let needed = 0;
  for (let movement = movements.poll(); movement !== undefined; movement = movements.poll()) {
    const { task, destination } = movement;
    const eligible = (c: string): boolean => !m.state(c).hasAssignedTask(task);
    const source =
      byLoad.poll(task, eligible) ?? mostCaughtUpEligible(m, task, destination, eligible);
    if (source === null) continue; // every caught-up instance has a copy already
    m.state(source).standby.add(task);
    // The target keeps its copy as a warm-up while warm-ups are left; else it moves later.
    if (m.remainingWarmups.n-- <= 0) m.state(destination).standby.delete(task);
    byLoad.offerAll([source, destination]);
    needed++;
  }
  return needed;
}

function moveActiveAndTryToWarmUp(
  m: Movements,
  task: string,
  source: ClientState,
  destinationId: string,
): void {
  const destination = m.state(destinationId);
  source.active.add(task);
  destination.active.delete(task);
  if (m.remainingWarmups.n-- > 0) {
    destination.standby.add(task);
    let set = m.warmups.get(destinationId);
    if (!set) m.warmups.set(destinationId, (set = new Set()));
    set.add(task);
  }
}

function swapStandbyAndActive(task: string, source: ClientState, destination: ClientState): void {
  source.standby.delete(task);
  source.active.add(task);
  destination.active.delete(task);
  destination.standby.add(task);
}
