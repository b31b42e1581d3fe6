// What the toolbar and panels ask of the runtime, with the results written to the store. Kept out
// of the store so that the store stays free of I/O (and testable without a server).
import { stateBreaks } from '../model/state-breaks.js';
import type { TopologyDocument } from '@streamwright/topology-model';
import type { ApiClient } from '../api/client.js';
import type { AppView, DeploymentIdentity } from '../api/types.js';
import type { DesignerStore } from '../store/designer-store.js';
import type { Problem } from '../model/validation.js';

export function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // the browser's own words for a refused connection say nothing about what was refused
  if (/^(Failed to fetch|NetworkError|Load failed)/.test(message))
    return `the runtime at ${runtimeOrigin()} is not reachable (${message}); is it running?`;
  return message;
}

function runtimeOrigin(): string {
  return typeof location === 'undefined' ? 'this address' : location.origin;
}

/** On start-up: open the deployed topology (so `npm start` shows the example processing). */
export async function openDeployed(client: ApiClient, store: DesignerStore): Promise<void> {
  const before = store.getState().revision;
  const view = await client.app.status.query();
  const { actions, revision } = store.getState();
  actions.setLive({ deployed: view.deployed, status: view.status, deployment: deploymentOf(view) });
  // an edit or import made while the answer was on its way wins: never replace the user's work
  if (view.deployed && view.topology && revision === before) {
    actions.load(view.topology as TopologyDocument, {
      history: 'skip',
      ...(view.deployment ? { basis: view.deployment.version } : {}),
    });
    actions.markDeployed();
  }
}

function deploymentOf(
  view: AppView,
): { identity: DeploymentIdentity; doc: TopologyDocument } | null {
  return view.deployment && view.topology
    ? { identity: view.deployment, doc: view.topology as TopologyDocument }
    : null;
}

/**
 * Keeps the store's copy of the deployed document current: the live stream names the deployed
 * version every second, and the document is fetched only when that version changes (a deploy
 * from the CLI, another browser, a restart with another topology).
 */
function createDeploymentSync(client: ApiClient, store: DesignerStore) {
  let asking: string | null = null;
  return (identity: DeploymentIdentity | null) => {
    const { live, actions } = store.getState();
    if (identity === null) {
      if (live.deployment !== null) actions.setLive({ deployment: null });
      return;
    }
    if (live.deployment?.version === identity.version || asking === identity.version) return;
    asking = identity.version;
    client.app.status.query().then(
      (view) => {
        asking = null;
        actions.setLive({ deployed: view.deployed, deployment: deploymentOf(view) });
      },
      () => {
        asking = null; // asked again on the next tick
      },
    );
  };
}

/**
 * The runtime's topics with their partition counts, for local validation (a topic that exists
 * keeps its count, so a join over it is judged with that count, as deploy judges it).
 */
export async function refreshExistingTopics(
  client: ApiClient,
  store: DesignerStore,
): Promise<void> {
  const topics = await client.topics.list.query();
  store
    .getState()
    .actions.setExistingTopics(Object.fromEntries(topics.map((t) => [t.name, t.partitions])));
}

export async function refreshStatus(client: ApiClient, store: DesignerStore): Promise<void> {
  const view = await client.app.status.query();
  store.getState().actions.setLive({ deployed: view.deployed, status: view.status });
}

/**
 * Deploy as the user asks for it: when the design would leave the running version's state behind
 * (a renamed or renumbered store or repartition topic), the designer first says what and asks
 * (the deployBreaks dialog); otherwise it deploys at once.
 */
export async function requestDeploy(client: ApiClient, store: DesignerStore): Promise<boolean> {
  const { doc, live, actions } = store.getState();
  if (live.deployedDoc && stateBreaks(live.deployedDoc, doc)) {
    actions.openDialog('deployBreaks');
    return false;
  }
  return deploy(client, store);
}

