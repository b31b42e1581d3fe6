// The Kafka Streams oracle: expected values for our semantics tests come from Apache Kafka
// Streams itself, run here through its TopologyTestDriver (see README.md in this folder).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const jar = join(here, 'target', 'ks-oracle-0.1.0.jar');

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

/** Builds the jar when it is missing or older than its sources. */
export function ensureOracleBuilt({ verbose = false } = {}) {
  // The jar alone is not enough: it runs on the classpath Maven copies to target/lib (a cache
  // restore or an interrupted build can leave the jar without it).
  const lib = join(here, 'target', 'lib');
  const complete = existsSync(jar) && existsSync(lib) && readdirSync(lib).length > 0;
  if (complete && statSync(jar).mtimeMs >= newestSource()) return;
  const result = spawnSync(
    'flock',
    [join('/tmp', 'streamwright-ks-oracle.lock'), 'mvn', '-B', '-q', 'package', '-DskipTests'],
    { cwd: here, stdio: verbose ? 'inherit' : 'pipe', encoding: 'utf8' },
  );
  if (result.status !== 0) {
    throw new Error(
      `building the Kafka Streams oracle failed (mvn package in ${here}):\n${result.stdout ?? ''}${result.stderr ?? ''}`,
    );
  }
}

/**
 * Runs scenarios on Kafka Streams. Each scenario: {name, topology (Streamwright JSON), inputs:
 * [{topic, key, value, timestamp}] (stream, table or global table topics), outputs: [topic],
 * stores: [store], describeOnly?}. Resolves to one result per scenario: {name, describe,
 * outputs: {topic: [{key, value, timestamp}]}, stores: {store: [[key, value]...]}} or
 * {name, error}. Types: index.d.ts.
 */
export async function runOracle(scenarios) {
  ensureOracleBuilt();
  const cp = `${jar}:${join(here, 'target', 'lib', '*')}`;
  const child = spawn(
    'java',
    ['-Xshare:auto', '-XX:TieredStopAtLevel=1', '-cp', cp, 'dev.streamwright.oracle.Oracle'],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  child.stdin.end(JSON.stringify({ scenarios }));
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`Kafka Streams oracle exited with ${code}: ${err}`);
  return JSON.parse(out).results;
}

/**
 * Starts one oracle JVM that stays up (Oracle.java's serve mode): `run(scenarios)` sends a batch
 * and resolves to its results, batches answered in order; `close()` ends the JVM. For random
 * differential testing, where thousands of small cases (and each shrink step) would otherwise
 * pay a JVM start each. Types: index.d.ts.
 */
export function openOracle() {
  ensureOracleBuilt();
  const cp = `${jar}:${join(here, 'target', 'lib', '*')}`;
  const child = spawn(
    'java',
    [
      '-Xshare:auto',
      '-XX:TieredStopAtLevel=1',
      '-cp',
      cp,
      'dev.streamwright.oracle.Oracle',
      '--serve',
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const waiting = [];
  let buffer = '';
  let err = '';
  let exited = null;
  child.stderr.on('data', (d) => {
    // Keep the tail only: print() nodes and Kafka's logs write here for as long as the JVM runs.
    err = (err + d).slice(-20000);
  });
  child.stdout.on('data', (d) => {
    buffer += d;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const next = waiting.shift();
      if (next) next.resolve(JSON.parse(line).results);
    }
  });
  child.on('close', (code) => {
    exited = code;
    for (const w of waiting.splice(0)) {
      w.reject(new Error(`Kafka Streams oracle exited with ${code}: ${err}`));
    }
  });
  return {
    run(scenarios) {
      if (exited !== null) {
        return Promise.reject(new Error(`Kafka Streams oracle exited with ${exited}: ${err}`));
      }
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        child.stdin.write(`${JSON.stringify({ scenarios })}\n`);
      });
    },
    close() {
      if (exited !== null) return Promise.resolve();
      return new Promise((resolve) => {
        child.on('close', () => resolve());
        child.stdin.end();
      });
    },
  };
}

/**
 * Runs one topology document on Kafka Streams against a real broker (BrokerRun.java): creates the
 * document's topics, produces `inputs`, runs KafkaStreams (properties from the document and
 * `config`) until every input record is processed, closes it cleanly and returns the records of
 * `topics` as base64 bytes: `{processedBeforeClose, elapsedMs, topics: {topic: [{partition, key,
 * value, timestamp}]}}` (with `countOnly`: `{topic: {count}}`). `{bootstrapServers, runs: [...]}`
 * runs several side by side in one JVM and resolves to `{results: [...]}`. Types: index.d.ts.
 */
export async function runOnBroker(request) {
  ensureOracleBuilt();
  const cp = `${jar}:${join(here, 'target', 'lib', '*')}`;
  const child = spawn('java', ['-Xshare:auto', '-cp', cp, 'dev.streamwright.oracle.BrokerRun'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  child.stdin.end(JSON.stringify(request));
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`Kafka Streams (BrokerRun) exited with ${code}: ${err}`);
  return JSON.parse(out);
}
