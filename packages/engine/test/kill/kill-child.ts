// The process the kill test SIGKILLs: a streams app on the embedded log in `<dir>/log`, state in
// `<dir>/state`. It prints STARTED once running and, when every input record is committed, writes
// the store's contents (an interactive query) to `<dir>/store.json`, closes and prints DONE.
// Usage: node --import tsx kill-child.ts <dir> <at_least_once|exactly_once_v2> [lmdb|memory]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEmbeddedBackend } from '../../src/backends/embedded/index.js';
import { createStreamsApp } from '../../src/app/streams-app.js';
import { KILL_APP_ID, killTopology } from './kill-topology.js';

const [dir, guarantee, stores] = process.argv.slice(2);
if (!dir || (guarantee !== 'at_least_once' && guarantee !== 'exactly_once_v2')) {
  process.stderr.write('usage: kill-child.ts <dir> <at_least_once|exactly_once_v2>\n');
  process.exit(64);
}

const backend = await createEmbeddedBackend({ dataDir: join(dir, 'log') });
const app = createStreamsApp({
  topology: killTopology(guarantee, stores === 'lmdb'),
  backend,
  stateDir: join(dir, 'state'),
});
await app.start();
process.stdout.write('STARTED\n');

let announcedRunning = false;
for (;;) {
  await new Promise((resolve) => setTimeout(resolve, 50));
  if (app.state() === 'ERROR' || app.state() === 'PENDING_ERROR') {
    process.stderr.write(`app failed: ${JSON.stringify(app.status().errors)}\n`);
    process.exit(2);
  }
  const words = (await backend.describeTopic('words'))!;
  const committed = await backend.committedOffsets(
    KILL_APP_ID,
    words.offsets.map((o) => ({ topic: 'words', partition: o.partition })),
  );
  const running =
    app.state() === 'RUNNING' &&
    app.status().tasks.length > 0 &&
    app.status().tasks.every((t) => t.state === 'RUNNING');
  if (running && !announcedRunning) {
    // The harness times some kills from here, so they land while records are processed.
    process.stdout.write('RUNNING\n');
    announcedRunning = true;
  }
  // Tasks RUNNING: their stores are restored, so the interactive query below sees every key.
  if (running && words.offsets.every((o) => committed.get(`words:${o.partition}`) === o.latest))
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
