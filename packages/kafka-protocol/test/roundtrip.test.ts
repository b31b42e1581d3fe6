// Round trips and golden bytes of the APIs the Kafka client speaks first. The exhaustive
// comparison with the Java client's own bytes is java-interop.test.ts.
import { describe, expect, it } from 'vitest';
import {
  apis,
  apisByKey,
  decodeRequestFrame,
  decodeResponseFrame,
  encodeRequestFrame,
  encodeResponseFrame,
  MalformedMessageError,
  UnsupportedRequestError,
  UnsupportedVersionError,
  InvalidValueError,
} from '../src/index.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('ApiVersions', () => {
  it('encodes a v3 request as Java does (compact strings, tagged field count)', () => {
    const bytes = apis.ApiVersions.encodeRequest(
      { clientSoftwareName: 'a', clientSoftwareVersion: '1' },
      3,
    );
    expect(hex(bytes)).toBe('0261023100');
    expect(apis.ApiVersions.decodeRequest(bytes, 3)).toEqual({
      clientSoftwareName: 'a',
      clientSoftwareVersion: '1',
    });
  });

  it('answers with a v0 response header whatever the version (KIP-511)', () => {
    expect(apis.ApiVersions.responseHeaderVersion(3)).toBe(0);
    expect(apis.ApiVersions.requestHeaderVersion(3)).toBe(2);
    expect(apis.Metadata.responseHeaderVersion(12)).toBe(1);
    expect(apis.Metadata.responseHeaderVersion(8)).toBe(0);
    expect(apis.Metadata.requestHeaderVersion(8)).toBe(1);
  });

  it('round-trips a v3 response with tagged fields and keeps unknown tagged fields', () => {
    const response = {
      errorCode: 0,
      apiKeys: [{ apiKey: 0, minVersion: 3, maxVersion: 13 }],
      throttleTimeMs: 0,
      supportedFeatures: [{ name: 'metadata.version', minVersion: 1, maxVersion: 27 }],
      finalizedFeaturesEpoch: 42n,
      finalizedFeatures: [],
      zkMigrationReady: false,
      _unknownTaggedFields: [{ tag: 9, data: Buffer.from([1, 2, 3]) }],
    };
    const bytes = apis.ApiVersions.encodeResponse(response, 3);
    const decoded = apis.ApiVersions.decodeResponse(bytes, 3);
    expect(decoded).toEqual(response);
    expect(hex(apis.ApiVersions.encodeResponse(decoded, 3))).toBe(hex(bytes));
  });

  it('drops ignorable fields a version lacks', () => {
    const v0 = apis.ApiVersions.encodeResponse(
      { errorCode: 0, apiKeys: [], throttleTimeMs: 100, finalizedFeaturesEpoch: 5n },
      0,
    );
    expect(hex(v0)).toBe('0000' + '00000000');
  });
});

describe('Metadata', () => {
  const request = {
    topics: [{ topicId: 'AAAAAAAAAAAAAAAAAAAAAA', name: 'orders' }],
    allowAutoTopicCreation: false,
    includeTopicAuthorizedOperations: true,
  };
  it('round-trips requests at every version, with null topics where allowed', () => {
    for (let v = apis.Metadata.minVersion; v <= apis.Metadata.maxVersion; v++) {
      const topics = v >= 10 ? request.topics : [{ name: 'orders' }];
      const input =
        v >= 8
          ? { ...request, topics }
          : v >= 4
            ? { topics, allowAutoTopicCreation: false }
            : { topics };
      const decoded = apis.Metadata.decodeRequest(apis.Metadata.encodeRequest(input, v), v);
      expect(decoded).toMatchObject(input);
      if (v >= 1) {
        const all = apis.Metadata.decodeRequest(
          apis.Metadata.encodeRequest({ topics: null }, v),
          v,
        );
        expect(all.topics).toBeNull();
      } else {
        expect(() => apis.Metadata.encodeRequest({ topics: null }, v)).toThrow(
          /MetadataRequest v0: field MetadataRequest.topics: is null, but not nullable in version 0/,
        );
      }
    }
  });

  it('refuses a non-default field the version lacks, naming API, version and field', () => {
    expect(() =>
      apis.Metadata.encodeRequest({ topics: [], includeTopicAuthorizedOperations: true }, 11),
    ).not.toThrow();
    // ignorable: dropped
    expect(() =>
      apis.Metadata.encodeRequest(
        { topics: [{ name: 'a', topicId: 'AAAAAAAAAAAAAAAAAAAAAQ' }] },
        9,
      ),
    ).not.toThrow();
    expect(() =>
      apis.FindCoordinator.encodeRequest({ key: '', keyType: 0, coordinatorKeys: ['g'] }, 3),
    ).toThrow(/FindCoordinatorRequest v3: field FindCoordinatorRequest.coordinatorKeys/);
    expect(() =>
      apis.FindCoordinator.encodeRequest({ key: '', keyType: 0, coordinatorKeys: ['g'] }, 3),
    ).toThrow(UnsupportedVersionError);
  });

  it('round-trips a v12 response with uuids and nested arrays', () => {
    const response = {
      throttleTimeMs: 7,
      brokers: [{ nodeId: 1, host: 'localhost', port: 9092, rack: null }],
      clusterId: 'c1',
      controllerId: 1,
      topics: [
        {
          errorCode: 0,
          name: 'orders',
          topicId: 'x1Zp3sTqSMW0bYjJ8hL2pA',
          isInternal: false,
          partitions: [
            {
              errorCode: 0,
              partitionIndex: 0,
              leaderId: 1,
              leaderEpoch: 3,
              replicaNodes: [1],
              isrNodes: [1],
              offlineReplicas: [],
            },
          ],
          topicAuthorizedOperations: -2147483648,
        },
      ],
      clusterAuthorizedOperations: -2147483648,
      errorCode: 0,
    };
    const decoded = apis.Metadata.decodeResponse(apis.Metadata.encodeResponse(response, 12), 12);
    expect(decoded).toEqual(response);
  });
});

