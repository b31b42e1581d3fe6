// Group rebalance time: members join one by one a group over a 100-partition topic (each join is
// one eager rebalance: revoke everything, assign, notify every member), then leave one by one.
//   node bench/log/rebalance.mjs [--members 20] [--partitions 100] [--runs 5]
import { arg, fmt, lib, median, percentile, report, rm, tmpDir } from './common.mjs';

const MEMBERS = arg('members', 20);
const PARTITIONS = arg('partitions', 100);
const RUNS = arg('runs', 5);

const joins = [];
const leaves = [];
for (let r = 0; r < RUNS; r++) {
  const dir = tmpDir('rebalance');
  const log = await lib.Log.open({ dataDir: dir, background: false });
  await log.createTopic('t', PARTITIONS);
  const members = [];
  for (let i = 0; i < MEMBERS; i++) {
    const t = performance.now();
    members.push(
      await log.joinGroup('g', {
        topics: ['t'],
        onRevoked: () => undefined,
        onAssigned: () => undefined,
      }),
    );
    joins.push(performance.now() - t);
  }
  const assigned = members.reduce((n, m) => n + m.assignment().length, 0);
  if (assigned !== PARTITIONS) throw new Error(`assigned ${assigned} of ${PARTITIONS}`);
  for (const m of members) {
    const t = performance.now();
    await m.leave();
    leaves.push(performance.now() - t);
  }
  await log.close();
  rm(dir);
}
report('rebalance', {
  members: MEMBERS,
  partitions: PARTITIONS,
  runs: RUNS,
  joinRebalanceMsMedian: fmt(median(joins), 2),
  joinRebalanceMsP99: fmt(percentile(joins, 99), 2),
  leaveRebalanceMsMedian: fmt(median(leaves), 2),
  note: 'each rebalance persists the group generation to __consumer_offsets with an fsync',
});
