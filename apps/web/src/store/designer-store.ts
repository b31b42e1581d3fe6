// The designer's one zustand store, made per designer instance by createDesignerStore() and
// provided through context (as xyflow does). The document changes only through `apply(diff)`,
// which records the diff for undo/redo; everything the canvas shows is derived from it.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { TopologyDocument } from '@streamwright/topology-model';
import { applyDiff, composeDiffs, invertDiff, isEmptyDiff, type ModelDiff } from '../model/diff.js';
import { emptyDocument } from '../model/new-document.js';
import { replaceDocument } from '../model/operations.js';
import type { Problem } from '../model/validation.js';
import {
  aggregateCounters,
  taskCounters,
  type CounterMap,
  type TaskCounterMap,
  type NodeMetricsInput,
} from '../live/counters.js';
import type { AppStatus, DeploymentIdentity } from '../api/types.js';
import { matchDeployment, NO_MATCH, type DeployMatch } from '../live/deploy-match.js';
import { pushTotals, recentRates, type TotalsSample } from '../live/recent-rate.js';
import { EMPTY_NODE_TASKS, nodeTaskTotals, type NodeTaskTotals } from '../live/node-tasks.js';

export interface HistoryEntry {
  diff: ModelDiff;
  /** Consecutive diffs with the same key (one drag, one typing burst) merge into one entry. */
  coalesceKey?: string;
  at: number;
}

export interface Notice {
  id: number;
  tone: 'info' | 'success' | 'error';
  text: string;
}

export type ConnectionState = 'connecting' | 'open' | 'closed';

export interface LiveState {
  connection: ConnectionState;
  /** Whether the runtime has a deployed topology, and its status (null when not running). */
  deployed: boolean;
  status: AppStatus | null;
  /** Which topology the runtime runs, and its document (fetched when the version changes). */
  deployment: DeploymentIdentity | null;
  deployedDoc: TopologyDocument | null;
  /** The canvas against the deployed document: which nodes the counters belong to. */
  match: DeployMatch;
  counters: CounterMap;
  /** Per task id: task-level process-total, rate and health. */
  taskCounters: TaskCounterMap;
  /** Time of the last metrics message, ms. */
  at: number | null;
  /** Recent model-node totals, for the rate over the last 5 s (live/recent-rate.ts). */
  totalsHistory: readonly TotalsSample[];
  /** Per model node and task: records processed and busy share (live/node-tasks.ts). */
  nodeTasks: NodeTaskTotals;
  /** Recent per-node-per-task totals, for each task's rate over the last 5 s. */
  nodeTasksHistory: readonly TotalsSample[];
}

export type View = 'designer' | 'topics';
export type SideTab = 'node' | 'app' | 'topics' | 'workspace';
export type BottomTab =
  'problems' | 'tasks' | 'dashboard' | 'errors' | 'debugger' | 'preview' | 'state';
/** The open modal dialog, if any. */
export type DialogKind = 'describe' | 'code' | 'connect' | 'shortcuts' | 'deployBreaks';

export interface ApplyOptions {
  /** Merge into the previous history entry when it has the same key (one drag, one field). */
  coalesceKey?: string;
  /** How far apart, ms, merged edits may be; default 1.5 s (a typing pause starts a new entry). */
  coalesceWindowMs?: number;
  /** Keep out of the undo history (e.g. loading the deployed topology on start-up). */
  history?: 'record' | 'skip';
}

export interface LoadOptions extends ApplyOptions {
  /** The deployment version the loaded document is (opening the deployed topology). */
  basis?: string;
}

