// The sample records typed into the preview: one record per line, `key: value` or just `value`
// (null key). Values are JSON when they parse (objects, numbers, booleans), else text, so a
// `string` serde gets text and a `json` serde gets objects.
export interface TypedRecord {
  topic: string;
  key: unknown;
  value: unknown;
}

export function jsonOrText(raw: string): unknown {
  const text = raw.trim();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Splits at the first `: ` that is outside a JSON value (a line starting with `{` has no key). */
export function parseRecordLines(text: string, topic: string): TypedRecord[] {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const trimmed = line.trim();
      const at = trimmed.startsWith('{') || trimmed.startsWith('[') ? -1 : trimmed.indexOf(': ');
      if (at < 0) return { topic, key: null, value: jsonOrText(trimmed) };
      return {
        topic,
        key: jsonOrText(trimmed.slice(0, at)),
        value: jsonOrText(trimmed.slice(at + 2)),
      };
    });
}
