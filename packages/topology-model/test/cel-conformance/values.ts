// Decoding of the conformance suite's protobuf-JSON values and types (cel.expr.Value,
// cel.expr.Type) into cel-js values, and a CEL-aware comparison of results.
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { Optional, evaluate } from '@marcbachmann/cel-js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };
type JsonObject = { [k: string]: JsonValue };

const TypeValue = (evaluate('type(1)') as object).constructor;

/** Thrown when a value or type uses something this runner does not model (protobuf messages...). */
export class Unsupported extends Error {}

/** A cel.expr.Value (protobuf JSON) → a cel-js runtime value. */
export function decodeValue(v: JsonObject): unknown {
  if ('nullValue' in v) return null;
  if ('boolValue' in v) return v.boolValue;
  if ('int64Value' in v) return BigInt(v.int64Value as string);
  if ('uint64Value' in v) return new UnsignedInt(BigInt(v.uint64Value as string));
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('stringValue' in v) return v.stringValue;
  if ('bytesValue' in v) return Uint8Array.from(Buffer.from(v.bytesValue as string, 'base64'));
  if ('listValue' in v)
    return (((v.listValue as JsonObject).values as JsonObject[] | undefined) ?? []).map(
      decodeValue,
    );
  if ('mapValue' in v) {
    const entries = ((v.mapValue as JsonObject).entries as JsonObject[] | undefined) ?? [];
    return new Map(
      entries.map((e) => [decodeValue(e.key as JsonObject), decodeValue(e.value as JsonObject)]),
    );
  }
  if ('typeValue' in v) return { celType: v.typeValue };
  throw new Unsupported(`value kind ${Object.keys(v).join(',')}`);
}

/** A cel.expr.Type (protobuf JSON) → the type string cel-js accepts and reports. */
export function decodeType(t: JsonObject): string {
  if ('primitive' in t) {
    const map: Record<string, string> = {
      BOOL: 'bool',
      INT64: 'int',
      UINT64: 'uint',
      DOUBLE: 'double',
      STRING: 'string',
      BYTES: 'bytes',
    };
    const name = map[t.primitive as string];
    if (name) return name;
  }
  if ('dyn' in t) return 'dyn';
  if ('null' in t) return 'null';
  if ('listType' in t)
    return `list<${decodeType(((t.listType as JsonObject).elemType as JsonObject) ?? { dyn: {} })}>`;
  if ('mapType' in t) {
    const m = t.mapType as JsonObject;
    return `map<${decodeType(m.keyType as JsonObject)}, ${decodeType(m.valueType as JsonObject)}>`;
  }
  if ('wellKnown' in t && t.wellKnown === 'TIMESTAMP') return 'google.protobuf.Timestamp';
  if ('wellKnown' in t && t.wellKnown === 'DURATION') return 'google.protobuf.Duration';
  if ('type' in t) return 'type';
  throw new Unsupported(`type ${JSON.stringify(t)}`);
}

/** cel-js's check() prints list<dyn> as "list" and map<dyn, dyn> as "map". */
export function normaliseTypeName(name: string): string {
  return name.replace(/list<dyn>/g, 'list').replace(/map<dyn, dyn>/g, 'map');
}

/** CEL equality for test expectations: numeric kinds must match, NaN equals NaN, maps unordered. */
export function celEquals(expected: unknown, actual: unknown): boolean {
  if (expected === null || typeof expected !== 'object') {
    if (typeof expected === 'number')
      return (
        typeof actual === 'number' &&
        (expected === actual || (Number.isNaN(expected) && Number.isNaN(actual)))
      );
    return expected === actual;
  }
  if (expected instanceof UnsignedInt)
    return actual instanceof UnsignedInt && actual.valueOf() === expected.valueOf();
  if (expected instanceof Uint8Array) {
    return (
      actual instanceof Uint8Array &&
      actual.length === expected.length &&
      actual.every((b, i) => b === expected[i])
    );
  }
  if ('celType' in expected) {
    return (
      actual instanceof TypeValue &&
      (actual as unknown as { name: string }).name === (expected as { celType: string }).celType
    );
  }
  if (Array.isArray(expected)) {
    const list = actual instanceof Set ? [...actual] : actual;
    return (
      Array.isArray(list) &&
      list.length === expected.length &&
      expected.every((e, i) => celEquals(e, list[i]))
    );
  }
  if (expected instanceof Map) {
    const entries = mapEntries(actual);
    if (!entries || entries.length !== expected.size) return false;
    // cel-js returns maps as plain objects, so int and bool keys come back as strings:
    // compare keys by their text (a small leniency, noted in docs/EXPRESSIONS.md).
    return [...expected].every(([k, v]) =>
      entries.some(([ak, av]) => keyText(ak) === keyText(k) && celEquals(v, av)),
    );
  }
  return false;
}

function mapEntries(v: unknown): [unknown, unknown][] | null {
  if (v instanceof Map) return [...v];
  if (
    v &&
    typeof v === 'object' &&
    !Array.isArray(v) &&
    Object.getPrototypeOf(v) === Object.prototype
  )
    return Object.entries(v);
  return null;
}

function keyText(k: unknown): string {
  return k instanceof UnsignedInt ? String(k.valueOf()) : String(k);
}

/** A compact rendering of a cel-js value for failure reports. */
export function show(v: unknown): string {
  if (typeof v === 'bigint') return `${v}`;
  if (v instanceof UnsignedInt) return `${v.valueOf()}u`;
  if (v instanceof Duration || v instanceof Date) return `${v.constructor.name}(${String(v)})`;
  if (v instanceof Optional)
    return v.hasValue() ? `optional(${show(v.value())})` : 'optional.none()';
  if (v instanceof TypeValue) return `type(${(v as unknown as { name: string }).name})`;
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${show(k)}: ${show(x)}`).join(', ')}}`;
  if (Array.isArray(v)) return `[${v.map(show).join(', ')}]`;
  if (v instanceof Uint8Array) return `b[${v.join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}: ${show(x)}`)
      .join(', ')}}`;
  return JSON.stringify(v) ?? String(v);
}
