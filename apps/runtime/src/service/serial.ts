// Runs async operations one at a time: deploy, start, stop and shutdown all replace the one app,
// and two of them interleaving would leave a half-closed app behind.
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.tail.then(operation, operation);
    // Later operations wait for this one whatever its outcome; the caller still sees the error.
    // eslint-disable-next-line no-restricted-syntax -- the caller of run() gets the error
    this.tail = result.catch(() => undefined);
    return result;
  }
}
