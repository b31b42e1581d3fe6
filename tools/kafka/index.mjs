// Real Apache Kafka brokers for tests and benchmarks, from the jars Maven fetches into
// target/lib-<version>: a single KRaft node (broker and controller in one JVM; startBroker) or a
// cluster of three on loopback (startCluster, cluster.mjs), formatted in temp dirs on free ports.
// Every node can be killed, stopped and restarted on its own ports and data (node.mjs).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminFor, runAdmin } from './admin.mjs';
import { checkVersion, clusterId, DEFAULT_VERSION, VERSIONS } from './config.mjs';
import { freePort } from './ports.mjs';
import { ensureBrokerJars, libDir, prepareNode } from './prepare.mjs';
import { makeBrokerTls } from './tls.mjs';

export { startCluster } from './cluster.mjs';
export { VERSIONS, DEFAULT_VERSION, ensureBrokerJars, libDir, runAdmin };

/**
 * Starts a broker and resolves once it serves clients. Options: `version` ('4.1.1' or '3.9.1'),
 * `dir` (default: a new temp dir, removed on the final stop), `heap` ('512m'), `startTimeoutMs`
 * (120 s: a loaded 2-core box is slow), `config` (extra server.properties entries), `sasl`,
 * `ssl`, `authorizer`. See index.d.ts.
 */
export async function startBroker(options = {}) {
  const version = checkVersion(options.version ?? DEFAULT_VERSION);
  ensureBrokerJars({ version });
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'streamwright-kafka-'));
  const sasl = options.sasl;
  const authorizer = options.authorizer;
  if (authorizer && !sasl) {
    throw new Error(
      'startBroker({ authorizer }) needs `sasl` users too: ACLs are met on the SASL listeners',
    );
  }
  let node;
  try {
    // TLS listeners: certificates made now, in the broker's dir (removed with it).
    const tls = options.ssl ? makeBrokerTls(dir) : undefined;
    // One free port per listener: PLAINTEXT always, the others as asked for.
    const names = ['PLAINTEXT'];
    if (sasl) names.push('SASL_PLAINTEXT');
    if (tls) names.push('SSL', 'MTLS');
    if (tls && sasl) names.push('SASL_SSL');
    const ports = {};
    for (const name of names) ports[name] = await freePort();
    const controllerPort = await freePort();
    node = prepareNode({
      version,
      dir,
      removeDir: ownDir,
      exitCleanupDir: ownDir ? dir : undefined,
      nodeId: 1,
      ports,
      controllerPort,
      voters: `1@127.0.0.1:${controllerPort}`,
      replicas: 1,
      cluster: clusterId(),
      heap: options.heap ?? '512m',
      startTimeoutMs: options.startTimeoutMs ?? 120_000,
      sasl,
      tls,
      authorizer,
      extra: options.config ?? {},
      describe: `the Kafka ${version} broker in ${dir}`,
    });
    await node.start();
    const at = (name) => `127.0.0.1:${ports[name]}`;
    const admin = adminFor(version, at('PLAINTEXT'));
    return {
      version,
      bootstrapServers: at('PLAINTEXT'),
      ...(sasl ? { saslBootstrapServers: at('SASL_PLAINTEXT') } : {}),
      ...(tls
        ? {
            sslBootstrapServers: at('SSL'),
            mtlsBootstrapServers: at('MTLS'),
            sslCa: tls.caPem,
            sslOtherCa: tls.otherCaPem,
            sslClientCert: tls.clientCertPem,
            sslClientKey: tls.clientKeyPem,
            sslOtherClientCert: tls.otherClientCertPem,
            sslOtherClientKey: tls.otherClientKeyPem,
          }
        : {}),
      ...(tls && sasl ? { saslSslBootstrapServers: at('SASL_SSL') } : {}),
      get pid() {
        return node.pid;
      },
      get running() {
        return node.running;
      },
      dir,
      logFile: node.logFile,
      stop: (opts) => node.stop(opts),
      kill: () => node.kill(),
      start: () => node.start(),
      restart: () => node.restart(),
      ...admin,
    };
  } catch (e) {
    if (node) await node.stop();
    else if (ownDir) rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
