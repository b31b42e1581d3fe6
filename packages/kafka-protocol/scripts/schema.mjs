// Reads Apache Kafka's message definitions (common/message/*.json from the kafka-clients jar)
// into a normalised model the code generator and the tests share. The rules mirror Kafka's own
// generator (generator/src/main/java/org/apache/kafka/message/: FieldSpec, StructSpec,
// Versions): version ranges, nullable and tagged versions, per-field flexible overrides,
// defaults, inline and common structs.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const MAX_VERSION = 32767;

/** Parses "3+", "1-4", "2", "none" into {lo, hi} (empty: hi < lo), as Kafka's Versions.parse. */
export function parseVersions(text, fallback) {
  if (text === undefined || text === null || text === '') {
    if (fallback === undefined) throw new Error('missing version range');
    return fallback;
  }
  const s = String(text).trim();
  if (s === 'none') return { lo: 0, hi: -1 };
  if (s.endsWith('+')) return { lo: Number(s.slice(0, -1)), hi: MAX_VERSION };
  const dash = s.indexOf('-');
  if (dash > 0) return { lo: Number(s.slice(0, dash)), hi: Number(s.slice(dash + 1)) };
  return { lo: Number(s), hi: Number(s) };
}

export const isEmpty = (r) => r.hi < r.lo;
export const intersect = (a, b) => ({ lo: Math.max(a.lo, b.lo), hi: Math.min(a.hi, b.hi) });
export const contains = (r, v) => v >= r.lo && v <= r.hi;
/** a minus b for ranges where the result is one range (Kafka's Versions.subtract). */
export function subtract(a, b) {
  if (isEmpty(b) || b.hi < a.lo || b.lo > a.hi) return a;
  if (b.lo <= a.lo && b.hi >= a.hi) return { lo: 0, hi: -1 };
  if (b.lo <= a.lo) return { lo: b.hi + 1, hi: a.hi };
  if (b.hi >= a.hi) return { lo: a.lo, hi: b.lo - 1 };
  throw new Error(`cannot subtract ${JSON.stringify(b)} from ${JSON.stringify(a)}`);
}

/** Strips `//` comments (outside of strings) so JSON.parse accepts Kafka's files. */
export function stripComments(text) {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else out += c;
  }
  return out;
}

export const lowerCaseFirst = (s) => s.slice(0, 1).toLowerCase() + s.slice(1);

const PRIMITIVES = new Set([
  'bool',
  'int8',
  'int16',
  'uint16',
  'int32',
  'uint32',
  'int64',
  'float64',
  'string',
  'bytes',
  'uuid',
  'records',
]);

/**
 * One message definition → { name, type, apiKey, validVersions, flexibleVersions,
 * latestVersionUnstable, root (struct), structs (Map name → struct) }.
 * A struct: { name, versions, fields }. A field: { name, camel, type (see parseType),
 * versions, nullableVersions, taggedVersions, tag, ignorable, defaultText, hasDefault,
 * flexibleVersions (override or null), zeroCopy, mapKey }.
 */
export function parseMessage(json) {
  const structs = new Map();
  const validVersions = parseVersions(json.validVersions);
  const flexibleVersions = parseVersions(json.flexibleVersions, { lo: 0, hi: -1 });
  const common = new Map((json.commonStructs ?? []).map((s) => [s.name, s]));

  const parseFields = (fields) => (fields ?? []).map(parseField);
  function parseField(f) {
    const taggedVersions = parseVersions(f.taggedVersions, { lo: 0, hi: -1 });
    const versions = parseVersions(
      f.versions,
      isEmpty(taggedVersions) ? undefined : taggedVersions,
    );
    const type = parseType(f.type);
    const structName =
      type.kind === 'struct'
        ? type.name
        : type.element?.kind === 'struct'
          ? type.element.name
          : null;
    if (structName !== null) {
      if (f.fields !== undefined) addStruct(structName, versions, f.fields);
      else if (!common.has(structName)) {
        throw new Error(`${json.name}.${f.name}: unknown struct type ${structName}`);
      } else addCommon(structName);
    }
    if (f.tag !== undefined && isEmpty(taggedVersions)) {
      throw new Error(`${json.name}.${f.name}: tag without taggedVersions`);
    }
    return {
      name: f.name,
      camel: lowerCaseFirst(f.name),
      type,
      versions,
      nullableVersions: parseVersions(f.nullableVersions, { lo: 0, hi: -1 }),
      taggedVersions,
      tag: f.tag ?? null,
      ignorable: f.ignorable === true,
      hasDefault: f.default !== undefined,
      defaultText: f.default === undefined ? '' : String(f.default),
      flexibleVersions: f.flexibleVersions ? parseVersions(f.flexibleVersions) : null,
      zeroCopy: f.zeroCopy === true,
      mapKey: f.mapKey === true,
      about: f.about ?? '',
    };
  }
  function addStruct(name, versions, fields) {
    if (structs.has(name)) throw new Error(`${json.name}: duplicate struct ${name}`);
    structs.set(name, { name, versions, fields: [] });
    structs.get(name).fields = parseFields(fields);
  }
  function addCommon(name) {
    if (structs.has(name)) return;
    const spec = common.get(name);
    structs.set(name, { name, versions: parseVersions(spec.versions), fields: [] });
    structs.get(name).fields = parseFields(spec.fields);
  }
  const root = { name: json.name, versions: validVersions, fields: [] };
  root.fields = parseFields(json.fields);
  // Common structs no field references still exist in Java; they carry no wire meaning here.
  return {
    name: json.name,
    type: json.type,
    apiKey: json.apiKey ?? null,
    validVersions,
    flexibleVersions,
    latestVersionUnstable: json.latestVersionUnstable === true,
    root,
    structs,
  };
}

/** "int32" | "[]string" | "[]Foo" | "Foo" → {kind:'primitive',name} | {kind:'array',element} | {kind:'struct',name} */
export function parseType(text) {
  if (text.startsWith('[]')) return { kind: 'array', element: parseType(text.slice(2)) };
  if (PRIMITIVES.has(text)) return { kind: 'primitive', name: text };
  if (/^[A-Z]/.test(text)) return { kind: 'struct', name: text };
  throw new Error(`unknown field type ${text}`);
}

/** Loads every *.json of a directory of Kafka message definitions, sorted by file name. */
export function loadDefinitions(dir) {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      try {
        return parseMessage(JSON.parse(stripComments(readFileSync(join(dir, file), 'utf8'))));
      } catch (e) {
        throw new Error(`${file}: ${e.message}`, { cause: e });
      }
    });
}
