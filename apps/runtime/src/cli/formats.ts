// The names of the record formats of `produce` and `consume` (record-format.ts implements them).
// Kept apart so parsing options does not load the engine: `--help` stays quick.
export const RECORD_FORMATS = ['string', 'json', 'base64', 'long'] as const;
export type RecordFormat = (typeof RECORD_FORMATS)[number];

export function parseFormat(text: string): RecordFormat {
  if ((RECORD_FORMATS as readonly string[]).includes(text)) return text as RecordFormat;
  throw new Error(`expected one of ${RECORD_FORMATS.join(', ')}`);
}