export interface DesignerActions {
  apply(diff: ModelDiff, options?: ApplyOptions): void;
  /** Replaces the whole document (New, Import, open the deployed topology). */
  load(doc: TopologyDocument, options?: LoadOptions): void;
  /** Asks the canvas to fit the view to the nodes (after a load). */
  requestFit(): void;
  /** Shows or hides the plan overlay (sub-topologies, repartition topics, stores). */
  setShowPlan(show: boolean): void;
  /** Folds a sub-topology into its summary node, or unfolds it. */
  toggleGroup(subtopology: number, collapsed?: boolean): void;
  openDialog(dialog: DialogKind | null): void;
  undo(): void;
  redo(): void;
  select(nodeId: string | null): void;
  /** Selects several nodes (box selection, shift-click, select all); the last one is edited. */
  setSelection(nodeIds: readonly string[]): void;
  selectEdges(keys: readonly string[]): void;
  setMeasured(sizes: Record<string, { width: number; height: number }>): void;
  notify(tone: Notice['tone'], text: string): void;
  dismissNotice(id: number): void;
  setView(view: View): void;
  setSideTab(tab: SideTab): void;
  setBottomTab(tab: BottomTab): void;
  /** Opens the Topics view on a topic (e.g. from a sink's "Show records"). */
  /** Opens the Topics view on a topic, browsing from a record when `at` is given. */
  openTopic(topic: string, at?: { partition: number; offset: number }): void;
  setServerProblems(problems: readonly Problem[] | null, origin?: 'deploy' | 'import'): void;
  /** The runtime's topics and their partition counts (validation judges co-partitioning by them). */
  setExistingTopics(topics: Readonly<Record<string, number>> | null): void;
  /** The canvas was deployed as `version` (it descends from that deployment from now on). */
  markDeployed(version?: string): void;
  setConnection(state: ConnectionState): void;
  setLive(update: {
    deployed?: boolean;
    status?: AppStatus | null;
    /** Set together: the identity and the document of what is deployed. */
    deployment?: { identity: DeploymentIdentity; doc: TopologyDocument } | null;
    metrics?: NodeMetricsInput | null;
    at?: number;
  }): void;
}

export interface DesignerState {
  doc: TopologyDocument;
  /** Increments on every applied diff; compared with deployedRevision for "modified". */
  revision: number;
  deployedRevision: number | null;
  /**
   * The deployment version the canvas descends from (opened from it or deployed from it); null
   * after New, Import or opening a saved design. Only a descendant keeps the counters of its
   * unchanged nodes while it differs from the deployment.
   */
  basedOn: string | null;
  past: readonly HistoryEntry[];
  future: readonly HistoryEntry[];
  /** The node the inspector edits: the only or the most recently selected one. */
  selectedNodeId: string | null;
  /** Every selected node (multi-select); contains selectedNodeId when that is set. */
  selectedNodeIds: readonly string[];
  selectedEdgeKeys: readonly string[];
  /** Node sizes measured by React Flow: view state, never part of the document. */
  measured: Readonly<Record<string, { width: number; height: number }>>;
  notice: Notice | null;
  view: View;
  sideTab: SideTab;
  bottomTab: BottomTab;
  topicsViewTopic: string | null;
  /** Where the Topics view's browser opens (a dead-letter record); null: the latest records. */
  topicsViewAt: { partition: number; offset: number } | null;
  /** Incremented to ask the canvas to fit its view. */
  fitRequest: number;
  /** Whether the canvas draws the plan (sub-topology boxes, repartition topics, stores). */
  showPlan: boolean;
  /** Sub-topologies folded into one summary node each (canvas/collapsed-groups.ts). */
  collapsedGroups: readonly number[];
  dialog: DialogKind | null;
  /** Errors the runtime (deploy) or an import reported; shown until the next attempt. */
  serverProblems: { origin: 'deploy' | 'import'; problems: readonly Problem[] } | null;
  /**
   * Partition counts of the topics on the runtime's backend (null until known): an existing
   * topic keeps its count whatever the document declares, so local validation uses them too.
   */
  existingTopics: Readonly<Record<string, number>> | null;
  live: LiveState;
  actions: DesignerActions;
}

