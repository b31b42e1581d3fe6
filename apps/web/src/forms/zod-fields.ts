// Config forms are derived from each node kind's zod schema (topology-model is the single source
// of truth): one typed control per field. Only the zod shapes the schemas use are understood;
// anything else falls back to a JSON text field rather than being hidden.
import { celSchema } from '@streamwright/topology-model';
import type { z } from 'zod';

export type FieldControl =
  /**
   * A value from a fixed set of names; `shapes` are the union's object alternatives (a window's
   * kinds, an Avro serde, a CEL timestamp extractor), chosen in the same select and then edited
   * field by field.
   */
  | { type: 'select'; options: readonly string[]; shapes?: readonly ChoiceShape[] }
  | { type: 'number'; integer: boolean; min?: number; max?: number }
  | { type: 'text' }
  /** CEL source text; `functionRef` when the field may instead name a TypeScript function. */
  | { type: 'cel'; functionRef?: boolean }
  /** The name of a TypeScript function provided in-process: `{"function": name}`. */
  | { type: 'function' }
  | { type: 'boolean' }
  /**
   * A list edited row by row: `fields` for lists of objects (split branches, cogroup inputs),
   * `item` for lists of scalars (a processor's store names).
   */
  | { type: 'list'; fields?: readonly FieldSpec[]; item?: FieldControl }
  /** An object edited field by field; optional ones (a split's default branch) get a toggle. */
  | { type: 'object'; fields: readonly FieldSpec[] }
  /** A string-keyed record of JSON values (a processor's params), edited as name / value rows. */
  | { type: 'entries' }
  | { type: 'json' };

/** One object alternative of a union field, as the select offers it. */
export interface ChoiceShape {
  /** The select's option value: the discriminator's literal, or the alternative's field keys. */
  id: string;
  label: string;
  /** `{type: 'hopping'}`: the literal that tells this alternative apart, written on choosing it. */
  discriminator?: { key: string; value: string };
  fields: readonly FieldSpec[];
}

export interface FieldSpec {
  key: string;
  label: string;
  control: FieldControl;
  /** May be left empty (the key is then omitted from the config). */
  optional: boolean;
  /** The schema's default, shown as the placeholder and written into new nodes. */
  defaultValue?: unknown;
  description?: string;
}

interface Unwrapped {
  schema: z.ZodType;
  optional: boolean;
  defaultValue?: unknown;
}

/** Peels optional / default / nullable wrappers, remembering what they said. */
function unwrap(schema: z.ZodType): Unwrapped {
  let current = schema;
  let optional = false;
  let defaultValue: unknown;
  for (;;) {
    const def = current.def as { type: string; innerType?: z.ZodType; defaultValue?: unknown };
    if ((def.type === 'optional' || def.type === 'nullable') && def.innerType) {
      optional = true;
      current = def.innerType;
    } else if ((def.type === 'default' || def.type === 'prefault') && def.innerType) {
      optional = true;
      defaultValue = def.defaultValue;
      current = def.innerType;
    } else {
      return defaultValue === undefined
        ? { schema: current, optional }
        : { schema: current, optional, defaultValue };
    }
  }
}

/** `{function: name}` references (see topology-model's functionRefSchema), recognised by shape. */
function isFunctionRefSchema(schema: z.ZodType): boolean {
  const def = schema.def as { type: string; shape?: Record<string, z.ZodType> };
  return def.type === 'object' && !!def.shape && Object.keys(def.shape).join() === 'function';
}

