// Kafka Streams' ChangedSerializer / ChangedDeserializer: how a KTable change travels through the
// repartition topic of KTable#groupBy, byte-compatible with Kafka Streams 3.5+ (KIP-904):
//   old only: {old}{0}   new only: {new}{1}   both: {u32 newLength}{new}{old}{2}
import { DeserializationError } from '../errors.js';
import type { Serde } from '../serdes/serde.js';
import { Change } from './record.js';

export function changedSerde(inner: Serde<unknown>): Serde<Change> {
  return {
    name: `changed<${inner.name}>`,
    serialize(change) {
      if (change === null || change === undefined) return null;
      const newBytes =
        change.newValue === null || change.newValue === undefined
          ? null
          : inner.serialize(change.newValue);
      const oldBytes =
        change.oldValue === null || change.oldValue === undefined
          ? null
          : inner.serialize(change.oldValue);
      if (newBytes !== null && oldBytes !== null) {
        const out = new Uint8Array(4 + newBytes.length + oldBytes.length + 1);
        new DataView(out.buffer).setUint32(0, newBytes.length, false);
        out.set(newBytes, 4);
        out.set(oldBytes, 4 + newBytes.length);
        out[out.length - 1] = 2;
        return out;
      }
      const one = newBytes ?? oldBytes;
      if (one === null) return null;
      const out = new Uint8Array(one.length + 1);
      out.set(one, 0);
      out[one.length] = newBytes !== null ? 1 : 0;
      return out;
    },
    deserialize(bytes) {
      if (bytes === null) return null;
      if (bytes.length === 0) throw new DeserializationError('changed', 'empty change record');
      const flag = bytes[bytes.length - 1];
      const body = bytes.subarray(0, bytes.length - 1);
      switch (flag) {
        case 0:
          return new Change(null, inner.deserialize(body));
        case 1:
          return new Change(inner.deserialize(body), null);
        case 2: {
          const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
          const newLength = view.getUint32(0, false);
          return new Change(
            inner.deserialize(body.subarray(4, 4 + newLength)),
            inner.deserialize(body.subarray(4 + newLength)),
          );
        }
        default:
          throw new DeserializationError('changed', `unknown change flag ${String(flag)}`);
      }
    },
  };
}
