// Conversions at the boundary between plain JSON-friendly JavaScript and cel-js values.
//
// cel-js represents CEL `int` as bigint and `double` as number. JSON has one number type, so we
// decide per value: an integral number within ±(2^53-1) becomes a CEL int, anything else a double.
// That makes `value.qty * 2` an int when qty is 3 and lets `value.price * 1.5` work through the
// mixed int/double overloads registered in environment.ts. On the way out, CEL values become JSON
// friendly again (ints → number, maps → plain objects, timestamps → RFC 3339 strings, ...).
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { Optional, evaluate } from '@marcbachmann/cel-js';

// cel-js does not export its Type class; take the constructor from a value of that type.
const TypeValue = (evaluate('type(1)') as object).constructor;

/** Converts one JSON-ish input value into the shape cel-js evaluates. Never mutates `v`. */
export function toCel(v: unknown): unknown {
  switch (typeof v) {
    case 'number':
      return Number.isSafeInteger(v) ? celInt(v) : v;
    case 'object':
      if (v === null) return null;
      if (Array.isArray(v)) return v.map(toCel);
      if (v instanceof Uint8Array) return v;
      if (isPlainObject(v)) {
        // Spread then patch: measurably faster than building the copy key by key, and spread
        // defines "__proto__" as an own property, so a JSON key of that name stays data.
        const out: Record<string, unknown> = { ...(v as Record<string, unknown>) };
        for (const k in out) {
          const item = out[k];
          if (typeof item === 'number' || (typeof item === 'object' && item !== null))
            out[k] = toCel(item);
          // As in JSON.stringify, an undefined property is absent (so has(value.k) is false).
          else if (item === undefined) delete out[k];
        }
        return out;
      }
      if (v instanceof Map) {
        const out = new Map<unknown, unknown>();
        for (const [k, item] of v) out.set(toCel(k), toCel(item));
        return out;
      }
      return v;
    case 'undefined':
      // JSON has no undefined; JSON.stringify writes null for it in arrays and at the top level.
      return null;
    default:
      return v;
  }
}

// Allocating a bigint per number is the main cost of conversion; small ints (counts, amounts,
// flags) are by far the most common, so share those.
const SMALL_INT_MIN = -128;
const SMALL_INTS: readonly bigint[] = Array.from({ length: 1152 }, (_, i) =>
  BigInt(i + SMALL_INT_MIN),
);

function celInt(n: number): bigint {
  return SMALL_INTS[n - SMALL_INT_MIN] ?? BigInt(n);
}

/** Thrown by `fromCel` when an int does not fit a JS number; compile.ts adds the position. */
export class UnsafeIntegerError extends Error {}

/** Converts a cel-js result into plain JSON-friendly JavaScript. */
export function fromCel(v: unknown): unknown {
  switch (typeof v) {
    case 'bigint':
      return intToNumber(v);
    case 'object': {
      if (v === null) return null;
      if (Array.isArray(v)) return v.map(fromCel);
      if (v instanceof Uint8Array) return v;
      if (isPlainObject(v)) {
        const out: Record<string, unknown> = {};
        for (const k in v) {
          if (Object.prototype.hasOwnProperty.call(v, k))
            setOwn(out, k, fromCel((v as Record<string, unknown>)[k]));
        }
        return out;
      }
      if (v instanceof Map) {
        const out: Record<string, unknown> = {};
        for (const [k, item] of v) setOwn(out, mapKeyString(k), fromCel(item));
        return out;
      }
      if (v instanceof Set) return [...v].map(fromCel);
      if (v instanceof UnsignedInt) return intToNumber(v.valueOf());
      // Timestamps and durations use their protobuf JSON mapping, as CEL's own JSON conversion does.
      if (v instanceof Date) return v.toISOString();
      if (v instanceof Duration) return v.toString();
      if (v instanceof Optional) return v.hasValue() ? fromCel(v.value()) : null;
      if (v instanceof TypeValue) return (v as unknown as { name: string }).name;
      return v;
    }
    default:
      return v;
  }
}

function intToNumber(v: bigint): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) {
    throw new UnsafeIntegerError(
      `integer result ${v} does not fit a JSON number exactly (beyond ±2^53-1); ` +
        'wrap it in string(...) or double(...)',
    );
  }
  return n;
}

function mapKeyString(k: unknown): string {
  if (typeof k === 'string') return k;
  if (k instanceof UnsignedInt) return String(k.valueOf());
  return String(k);
}

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

// JSON.parse creates an own "__proto__" property; plain assignment would set the prototype instead.
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    target[key] = value;
  }
}