export type DesignerStore = StoreApi<DesignerState>;

/** How long two edits with the same coalesce key may be apart and still merge, ms. */
const COALESCE_WINDOW_MS = 1500;
const HISTORY_LIMIT = 200;

export interface CreateDesignerStoreOptions {
  doc?: TopologyDocument;
  now?: () => number;
}

export function createDesignerStore(options: CreateDesignerStoreOptions = {}): DesignerStore {
  const store = createStoreWithoutMatch(options);
  // The match follows the document, the deployment and the lineage; a layout-only change (a drag)
  // keeps every other section's identity and is not compared again.
  let seen:
    | { doc: TopologyDocument; deployed: TopologyDocument | null; basedOn: string | null }
    | undefined;
  const refresh = (state: DesignerState) => {
    const { doc, basedOn } = state;
    const deployed = state.live.deployedDoc;
    if (
      seen &&
      seen.deployed === deployed &&
      seen.basedOn === basedOn &&
      sameExceptLayout(seen.doc, doc)
    )
      return;
    seen = { doc, deployed, basedOn };
    const descends = basedOn !== null && basedOn === state.live.deployment?.version;
    const match = matchDeployment(doc, deployed, descends);
    // a canvas equal to the deployment descends from it, whatever its history (an import of
    // the same file, an undo back to it)
    if (match.state === 'same' && state.live.deployment && !descends) {
      store.setState({ basedOn: state.live.deployment.version });
      seen.basedOn = state.live.deployment.version;
    }
    if (!sameMatch(match, state.live.match))
      store.setState({ live: { ...store.getState().live, match } });
  };
  refresh(store.getState());
  store.subscribe(refresh);
  return store;
}

function sameExceptLayout(a: TopologyDocument, b: TopologyDocument): boolean {
  if (a === b) return true;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (key === 'layout') continue;
    if ((a as Record<string, unknown>)[key] !== (b as Record<string, unknown>)[key]) return false;
  }
  return true;
}

function sameMatch(a: DeployMatch, b: DeployMatch): boolean {
  const sameSet = (x: ReadonlySet<string>, y: ReadonlySet<string>) =>
    x.size === y.size && [...x].every((id) => y.has(id));
  return (
    a.state === b.state &&
    a.removed === b.removed &&
    sameSet(a.live, b.live) &&
    sameSet(a.changed, b.changed) &&
    sameSet(a.added, b.added)
  );
}

