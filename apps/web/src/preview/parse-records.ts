// The sample records typed into the preview: one record per line, `key: value` or just `value`
// (null key). Values are JSON when they parse (objects, numbers, booleans), else text, so a
// `string` serde gets text and a `json` serde gets objects. A line `@topic` sends the lines after
// it to that topic (a join's table and stream typed in one box), in the order typed.
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
  let current = topic;
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      const trimmed = line.trim();
      const switchTo = /^@([a-zA-Z0-9._-]+)$/.exec(trimmed);
      if (switchTo) {
        current = switchTo[1]!;
        return [];
      }
      const topic = current;
      const at = trimmed.startsWith('{') || trimmed.startsWith('[') ? -1 : trimmed.indexOf(': ');
      if (at < 0) return { topic, key: null, value: jsonOrText(trimmed) };
      return {
        topic,
        key: jsonOrText(trimmed.slice(0, at)),
        value: jsonOrText(trimmed.slice(at + 2)),
      };
    });
}
