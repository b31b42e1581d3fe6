// Record keys and values as the engine holds them (bigints from the long serde, bytes, windowed
// keys) turned into values JSON can carry: the API has no transformer, so what it returns must be
// plain JSON.
export function jsonSafe(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
      // Beyond 2^53 a JSON number would lose digits: the text keeps them.
      return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
        ? Number(value)
        : value.toString();
    case 'object':
      break;
    default:
      return String(value);
  }
  if (depth > 32) return '…';
  if (value instanceof Uint8Array) {
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  }
  if (Array.isArray(value)) return value.map((v) => jsonSafe(v, depth + 1));
  if (value instanceof Map) {
    return Object.fromEntries([...value].map(([k, v]) => [String(k), jsonSafe(v, depth + 1)]));
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = jsonSafe(v, depth + 1);
  return out;
}

export interface JsonRecord {
  key: unknown;
  value: unknown;
  timestamp: number;
  headers: Record<string, string>;
}

export function jsonRecord(record: {
  key: unknown;
  value: unknown;
  timestamp: number;
  headers?: Record<string, string>;
}): JsonRecord {
  return {
    key: jsonSafe(record.key),
    value: jsonSafe(record.value),
    timestamp: record.timestamp,
    headers: { ...(record.headers ?? {}) },
  };
}
