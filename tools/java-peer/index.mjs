// The Java peer: Apache Kafka's Java clients (kafka-clients, kafka-streams, kafka-tools 4.1.1)
// built with Maven into target/, and a way to run its programs (see README.md).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const jar = join(here, 'target', 'java-peer-0.1.0.jar');
const lib = join(here, 'target', 'lib');

function newestSource() {
  let newest = statSync(join(here, 'pom.xml')).mtimeMs;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  walk(join(here, 'src'));
  return newest;
}

/** Builds the jar and its classpath (target/lib) when missing or older than the sources. */
export function ensurePeerBuilt({ verbose = false } = {}) {
  const complete = existsSync(jar) && existsSync(lib) && readdirSync(lib).length > 0;
  if (complete && statSync(jar).mtimeMs >= newestSource()) return;
  // flock: concurrent test workers never run two Maven builds over the same target/.
  const result = spawnSync(
    'flock',
    [join('/tmp', 'streamwright-java-peer.lock'), 'mvn', '-B', '-q', 'package', '-DskipTests'],
    { cwd: here, stdio: verbose ? 'inherit' : 'pipe', encoding: 'utf8' },
  );
  if (result.status !== 0) {
    throw new Error(
      `building the Java peer failed (mvn package in ${here}):\n${result.stdout ?? ''}${result.stderr ?? ''}`,
    );
  }
}

/** The classpath of the peer's programs. */
export function peerClasspath() {
  return `${jar}:${join(lib, '*')}`;
}

/**
 * Runs program `main` (a class of dev.streamwright.peer, e.g. 'CodecCheck') with `args`,
 * writing `input` to its stdin; resolves to its stdout. Rejects with its stderr when it fails.
 */
export async function runPeer(main, { args = [], input = '', jvmArgs = [] } = {}) {
  ensurePeerBuilt();
  const child = spawn(
    'java',
    [
      '-Xshare:auto',
      '-XX:TieredStopAtLevel=1',
      ...jvmArgs,
      '-cp',
      peerClasspath(),
      `dev.streamwright.peer.${main}`,
      ...args,
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const out = [];
  let err = '';
  child.stdout.on('data', (d) => out.push(d));
  child.stderr.on('data', (d) => (err += d));
  child.stdin.end(input);
  const code = await new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`Java peer ${main} exited with ${code}: ${err}`);
  return Buffer.concat(out).toString('utf8');
}

const b64 = (bytes) => (bytes == null ? null : Buffer.from(bytes).toString('base64'));
const unb64 = (text) => (text == null ? null : new Uint8Array(Buffer.from(text, 'base64')));
const QUIET = ['-Dorg.slf4j.simpleLogger.defaultLogLevel=warn'];

function configArgs(config = {}) {
  return Object.entries(config).flatMap(([k, v]) => ['--config', `${k}=${v}`]);
}

/**
 * The Java producer (kafka-clients 4.1.1) writes `records` to `topic` (Interop produce); resolves
 * to each record's { partition, offset, timestamp }, in input order.
 */
export async function javaProduce({
  bootstrapServers,
  topic,
  records,
  compression = 'none',
  transactionalId,
  lingerMs,
  config,
}) {
  const args = ['produce', '--bootstrap-servers', bootstrapServers, '--topic', topic];
  args.push('--compression', compression);
  if (transactionalId !== undefined) args.push('--transactional-id', transactionalId);
  if (lingerMs !== undefined) args.push('--linger-ms', String(lingerMs));
  args.push(...configArgs(config));
  const input = records
    .map((r) =>
      JSON.stringify({
        key: b64(r.key),
        value: b64(r.value),
        partition: r.partition,
        timestamp: r.timestamp,
        headers: (r.headers ?? []).map((h) => ({ key: h.key, value: b64(h.value) })),
      }),
    )
    .join('\n');
  const out = await runPeer('Interop', { args, input, jvmArgs: QUIET });
  return out
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

/**
 * The Java consumer reads `count` records of every partition of `topic` from the beginning
 * (Interop consume; read_committed unless `isolation` says otherwise); resolves to them per
 * partition in offset order, bytes as Uint8Array.
 */
export async function javaConsume({
  bootstrapServers,
  topic,
  count,
  isolation = 'read_committed',
  timeoutMs = 60_000,
  config,
}) {
  const args = ['consume', '--bootstrap-servers', bootstrapServers, '--topic', topic];
  args.push('--count', String(count), '--isolation', isolation, '--timeout-ms', String(timeoutMs));
  args.push(...configArgs(config));
  const out = await runPeer('Interop', { args, jvmArgs: QUIET });
  return out
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const r = JSON.parse(l);
      return {
        ...r,
        key: unb64(r.key),
        value: unb64(r.value),
        headers: r.headers.map((h) => ({ key: h.key, value: unb64(h.value) })),
      };
    });
}

/**
 * Apache Avro's Java library frames `datums` (each in Avro's JSON encoding) as Confluent's
 * serializer does, after registering `schema` under `subject` (AvroRegistryCodec encode);
 * resolves to [{ id, bytes }] in input order.
 */
export async function javaAvroEncode({ registry, subject, schema, datums }) {
  const args = ['encode', '--registry', registry, '--subject', subject];
  args.push('--schema', typeof schema === 'string' ? schema : JSON.stringify(schema));
  const input = datums.map((d) => JSON.stringify(d)).join('\n');
  const out = await runPeer('AvroRegistryCodec', { args, input, jvmArgs: QUIET });
  return lines(out).map((r) => ({ id: r.id, bytes: unb64(r.bytes) }));
}

/**
 * Apache Avro's Java library reads Confluent-framed `values`: the writer schema by id from the
 * registry, resolved to `readerSchema` when given (AvroRegistryCodec decode); resolves to
 * [{ id, value }] in input order.
 */
export async function javaAvroDecode({ registry, values, readerSchema }) {
  const args = ['decode', '--registry', registry];
  if (readerSchema !== undefined)
    args.push(
      '--reader-schema',
      typeof readerSchema === 'string' ? readerSchema : JSON.stringify(readerSchema),
    );
  const input = values.map((v) => b64(v)).join('\n');
  const out = await runPeer('AvroRegistryCodec', { args, input, jvmArgs: QUIET });
  return lines(out);
}

function lines(out) {
  return out
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}
