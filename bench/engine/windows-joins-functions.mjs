// Logic for bench/engine/windows-joins.mjs, passed in-process (1 thread) and importable by worker
// threads. SimpleBenchmark's joiners build a small string from both sides; these return the left
// value (the join machinery, not the joiner, is what is measured).
export const functions = {
  joinLeft: ({ left }) => left,
  countRecords: () => {},
};

// SimpleBenchmark's streamprocesswithwindowstore processor: fetch key ± 10 over the last second,
// drain the result, then put the record's value at its timestamp.
export const processors = {
  windowStoreProcessor: () => {
    let store;
    return {
      init(ctx) {
        store = ctx.getStateStore('store');
      },
      process(record) {
        const ts = record.timestamp;
        const found = store.fetch(record.key - 10, record.key + 10, ts - 1000, ts);
        for (let i = 0; i < found.length; i++) void found[i];
        store.put(record.key, record.value, ts);
      },
    };
  },
};

export default { functions, processors };
