// A fuzz loop of mutated topology documents through the API (validate, describe, workspace.save),
// ids named like Object.prototype's properties among the mutations, and a ReDoS expression in a
// running application: no 5xx, and /healthz keeps answering at once.
import { exampleTopology } from '@streamwright/topology-model';
import { TRPCClientError } from '@trpc/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventually, useTestRuntime } from './harness.js';

const PROTOTYPE_NAMES = [
  'constructor',
  '__proto__',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** One mutation of a JSON document at a random place (by the path of `picks`). */
function mutate(doc: Json, picks: number[], kind: number, value: Json): Json {
  const copy = JSON.parse(JSON.stringify(doc)) as Json;
  let node: Json = copy;
  for (const p of picks) {
    if (Array.isArray(node) && node.length > 0) {
      const i = p % node.length;
      if (typeof node[i] === 'object' && node[i] !== null && p % 3 !== 0) node = node[i]!;
      else {
        node[i] = kind % 2 === 0 ? value : (null as Json);
        return copy;
      }
    } else if (typeof node === 'object' && node !== null && !Array.isArray(node)) {
      const keys = Object.keys(node);
      if (keys.length === 0) break;
      const k = keys[p % keys.length]!;
      const child: Json = node[k]!;
      if (typeof child === 'object' && child !== null && p % 3 !== 0) node = child;
      else {
        if (kind % 3 === 0) delete node[k];
        else node[k] = value;
        return copy;
      }
    }
  }
  return copy;
}

/** The document with node ids renamed to prototype names (edges and layout follow). */
function prototypeIds(doc: Json, offset: number): Json {
  const copy = JSON.parse(JSON.stringify(doc)) as {
    nodes: { id: string }[];
    edges: { from: string; to: string }[];
    layout?: { nodes: Record<string, Json> };
  };
  if (!Array.isArray(copy.nodes) || !Array.isArray(copy.edges)) return copy as unknown as Json;
  // A mutation may have put anything where a node or an edge was: rename only the objects.
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  const names = new Map(
    copy.nodes
      .filter(isObject)
      .map((n, i) => [n.id, PROTOTYPE_NAMES[(i + offset) % PROTOTYPE_NAMES.length]!]),
  );
  for (const n of copy.nodes) if (isObject(n)) n.id = names.get(n.id)!;
  for (const e of copy.edges) {
    if (!isObject(e)) continue;
    e.from = names.get(e.from) ?? e.from;
    e.to = names.get(e.to) ?? e.to;
  }
  if (isObject(copy.layout) && isObject(copy.layout.nodes))
    copy.layout.nodes = JSON.parse(
      `{${Object.entries(copy.layout.nodes)
        .map(([k, v]) => `${JSON.stringify(names.get(k) ?? k)}:${JSON.stringify(v)}`)
        .join(',')}}`,
    ) as Record<string, Json>;
  return copy as unknown as Json;
}

/** How many mutated documents (scripts/fault-suite.mjs runs more). */
const DOCUMENTS = Number(process.env.FAULT_FUZZ_DOCS ?? 2000);

const status = (error: unknown): number =>
  error instanceof TRPCClientError
    ? ((error.data as { httpStatus?: number } | undefined)?.httpStatus ?? 0)
    : -1;

describe('hostile documents', () => {
  const env = useTestRuntime();

  it(`${DOCUMENTS} mutated documents (prototype-named ids among them) cause no 5xx`, async () => {
    const base = exampleTopology() as unknown as Json;
    const values = fc.oneof(
      fc.constantFrom<Json>(...PROTOTYPE_NAMES, '', -1, 2 ** 60, 'x'.repeat(5000)),
      fc.jsonValue() as fc.Arbitrary<Json>,
    );
    const docs = fc.sample(
      fc.tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), fc.nat(), values, fc.nat(7)),
      { numRuns: DOCUMENTS, seed: 24 },
    );
    const failures: string[] = [];
    let stalls = 0;
    let longest = 0;
    const answers = new Map<number, number>(); // HTTP status → calls (200: accepted)
    let i = 0;
    for (const [picks, kind, value, rotate] of docs) {
      const doc =
        i % 4 === 0
          ? prototypeIds(mutate(base, picks, kind, value), rotate)
          : mutate(base, picks, kind, value);
      const call = [
        () => env.client.topology.validate.mutate({ topology: doc }),
        () => env.client.topology.describe.mutate({ topology: doc }),
        () => env.client.workspace.save.mutate({ name: `fuzz-${i % 5}`, topology: doc }),
      ][i % 3]!;
      const started = performance.now();
      let answer = 200;
      try {
        await call();
      } catch (error) {
        answer = status(error);
        if (answer >= 500 || answer <= 0)
          failures.push(`${i}: ${answer} ${(error as Error).message}`);
      }
      answers.set(answer, (answers.get(answer) ?? 0) + 1);
      const took = performance.now() - started;
      longest = Math.max(longest, took);
      if (took > 2000) stalls++;
      i++;
    }
    // The figures docs/RELIABILITY.md quotes (scripts/fault-suite.mjs runs 10,000).
    console.log(
      `hostile documents: ${DOCUMENTS} calls, answers ${JSON.stringify(Object.fromEntries([...answers].sort()))}, ` +
        `5xx ${failures.length}, longest call ${longest.toFixed(0)} ms`,
    );
    expect(failures).toEqual([]);
    expect(stalls).toBe(0);
  }, 600_000);

  it('a catastrophic regular expression in a running filter does not freeze the runtime', async () => {
    const doc = exampleTopology() as unknown as {
      nodes: { id: string; kind: string; config: Record<string, unknown> }[];
    };
    const filter = doc.nodes.find((n) => n.kind === 'filter')!;
    filter.config.expression = 'string(value.item).matches("^(a+)+$") || value.amount > 100';
    const gen = doc.nodes.find((n) => n.kind === 'generator')!;
    gen.config.value = `{"user": "u" + string(seq % 7), "amount": (seq * 37) % 250, "item": "${'a'.repeat(34)}!"}`;
    await env.client.app.deploy.mutate({ topology: doc, start: true });
    await eventually(
      async () =>
        (await env.client.app.status.query()).status?.state === 'RUNNING' ? true : undefined,
      'the app RUNNING',
      30_000,
    );
    // Records flow through the filter while /healthz answers within a second each time.
    for (let n = 0; n < 10; n++) {
      const started = performance.now();
      expect((await fetch(`${env.runtime.url}/healthz`)).status).toBe(200);
      expect(performance.now() - started).toBeLessThan(1000);
      await new Promise((r) => setTimeout(r, 200));
    }
    // And the filter let the large orders through (the regex answered, in linear time).
    await eventually(
      async () => {
        const read = await env.client.topics.read.query({
          topic: 'large-orders',
          limit: 1,
          keySerde: 'string',
          valueSerde: 'json',
        });
        return read.length > 0 ? true : undefined;
      },
      'a large order written',
      30_000,
    );
    await env.client.app.stop.mutate();
  }, 120_000);
});