/** Deploys the document and starts it; the runtime's validation is authoritative. */
export async function deploy(client: ApiClient, store: DesignerStore): Promise<boolean> {
  const { doc, actions } = store.getState();
  try {
    const result = await client.app.deploy.mutate({ topology: doc, start: true });
    void refreshExistingTopics(client, store).catch(() => undefined);
    if (!result.ok) {
      actions.setServerProblems(result.errors as Problem[], 'deploy');
      if (result.failed) {
        // valid, but it failed to start: what runs now (the previous version, when kept)
        actions.setLive({ status: result.failed.status });
        actions.notify('error', `Deploy failed: ${result.errors[0]?.message ?? 'see Problems'}`);
      } else
        actions.notify(
          'error',
          `Not deployed: ${result.errors.length} problem${result.errors.length === 1 ? '' : 's'} (see Problems)`,
        );
      return false;
    }
    actions.markDeployed(result.deployment.version);
    actions.setLive({
      deployed: true,
      status: result.status,
      deployment: { identity: result.deployment, doc },
    });
    // e.g. a declared topic that already exists with another partition count: deployed, but not
    // quite as designed, so it is said where the user looks
    const notes = result.warnings;
    if (notes.length > 0)
      actions.notify('info', `Deployed ${doc.application.id}. Note: ${notes.join('; ')}`);
    else actions.notify('success', `Deployed ${doc.application.id}`);
    return true;
  } catch (error) {
    actions.notify('error', `Deploy failed: ${messageOf(error)}`);
    return false;
  }
}

export async function startApp(client: ApiClient, store: DesignerStore): Promise<void> {
  const { actions } = store.getState();
  try {
    await client.app.start.mutate();
    await refreshStatus(client, store);
    actions.notify('info', 'Started');
  } catch (error) {
    actions.notify('error', `Start failed: ${messageOf(error)}`);
  }
}

export async function stopApp(client: ApiClient, store: DesignerStore): Promise<void> {
  const { actions } = store.getState();
  try {
    await client.app.stop.mutate();
    await refreshStatus(client, store);
    actions.notify('info', 'Stopped');
  } catch (error) {
    actions.notify('error', `Stop failed: ${messageOf(error)}`);
  }
}

/**
 * Subscribes to the one metrics stream; returns the unsubscribe function.
 *
 * A runtime that shuts down ends the stream (and one that cannot be reached fails it): the badge
 * then says the runtime is offline and the page subscribes again every `retryMs` until it is
 * back, so a restarted runtime's live view resumes without a reload (and without touching the
 * document on the canvas).
 */
export function subscribeLive(client: ApiClient, store: DesignerStore, retryMs = 2000): () => void {
  const { actions } = store.getState();
  const syncDeployment = createDeploymentSync(client, store);
  let current: { unsubscribe(): void } | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let closed = false;

  const lost = () => {
    const ended = current;
    current = null;
    ended?.unsubscribe();
    actions.setConnection('closed');
    if (!closed && retry === null)
      retry = setTimeout(() => {
        retry = null;
        if (!closed) open();
      }, retryMs);
  };

  const open = () => {
    // events of a subscription already given up (a late error after its end) are ignored
    let mine = true;
    const ifMine = (then: () => void) => () => {
      if (mine) {
        mine = false;
        then();
      }
    };
    const subscription = client.metrics.subscribe(undefined, {
      onStarted: () => mine && actions.setConnection('open'),
      onData: (view) => {
        if (!mine) return;
        actions.setConnection('open');
        actions.setLive({ status: view.status, metrics: view.metrics, at: view.at });
        syncDeployment(view.deployment);
      },
      onConnectionStateChange: (state) => {
        if (state.state === 'pending') actions.setConnection('open');
        else if (state.state === 'connecting')
          actions.setConnection(state.error ? 'closed' : 'connecting');
      },
      onError: ifMine(lost),
      onStopped: ifMine(lost),
      onComplete: ifMine(lost),
    });
    current = subscription;
  };

  open();
  return () => {
    closed = true;
    if (retry !== null) clearTimeout(retry);
    current?.unsubscribe();
  };
}
