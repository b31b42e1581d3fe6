// Test-side reading of the normalised definitions, written independently of the generator:
// random messages (fast-check arbitraries derived from the schema), defaults, and the JSON form
// Kafka's JsonConverter reads and writes. Used to compare our codecs with the Java client's.
import fc from 'fast-check';
import type {
  FieldDefinition,
  FieldTypeDefinition,
  MessageDefinition,
  StructDefinition,
  VersionRange,
} from '../src/schema-types.js';

export type Value = unknown;
export type Obj = Record<string, unknown>;

export const inRange = (r: VersionRange, v: number) => v >= r.lo && v <= r.hi;

export function structOf(def: MessageDefinition, name: string): StructDefinition {
  if (name === def.root.name) return def.root;
  const s = def.structs[name];
  if (!s) throw new Error(`${def.name}: no struct ${name}`);
  return s;
}

const ZERO_UUID = 'AAAAAAAAAAAAAAAAAAAAAA';
const isStringDefaultNull = (f: FieldDefinition) =>
  f.defaultText === 'null' || (f.type.kind === 'primitive' && f.type.name === 'records');

/** Java's default of a field (FieldSpec.fieldDefault), as our decoded form holds it. */
export function defaultOf(def: MessageDefinition, f: FieldDefinition): Value {
  if (isStringDefaultNull(f)) return null;
  const t = f.type;
  if (t.kind === 'array') return [];
  if (t.kind === 'struct') return defaultStruct(def, structOf(def, t.name));
  const d = f.defaultText;
  switch (t.name) {
    case 'bool':
      return d.toLowerCase() === 'true';
    case 'int64':
      return d === '' ? 0n : BigInt(d);
    case 'float64':
      return d === '' ? 0 : Number(d);
    case 'string':
      return d;
    case 'uuid':
      return d === '' ? ZERO_UUID : d;
    case 'bytes':
      return Buffer.alloc(0);
    default:
      return d === '' ? 0 : d.startsWith('0x') ? parseInt(d.slice(2), 16) : Number(d);
  }
}

export function defaultStruct(def: MessageDefinition, s: StructDefinition): Obj {
  return Object.fromEntries(s.fields.map((f) => [f.camel, defaultOf(def, f)]));
}

const int = (min: number, max: number) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min, max }) },
    fc.constantFrom(min, max, 0, -1 >= min ? -1 : 0),
  );

function primitiveArb(name: string): fc.Arbitrary<Value> {
  switch (name) {
    case 'bool':
      return fc.boolean();
    case 'int8':
      return int(-128, 127);
    case 'int16':
      return int(-32768, 32767);
    case 'uint16':
      return int(0, 0xffff);
    case 'int32':
      return int(-2147483648, 2147483647);
    case 'uint32':
      return int(0, 0xffffffff);
    case 'int64':
      return fc.oneof(
        { weight: 3, arbitrary: fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n) },
        fc.constantFrom(-1n, 0n, 2n ** 63n - 1n, -(2n ** 63n), 9007199254740993n),
      );
    case 'float64':
      return fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Object.is(x, -0));
    case 'string':
      return fc.oneof(
        { weight: 2, arbitrary: fc.string({ maxLength: 10 }) },
        fc.string({ unit: 'binary', maxLength: 5 }),
      );
    case 'bytes':
    case 'records':
      return fc.uint8Array({ maxLength: 12 }).map((a) => Buffer.from(a));
    case 'uuid':
      return fc
        .uint8Array({ minLength: 16, maxLength: 16 })
        .map((b) => Buffer.from(b).toString('base64url'));
    default:
      throw new Error(`unknown primitive ${name}`);
  }
}

/** Random values of a struct at `version`: every field set, absent ones at their default. */
export function structArb(
  def: MessageDefinition,
  s: StructDefinition,
  version: number,
  depth = 0,
): fc.Arbitrary<Obj> {
  const parts: Record<string, fc.Arbitrary<Value>> = {};
  for (const f of s.fields) {
    if (!inRange(f.versions, version)) {
      parts[f.camel] = fc.constant(defaultOf(def, f));
      continue;
    }
    let arb = typeArb(def, f.type, version, depth);
    if (inRange(f.nullableVersions, version)) arb = fc.option(arb, { nil: null, freq: 4 });
    if (inRange(f.taggedVersions, version)) {
      // tagged fields: absent (their default, not written) or set
      arb = fc.oneof(fc.constant(defaultOf(def, f)), arb);
    }
    parts[f.camel] = arb;
  }
  return fc.record(parts);
}

