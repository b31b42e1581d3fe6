// The TypeScript (here: JavaScript) logic of the benchmark topologies. The main thread passes these
// functions in-process (num.stream.threads = 1); worker threads import this module by path
// (StreamsAppOptions.workerModule), since a closure cannot cross into a worker.
//
// SimpleBenchmark's peek only counts records (`processedRecords++`); so does this one.
let processed = 0;

export const functions = {
  countRecords: () => {
    processed++;
  },
};

export function processedRecords() {
  return processed;
}

export default { functions };
