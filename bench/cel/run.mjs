// Evaluations per second of the two reference expressions, through Streamwright's own
// compileExpression (input conversion, evaluation, output conversion) and, for context, through
// cel-js directly on pre-converted values.
//
//   pnpm --filter @streamwright/topology-model bench:cel     (builds, then runs this file)
//   node bench/cel/run.mjs [seconds-per-round=1] [rounds=5]   (needs a built dist/)
//
// Prints the median of the rounds. Run it on an otherwise idle machine.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const pkg = new URL('../../packages/topology-model/', import.meta.url);
const dist = new URL('dist/index.js', pkg);
if (!existsSync(fileURLToPath(dist))) {
  console.error(
    'packages/topology-model/dist is missing: run `pnpm --filter @streamwright/topology-model build` first',
  );
  process.exit(1);
}
const { compileExpression } = await import(dist.href);
const cel = await import(new URL('node_modules/@marcbachmann/cel-js/lib/index.js', pkg).href);

const seconds = Number(process.argv[2] ?? 1);
const rounds = Number(process.argv[3] ?? 5);

// Records shaped like the example topology's generator output.
const records = Array.from({ length: 1000 }, (_, i) => ({
  key: `u${i % 7}`,
  value: { user: `u${i % 7}`, amount: (i * 37) % 250, qty: i % 10, item: `i${i % 5}` },
  timestamp: 1_700_000_000_000 + i,
  headers: {},
}));

function measure(fn) {
  const rates = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    let n = 0;
    while (performance.now() - start < seconds * 1000) {
      for (let i = 0; i < records.length; i++) fn(records[i]);
      n += records.length;
    }
    rates.push(n / ((performance.now() - start) / 1000));
  }
  rates.sort((a, b) => a - b);
  return rates[Math.floor(rates.length / 2)];
}

const cases = [
  ['filter', 'value.amount > 100 && value.user != "u3"'],
  ['mapValues', '{"user": value.user, "total": value.qty * 2}'],
];

// The library alone: values already in cel-js form (ints as bigint), no conversions.
const env = new cel.Environment({ homogeneousAggregateLiterals: false }).registerVariable(
  'value',
  'dyn',
);
const converted = records.map((r) => ({
  value: { ...r.value, amount: BigInt(r.value.amount), qty: BigInt(r.value.qty) },
}));

console.log(`node ${process.version}, ${rounds} rounds × ${seconds}s, median evaluations/s`);
for (const [context, source] of cases) {
  const compiled = compileExpression(source, context);
  const streamwright = measure((rec) => compiled.evaluate(rec));
  const program = env.parse(source);
  program.check();
  let j = 0;
  const raw = measure(() => program(converted[j++ % converted.length]));
  console.log(`${context.padEnd(9)} ${source}`);
  console.log(
    `  compileExpression().evaluate: ${Math.round(streamwright).toLocaleString('en-US')}/s`,
  );
  console.log(`  cel-js alone (pre-converted): ${Math.round(raw).toLocaleString('en-US')}/s`);
}
