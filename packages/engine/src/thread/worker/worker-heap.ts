// V8's memory reducer shrinks an isolate's heap once it has been quiet for about 8 s (few
// allocations, no JS calls). That is costly for a stream-thread worker: one that sat idle for 15 s
// or more (in the worker pool between apps; measured in bf799d2: `git show bf799d2`) then processed
// every later record at up to twice the CPU (850–1450 against 450–700 ns per record on the sink
// path), for as long as it lived, while its GC pauses stayed the same.
//
// The cure is a process-wide V8 flag, so a library must not set it behind its host's back: the
// host that owns the process (the runtime, the benchmarks) opts in. V8 reads the flag when it sets
// up an isolate's heap (Heap::SetUp), so calling this before the first worker spawns covers every
// worker spawned later and leaves the isolates that already run (the main thread's) as they are.
import { setFlagsFromString } from 'node:v8';

let disabled = false;

/**
 * Process-wide and idempotent: workers spawned from now on (stream threads, and any other worker
 * the process spawns) run without V8's memory reducer, as a JVM's heap is not shrunk behind a Kafka
 * Streams app's back either. An idle worker then keeps the heap it grew (tens of MB) until it ends.
 */
export function disableWorkerMemoryReducer(): void {
  if (disabled) return;
  disabled = true;
  setFlagsFromString('--no-memory-reducer');
}

/** Whether `disableWorkerMemoryReducer()` was called in this process. */
export function workerMemoryReducerDisabled(): boolean {
  return disabled;
}
