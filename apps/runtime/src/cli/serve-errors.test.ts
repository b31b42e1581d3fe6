// What `serve` says when it cannot start: a refused file is about the data dir, not the port.
import { describe, expect, it } from 'vitest';
import { tooManyOpenFiles } from '../errors.js';
import { listenError } from './serve.js';

const options = { port: 4300, host: '127.0.0.1', dataDir: '/srv/sw' };
const errno = (code: string, syscall: string, path?: string): NodeJS.ErrnoException =>
  Object.assign(new Error(`${code}: ${syscall}`), { code, syscall, ...(path ? { path } : {}) });

describe('serve start errors', () => {
  it('reports EACCES from listen as the port', () => {
    expect(listenError(errno('EACCES', 'listen'), { ...options, port: 80 })?.message).toMatch(
      /not allowed to listen on port 80 on 127\.0\.0\.1 \(ports below 1024 need privileges\)/,
    );
  });

  it('reports EACCES on a file as the data dir, naming it and the file', () => {
    const message = listenError(errno('EACCES', 'open', '/srv/sw/.lock'), options)?.message;
    expect(message).toMatch(
      /cannot use the data dir \/srv\/sw: open \/srv\/sw\/\.lock was refused \(EACCES\)/,
    );
    expect(message).not.toMatch(/port/);
    expect(listenError(errno('EROFS', 'mkdir', '/srv/sw'), options)?.message).toMatch(/--data-dir/);
  });

  it('reports EMFILE with advice', () => {
    expect(listenError(errno('EMFILE', 'open', '/srv/sw/t-3'), options)?.message).toMatch(
      /too many open files \(EMFILE\).*ulimit -n/,
    );
  });

  it('an API call failing with EMFILE anywhere in its causes is TOO_MANY_OPEN_FILES with advice', () => {
    const cause = errno('EMFILE', 'open', '/srv/sw/log/t-900/00000000000000000000.index');
    const wrapped = new Error('opening a partition failed', { cause });
    const mapped = tooManyOpenFiles(wrapped);
    expect(mapped?.code).toBe('TOO_MANY_OPEN_FILES');
    expect(mapped?.message).toMatch(/too many open files \(EMFILE\).*ulimit -n/);
    expect(tooManyOpenFiles(new Error('other'))).toBeNull();
  });
});
