// The tests' window on a broker's metadata and ACLs, through Kafka's own Admin API
// (java/BrokerAdmin.java, compiled once per broker version into target/admin-<version> against
// that version's jars, and run with them): the current leader of each partition, and ACLs to add,
// list and remove. Each call is one short JVM (1-3 s on a busy 2-core box).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const source = join(here, 'java', 'BrokerAdmin.java');

function compiled(version) {
  const lib = join(here, 'target', `lib-${version}`);
  const out = join(here, 'target', `admin-${version}`);
  const cls = join(out, 'BrokerAdmin.class');
  if (existsSync(cls) && statSync(cls).mtimeMs >= statSync(source).mtimeMs) return { lib, out };
  // flock: two test files compiling at once never interleave their class files.
  const r = spawnSync(
    'flock',
    [
      join(tmpdir(), 'streamwright-kafka-admin.lock'),
      'javac',
      '-nowarn',
      '-cp',
      `${lib}/*`,
      '-d',
      out,
      source,
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0)
    throw new Error(`compiling ${source} against ${lib} failed:\n${r.stdout}${r.stderr}`);
  return { lib, out };
}

/** Runs one BrokerAdmin command against `bootstrapServers`; resolves to its JSON answer. */
export function runAdmin(version, bootstrapServers, command, arg, clientConfig) {
  const { lib, out } = compiled(version);
  const args = ['-Xshare:auto', '-Xmx128m', '-XX:TieredStopAtLevel=1', '-cp', `${out}:${lib}/*`];
  args.push(
    '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
    '-Dlog4j2.level=WARN',
    '-Dlog4j.configuration=none',
  );
  args.push('BrokerAdmin', bootstrapServers, command, JSON.stringify(arg));
  if (clientConfig) args.push(JSON.stringify(clientConfig));
  return new Promise((resolve, reject) => {
    const child = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-8000)));
    child.once('error', reject);
    child.once('exit', (code) => {
      const json = stdout
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .pop();
      if (code === 0 && json) resolve(JSON.parse(json));
      else
        reject(
          new Error(
            `Kafka Admin ${command} ${JSON.stringify(arg)} at ${bootstrapServers} failed (exit ${code}):\n${
              stderr
                .split('\n')
                .filter((l) => /Exception|Error|Caused/.test(l))
                .slice(0, 12)
                .join('\n') || stderr
            }`,
          ),
        );
    });
  });
}

/** The admin helpers a broker or cluster handle carries (version and bootstrap bound). */
export function adminFor(version, bootstrapServers) {
  const run = (command, arg, clientConfig) =>
    runAdmin(version, bootstrapServers, command, arg, clientConfig);
  return {
    describeTopic: async (topic) => (await run('describe-topic', { topic })).partitions,
    createAcls: async (acls) => {
      await run('create-acls', { acls });
    },
    deleteAcls: async (acls) => (await run('delete-acls', { acls })).deleted,
    describeAcls: async () => (await run('describe-acls', {})).acls,
  };
}
