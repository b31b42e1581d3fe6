// The shape of the normalised message definitions (scripts/schema.mjs) that the generator
// writes to src/generated/schema.ts for the schema-driven tests.

/** A version range; empty when hi < lo. "3+" is {lo: 3, hi: 32767}. */
export interface VersionRange {
  lo: number;
  hi: number;
}

export type FieldTypeDefinition =
  | { kind: 'primitive'; name: string }
  | { kind: 'struct'; name: string }
  | { kind: 'array'; element: FieldTypeDefinition };

export interface FieldDefinition {
  name: string;
  camel: string;
  type: FieldTypeDefinition;
  versions: VersionRange;
  nullableVersions: VersionRange;
  taggedVersions: VersionRange;
  tag: number | null;
  ignorable: boolean;
  hasDefault: boolean;
  defaultText: string;
  flexibleVersions: VersionRange | null;
  zeroCopy: boolean;
  mapKey: boolean;
  about: string;
}

export interface StructDefinition {
  name: string;
  versions: VersionRange;
  fields: FieldDefinition[];
}

export interface MessageDefinition {
  name: string;
  type: 'request' | 'response' | 'header' | 'data';
  apiKey: number | null;
  validVersions: VersionRange;
  flexibleVersions: VersionRange;
  latestVersionUnstable: boolean;
  root: StructDefinition;
  structs: Record<string, StructDefinition>;
}