function createStoreWithoutMatch(options: CreateDesignerStoreOptions): DesignerStore {
  const now = options.now ?? Date.now;
  let noticeId = 0;

  return createStore<DesignerState>()((set, get) => {
    function commit(diff: ModelDiff, opts: ApplyOptions = {}): void {
      if (isEmptyDiff(diff)) return;
      const state = get();
      const doc = applyDiff(state.doc, diff);
      const at = now();
      let past = state.past;
      if (opts.history !== 'skip') {
        const top = past[past.length - 1];
        if (
          top &&
          opts.coalesceKey &&
          top.coalesceKey === opts.coalesceKey &&
          at - top.at < (opts.coalesceWindowMs ?? COALESCE_WINDOW_MS)
        ) {
          past = [
            ...past.slice(0, -1),
            { diff: composeDiffs(top.diff, diff), coalesceKey: opts.coalesceKey, at },
          ];
        } else {
          const entry: HistoryEntry = opts.coalesceKey
            ? { diff, coalesceKey: opts.coalesceKey, at }
            : { diff, at };
          past = [...past, entry].slice(-HISTORY_LIMIT);
        }
      }
      set({
        doc,
        revision: state.revision + 1,
        past,
        future: opts.history === 'skip' ? state.future : [],
        // the runtime's verdict was about the document as it was; local validation takes over
        ...(state.serverProblems?.origin === 'deploy' ? { serverProblems: null } : {}),
        ...keepSelectionValid(doc, state),
      });
    }

    function keepSelectionValid(
      doc: TopologyDocument,
      state: DesignerState,
    ): Partial<DesignerState> {
      const out: Partial<DesignerState> = {};
      const ids = new Set(doc.nodes.map((n) => n.id));
      if (state.selectedNodeId && !ids.has(state.selectedNodeId)) out.selectedNodeId = null;
      if (state.selectedNodeIds.some((id) => !ids.has(id)))
        out.selectedNodeIds = state.selectedNodeIds.filter((id) => ids.has(id));
      return out;
    }

    const actions: DesignerActions = {
      apply: commit,
      load(doc, opts) {
        commit(replaceDocument(get().doc, doc), opts);
        set({
          basedOn: opts?.basis ?? null,
          selectedNodeId: null,
          selectedNodeIds: [],
          selectedEdgeKeys: [],
          // another document numbers its sub-topologies afresh
          collapsedGroups: [],
          fitRequest: get().fitRequest + 1,
        });
      },
      requestFit() {
        set({ fitRequest: get().fitRequest + 1 });
      },
      setShowPlan(showPlan) {
        set({ showPlan });
      },
      toggleGroup(subtopology, collapsed) {
        const current = get().collapsedGroups;
        const folded = collapsed ?? !current.includes(subtopology);
        if (folded === current.includes(subtopology)) return;
        set({
          collapsedGroups: folded
            ? [...current, subtopology].sort((a, b) => a - b)
            : current.filter((id) => id !== subtopology),
        });
      },
      openDialog(dialog) {
        set({ dialog });
      },
      undo() {
        const { past, future, doc, revision } = get();
        const entry = past[past.length - 1];
        if (!entry) return;
        const next = applyDiff(doc, invertDiff(entry.diff));
        set({
          doc: next,
          revision: revision + 1,
          past: past.slice(0, -1),
          future: [...future, entry],
          ...keepSelectionValid(next, get()),
        });
      },
      redo() {
        const { past, future, doc, revision } = get();
        const entry = future[future.length - 1];
        if (!entry) return;
        const next = applyDiff(doc, entry.diff);
        // a redone entry never merges with the next edit
        const { coalesceKey: _k, ...plain } = entry;
        set({
          doc: next,
          revision: revision + 1,
          past: [...past, plain],
          future: future.slice(0, -1),
          ...keepSelectionValid(next, get()),
        });
      },
      select(nodeId) {
        const state = get();
        if (nodeId === null) {
          if (state.selectedNodeId !== null || state.selectedNodeIds.length > 0)
            set({ selectedNodeId: null, selectedNodeIds: [] });
        } else if (
          state.selectedNodeId !== nodeId ||
          state.selectedNodeIds.length !== 1 ||
          state.sideTab !== 'node'
        ) {
          // choosing a node (again) always brings its settings up
          set({ selectedNodeId: nodeId, selectedNodeIds: [nodeId], sideTab: 'node' });
        }
      },
      setSelection(nodeIds) {
        const state = get();
        const unique = [...new Set(nodeIds)];
        if (unique.length <= 1) {
          actions.select(unique[0] ?? null);
          return;
        }
        const current = state.selectedNodeIds;
        if (current.length === unique.length && current.every((id, i) => id === unique[i])) return;
        const primary =
          state.selectedNodeId && unique.includes(state.selectedNodeId)
            ? state.selectedNodeId
            : unique[unique.length - 1]!;
        set({ selectedNodeIds: unique, selectedNodeId: primary });
      },
      selectEdges(keys) {
        const current = get().selectedEdgeKeys;
        if (current.length === keys.length && current.every((k, i) => k === keys[i])) return;
        set({ selectedEdgeKeys: [...keys] });
      },
      setMeasured(sizes) {
        set({ measured: { ...get().measured, ...sizes } });
      },
      notify(tone, text) {
        set({ notice: { id: ++noticeId, tone, text } });
      },
      dismissNotice(id) {
        if (get().notice?.id === id) set({ notice: null });
      },
      setView(view) {
        set({ view });
      },
      setSideTab(sideTab) {
        set({ sideTab });
      },
      setBottomTab(bottomTab) {
        set({ bottomTab });
      },
      openTopic(topic, at) {
        set({ view: 'topics', topicsViewTopic: topic, topicsViewAt: at ?? null });
      },
      setServerProblems(problems, origin = 'deploy') {
        set({
          serverProblems: problems ? { origin, problems } : null,
          ...(problems ? { bottomTab: 'problems' } : {}),
        });
      },
      setExistingTopics(topics) {
        const current = get().existingTopics;
        // unchanged counts keep the same object, so validation stays memoized
        if (JSON.stringify(current) === JSON.stringify(topics)) return;
        set({ existingTopics: topics });
      },
      markDeployed(version) {
        set({
          deployedRevision: get().revision,
          serverProblems: null,
          ...(version !== undefined ? { basedOn: version } : {}),
        });
      },
      setConnection(connection) {
        if (get().live.connection !== connection) set({ live: { ...get().live, connection } });
      },
      setLive(update) {
        const live = get().live;
        const next: LiveState = { ...live };
        if (update.deployed !== undefined) next.deployed = update.deployed;
        if (update.status !== undefined) next.status = update.status;
        if (update.deployment !== undefined) {
          next.deployment = update.deployment?.identity ?? null;
          next.deployedDoc = update.deployment?.doc ?? null;
        }
        if (update.metrics !== undefined) {
          const at = update.at;
          next.counters = aggregateCounters(
            update.metrics,
            live.counters,
            at === undefined
              ? undefined
              : (totals) => {
                  next.totalsHistory = pushTotals(live.totalsHistory, { at, totals });
                  return recentRates(next.totalsHistory);
                },
          );
          next.nodeTasks = nodeTaskTotals(update.metrics);
          if (at !== undefined)
            next.nodeTasksHistory = pushTotals(live.nodeTasksHistory, {
              at,
              totals: next.nodeTasks.totals,
            });
          next.taskCounters = taskCounters(
            update.metrics?.tasks ?? null,
            live.taskCounters,
            update.metrics?.nodes ?? {},
          );
        }
        if (update.at !== undefined) next.at = update.at;
        set({ live: next });
        // A running app that fails (the first record, a lost store) says so where the user
        // looks, not only in the badge: a "Deployed" toast must not be the last word.
        const before = live.status?.state;
        const after = next.status?.state;
        if (after === 'ERROR' && before !== undefined && before !== 'ERROR') {
          const reason =
            next.status?.lastFailure?.message ?? next.status?.errors.at(-1)?.message ?? null;
          get().actions.notify(
            'error',
            `The app stopped with an error${reason ? `: ${reason}` : ''} (see Errors and Problems)`,
          );
        }
      },
    };

    return {
      doc: options.doc ?? emptyDocument(),
      revision: 0,
      deployedRevision: null,
      basedOn: null,
      past: [],
      future: [],
      selectedNodeId: null,
      selectedNodeIds: [],
      selectedEdgeKeys: [],
      measured: {},
      notice: null,
      view: 'designer',
      sideTab: 'app',
      bottomTab: 'problems',
      topicsViewTopic: null,
      topicsViewAt: null,
      fitRequest: 0,
      showPlan: true,
      collapsedGroups: [],
      dialog: null,
      serverProblems: null,
      existingTopics: null,
      live: {
        connection: 'connecting',
        deployed: false,
        status: null,
        deployment: null,
        deployedDoc: null,
        match: NO_MATCH,
        counters: {},
        taskCounters: {},
        totalsHistory: [],
        nodeTasks: EMPTY_NODE_TASKS,
        nodeTasksHistory: [],
        at: null,
      },
      actions,
    };
  });
}
