// A real Apache Kafka broker for tests and benchmarks: a single KRaft node (broker and controller
// in one JVM) formatted in a temp dir on free ports, from the jars Maven fetches into target/lib.
// Stopped by its pid, never by name: also when the process that started it exits or is killed
// (a watchdog process outlives a SIGKILLed parent and stops the broker then).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeBrokerTls, sslProperties } from './tls.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const lib = join(here, 'target', 'lib');

/** Fetches the broker's jars with Maven into target/lib when they are missing (~/.m2 caches them). */
export function ensureBrokerJars({ verbose = false } = {}) {
  if (existsSync(lib) && readdirSync(lib).some((f) => f.startsWith('kafka_2.13-'))) return lib;
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
  if (result.status !== 0) {
    throw new Error(
      `fetching the Kafka broker jars failed (mvn dependency:copy-dependencies in ${here}):\n${result.stdout ?? ''}${result.stderr ?? ''}`,
    );
  }
  return lib;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// Kafka's cluster id: a random UUID in URL-safe base64 without padding (Uuid.randomUuid(), which
// also never starts with '-').
function clusterId() {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

// SASL_PLAINTEXT on a listener of its own (the PLAINTEXT one stays for the broker itself and the
// tests' other clients), and SASL_SSL too when the broker has TLS listeners: PLAIN users from each
// listener's JAAS config, SCRAM users' credentials written into the storage at format time
// (StorageTool --add-scram, KRaft's way; no ZooKeeper, no admin call), shared by both listeners.
function saslProperties(sasl, listeners) {
  if (!sasl) return {};
  const plain = Object.entries(sasl.users)
    .map(([user, password]) => `user_${user}=${JSON.stringify(password)}`)
    .join(' ');
  const scram = 'org.apache.kafka.common.security.scram.ScramLoginModule required;';
  return Object.fromEntries([
    ['sasl.enabled.mechanisms', 'PLAIN,SCRAM-SHA-256,SCRAM-SHA-512'],
    ...listeners.flatMap((l) => [
      [
        `listener.name.${l}.plain.sasl.jaas.config`,
        `org.apache.kafka.common.security.plain.PlainLoginModule required ${plain};`,
      ],
      [`listener.name.${l}.scram-sha-256.sasl.jaas.config`, scram],
      [`listener.name.${l}.scram-sha-512.sasl.jaas.config`, scram],
    ]),
  ]);
}

function scramArgs(sasl) {
  if (!sasl) return [];
  return Object.entries(sasl.users).flatMap(([user, password]) =>
    ['SCRAM-SHA-256', 'SCRAM-SHA-512'].flatMap((m) => [
      '--add-scram',
      `${m}=[name=${user},password=${password}]`,
    ]),
  );
}

function serverProperties({ dir, ports, controllerPort, sasl, tls, extra }) {
  const listeners = Object.entries(ports).map(([name, port]) => `${name}://127.0.0.1:${port}`);
  const props = {
    'process.roles': 'broker,controller',
    'node.id': '1',
    'controller.quorum.voters': `1@127.0.0.1:${controllerPort}`,
    listeners: [...listeners, `CONTROLLER://127.0.0.1:${controllerPort}`].join(','),
    'advertised.listeners': listeners.join(','),
    'inter.broker.listener.name': 'PLAINTEXT',
    'controller.listener.names': 'CONTROLLER',
    // MTLS is an SSL listener of its own that asks for client certificates (tls.mjs).
    'listener.security.protocol.map':
      'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,SSL:SSL,MTLS:SSL,SASL_SSL:SASL_SSL',
    'log.dirs': join(dir, 'data'),
    'num.partitions': '1',
    // Kafka Streams creates its topics itself; a missing topic must be an error, not a new topic.
    'auto.create.topics.enable': 'false',
    'offsets.topic.replication.factor': '1',
    // 50 partitions (the default) make the first group coordinator lookup slow on a small box.
    'offsets.topic.num.partitions': '5',
    'transaction.state.log.replication.factor': '1',
    'transaction.state.log.min.isr': '1',
    'transaction.state.log.num.partitions': '5',
    'group.initial.rebalance.delay.ms': '0',
    // No time-based retention by default: tests write records with timestamps near 1970 (as Kafka
    // Streams' TopologyTestDriver scenarios do), which the 7-day default deletes at the next
    // retention check (every 5 minutes) — whole topics emptied in mid-test. A topic's own
    // retention.ms still applies.
    'log.retention.ms': '-1',
    'num.network.threads': '2',
    'num.io.threads': '2',
    ...saslProperties(sasl, tls ? ['sasl_plaintext', 'sasl_ssl'] : ['sasl_plaintext']),
    ...sslProperties(tls, sasl),
    ...extra,
  };
  return Object.entries(props)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
}

const LOG4J = (file) => `log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.File=${file}
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
`;

function java(args) {
  return { cmd: 'java', args: ['-Xshare:auto', '-cp', `${lib}/*`, ...args] };
}

/**
 * Starts a broker and resolves once it serves clients. Options: `dir` (default: a new temp dir,
 * removed on stop), `heap` ('512m'), `startTimeoutMs` (120 s: a loaded 2-core box is slow),
 * `config` (extra server.properties entries). Resolves to {bootstrapServers, pid, dir, logFile,
 * stop()}.
 */
export async function startBroker(options = {}) {
  ensureBrokerJars();
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'streamwright-kafka-'));
  const heap = options.heap ?? '512m';
  const startTimeoutMs = options.startTimeoutMs ?? 120_000;
  const sasl = options.sasl;
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
  const propsFile = join(dir, 'server.properties');
  const logFile = join(dir, 'server.log');
  writeFileSync(
    propsFile,
    serverProperties({
      dir,
      ports,
      controllerPort,
      sasl,
      tls,
      extra: options.config ?? {},
    }) + '\n',
  );
  writeFileSync(join(dir, 'log4j.properties'), LOG4J(logFile));
  const log4j = `-Dlog4j.configuration=file:${join(dir, 'log4j.properties')}`;

  const format = java([
    log4j,
    'kafka.tools.StorageTool',
    'format',
    '-t',
    clusterId(),
    '-c',
    propsFile,
    ...scramArgs(sasl),
  ]);
  const formatted = spawnSync(format.cmd, format.args, { cwd: dir, encoding: 'utf8' });
  if (formatted.status !== 0) {
    throw new Error(`formatting the Kafka storage failed: ${formatted.stdout}${formatted.stderr}`);
  }

  const run = java([`-Xms${heap}`, `-Xmx${heap}`, '-XX:+UseG1GC', log4j, 'kafka.Kafka', propsFile]);
  const child = spawn(run.cmd, run.args, {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const pid = child.pid;
  let exited = false;
  const exitedPromise = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      exited = true;
      resolve({ code, signal });
    }),
  );
  // Kill the broker synchronously if this process exits without stopping it.
  const onExit = () => {
    if (!exited) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  };
  process.once('exit', onExit);
  // …and if this process is killed (SIGKILL runs no handler), the watchdog stops it.
  const watchdog = spawn(
    process.execPath,
    [join(here, 'watchdog.mjs'), String(process.pid), String(pid), ownDir ? dir : ''],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();

  let stopped;
  const stop = async () => {
    stopped ??= (async () => {
      if (!exited) {
        process.kill(pid, 'SIGTERM');
        const timer = setTimeout(() => !exited && process.kill(pid, 'SIGKILL'), 30_000);
        await exitedPromise;
        clearTimeout(timer);
      }
      process.removeListener('exit', onExit);
      try {
        process.kill(watchdog.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      if (ownDir) rmSync(dir, { recursive: true, force: true });
    })();
    return stopped;
  };

  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
    if (/Kafka Server started/.test(log)) break;
    if (exited || Date.now() > deadline) {
      const tail = log.split('\n').slice(-30).join('\n');
      await stop();
      throw new Error(
        exited
          ? `the Kafka broker exited during start-up:\n${stderr}\n${tail}`
          : `the Kafka broker did not start within ${startTimeoutMs} ms (log ${logFile}):\n${tail}`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const at = (name) => `127.0.0.1:${ports[name]}`;
  return {
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
    pid,
    dir,
    logFile,
    stop,
  };
}
