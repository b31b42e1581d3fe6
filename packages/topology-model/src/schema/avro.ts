// Avro serdes in the document: `{"type": "avro", "schema": <Avro schema JSON>}`. The engine
// encodes with avsc; here (framework-free, also in the browser) the schema's shape is checked
// against the Avro specification so a broken schema is reported with its path at validation time
// instead of failing at deploy. Checked: primitive names, records (name, fields with name and
// type), enums (name, symbols), arrays (items), maps (values), fixed (name, size), unions (no
// directly nested unions, no duplicate unnamed members), and references to named types defined
// earlier (resolved against the enclosing namespace, as the specification says).
import { z } from 'zod';

const PRIMITIVES = new Set([
  'null',
  'boolean',
  'int',
  'long',
  'float',
  'double',
  'bytes',
  'string',
]);
/** Avro names: `[A-Za-z_][A-Za-z0-9_]*`; full names join them with dots. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const FULL_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** The schema JSON: a type name, a union (array) or a complex type (object with `type`). */
export const avroSchemaJsonSchema = z.union([
  z.string(),
  z.array(z.json()),
  z.record(z.string(), z.json()),
]);
export type AvroSchemaJson = z.infer<typeof avroSchemaJsonSchema>;

export interface AvroSchemaIssue {
  /** Below the schema, e.g. `["fields", 0, "type"]`. */
  path: (string | number)[];
  message: string;
}

/** Every shape problem of an Avro schema (empty when it is well-formed). */
export function checkAvroSchema(schema: unknown): AvroSchemaIssue[] {
  const issues: AvroSchemaIssue[] = [];
  check(schema, [], '', new Set(), issues);
  return issues;
}

const typeName = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fullName(name: string, namespace: string): string {
  return name.includes('.') || namespace === '' ? name : `${namespace}.${name}`;
}

function check(
  schema: unknown,
  path: (string | number)[],
  namespace: string,
  named: Set<string>,
  issues: AvroSchemaIssue[],
): void {
  const issue = (at: (string | number)[], message: string): void => {
    issues.push({ path: at, message });
  };
  if (typeof schema === 'string') {
    if (PRIMITIVES.has(schema)) return;
    if (!named.has(schema) && !named.has(fullName(schema, namespace)))
      issue(
        path,
        `"${schema}" is neither an Avro primitive type (${[...PRIMITIVES].join(', ')}) nor a named type defined before it`,
      );
    return;
  }
  if (Array.isArray(schema)) {
    const seen = new Set<string>();
    schema.forEach((member, i) => {
      if (Array.isArray(member)) {
        issue([...path, i], 'a union may not directly contain another union');
        return;
      }
      check(member, [...path, i], namespace, named, issues);
      const key = unionKey(member, namespace);
      if (key === null) return;
      if (seen.has(key)) issue([...path, i], `a union may hold "${key}" only once`);
      seen.add(key);
    });
    return;
  }
  if (!isObject(schema)) {
    issue(
      path,
      `an Avro schema is a type name, a union (array) or an object with "type", got ${typeName(schema)}`,
    );
    return;
  }
  const type = schema.type;
  if (type === undefined) {
    issue(path, 'an Avro schema object needs "type"');
    return;
  }
  if (typeof type !== 'string') {
    // {"type": {...}} and {"type": [...]} wrap another schema.
    check(type, [...path, 'type'], namespace, named, issues);
    return;
  }
  switch (type) {
    case 'record':
    case 'error':
    case 'enum':
    case 'fixed': {
      const ns = defineName(schema, path, namespace, named, issue);
      if (type === 'enum') checkEnum(schema, path, issue);
      else if (type === 'fixed') {
        if (typeof schema.size !== 'number' || !Number.isInteger(schema.size) || schema.size < 0)
          issue([...path, 'size'], 'a fixed type needs "size", a non-negative integer');
      } else checkFields(schema, path, ns, named, issues, issue);
      return;
    }
    case 'array':
      if (schema.items === undefined) issue([...path, 'items'], 'an array type needs "items"');
      else check(schema.items, [...path, 'items'], namespace, named, issues);
      return;
    case 'map':
      if (schema.values === undefined) issue([...path, 'values'], 'a map type needs "values"');
      else check(schema.values, [...path, 'values'], namespace, named, issues);
      return;
    default:
      // {"type": "string", "logicalType": …} and {"type": "com.acme.Order"} (a reference).
      check(type, [...path, 'type'], namespace, named, issues);
  }
}

/** Registers a record / enum / fixed name; returns the namespace its members resolve in. */
function defineName(
  schema: Record<string, unknown>,
  path: (string | number)[],
  namespace: string,
  named: Set<string>,
  issue: (at: (string | number)[], message: string) => void,
): string {
  const { name, namespace: ns } = schema;
  if (ns !== undefined && ns !== '' && (typeof ns !== 'string' || !FULL_NAME.test(ns)))
    issue([...path, 'namespace'], 'a namespace is dotted Avro names ([A-Za-z_][A-Za-z0-9_]*)');
  if (typeof name !== 'string' || !FULL_NAME.test(name)) {
    issue(
      [...path, 'name'],
      `a ${String(schema.type)} type needs "name", an Avro name ([A-Za-z_][A-Za-z0-9_]*, dotted for a full name)`,
    );
    return namespace;
  }
  const effective = name.includes('.')
    ? name.slice(0, name.lastIndexOf('.'))
    : typeof ns === 'string'
      ? ns
      : namespace;
  const full = fullName(name, effective);
  if (PRIMITIVES.has(full)) issue([...path, 'name'], `"${full}" is a primitive type name`);
  else if (named.has(full)) issue([...path, 'name'], `the type "${full}" is defined twice`);
  named.add(full);
  return effective;
}