/** The literal of a `z.literal(...)` field, if that is what `schema` is. */
function literalOf(schema: z.ZodType | undefined): string | undefined {
  const def = schema?.def as { type: string; values?: readonly unknown[] } | undefined;
  const value = def?.type === 'literal' ? def.values?.[0] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * An object alternative of a union as a choice: its discriminating literal field (if any) is
 * left out of the fields and written when the alternative is chosen.
 */
function shapeOf(schema: z.ZodType): ChoiceShape | null {
  const def = schema.def as { type: string; shape?: Record<string, z.ZodType> };
  if (def.type !== 'object' || !def.shape) return null;
  const fields = fieldsOf(schema);
  const discriminatorKey = Object.keys(def.shape).find(
    (k) => literalOf(def.shape![k]) !== undefined,
  );
  if (discriminatorKey !== undefined) {
    const value = literalOf(def.shape[discriminatorKey])!;
    return {
      id: value,
      label: value,
      discriminator: { key: discriminatorKey, value },
      fields: fields.filter((f) => f.key !== discriminatorKey),
    };
  }
  const only = fields.length === 1 ? fields[0] : undefined;
  return {
    id: fields.map((f) => f.key).join('+'),
    label: only?.control.type === 'cel' ? 'CEL expression' : fields.map((f) => f.label).join(', '),
    fields,
  };
}

/** Which alternative of a choice a config value is: a name, a shape's id, or '' when unset. */
export function choiceOf(control: FieldControl, value: unknown): string {
  if (control.type !== 'select' || value === undefined || value === null) return '';
  if (typeof value !== 'object') return String(value);
  const record = value as Record<string, unknown>;
  const shapes = control.shapes ?? [];
  const match =
    shapes.find((s) => s.discriminator && record[s.discriminator.key] === s.discriminator.value) ??
    shapes.find((s) => !s.discriminator);
  return match?.id ?? '';
}

function controlFor(key: string, schema: z.ZodType): FieldControl {
  if (schema === celSchema) return { type: 'cel' };
  if (isFunctionRefSchema(schema)) return { type: 'function' };
  const def = schema.def as {
    type: string;
    options?: readonly z.ZodType[];
    element?: z.ZodType;
    shape?: Record<string, z.ZodType>;
  };
  switch (def.type) {
    case 'array': {
      if (!def.element) return { type: 'json' };
      const element = unwrap(def.element).schema;
      const elementDef = element.def as { type: string; shape?: Record<string, z.ZodType> };
      if (elementDef.type === 'object' && elementDef.shape && !isFunctionRefSchema(element))
        return { type: 'list', fields: fieldsOf(element) };
      const item = controlFor(key, element);
      return item.type === 'json' ? { type: 'json' } : { type: 'list', item };
    }
    case 'object':
      return def.shape ? { type: 'object', fields: fieldsOf(schema) } : { type: 'json' };
    case 'record':
      return { type: 'entries' };
    case 'union': {
      // logic fields: CEL text, or a reference to a TypeScript function
      const options = def.options ?? [];
      if (options.includes(celSchema))
        return { type: 'cel', functionRef: options.some(isFunctionRefSchema) };
      // names from a fixed set and object alternatives (serdes: a built-in serde's name or an
      // Avro serde object; windows: one object per kind): the select offers them all
      const names = options.find((o) => (o.def as { type: string }).type === 'enum');
      const others = options.filter((o) => o !== names);
      const shapes = others.map(shapeOf);
      if (shapes.some((s) => s === null)) {
        return names
          ? { type: 'select', options: (names as z.ZodEnum).options.map(String) }
          : { type: 'json' };
      }
      const choice: FieldControl = {
        type: 'select',
        options: names ? (names as z.ZodEnum).options.map(String) : [],
      };
      if (shapes.length > 0) choice.shapes = shapes as ChoiceShape[];
      return choice;
    }
    case 'enum':
      return { type: 'select', options: (schema as z.ZodEnum).options.map(String) };
    case 'number': {
      const n = schema as z.ZodNumber;
      const control: FieldControl = { type: 'number', integer: n.isInt };
      if (n.minValue !== null && Number.isFinite(n.minValue)) control.min = n.minValue;
      if (
        n.maxValue !== null &&
        Number.isFinite(n.maxValue) &&
        n.maxValue < Number.MAX_SAFE_INTEGER
      )
        control.max = n.maxValue;
      return control;
    }
    case 'string':
      // CEL fields are the shared celSchema; `expression` is kept as a fallback in case a kind
      // declares its own refinement of it.
      return key === 'expression' ? { type: 'cel' } : { type: 'text' };
    case 'boolean':
      return { type: 'boolean' };
    default:
      return { type: 'json' };
  }
}

/** "ratePerSecond" → "Rate per second", "keySerde" → "Key serde". */
export function labelFor(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const fieldCache = new WeakMap<z.ZodType, FieldSpec[]>();

/** The form fields of an object schema, in declaration order. Cached per schema. */
export function fieldsOf(schema: z.ZodType): FieldSpec[] {
  const cached = fieldCache.get(schema);
  if (cached) return cached;
  const def = schema.def as { type: string; shape?: Record<string, z.ZodType> };
  const fields: FieldSpec[] = [];
  if (def.type === 'object' && def.shape) {
    for (const [key, fieldSchema] of Object.entries(def.shape)) {
      const { schema: inner, optional, defaultValue } = unwrap(fieldSchema);
      const field: FieldSpec = {
        key,
        label: labelFor(key),
        control: controlFor(key, inner),
        optional,
      };
      if (defaultValue !== undefined) field.defaultValue = defaultValue;
      const description = fieldSchema.description ?? inner.description;
      if (description) field.description = description;
      fields.push(field);
    }
  }
  fieldCache.set(schema, fields);
  return fields;
}

/** The config a freshly dropped node starts with: every schema default, nothing invented. */
export function defaultConfig(schema: z.ZodType): Record<string, unknown> {
  return defaultConfigOf(fieldsOf(schema));
}

/** The defaults of a list of fields (a node's config, a chosen window kind). */
export function defaultConfigOf(fields: readonly FieldSpec[]): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const field of fields)
    if (field.defaultValue !== undefined) config[field.key] = field.defaultValue;
  return config;
}

/**
 * Converts what a control holds into the config value. Empty input removes the key, so the
 * schema's default applies (or validation reports the missing field); a number field holding
 * something that is not a number is kept as text so validation can say what is wrong with it.
 */
export function parseInput(field: FieldSpec, raw: string): unknown {
  if (raw.trim() === '' && field.control.type !== 'cel') return undefined;
  switch (field.control.type) {
    case 'function':
      return { function: raw.trim() };
    case 'number': {
      const n = Number(raw);
      return Number.isFinite(n) ? n : raw;
    }
    case 'boolean':
      return raw === 'true';
    case 'json':
    case 'list':
    case 'object':
    case 'entries':
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        return raw;
      }
    case 'cel':
      return raw === '' ? undefined : raw;
    default:
      return raw;
  }
}

/** The text a control shows for a config value. */
export function formatInput(field: FieldSpec, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (field.control.type === 'function' || field.control.type === 'cel') {
    // a function reference shows as its name; a CEL field holding one is shown empty (the
    // control says which function it is, and typing CEL replaces it)
    if (
      typeof value === 'object' &&
      typeof (value as { function?: unknown }).function === 'string'
    ) {
      return field.control.type === 'function' ? (value as { function: string }).function : '';
    }
  }
  if (
    field.control.type === 'json' ||
    field.control.type === 'list' ||
    field.control.type === 'object' ||
    field.control.type === 'entries'
  )
    return typeof value === 'string' ? value : JSON.stringify(value);
  return String(value);
}
