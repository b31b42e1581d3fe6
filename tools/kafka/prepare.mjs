// What every node needs before it starts: the version's jars (fetched with Maven when missing),
// its config files and its formatted storage.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  checkVersion,
  DEFAULT_VERSION,
  loggingConfig,
  scramArgs,
  serverProperties,
  VERSIONS,
} from './config.mjs';
import { formatStorage, KafkaNodeProcess } from './node.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/** Where a version's classpath lives (target/lib-<version>). */
export function libDir(version = DEFAULT_VERSION) {
  return join(here, 'target', `lib-${checkVersion(version)}`);
}

/**
 * Fetches every broker version's jars with Maven (one `mvn dependency:copy-dependencies` over the
 * versions/<version> modules) when one of them is missing; ~/.m2 caches the downloads. Returns
 * the classpath dir of `version`.
 */
export function ensureBrokerJars({ verbose = false, version = DEFAULT_VERSION } = {}) {
  const has = (v) => existsSync(join(libDir(v), `kafka_2.13-${v}.jar`));
  if (VERSIONS.every(has)) return libDir(version);
  // flock: concurrent test workers never run two Maven builds over the same target/ folder.
  const result = spawnSync(
    'flock',
    [
      join(tmpdir(), 'streamwright-kafka-broker.lock'),
      'mvn',
      '-B',
      '-q',
      'dependency:copy-dependencies',
    ],
    { cwd: here, stdio: verbose ? 'inherit' : 'pipe', encoding: 'utf8' },
  );
  if (result.status !== 0 || !VERSIONS.every(has)) {
    throw new Error(
      `fetching the Kafka broker jars failed (mvn dependency:copy-dependencies in ${here}):\n${result.stdout ?? ''}${result.stderr ?? ''}`,
    );
  }
  return libDir(version);
}

/**
 * Writes one node's config into `dir` and formats its storage; returns its process (not started)
 * and what it was given. Shared by startBroker and startCluster.
 */
export function prepareNode({
  version,
  dir,
  removeDir,
  exitCleanupDir,
  nodeId,
  ports,
  controllerPort,
  voters,
  replicas,
  cluster,
  heap,
  startTimeoutMs,
  sasl,
  tls,
  authorizer,
  extra,
  describe,
}) {
  const lib = ensureBrokerJars({ version });
  const propsFile = join(dir, 'server.properties');
  const logFile = join(dir, 'server.log');
  writeFileSync(
    propsFile,
    serverProperties({
      nodeId,
      dir,
      ports,
      controllerPort,
      voters,
      replicas,
      sasl,
      tls,
      authorizer,
      extra,
    }),
  );
  const logging = loggingConfig(version, dir, logFile);
  writeFileSync(logging.file, logging.text);
  formatStorage({
    lib,
    logFlag: logging.flag,
    dir,
    propsFile,
    clusterId: cluster,
    extraArgs: scramArgs(sasl),
  });
  return new KafkaNodeProcess({
    lib,
    logFlag: logging.flag,
    dir,
    propsFile,
    logFile,
    heap,
    startTimeoutMs,
    removeDir,
    exitCleanupDir,
    describe,
  });
}