describe('Produce and Fetch', () => {
  const records = Buffer.from('00000000000000000000001c', 'hex');
  it('round-trips Produce v3 and v13 (topic names, then topic ids)', () => {
    const v3 = {
      transactionalId: null,
      acks: -1,
      timeoutMs: 30000,
      topicData: [{ name: 'orders', partitionData: [{ index: 2, records }] }],
    };
    expect(apis.Produce.decodeRequest(apis.Produce.encodeRequest(v3, 3), 3)).toEqual({
      ...v3,
      topicData: [{ ...v3.topicData[0], topicId: 'AAAAAAAAAAAAAAAAAAAAAA' }],
    });
    const v13 = {
      ...v3,
      transactionalId: 'tx',
      topicData: [
        { name: '', topicId: 'x1Zp3sTqSMW0bYjJ8hL2pA', partitionData: [{ index: 2, records }] },
      ],
    };
    expect(apis.Produce.decodeRequest(apis.Produce.encodeRequest(v13, 13), 13)).toEqual(v13);
  });

  it('decodes Fetch response records as a view of the frame (no copy)', () => {
    const body = {
      throttleTimeMs: 0,
      errorCode: 0,
      sessionId: 0,
      responses: [
        {
          topic: 'orders',
          partitions: [
            {
              partitionIndex: 0,
              errorCode: 0,
              highWatermark: 9007199254740993n,
              lastStableOffset: -1n,
              logStartOffset: 0n,
              abortedTransactions: [{ producerId: 5n, firstOffset: 1n }],
              preferredReadReplica: -1,
              records,
            },
          ],
        },
      ],
    };
    const frame = encodeResponseFrame(apis.Fetch, 11, 77, body);
    const { correlationId, body: decoded } = decodeResponseFrame(apis.Fetch, 11, frame);
    expect(correlationId).toBe(77);
    const partition = decoded.responses[0]!.partitions[0]!;
    expect(partition.highWatermark).toBe(9007199254740993n);
    expect(hex(partition.records!)).toBe(hex(records));
    expect(partition.records!.buffer).toBe(frame.buffer);
  });
});

