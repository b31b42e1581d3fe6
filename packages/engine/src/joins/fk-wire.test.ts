// Version 0 SubscriptionWrappers, as Kafka Streams before 3.4 writes them during a rolling upgrade
// ({1 bit hash-is-null, 7 bits version 0}{instruction}{16-byte hash}{primary key bytes}, no
// primary partition: SubscriptionWrapperSerde#serializeV0): read with a null primary partition
// (the response then goes through the default partitioner), and kept as version 0 when stored.
import { describe, expect, it } from 'vitest';
import { getSerde } from '../serdes/index.js';
import { decodeSubscription, encodeSubscription, subscriptionWrapperSerde } from './fk-wire.js';

const hash = Uint8Array.from({ length: 16 }, (_, i) => i + 1);
const pk = new TextEncoder().encode('o1');

describe('version 0 subscription wrappers', () => {
  it('reads one without a primary partition and writes it back byte for byte', () => {
    // serializeV0: version byte 0, instruction 2 (PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE).
    const v0 = Uint8Array.from([0x00, 0x02, ...hash, ...pk]);
    const decoded = decodeSubscription(v0);
    expect(decoded).toMatchObject({
      version: 0,
      instruction: 'PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE',
      primaryPartition: null,
    });
    expect([...decoded.hash!]).toEqual([...hash]);
    expect(new TextDecoder().decode(decoded.primaryKeyBytes)).toBe('o1');
    expect([...encodeSubscription(decoded, decoded.primaryKeyBytes)]).toEqual([...v0]);
  });

  it('reads a version 0 deletion without a hash (the hash-is-null bit)', () => {
    const serde = subscriptionWrapperSerde(getSerde('string'));
    const v0 = Uint8Array.from([0x80, 0x00, ...pk]);
    expect(serde.deserialize(v0)).toEqual({
      version: 0,
      instruction: 'DELETE_KEY_NO_PROPAGATE',
      hash: null,
      primaryKey: 'o1',
      primaryPartition: null,
    });
  });
});
