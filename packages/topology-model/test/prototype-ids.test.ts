// Node ids that name Object.prototype's properties are legal ids (they match the documented
// pattern) and must be plain names everywhere: validate, plan, describe, export and import.
// Before, `constructor` and friends reached objects used as maps (`this.nodeNames[id].push is not
// a function`), and the API answered 500.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  describeTopology,
  exampleTopology,
  exportTopology,
  importTopology,
  planTopology,
  validateTopology,
} from '../src/index.js';

const PROTOTYPE_NAMES = [
  'constructor',
  '__proto__',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupSetter__',
];

type Doc = { nodes: { id: string }[]; edges: { from: string; to: string }[] };

/** The document with every node id replaced by a prototype name (edges follow). */
function renamed<T>(doc: T, offset: number): T {
  const copy = JSON.parse(JSON.stringify(doc)) as Doc;
  const names = new Map<string, string>();
  copy.nodes.forEach((n, i) => {
    const name = PROTOTYPE_NAMES[(i + offset) % PROTOTYPE_NAMES.length]!;
    names.set(n.id, names.size >= PROTOTYPE_NAMES.length ? `${name}${i}` : name);
  });
  for (const n of copy.nodes) n.id = names.get(n.id)!;
  for (const e of copy.edges) {
    e.from = names.get(e.from)!;
    e.to = names.get(e.to)!;
  }
  // Layout keys too: JSON.parse makes "__proto__" an ordinary own key, as an imported file does.
  const layout = (copy as { layout?: { nodes: Record<string, unknown> } }).layout;
  if (layout)
    layout.nodes = JSON.parse(
      `{${Object.entries(layout.nodes)
        .map(([k, v]) => `${JSON.stringify(names.get(k) ?? k)}:${JSON.stringify(v)}`)
        .join(',')}}`,
    ) as Record<string, unknown>;
  return copy as T;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const documents: [string, unknown][] = [
  ['example', exampleTopology()],
  [
    'word-count',
    JSON.parse(
      fs.readFileSync(
        path.join(here, '../../../examples/word-count/word-count.topology.json'),
        'utf8',
      ),
    ),
  ],
];

describe('node ids named like Object.prototype properties', () => {
  for (const [name, doc] of documents) {
    for (let offset = 0; offset < 3; offset++) {
      it(`${name} (rotation ${offset}) validates, plans, describes and round-trips`, () => {
        const input = renamed(doc, offset);
        const result = validateTopology(input as never);
        expect(result.ok ? [] : result.errors).toEqual([]);
        if (!result.ok) return;
        const plan = planTopology(result.topology);
        const ids = (input as Doc).nodes.map((n) => n.id);
        expect(Object.keys(plan.nodeNames).sort()).toEqual([...ids].sort());
        for (const id of ids) expect(Array.isArray(plan.nodeNames[id])).toBe(true);
        expect(describeTopology(plan)).toContain('Sub-topology: 0');
        const text = exportTopology(result.topology);
        const back = importTopology(text);
        expect(back.ok ? back.topology.nodes.map((n) => n.id) : back).toEqual(ids);
      });
    }
  }
});