describe('SASL, coordinator and group APIs', () => {
  it('round-trips SaslHandshake, SaslAuthenticate, FindCoordinator and JoinGroup', () => {
    expect(
      apis.SaslHandshake.decodeRequest(
        apis.SaslHandshake.encodeRequest({ mechanism: 'PLAIN' }, 1),
        1,
      ),
    ).toEqual({
      mechanism: 'PLAIN',
    });
    const auth = { authBytes: Buffer.from('\0user\0secret') };
    expect(
      apis.SaslAuthenticate.decodeRequest(apis.SaslAuthenticate.encodeRequest(auth, 2), 2),
    ).toEqual(auth);
    const authResponse = {
      errorCode: 0,
      errorMessage: null,
      authBytes: Buffer.alloc(0),
      sessionLifetimeMs: 3600000n,
    };
    expect(
      apis.SaslAuthenticate.decodeResponse(
        apis.SaslAuthenticate.encodeResponse(authResponse, 1),
        1,
      ),
    ).toEqual(authResponse);
    for (const v of [0, 3, 4, 6]) {
      const req =
        v >= 4
          ? { keyType: 0, coordinatorKeys: ['g1', 'g2'] }
          : { key: 'g1', keyType: v >= 1 ? 1 : 0 };
      const decoded = apis.FindCoordinator.decodeRequest(
        apis.FindCoordinator.encodeRequest(req, v),
        v,
      );
      expect(decoded).toMatchObject(req);
    }
    const join = {
      groupId: 'app',
      sessionTimeoutMs: 6000,
      rebalanceTimeoutMs: 300000,
      memberId: '',
      groupInstanceId: null,
      protocolType: 'consumer',
      protocols: [{ name: 'range', metadata: Buffer.from([0, 1, 0, 0]) }],
      reason: 'rebalance',
    };
    for (let v = apis.JoinGroup.minVersion; v <= apis.JoinGroup.maxVersion; v++) {
      const input = v >= 8 ? join : { ...join, reason: null, groupInstanceId: null };
      const decoded = apis.JoinGroup.decodeRequest(apis.JoinGroup.encodeRequest(input, v), v);
      expect(decoded.protocols).toEqual(join.protocols);
      expect(decoded.rebalanceTimeoutMs).toBe(v >= 1 ? 300000 : -1);
    }
  });
});

describe('frames', () => {
  it('writes the v2 request header as Java does and decodes it server side', () => {
    const frame = encodeRequestFrame(
      apis.ApiVersions,
      3,
      { correlationId: 1, clientId: 'c' },
      {
        clientSoftwareName: 'a',
        clientSoftwareVersion: '1',
      },
    );
    // size, key 18, version 3, correlation 1, client id "c" (classic string), header tags, body
    expect(hex(frame)).toBe(
      '00000011' + '0012' + '0003' + '00000001' + '000163' + '00' + '0261023100',
    );
    const decoded = decodeRequestFrame(frame);
    expect(decoded).toMatchObject({ apiKey: 18, apiVersion: 3, correlationId: 1, clientId: 'c' });
    expect(decoded.body).toEqual({ clientSoftwareName: 'a', clientSoftwareVersion: '1' });
  });

  it('reports an unknown version with the header so a server can answer it', () => {
    const frame = Buffer.from('0000000d' + '0012' + '0063' + '0000002a' + 'ffff' + '00', 'hex');
    frame.writeInt32BE(frame.length - 4, 0);
    let error: unknown;
    try {
      decodeRequestFrame(frame);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnsupportedRequestError);
    expect(error).toMatchObject({ apiKey: 18, apiVersion: 99, correlationId: 42, clientId: null });
  });

  it('looks APIs up by key', () => {
    expect(apisByKey.get(0)).toBe(apis.Produce);
    expect(apisByKey.get(18)?.name).toBe('ApiVersions');
    expect(apisByKey.size).toBe(93);
  });
});

describe('errors', () => {
  it('names API, version and field on truncated bytes', () => {
    const bytes = apis.Metadata.encodeResponse(
      { brokers: [{ nodeId: 1, host: 'h', port: 1, rack: null }], controllerId: 1, topics: [] },
      1,
    );
    for (let cut = 0; cut < bytes.length; cut++) {
      expect(() => apis.Metadata.decodeResponse(bytes.subarray(0, cut), 1)).toThrow(
        MalformedMessageError,
      );
    }
    expect(() => apis.Metadata.decodeResponse(bytes.subarray(0, 6), 1)).toThrow(
      /Cannot decode MetadataResponse v1: field MetadataResponseBroker.nodeId: truncated/,
    );
  });

  it('refuses unsupported versions and out-of-range values', () => {
    expect(() => apis.Produce.encodeRequest({ acks: 1, timeoutMs: 1, topicData: [] }, 2)).toThrow(
      UnsupportedVersionError,
    );
    expect(() =>
      apis.Produce.encodeRequest({ acks: 100000, timeoutMs: 1, topicData: [] }, 3),
    ).toThrow(/ProduceRequest v3: field ProduceRequest.acks: 100000 is not an int16/);
    expect(() =>
      apis.Produce.encodeRequest({ acks: 100000, timeoutMs: 1, topicData: [] }, 3),
    ).toThrow(InvalidValueError);
    expect(() => apis.LeaderAndIsr.encodeRequest({} as never, 0)).toThrow(UnsupportedVersionError);
  });
});
