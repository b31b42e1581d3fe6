// The cleaner's worker thread: compaction reads and rewrites whole segments, so it runs here and
// never blocks the thread that serves producers and readers.
import { parentPort } from 'node:worker_threads';
import { cleanSegments, type CleanJob } from './clean-segments.js';

parentPort!.on('message', (msg: { id: number; job: CleanJob }) => {
  try {
    parentPort!.postMessage({ id: msg.id, result: cleanSegments(msg.job) });
  } catch (err) {
    parentPort!.postMessage({ id: msg.id, error: (err as Error).message });
  }
});