function checkEnum(
  schema: Record<string, unknown>,
  path: (string | number)[],
  issue: (at: (string | number)[], message: string) => void,
): void {
  const symbols = schema.symbols;
  if (!Array.isArray(symbols)) {
    issue([...path, 'symbols'], 'an enum type needs "symbols", a list of names');
    return;
  }
  const seen = new Set<unknown>();
  symbols.forEach((s, i) => {
    if (typeof s !== 'string' || !NAME.test(s))
      issue([...path, 'symbols', i], 'enum symbols are Avro names ([A-Za-z_][A-Za-z0-9_]*)');
    else if (seen.has(s)) issue([...path, 'symbols', i], `the symbol "${s}" appears twice`);
    seen.add(s);
  });
}

function checkFields(
  schema: Record<string, unknown>,
  path: (string | number)[],
  namespace: string,
  named: Set<string>,
  issues: AvroSchemaIssue[],
  issue: (at: (string | number)[], message: string) => void,
): void {
  const fields = schema.fields;
  if (!Array.isArray(fields)) {
    issue([...path, 'fields'], 'a record type needs "fields", a list of {"name", "type"}');
    return;
  }
  const seen = new Set<string>();
  fields.forEach((field, i) => {
    const at = [...path, 'fields', i];
    if (!isObject(field)) {
      issue(at, `a record field is an object with "name" and "type", got ${typeName(field)}`);
      return;
    }
    if (typeof field.name !== 'string' || !NAME.test(field.name))
      issue([...at, 'name'], 'a field needs "name", an Avro name ([A-Za-z_][A-Za-z0-9_]*)');
    else if (seen.has(field.name))
      issue([...at, 'name'], `the field "${field.name}" is defined twice`);
    else seen.add(field.name);
    if (field.type === undefined) issue([...at, 'type'], 'a field needs "type"');
    else check(field.type, [...at, 'type'], namespace, named, issues);
  });
}

/** What makes a union member unique: its type, or its full name for named types. */
function unionKey(member: unknown, namespace: string): string | null {
  if (typeof member === 'string')
    return PRIMITIVES.has(member) ? member : fullName(member, namespace);
  if (!isObject(member) || typeof member.type !== 'string') return null;
  if (['record', 'error', 'enum', 'fixed'].includes(member.type))
    return typeof member.name === 'string' ? fullName(member.name, namespace) : null;
  return member.type;
}

/**
 * A schema registry to go through (Confluent's wire format: magic byte 0, the schema id, the Avro
 * body), with the settings of Confluent's Avro serdes.
 */
export const schemaRegistrySchema = z
  .object({
    url: z
      .string()
      .regex(
        /^https?:\/\/[^\s,]+(,\s*https?:\/\/[^\s,]+)*$/,
        'the registry url is an http(s) URL, or several separated by commas',
      )
      .describe("schema.registry.url: the Confluent-compatible API's base URL"),
    subjectNameStrategy: z
      .enum(['TopicNameStrategy', 'RecordNameStrategy', 'TopicRecordNameStrategy'])
      .optional()
      .describe('key.subject.name.strategy / value.subject.name.strategy (TopicNameStrategy)'),
    autoRegisterSchemas: z
      .boolean()
      .optional()
      .describe('auto.register.schemas (true): register the schema under its subject'),
    useLatestVersion: z
      .boolean()
      .optional()
      .describe("use.latest.version (false): write and read with the subject's latest schema"),
  })
  .strict()
  .meta({ id: 'schemaRegistry' });
export type SchemaRegistryConfig = z.infer<typeof schemaRegistrySchema>;

/**
 * `{"type": "avro", "schema": …}`: Avro binary encoding of one datum with this writer schema;
 * with `registry`, in Confluent's wire format through that schema registry.
 */
export const avroSerdeSchema = z
  .object({
    type: z.literal('avro'),
    schema: avroSchemaJsonSchema,
    registry: schemaRegistrySchema.optional(),
  })
  .strict()
  .superRefine((serde, ctx) => {
    for (const { path, message } of checkAvroSchema(serde.schema))
      ctx.addIssue({ code: 'custom', path: ['schema', ...path], message });
  })
  // One $defs entry in the generated JSON Schema instead of a copy per serde field.
  .meta({
    id: 'avroSerde',
    description:
      "Avro binary encoding of one datum with this schema; with `registry`, Confluent's wire format (magic byte, schema id) through a schema registry",
  });
export type AvroSerde = z.infer<typeof avroSerdeSchema>;

export function isAvroSerde(serde: unknown): serde is AvroSerde {
  return isObject(serde) && serde.type === 'avro';
}

// Avro's Parsing Canonical Form puts these first, in this order; other attributes (doc, aliases,
// default, logicalType, …) follow sorted, so equal schemas export to the same bytes.
const AVRO_KEY_ORDER = [
  'name',
  'namespace',
  'type',
  'fields',
  'symbols',
  'items',
  'values',
  'size',
];

/** The schema with object keys in a fixed order (field defaults are data and kept as given). */
export function canonicalAvroSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(canonicalAvroSchema);
  if (!isObject(schema)) return schema;
  const keys = Object.keys(schema);
  const ordered = [
    ...AVRO_KEY_ORDER.filter((k) => keys.includes(k)),
    ...keys.filter((k) => !AVRO_KEY_ORDER.includes(k)).sort(),
  ];
  const out: Record<string, unknown> = {};
  for (const key of ordered) {
    const v = schema[key];
    const canonical =
      key === 'default' || key === 'symbols'
        ? v
        : key === 'fields' && Array.isArray(v)
          ? v.map(canonicalAvroSchema)
          : canonicalAvroSchema(v);
    // defineProperty: a "__proto__" key stays data instead of setting the prototype.
    Object.defineProperty(out, key, {
      value: canonical,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
