// The runtime owns its process, so it turns off V8's memory reducer for the engine's stream-thread
// workers (an idle pooled worker that V8 shrank ran at up to twice the CPU afterwards; see
// @streamwright/engine's disableWorkerMemoryReducer). STREAMWRIGHT_WORKER_MEMORY_REDUCER=on keeps
// V8's default.
import { disableWorkerMemoryReducer } from '@streamwright/engine';

export const WORKER_MEMORY_REDUCER_VARIABLE = 'STREAMWRIGHT_WORKER_MEMORY_REDUCER';

/**
 * Applies the environment's choice (`off`, the default, or `on`).
 * @throws RangeError naming the variable and the value when it is neither
 */
export function applyWorkerHeapSetting(env: NodeJS.ProcessEnv = process.env): void {
  const setting = env[WORKER_MEMORY_REDUCER_VARIABLE] ?? '';
  if (setting !== '' && setting !== 'on' && setting !== 'off')
    throw new RangeError(
      `${WORKER_MEMORY_REDUCER_VARIABLE} must be 'on' or 'off', got '${setting}'`,
    );
  if (setting !== 'on') disableWorkerMemoryReducer();
}
