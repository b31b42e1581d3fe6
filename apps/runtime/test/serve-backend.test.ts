// `serve --backend` / `--bootstrap-servers`: what the runtime is started on, refused with one
// clear line before anything opens.
import { describe, expect, it } from 'vitest';
import { backendChoice } from '../src/cli/serve.js';

describe('serve --backend', () => {
  it('is the embedded log by default and Kafka with bootstrap servers', () => {
    expect(backendChoice({ backend: 'embedded' })).toEqual({ kind: 'embedded' });
    expect(
      backendChoice({ backend: 'kafka', bootstrapServers: '127.0.0.1:9092, 10.0.0.2:9093' }),
    ).toEqual({ kind: 'kafka', bootstrapServers: ['127.0.0.1:9092', '10.0.0.2:9093'] });
  });

  it('refuses what it cannot use, saying what', () => {
    expect(() => backendChoice({ backend: 'kafka' })).toThrow(
      '--backend kafka needs --bootstrap-servers host:port[,host:port…]',
    );
    expect(() => backendChoice({ backend: 'kafka', bootstrapServers: 'localhost' })).toThrow(
      '--bootstrap-servers: expected host:port, got "localhost"',
    );
    expect(() => backendChoice({ backend: 'embedded', bootstrapServers: 'a:1' })).toThrow(
      '--bootstrap-servers needs --backend kafka',
    );
    expect(() => backendChoice({ backend: 'rocks' })).toThrow(
      '--backend: expected embedded or kafka, got "rocks"',
    );
  });
});
