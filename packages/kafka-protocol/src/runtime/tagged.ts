// Tagged fields (KIP-482) the schema does not know: kept from decoding as raw bytes and written
// back in tag order between the known ones, as Java's RawTaggedFieldWriter does.
import { FieldError } from './errors.js';
import type { Writer } from './writer.js';

/** A tagged field this schema version does not define: its tag and its raw value bytes. */
export interface RawTaggedField {
  tag: number;
  data: Uint8Array;
}

/**
 * Writes the raw fields from index `from` whose tag is below `nextDefinedTag` and returns the
 * index of the first one not written. The list must be sorted by tag without duplicates, and
 * must not reuse a tag the schema defines.
 */
export function writeRawTags(
  w: Writer,
  raw: readonly RawTaggedField[],
  from: number,
  nextDefinedTag: number,
  label: string,
): number {
  let i = from;
  for (; i < raw.length; i++) {
    const field = raw[i]!;
    const tag = field.tag;
    if (tag >= nextDefinedTag) {
      if (tag === nextDefinedTag) {
        throw new FieldError('invalid', label, `unknown tagged field reuses defined tag ${tag}`);
      }
      break;
    }
    if (i > 0 && tag <= raw[i - 1]!.tag) {
      throw new FieldError(
        'invalid',
        label,
        `unknown tagged fields must be sorted by tag without duplicates (tag ${tag} after ${raw[i - 1]!.tag})`,
      );
    }
    if (!Number.isInteger(tag) || tag < 0 || !(field.data instanceof Uint8Array)) {
      throw new FieldError('invalid', label, `invalid unknown tagged field (tag ${String(tag)})`);
    }
    w.uvarint(tag);
    w.uvarint(field.data.length);
    w.raw(field.data);
  }
  return i;
}