function typeArb(
  def: MessageDefinition,
  t: FieldTypeDefinition,
  version: number,
  depth: number,
): fc.Arbitrary<Value> {
  if (t.kind === 'primitive') return primitiveArb(t.name);
  if (t.kind === 'struct') return structArb(def, structOf(def, t.name), version, depth + 1);
  return fc.array(typeArb(def, t.element, version, depth + 1), {
    maxLength: depth < 2 ? 3 : 1,
  });
}

/** A field's value at a version it has (for the absent-field checks). */
export function fieldValueArb(def: MessageDefinition, f: FieldDefinition, version: number) {
  return typeArb(def, f.type, version, 1);
}

// ---- The JSON form of Kafka's JsonConverter ----------------------------------------------

/** JSON text Kafka's `<Name>DataJsonConverter.read` accepts; int64s written exactly. */
export function toJavaJson(
  def: MessageDefinition,
  s: StructDefinition,
  version: number,
  value: Obj,
  extra: FieldDefinition[] = [],
): string {
  const parts: string[] = [];
  for (const f of s.fields) {
    if (!inRange(f.versions, version) && !extra.includes(f)) continue;
    parts.push(`${JSON.stringify(f.camel)}:${jsonValue(def, f.type, version, value[f.camel])}`);
  }
  return `{${parts.join(',')}}`;
}

function jsonValue(
  def: MessageDefinition,
  t: FieldTypeDefinition,
  version: number,
  v: Value,
): string {
  if (v === null) return 'null';
  if (t.kind === 'struct') return toJavaJson(def, structOf(def, t.name), version, v as Obj);
  if (t.kind === 'array') {
    return `[${(v as Value[]).map((e) => jsonValue(def, t.element, version, e)).join(',')}]`;
  }
  switch (t.name) {
    case 'int64':
      return (v as bigint).toString();
    case 'float64': {
      // Kafka's converter wants a floating-point token: 5 must be written 5.0
      const text = JSON.stringify(v);
      return /[.eE]/.test(text) ? text : `${text}.0`;
    }
    case 'bytes':
    case 'records':
      return JSON.stringify(Buffer.from(v as Uint8Array).toString('base64'));
    default:
      return JSON.stringify(v);
  }
}

/** Our decoded form from the JSON Kafka's converter writes (numbers as strings). */
export function fromJavaJson(
  def: MessageDefinition,
  s: StructDefinition,
  version: number,
  node: Obj,
  expected?: Obj,
): Obj {
  const out: Obj = {};
  for (const f of s.fields) {
    const present = inRange(f.versions, version) && node[f.camel] !== undefined;
    out[f.camel] = present
      ? fromJsonValue(def, f.type, version, node[f.camel], expected?.[f.camel])
      : defaultOf(def, f);
  }
  return out;
}

/**
 * `expected` (the value at the same place in the message we sent) stands in for record sets:
 * Kafka's JsonConverter never writes their content (an empty BinaryNode), so they are compared
 * as bytes (javaHex/reHex) only.
 */
function fromJsonValue(
  def: MessageDefinition,
  t: FieldTypeDefinition,
  version: number,
  v: Value,
  expected: Value,
): Value {
  if (v === null) return null;
  if (t.kind === 'struct') {
    return fromJavaJson(def, structOf(def, t.name), version, v as Obj, expected as Obj | undefined);
  }
  if (t.kind === 'array') {
    const ex = Array.isArray(expected) ? expected : [];
    return (v as Value[]).map((e, i) => fromJsonValue(def, t.element, version, e, ex[i]));
  }
  if (t.name === 'records') return expected instanceof Uint8Array ? expected : Buffer.alloc(0);
  switch (t.name) {
    case 'int64':
      return BigInt(v as string);
    case 'bool':
    case 'string':
    case 'uuid':
      return v;
    case 'bytes':
      return Buffer.from(v as string, 'base64');
    default:
      return Number(v as string);
  }
}

/** The definition's Java class name as CodecCheck expects it (the message name). */
export function versionsOf(def: MessageDefinition): number[] {
  const out: number[] = [];
  for (let v = def.validVersions.lo; v <= def.validVersions.hi; v++) out.push(v);
  return out;
}
