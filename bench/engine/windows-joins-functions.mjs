// Logic for bench/engine/windows-joins.mjs, passed in-process (1 thread) and importable by worker
// threads. SimpleBenchmark's joiners build a small string from both sides; these return the left
// value (the join machinery, not the joiner, is what is measured).
export const functions = {
  joinLeft: ({ left }) => left,
  countRecords: () => {},
};

export default { functions };
