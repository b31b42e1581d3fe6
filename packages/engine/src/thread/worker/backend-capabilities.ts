// What a worker's BackendClient may ask of the main thread's backend beyond the basics, as the
// Backend interface declares it (optional members), never inferred from the backend's name: a
// structured-cloneable summary the worker gets at start.
import type { Backend } from '../../backend-spi.js';

export interface BackendCapabilities {
  /** Backend#encodedBatches: the worker encodes its record batches and checks its records. */
  encodedBatches: boolean;
  /** Backend#readPlans: the worker reads the partitions' segment files itself. */
  readPlans: boolean;
}

export function capabilitiesOf(backend: Backend): BackendCapabilities {
  return {
    encodedBatches: backend.encodedBatches !== undefined,
    readPlans: typeof backend.readPlans === 'function',
  };
}
