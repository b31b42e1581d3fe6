// Long random differential runs against Kafka Streams 4.1 (scripts/conformance.mjs):
// `--runs N --seed S [--batch B] [--out file.json] [--focus windowed-tables]`. Cases go to the oracle JVM in batches;
// every divergence is shrunk and printed as a replayable document + input, grouped by its first
// line, and the summary (cases, both-refused, records compared, divergences) goes to stdout and
// to --out as JSON (with every divergent case's index and kind, so two builds' runs of the same
// seed can be compared case by case). `--focus windowed-tables` keeps only the drawn cases that
// have a windowed table followed by a table operation or a suppression (issue 28's class), drawing
// until `--runs` such cases are kept; case indices are then positions among the kept cases.
import { writeFileSync } from 'node:fs';
import { openOracle } from '@streamwright/ks-oracle';
import fc from 'fast-check';
import { difference, replayable, runOurs, scenarioOf, theirs } from './differential.js';
import { kindOf, shrink } from './property.js';
import {
  buildCase,
  hasWindowedTableOperation,
  rawCaseArbitrary,
  type RawCase,
} from './random-case.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? (process.argv[i + 1] as string) : fallback;
}

const runs = Number(arg('runs', '5000'));
const seed = Number(arg('seed', String(Date.now() % 2 ** 31)));
const batch = Number(arg('batch', '100'));
const out = arg('out', '');
const maxShrunk = Number(arg('max-shrunk', '10'));
const focus = arg('focus', '');
if (focus !== '' && focus !== 'windowed-tables') {
  throw new Error(`--focus: unknown focus '${focus}' (known: windowed-tables)`);
}

const oracle = openOracle();
const started = Date.now();
const raws = focus === '' ? fc.sample(rawCaseArbitrary, { seed, numRuns: runs }) : focused();
/** Draws from the seed's stream until `runs` cases of the focus are kept. */
function focused(): RawCase[] {
  const kept: RawCase[] = [];
  let drawn = 0;
  // fast-check's stream of the seed, read in growing chunks (the same seed, the same cases).
  for (let chunk = runs * 10; kept.length < runs && drawn < runs * 1000; chunk *= 2) {
    const sample = fc.sample(rawCaseArbitrary, { seed, numRuns: drawn + chunk }).slice(drawn);
    drawn += chunk;
    for (const raw of sample) {
      if (kept.length < runs && hasWindowedTableOperation(buildCase(raw).topology)) kept.push(raw);
    }
  }
  process.stderr.write(`--focus ${focus}: ${kept.length} of ${drawn} drawn cases kept\n`);
  return kept;
}
const divergentCases: { index: number; kind: string }[] = [];
let bothFailed = 0;
let records = 0;
let inputRecords = 0;
const kinds = new Map<string, number>();
const failedTogether = new Map<string, number>();
const divergences = new Map<string, { count: number; first: number; difference: string }>();

try {
  for (let from = 0; from < raws.length; from += batch) {
    const cases = raws.slice(from, from + batch).map(buildCase);
    const results = await oracle.run(cases.map((c, i) => scenarioOf(c, `case-${from + i}`)));
    cases.forEach((c, i) => {
      for (const n of c.topology.nodes) kinds.set(n.kind, (kinds.get(n.kind) ?? 0) + 1);
      inputRecords += c.inputs.length;
      const kafka = theirs(results[i]!);
      const ours = runOurs(c);
      if (kafka.error !== undefined && ours.error !== undefined) {
        bothFailed++;
        const why =
          `Kafka Streams: ${kafka.error.slice(0, 120)} | ours: ${ours.error.slice(0, 120)}`.replace(
            /[0-9]+/g,
            'N',
          );
        failedTogether.set(why, (failedTogether.get(why) ?? 0) + 1);
      }
      for (const list of Object.values(kafka.outputs ?? {})) records += list.length;
      const diff = difference(ours, kafka);
      if (diff === null) return;
      const head = kindOf(diff);
      divergentCases.push({ index: from + i, kind: head });
      const seen = divergences.get(head);
      if (seen) seen.count++;
      else divergences.set(head, { count: 1, first: from + i, difference: diff });
    });
    process.stderr.write(
      `\r${Math.min(from + batch, runs)}/${runs} cases, ${divergences.size} distinct divergences`,
    );
  }
  process.stderr.write('\n');
  const shrunk = [];
  for (const [head, d] of [...divergences].slice(0, maxShrunk)) {
    const ce = await shrink(oracle, raws[d.first]!, head);
    const c = buildCase(ce.raw);
    console.log(`\n=== ${head} (${d.count} cases; first: case ${d.first}, ${ce.shrinks} shrinks)`);
    console.log(ce.difference);
    console.log('Replay (topology + input):');
    console.log(replayable(c));
    shrunk.push({ head, count: d.count, difference: ce.difference, case: c });
  }
  const summary = {
    seed,
    runs,
    seconds: Math.round((Date.now() - started) / 1000),
    bothRefusedOrFailed: bothFailed,
    bothRefusedOrFailedWhy: Object.fromEntries([...failedTogether].sort((a, b) => b[1] - a[1])),
    inputRecords,
    outputRecordsCompared: records,
    nodeKinds: Object.fromEntries([...kinds].sort((a, b) => b[1] - a[1])),
    ...(focus === '' ? {} : { focus }),
    divergences: [...divergences].map(([head, d]) => ({ head, count: d.count })),
  };
  console.log(JSON.stringify(summary, null, 1));
  if (out !== '') {
    writeFileSync(out, JSON.stringify({ ...summary, divergentCases, shrunk }, null, 1));
  }
  process.exitCode = divergences.size > 0 ? 1 : 0;
} finally {
  await oracle.close();
}
