// V8's memory reducer shrinks an isolate's heap once it has been quiet for about 8 s (few
// allocations, no JS calls). That is costly for a stream-thread worker: one that sat idle for 15 s
// or more (in the worker pool between apps; measured in bf799d2: `git show bf799d2`)
// then processed every later record at up to twice the CPU (850–1450 against 450–700 ns per record
// on the sink path), for as long as it lived, while its GC pauses stayed the same. So stream-thread
// workers are spawned without one, as a JVM's heap is not shrunk behind a Kafka Streams app's back
// either. V8 reads the flag when it sets up an isolate's heap (Heap::SetUp), so setting it before
// the first worker spawns covers every worker spawned later and leaves the isolates that already
// run (the main thread's) as they are. The flag is process-wide from then on: other workers the
// process spawns later get no memory reducer either. STREAMWRIGHT_WORKER_MEMORY_REDUCER=on keeps
// V8's default.
import { setFlagsFromString } from 'node:v8';

const VARIABLE = 'STREAMWRIGHT_WORKER_MEMORY_REDUCER';
let settled = false;

/**
 * Called before a stream-thread worker is spawned; sets V8's `--no-memory-reducer` once per
 * process unless the environment says `on`.
 * @throws RangeError naming the variable when it is neither `on` nor `off`
 */
export function prepareWorkerHeaps(): void {
  if (settled) return;
  const setting = process.env[VARIABLE] ?? '';
  if (setting !== '' && setting !== 'on' && setting !== 'off')
    throw new RangeError(`${VARIABLE} must be 'on' or 'off', got '${setting}'`);
  settled = true;
  if (setting !== 'on') setFlagsFromString('--no-memory-reducer');
}
