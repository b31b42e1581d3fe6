// A 3-node KRaft cluster on loopback: node ids 1..n, each a combined broker+controller JVM, one
// cluster id, a static quorum of all n controllers, replication factor n by default (internal
// topics too) with min.insync.replicas 2. Each node can be killed, stopped and restarted on its
// own ports and data dir; the cluster's bootstrap list names every node, so clients find the
// survivors when one is down.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminFor } from './admin.mjs';
import { checkVersion, clusterId, DEFAULT_VERSION } from './config.mjs';
import { ensureBrokerJars, prepareNode } from './prepare.mjs';
import { freePort } from './ports.mjs';

/**
 * Starts `brokers` (3) nodes and resolves once each serves clients. Options: `version`, `dir`
 * (default: a new temp dir, removed on stop), `heap` per node ('384m'), `startTimeoutMs`,
 * `config` (extra server.properties entries for every node). See index.d.ts.
 */
export async function startCluster(options = {}) {
  const version = checkVersion(options.version ?? DEFAULT_VERSION);
  const size = options.brokers ?? 3;
  if (!Number.isInteger(size) || size < 1) {
    throw new Error(
      `startCluster({ brokers }) takes a positive whole number of brokers, not ${size}`,
    );
  }
  ensureBrokerJars({ version });
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'streamwright-kafka-cluster-'));
  const ids = Array.from({ length: size }, (_, i) => i + 1);
  const nodes = new Map();
  try {
    const ports = new Map();
    for (const id of ids) ports.set(id, { client: await freePort(), controller: await freePort() });
    const voters = ids.map((id) => `${id}@127.0.0.1:${ports.get(id).controller}`).join(',');
    const cluster = clusterId();
    for (const id of ids) {
      const nodeDir = join(dir, `node-${id}`);
      mkdirSync(nodeDir, { recursive: true });
      nodes.set(
        id,
        prepareNode({
          version,
          dir: nodeDir,
          // The cluster's dir goes as a whole on the final stop (ownDir), not node by node; also
          // when this process exits or dies with nodes running.
          removeDir: false,
          exitCleanupDir: ownDir ? dir : undefined,
          nodeId: id,
          ports: { PLAINTEXT: ports.get(id).client },
          controllerPort: ports.get(id).controller,
          voters,
          replicas: size,
          cluster,
          heap: options.heap ?? '384m',
          startTimeoutMs: options.startTimeoutMs ?? 180_000,
          extra: options.config ?? {},
          describe: `Kafka ${version} node ${id} in ${nodeDir}`,
        }),
      );
    }
    // All at once: a node's broker waits for a quorum of controllers, so one alone never starts.
    await Promise.all([...nodes.values()].map((n) => n.start()));
    const bootstrapServers = ids.map((id) => `127.0.0.1:${ports.get(id).client}`).join(',');
    const node = (id) => {
      const n = nodes.get(id);
      if (!n) throw new Error(`the cluster has nodes ${ids.join(', ')}, not ${id}`);
      return n;
    };
    // Admin calls go to the nodes that are up (a bootstrap list with a dead node still works,
    // but costs a connection timeout when the client tries it first).
    const admin = () => {
      const up = ids.filter((id) => node(id).running);
      return adminFor(version, up.map((id) => `127.0.0.1:${ports.get(id).client}`).join(','));
    };
    return {
      version,
      bootstrapServers,
      nodeIds: ids,
      dir,
      bootstrapServersOf: (id) => (node(id), `127.0.0.1:${ports.get(id).client}`),
      pidOf: (id) => node(id).pid,
      isRunning: (id) => node(id).running,
      logFileOf: (id) => node(id).logFile,
      kill: (id) => node(id).kill(),
      stop: async (id) => {
        if (id !== undefined) return node(id).stop({ keepDir: true });
        // The final stop kills: a clean shutdown of the last nodes waits for a quorum that is
        // going away too (~30 s here), and a killed KRaft node recovers its data anyway.
        await Promise.all([...nodes.values()].map((n) => n.kill().then(() => n.stop())));
        if (ownDir) rmSync(dir, { recursive: true, force: true });
      },
      start: (id) => node(id).start(),
      restart: (id) => node(id).restart(),
      describeTopic: (topic) => admin().describeTopic(topic),
      leaderOf: async (topic, partition) => {
        const p = (await admin().describeTopic(topic)).find((x) => x.partition === partition);
        if (!p) throw new Error(`topic ${topic} has no partition ${partition}`);
        return p.leader;
      },
      createAcls: (acls) => admin().createAcls(acls),
      deleteAcls: (acls) => admin().deleteAcls(acls),
      describeAcls: () => admin().describeAcls(),
    };
  } catch (e) {
    await Promise.all([...nodes.values()].map((n) => n.stop()));
    if (ownDir) rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
