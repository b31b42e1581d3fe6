// The child of checkpoint-kill.test.ts: the kill topology (count on persistent stores, the
// default) on the embedded log in `<dir>/log`, state in `<dir>/state`. Once every task is RUNNING
// it prints `RESTORED <changelog records replayed>`; then `COMMITTED <input offsets committed>`
// every 50 ms; once `<dir>/finish` exists and every input record is committed it writes the
// store's contents to `<dir>/store.json`, closes and prints DONE (until then it keeps running,
// so the parent decides when to kill it). The log admits one process, so input the parent asks
// for while the child runs comes through the child: `<dir>/more` holding `<from> <count> <keys>`.
// Usage: node --import tsx checkpoint-child.ts <dir> <at_least_once|exactly_once_v2>
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEmbeddedBackend } from '../../src/backends/embedded/index.js';
import { createStreamsApp } from '../../src/app/streams-app.js';
import { KILL_APP_ID, killTopology, produceWords } from './kill-topology.js';

const [dir, guarantee] = process.argv.slice(2);
if (!dir || (guarantee !== 'at_least_once' && guarantee !== 'exactly_once_v2')) {
  process.stderr.write('usage: checkpoint-child.ts <dir> <at_least_once|exactly_once_v2>\n');
  process.exit(64);
}

const backend = await createEmbeddedBackend({ dataDir: join(dir, 'log') });
const app = createStreamsApp({
  topology: killTopology(guarantee, true),
  backend,
  stateDir: join(dir, 'state'),
});
await app.start();
let announced = false;
for (;;) {
  await new Promise((resolve) => setTimeout(resolve, 50));
  if (app.state() === 'ERROR' || app.state() === 'PENDING_ERROR') {
    process.stderr.write(`app failed: ${JSON.stringify(app.status().errors)}\n`);
    process.exit(2);
  }
  const more = join(dir, 'more');
  if (existsSync(more)) {
    const [from, count, keys] = readFileSync(more, 'utf8').split(' ').map(Number);
    rmSync(more);
    await produceWords(backend, from!, count!, keys!);
    process.stdout.write('PRODUCED\n');
  }
  const tasks = app.status().tasks;
  const running = tasks.length > 0 && tasks.every((t) => t.state === 'RUNNING');
  if (!running) continue;
  if (!announced) {
    process.stdout.write(`RESTORED ${tasks.reduce((n, t) => n + t.restoredRecords, 0)}\n`);
    announced = true;
  }
  const words = (await backend.describeTopic('words'))!;
  const committed = await backend.committedOffsets(
    KILL_APP_ID,
    words.offsets.map((o) => ({ topic: 'words', partition: o.partition })),
  );
  let total = 0;
  for (const o of words.offsets) total += committed.get(`words:${o.partition}`) ?? 0;
  process.stdout.write(`COMMITTED ${total}\n`);
  if (
    existsSync(join(dir, 'finish')) &&
    words.offsets.every((o) => committed.get(`words:${o.partition}`) === o.latest)
  )
    break;
}
const store = app
  .store('counts-store')!
  .all()
  .map((e) => [e.key, e.value]);
await app.close();
await backend.close();
writeFileSync(join(dir, 'store.json'), JSON.stringify(store));
process.stdout.write('DONE\n');
